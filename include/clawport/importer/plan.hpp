// SPDX-License-Identifier: MIT
// Planning an import (docs/cli.md, `clawport import`): verify the bundle first, then place
// every incoming entry against the target install. An entry that collides is renamed
// (`<alias>_imported`, `_imported_2`, ...: ZeroClaw's alias grammar) and every reference to
// it rewritten (the schema's reference fields); an existing entry that is identical after
// normalisation (defaults pruned, secrets ignored) is reused, and when the target's entry
// holds credentials the reuse is a capability grant (`reuses_credential`); `--map KIND.ALIAS=LOCAL`
// points references at a local entry; `--as` names the agent. The merged config is
// validated as a whole before the plan is returned, and the plan is hashed
// (`plan_integrity`) from a canonical serialisation.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/text.hpp"
#include "../core/time.hpp"
#include "../digest/sha256.hpp"
#include "../formats/json.hpp"
#include "../fs/open_path.hpp"
#include "../fs/policy.hpp"
#include "../fs/read_file.hpp"
#include "../plan/integrity.hpp"
#include "../publish/replace_file.hpp"
#include "../signing/policy.hpp"
#include "../verify/verify.hpp"
#include "../zeroclaw/alias.hpp"
#include "../zeroclaw/config_append.hpp"
#include "../zeroclaw/document.hpp"
#include "../zeroclaw/install_layout.hpp"
#include "../zeroclaw/parse.hpp"
#include "../zeroclaw/schema_v3.hpp"
#include "../zeroclaw/shape.hpp"
#include "../zeroclaw/validate.hpp"
#include "file_stream.hpp"
#include "memory_step.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

/// What to import, from where, into which install.
struct import_options {
  std::string bundle;             ///< absolute path of the bundle directory
  std::string config_path;        ///< absolute path of the target's config.toml
  std::optional<std::string> as;  ///< `--as`: the agent's alias on the target
  std::vector<std::string> maps;  ///< `--map KIND.ALIAS=LOCAL`, as typed
  std::optional<timestamp> now;   ///< provenance time; empty = the clock
  verify::limits limits;          ///< the verify bounds
  /// Cleared from the mode of every placed file, as `cp` without `-p` does
  /// (fs::copied_mode). The CLI passes the process umask, read once; not part of the plan.
  std::uint32_t umask = 022;
  /// Threads that copy and hash the bundle's trees (fs/jobs.hpp; used when the Fs policy is
  /// thread-safe): what is placed, refused and reported is that of one. Not part of the plan.
  unsigned jobs = 1;
  /// When set, the bundle must be signed and this SignatureVerifier (signing/policy.hpp)
  /// must accept its signature; otherwise it is refused (errc::not_signed,
  /// signature_invalid, signer_untrusted) before anything is written.
  signing::verify_function require_signature;
  /// `--with-memory`: a format 2 bundle's memory merges into the target's store (`memory`,
  /// the CLI's SQLite target) for the new agent; without it the memory is left out.
  bool with_memory = false;
  memory::target memory;
  /// Refuse a bundle whose bytes no digest list authenticates (`--strict`; before anything
  /// is written, as any bundle that does not verify).
  bool strict = false;
  /// A progress count (issue 44 item 1): called while the bundle is hashed (`verifying`)
  /// and while apply copies its files (`copying`), with the files done and the total (0 =
  /// not known). Not part of the plan.
  std::function<void(std::string_view phase, std::uint64_t done, std::uint64_t total)> on_progress;
};

/// One incoming entry and what the plan does with it.
struct entry_change {
  std::string kind;    ///< agent, risk_profile, model_provider, mcp_server, ...
  std::string from;    ///< its name in the bundle (`family.alias` for providers)
  std::string to;      ///< its name on the target
  std::string action;  ///< add, rename, reuse, map
  /// Why a rename: the entry or directory the name collides with and how to choose
  /// otherwise (`--map`, `--as`); empty for the other actions. Not hashed (it follows from
  /// the config and bundle the plan is hashed over).
  std::string reason;
};

/// A bundle entry the plan adds that the operator may replace with one of the target's
/// own (issue 27 item 3: a model provider): the target's entries of that kind, each a
/// `--map KIND.FROM=LOCAL` to plan again with. The mapped plan is checked as any other.
struct map_option {
  std::string kind;
  std::string from;                ///< the bundle's name
  std::vector<std::string> local;  ///< the target's entries of that kind
};

/// A tree of the bundle copied into the install.
struct placement {
  std::string kind;  ///< workspace, skill_bundle
  std::string from;  ///< bundle-relative (`workspace`, `skills/research_tools`)
  std::string to;    ///< install-relative (`agents/researcher_imported/workspace`)
};

/// One thing the target's operator does after the import (issue 27 item 1): what the
/// export told the source operator, with the paths as they will be on the target.
struct todo_item {
  /// `secret` (a credential to supply), `review` (a host-local setting that travelled and
  /// may not hold here), `memory` (after `--with-memory`: the runtime's reindex), `recreate`
  /// (configuration left behind, to set up again if wanted).
  std::string group;
  std::string kind;            ///< required_secret, secret_unlisted; a note kind; a drop reason
  std::string path;            ///< config path on the target (source path for a `recreate`)
  std::string detail;          ///< why, in the exporter's words
  text::command_line command;  ///< the command that does it, when there is one
};

/// The plan `clawport import` shows, and applies only when its integrity is given back.
struct import_plan {
  std::string bundle;
  std::string config_path;
  std::string install_root;
  std::string source_alias;  ///< the manifest's root_agent
  std::string alias;         ///< the agent as it will be installed
  std::string manifest_sha256;
  /// The principal whose signature the plan checked (import_options::require_signature);
  /// empty when none was required.
  std::string signed_by;
  std::string signature_sha256;  ///< digest of zeroclaw-agent.sha256.sig, when checked
  std::string exported_at;
  std::string producer;
  std::vector<entry_change> entries;
  std::vector<placement> placements;
  std::vector<verify::finding> risk_flags;  ///< {kind, path (renamed), detail}
  std::vector<std::string> secrets;         ///< config paths to supply, renamed
  std::vector<verify::finding> warnings;    ///< verify's warnings (an unauthenticated bundle)
  /// The target operator's to-do list, grouped secret, review, memory, recreate (not hashed into
  /// plan_integrity: it is what the manifest, whose digest is, says to do afterwards).
  std::vector<todo_item> todo;
  /// The model providers the plan adds that the target could supply instead (not hashed:
  /// they follow from the config the plan is hashed over).
  std::vector<map_option> map_options;
  /// The memory merged into the target's store (`--with-memory`, a format 2 bundle).
  std::optional<memory_merge> memory;
  bool config_exists = false;
  std::string config_before;  ///< the target config's bytes, as planned against
  zeroclaw::value additions = zeroclaw::value::make_table();  ///< the tables to append
  std::string appended;  ///< additions as TOML (after the provenance comment)
  /// The bundle's files as verified: the digest of their digest-list lines in path order
  /// (importer/file_stream.hpp), which the apply reads again and checks each copied file
  /// against; not the files themselves (kept only for a bundle whose list cannot be read
  /// again in path order).
  file_stream files;
  std::string plan_integrity;  ///< `sha256:<hex>`
  /// Planned for applying: the bytes below `workspace/` and `skills/` were not read, their
  /// digests are the digest list's, and apply checks every one as it copies it (never part
  /// of the plan's JSON or integrity: the digests are the same either way).
  bool bytes_deferred = false;
};

namespace detail {

namespace zc = clawport::zeroclaw;

/// The kinds of entry a closure carries, in the order the plan decides them (what is
/// referenced before what refers to it).
struct kind_info {
  std::string_view name;
  zc::ref_target ref;
  std::string_view section;  ///< top-level table (`providers.models` for two-tier ones)
  bool two_tier;
};

inline constexpr kind_info kinds[] = {
    {"mcp_server", zc::ref_target::mcp_server, "mcp.servers", false},
    {"tts_provider", zc::ref_target::tts_provider, "providers.tts", true},
    {"transcription_provider", zc::ref_target::transcription_provider, "providers.transcription",
     true},
    {"model_provider", zc::ref_target::model_provider, "providers.models", true},
    {"risk_profile", zc::ref_target::risk_profile, "risk_profiles", false},
    {"runtime_profile", zc::ref_target::runtime_profile, "runtime_profiles", false},
    {"knowledge_bundle", zc::ref_target::knowledge_bundle, "knowledge_bundles", false},
    {"mcp_bundle", zc::ref_target::mcp_bundle, "mcp_bundles", false},
    {"skill_bundle", zc::ref_target::skill_bundle, "skill_bundles", false},
    {"agent", zc::ref_target::agent, "agents", false},
};

inline const kind_info* kind_named(std::string_view name) {
  for (const kind_info& k : kinds)
    if (k.name == name) return &k;
  return nullptr;
}

inline const zc::value* at(const zc::value& root, std::string_view dotted) {
  const zc::value* cur = &root;
  std::size_t start = 0;
  while (cur != nullptr && start <= dotted.size()) {
    const std::size_t dot = dotted.find('.', start);
    const std::string_view key =
        dotted.substr(start, dot == std::string_view::npos ? dotted.npos : dot - start);
    if (!cur->is_table()) return nullptr;
    cur = cur->find(key);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return cur;
}

/// Every entry of kind `k` in `config`: name -> value (`family.alias` for two-tier kinds,
/// the `name` of each `[[mcp.servers]]`).
inline std::vector<std::pair<std::string, const zc::value*>> entries_of(const zc::value& config,
                                                                        const kind_info& k) {
  std::vector<std::pair<std::string, const zc::value*>> out;
  const zc::value* section = at(config, k.section);
  if (section == nullptr) return out;
  if (k.ref == zc::ref_target::mcp_server) {
    if (!section->is_array()) return out;
    for (const zc::value& s : section->items)
      if (const zc::value* n = s.is_table() ? s.find("name") : nullptr; n && n->is_string())
        out.emplace_back(n->text, &s);
    return out;
  }
  if (!section->is_table()) return out;
  for (const zc::member& m : section->members) {
    if (!k.two_tier) {
      out.emplace_back(m.key, &m.val);
      continue;
    }
    if (!m.val.is_table()) continue;
    for (const zc::member& a : m.val.members) out.emplace_back(m.key + "." + a.key, &a.val);
  }
  return out;
}

template <class Schema>
const zc::entry_schema* schema_of(const kind_info& k, std::string_view name) {
  static constexpr zc::entry_schema agent = Schema::agent();
  static constexpr zc::entry_schema risk = Schema::risk_profile();
  static constexpr zc::entry_schema runtime = Schema::runtime_profile();
  static constexpr zc::entry_schema skill = Schema::skill_bundle();
  static constexpr zc::entry_schema knowledge = Schema::knowledge_bundle();
  static constexpr zc::entry_schema mcp_bundle = Schema::mcp_bundle();
  static constexpr zc::entry_schema server = Schema::mcp_server();
  const std::string family(name.substr(0, name.find('.')));
  switch (k.ref) {
    case zc::ref_target::agent:
      return &agent;
    case zc::ref_target::risk_profile:
      return &risk;
    case zc::ref_target::runtime_profile:
      return &runtime;
    case zc::ref_target::skill_bundle:
      return &skill;
    case zc::ref_target::knowledge_bundle:
      return &knowledge;
    case zc::ref_target::mcp_bundle:
      return &mcp_bundle;
    case zc::ref_target::mcp_server:
      return &server;
    case zc::ref_target::model_provider:
      return Schema::model_provider(family);
    case zc::ref_target::tts_provider:
      return Schema::tts_provider(family);
    case zc::ref_target::transcription_provider:
      return Schema::transcription_provider(family);
    default:
      return nullptr;
  }
}

/// (target kind, bundle name) -> target name.
using rename_map = std::map<std::pair<zc::ref_target, std::string>, std::string>;

inline void rewrite_fields(zc::value& table, zc::list_view<zc::field> fields,
                           const rename_map& names) {
  if (!table.is_table()) return;
  for (zc::member& m : table.members) {
    const zc::field* f = nullptr;
    for (const zc::field& x : fields)
      if (x.key == m.key) f = &x;
    if (f == nullptr) continue;
    const auto mapped = [&](zc::value& v) {
      if (!v.is_string()) return;
      const auto it = names.find({f->ref, v.text});
      if (it != names.end()) v.text = it->second;
    };
    if (f->ref != zc::ref_target::none) {
      if (m.val.is_string()) mapped(m.val);
      if (m.val.is_array())
        for (zc::value& item : m.val.items) mapped(item);
    }
    if (f->type == zc::field_type::table) rewrite_fields(m.val, f->children, names);
    if (f->type == zc::field_type::table_array && m.val.is_array())
      for (zc::value& item : m.val.items) rewrite_fields(item, f->children, names);
  }
}

inline void rewrite_refs(zc::value& entry, const zc::entry_schema& s, const rename_map& names) {
  rewrite_fields(entry, s.fields, names);
  rewrite_fields(entry, s.extra, names);
}

/// Removes every secret field (recursively), so two entries differing only in their
/// credentials compare equal.
inline void strip_secrets(zc::value& table, zc::list_view<zc::field> fields) {
  if (!table.is_table()) return;
  for (const zc::field& f : fields) {
    if (f.secret) {
      table.erase(f.key);
      continue;
    }
    zc::value* v = table.find(f.key);
    if (v == nullptr) continue;
    if (f.type == zc::field_type::table) strip_secrets(*v, f.children);
    if (f.type == zc::field_type::table_array && v->is_array())
      for (zc::value& item : v->items) strip_secrets(item, f.children);
  }
}

/// True when `v` holds a non-empty string anywhere (a secret field that is set).
inline bool has_text(const zc::value& v) {
  if (v.is_string()) return !v.text.empty();
  for (const zc::value& item : v.items)
    if (has_text(item)) return true;
  for (const zc::member& m : v.members)
    if (has_text(m.val)) return true;
  return false;
}

/// The secret fields set in `table` (`api_key`, `headers`, `auth.token`), by schema path.
inline void set_secrets(const zc::value& table, zc::list_view<zc::field> fields,
                        std::vector<std::string>& out) {
  zc::for_each_secret_field(table, fields, "", [&](const std::string& path, const zc::value& v) {
    if (has_text(v)) out.push_back(path);
  });
}

/// The capability grant of a reuse that lends the target's credentials to the imported
/// agent (issue 22 item 9): `reuses_credential`, naming the target's entry and its secrets.
inline std::optional<verify::finding> credential_grant(const kind_info& k, const std::string& to,
                                                       const zc::value& existing,
                                                       const zc::entry_schema& s) {
  std::vector<std::string> secrets;
  set_secrets(existing, s.fields, secrets);
  set_secrets(existing, s.extra, secrets);
  if (secrets.empty()) return std::nullopt;
  std::string list;
  for (const std::string& x : secrets) list += (list.empty() ? "" : ", ") + x;
  return verify::finding{"reuses_credential", std::string(k.section) + "." + to,
                         "the bundle's " + std::string(k.name) + " `" + to +
                             "` is identical to the target's, which is reused: the imported "
                             "agent gets its credentials (" +
                             list + ")",
                         false};
}

inline zc::value normalized(const zc::value& entry, const zc::entry_schema& s) {
  zc::value v = entry;
  strip_secrets(v, s.fields);
  strip_secrets(v, s.extra);
  zc::detail::prune_table(v, s.fields, s.extra);
  return v;
}

/// The path prefix of an entry (`providers.models.anthropic.main`, `mcp.servers.github`).
inline std::string entry_path(const kind_info& k, const std::string& name) {
  return std::string(k.section) + "." + name;
}

template <class Fs>
bool occupied(Fs& fs, const typename Fs::dir& root, const std::string& relative) {
  const fs::path_result<Fs> r = fs::try_open_path(fs, root, relative);
  if (r.refusal == fs::path_refusal::missing) return false;
  return !r.ok() || !fs.is_empty(r.get(root));
}

/// Every directory the target's config assigns, created or not: each agent's workspace
/// (`[agents.A.workspace].path`, else its default) and each skill bundle's directory,
/// absolute and normalised. An import never places a tree on, in or around one.
inline std::vector<std::string> configured_dirs(const zc::value& target,
                                                const std::string& install_root) {
  std::vector<std::string> out;
  if (const zc::value* agents = at(target, "agents"); agents && agents->is_table()) {
    for (const zc::member& a : agents->members) {
      std::optional<std::string> path;
      if (const zc::value* ws = a.val.is_table() ? a.val.find("workspace") : nullptr;
          ws && ws->is_table())
        if (const zc::value* v = ws->find("path"); v && v->is_string() && !v->text.empty())
          path = v->text;
      out.push_back(paths::normalize(zc::agent_workspace_dir(install_root, a.key, path)));
    }
  }
  if (const zc::value* bundles = at(target, "skill_bundles"); bundles && bundles->is_table()) {
    for (const zc::member& b : bundles->members) {
      std::optional<std::string_view> dir;
      if (const zc::value* v = b.val.is_table() ? b.val.find("directory") : nullptr;
          v && v->is_string())
        dir = v->text;
      out.push_back(paths::normalize(zc::skill_bundle_directory(install_root, b.key, dir)));
    }
  }
  return out;
}

/// True when the absolute `dir` is, lies in or holds one of `configured`.
inline bool claimed(const std::vector<std::string>& configured, const std::string& dir) {
  const std::string d = paths::normalize(dir);
  for (const std::string& c : configured)
    if (paths::starts_with(d, c) || paths::starts_with(c, d)) return true;
  return false;
}

/// Refuses a placement root of the install (`agents`, `shared`, `shared/skills`) that is
/// a symlink or not a directory: an import never places through one, and every name
/// below it would look taken (the alias search would never end).
template <class Fs>
void check_placement_root(Fs& fs, const typename Fs::dir& root, const std::string& install_root,
                          const std::string& relative) {
  const fs::path_result<Fs> r = fs::try_open_path(fs, root, relative);
  if (r.refusal == fs::path_refusal::symlink || r.refusal == fs::path_refusal::not_directory) {
    const std::string abs = paths::join(install_root, r.at);
    throw error(
        errc::unsafe_path,
        "the target install's " + abs +
            (r.refusal == fs::path_refusal::symlink ? " is a symlink" : " is not a directory") +
            "; an import never places files through it, so nothing was planned or "
            "written: make it a plain directory",
        abs);
  }
  if (!r.ok() && r.refusal != fs::path_refusal::missing) throw fs::path_error(r, install_root);
}

/// The most candidate names an alias search tries (`_imported` .. `_imported_<n>`).
inline constexpr unsigned max_alias_candidates = 1000;

/// `in_use` that refuses (errc::limit_exceeded) once the search has tried
/// `max_alias_candidates` names: every search for a free name ends.
inline std::function<bool(const std::string&)> bounded_search(
    std::function<bool(const std::string&)> in_use, const std::string& kind,
    const std::string& name) {
  auto tried = std::make_shared<unsigned>(0);
  return [in_use = std::move(in_use), tried, kind, name](const std::string& candidate) {
    if (++*tried > max_alias_candidates)
      throw error(errc::limit_exceeded,
                  "no free name for the " + kind + " `" + name + "` after " +
                      std::to_string(max_alias_candidates) +
                      " candidates; nothing was written (name it yourself: --as or --map)",
                  name);
    return in_use(candidate);
  };
}

/// The target config's text; nullopt when absent (its directory too). Read by
/// zeroclaw::read_config_to_replace: a symlinked or hard-linked config is refused here already, the
/// rule of the write that applies the plan; a device, FIFO or oversized file refused naming it.
template <class Fs>
std::optional<std::string> read_config(Fs& fs, const std::string& root, const std::string& name) {
  std::optional<typename Fs::dir> opened;
  try {
    opened.emplace(fs.open_root(root));
  } catch (const error& e) {  // no install directory: no config, named as every command does
    if (e.code() == errc::not_found) return std::nullopt;
    throw;
  }
  auto& d = *opened;
  std::optional<fs::read_result> r =
      zeroclaw::read_config_to_replace(fs, d, name, paths::join(root, name));
  if (!r) return std::nullopt;
  return std::move(r->bytes);
}

/// The canonical serialisation hashed into plan_integrity: everything the apply step
/// does, nothing that changes between two plannings of the same inputs (no time). The
/// bundle's files are there as the digest of their stream (`files_sha256`), so the text of a
/// plan of a million files is as short as that of one.
inline std::string canonical(const import_plan& p) {
  nlohmann::json j;
  j["format"] = "clawport-import-plan-2";
  j["bundle"] = p.bundle;
  j["config_path"] = p.config_path;
  j["config_before_sha256"] = p.config_exists ? digest::sha256_hex(p.config_before) : "";
  j["manifest_sha256"] = p.manifest_sha256;
  // A checked signature binds its signer and its bytes (an unsigned plan keeps the
  // integrity it always had).
  if (!p.signed_by.empty()) {
    j["signed_by"] = p.signed_by;
    j["signature_sha256"] = p.signature_sha256;
  }
  j["alias"] = p.alias;
  j["source_alias"] = p.source_alias;
  j["appended"] = p.appended;
  j["entries"] = nlohmann::json::array();
  for (const entry_change& e : p.entries) j["entries"].push_back({e.kind, e.from, e.to, e.action});
  j["placements"] = nlohmann::json::array();
  for (const placement& pl : p.placements) j["placements"].push_back({pl.kind, pl.from, pl.to});
  j["files_sha256"] = p.files.sha256;
  j["secrets"] = p.secrets;
  // Every capability grant the operator accepts (the bundle's risk flags and the
  // credentials a reuse lends): a plan that grants something else has another integrity.
  j["risk_flags"] = nlohmann::json::array();
  for (const verify::finding& f : p.risk_flags)
    j["risk_flags"].push_back({f.code, f.path, f.detail});
  canonical_memory(p.memory, j);
  return json::dump(j, -1);
}

}  // namespace detail

/// The provenance comment written before the appended tables.
inline std::string provenance_comment(const import_plan& p, timestamp now) {
  now.nanoseconds = 0;  // a time a person reads: whole seconds, as the export's provenance
  return "Imported by clawport " + std::string(version_string) + " at " + format_rfc3339(now) +
         ": agent `" + p.alias + "` (source alias `" + p.source_alias + "`)\nfrom bundle " +
         p.bundle + ", manifest " + digest::prefixed(p.manifest_sha256) + " (exported " +
         p.exported_at + " by " + p.producer + ")";
}

namespace detail {

/// Step 2: the target install's config, read, parsed and validated on its own; sets the
/// plan's install root and the config it is planned against.
template <class Fs, class Schema>
zc::value read_target(Fs& fs, const import_options& o, import_plan& p) {
  p.install_root = zc::install_root_of(o.config_path);
  const std::string config_name = paths::file_name(o.config_path);
  const std::optional<std::string> text = read_config(fs, p.install_root, config_name);
  if (!text) throw zc::missing_config_error(o.config_path);
  p.config_exists = true;
  p.config_before = text.value_or("");
  zc::value target = zc::parse_toml(p.config_before, o.config_path);
  // An install of another schema (a newer ZeroClaw's) has rules this import does not know.
  const zc::value* version = target.find("schema_version");
  if (version != nullptr &&
      (version->type != zc::value::kind::integer || version->integer != Schema::version))
    throw error(errc::config_invalid,
                "the target config " + o.config_path + " declares schema_version " +
                    (version->type == zc::value::kind::integer ? std::to_string(version->integer)
                                                               : std::string("(not an integer)")) +
                    "; clawport imports into schema_version " + std::to_string(Schema::version) +
                    " only, so nothing is imported (migrate the install with its ZeroClaw first)",
                "schema_version");
  if (const auto problem = zc::validate_config<Schema>(target))
    throw error(
        errc::config_invalid,
        "the target config " + o.config_path +
            " does not validate on its own, so nothing is imported into it: " + problem->display(),
        problem->path);
  return target;
}

/// (kind, bundle name) of every entry `--map` points at a local one.
using mapped_set = std::set<std::pair<std::string, std::string>>;

/// One `--map KIND.ALIAS=LOCAL` as typed, split.
struct map_choice {
  std::string kind, from, to;
};

/// Splits `--map KIND.ALIAS=LOCAL` (errc::invalid_argument naming it when it is not of that
/// shape or KIND is not a kind an agent refers to): a check of the words alone, which a
/// command line may make before planning.
inline map_choice parse_map(const std::string& m) {
  const std::size_t dot = m.find('.');
  const std::size_t eq = m.find('=');
  if (dot == std::string::npos || eq == std::string::npos || eq < dot || dot == 0 ||
      eq == dot + 1 || eq + 1 == m.size())
    throw error(errc::invalid_argument,
                "--map " + m + ": expected KIND.ALIAS=LOCAL (e.g. risk_profile.default=calm)", m);
  map_choice c{m.substr(0, dot), m.substr(dot + 1, eq - dot - 1), m.substr(eq + 1)};
  const kind_info* k = kind_named(c.kind);
  if (k == nullptr || k->ref == zc::ref_target::agent)
    throw error(errc::invalid_argument,
                "--map " + m + ": unknown kind `" + c.kind +
                    "` (risk_profile, runtime_profile, skill_bundle, knowledge_bundle, "
                    "mcp_bundle, mcp_server, model_provider, tts_provider, "
                    "transcription_provider)",
                m);
  return c;
}

/// Step 3: each `--map KIND.ALIAS=LOCAL`, checked against the bundle and the target.
inline void apply_maps(const import_options& o, const verify::report& rep, const zc::value& target,
                       rename_map& names, mapped_set& mapped, import_plan& p) {
  for (const std::string& m : o.maps) {
    const map_choice c = parse_map(m);
    const std::string& kind = c.kind;
    const std::string& from = c.from;
    const std::string& to = c.to;
    const kind_info* k = kind_named(kind);
    bool incoming = false;
    for (const auto& e : entries_of(rep.closure, *k)) incoming |= e.first == from;
    if (!incoming)
      throw error(errc::invalid_argument,
                  "--map " + m + ": the bundle carries no " + kind + " `" + from + "`", m);
    bool local = false;
    for (const auto& e : entries_of(target, *k)) local |= e.first == to;
    if (!local)
      throw error(errc::not_found,
                  "--map " + m + ": the target install has no " + kind + " `" + to + "`", m);
    names[{k->ref, from}] = to;
    mapped.insert({kind, from});
    p.entries.push_back({kind, from, to, "map", ""});
  }
}

/// An incoming entry the plan adds (under its final name `to`).
struct decided {
  const kind_info* kind;
  std::string from, to;
  const zc::value* val;
};

/// Step 4: decides every incoming entry, referenced kinds first: added under its name,
/// renamed when it collides, reused when identical, or named by `--as`.
template <class Fs, class Schema>
struct entry_decider {
  Fs& fs;
  const typename Fs::dir& root;
  const import_options& o;
  const verify::report& rep;
  const zc::value& target;
  import_plan& p;
  rename_map& names;
  const mapped_set& mapped;
  std::map<std::string, std::set<std::string>> taken;  ///< kind -> names in use on the target
  std::vector<std::string> configured;                 ///< directories the target assigns
  std::vector<decided> added;
  std::vector<verify::finding> lent;  ///< reuses that lend the target's credentials

  /// Placement roots that are links or files are refused before any search (item 14), and
  /// every directory the target's config assigns counts as taken (item 11).
  void prepare() {
    for (const kind_info& k : kinds)
      for (const auto& e : entries_of(target, k)) taken[std::string(k.name)].insert(e.first);
    if (rep.has_directory("workspace"))
      check_placement_root(fs, root, p.install_root, std::string(zc::install_agents_dir));
    if (!rep.skill_bundles.empty())
      check_placement_root(fs, root, p.install_root,
                           std::string(zc::install_shared_dir) + "/skills");
    configured = configured_dirs(target, p.install_root);
  }

  static std::string placed_at(const kind_info& k, const std::string& alias) {
    if (k.ref == zc::ref_target::agent) return zc::default_workspace(alias);
    return std::string(zc::install_shared_dir) + "/skills/" + alias;
  }

  /// True when the entry `name` of kind `k` carries a tree to place.
  bool has_content(const kind_info& k, const std::string& name) const {
    return (k.ref == zc::ref_target::agent && rep.has_directory("workspace")) ||
           (k.ref == zc::ref_target::skill_bundle &&
            std::find(rep.skill_bundles.begin(), rep.skill_bundles.end(), name) !=
                rep.skill_bundles.end());
  }

  bool in_use(const kind_info& k, bool content, const std::string& candidate) {
    if (taken[std::string(k.name)].count(candidate)) return true;
    if (!content) return false;
    return claimed(configured, paths::join(p.install_root, placed_at(k, candidate))) ||
           occupied(fs, root, placed_at(k, candidate));
  }

  /// `--as` for the agent: refused when the alias, its workspace or a configured
  /// directory is taken.
  void check_as(const kind_info& k, const std::string& as, bool content) {
    if (const auto problem = zc::alias_problem(as))
      throw error(errc::invalid_argument, "--as: " + *problem, as);
    if (taken[std::string(k.name)].count(as))
      throw error(errc::destination_refused,
                  "--as " + as + ": the target install already has an agent `" + as +
                      "`; an import never overwrites an entry",
                  "agents." + as);
    if (content && occupied(fs, root, placed_at(k, as)))
      throw error(errc::destination_refused,
                  "--as " + as + ": the workspace " + placed_at(k, as) +
                      " exists and is not empty; an import never overwrites it",
                  placed_at(k, as));
    if (content && claimed(configured, paths::join(p.install_root, placed_at(k, as))))
      throw error(errc::destination_refused,
                  "--as " + as + ": the workspace " + placed_at(k, as) +
                      " is (or overlaps) a directory the target's config assigns to "
                      "another agent or skill bundle; an import never places there",
                  placed_at(k, as));
  }

  /// Why `name` cannot be used: what it collides with, and the choice the operator has
  /// (`--map` to the target's own entry, `--as` for the agent).
  std::string why_renamed(const kind_info& k, const std::string& name, bool content,
                          const zc::value* existing, bool differs) {
    const std::string kind(k.name);
    if (existing != nullptr && k.ref == zc::ref_target::agent)
      return "the target already has an agent `" + name +
             "` (to choose the name yourself: --as <alias>)";
    if (existing != nullptr)
      return "the target already has a " + kind + " `" + name + "`" +
             (differs ? " that differs from the bundle's" : "") +
             " (to use the target's instead: --map " + kind + "." + name + "=" + name + ")";
    if (taken[kind].count(name)) return "another entry of this import is named `" + name + "`";
    const std::string dir = placed_at(k, name);
    const std::string choose =
        k.ref == zc::ref_target::agent ? " (to choose the name yourself: --as <alias>)" : "";
    if (content && claimed(configured, paths::join(p.install_root, dir)))
      return dir +
             " is (or overlaps) a directory the target's config assigns to another agent "
             "or skill bundle" +
             choose;
    return dir + " exists on the target and is not empty" + choose;
  }

  /// A name in use: reused when the target's entry is identical after normalisation (and
  /// carries no tree), else renamed to the first free `_imported` alias (`why` says what it
  /// collides with). Returns the action.
  std::string collide(const kind_info& k, const std::string& name, const zc::value& val,
                      const zc::entry_schema& s, bool content, std::string& to, std::string& why) {
    const std::string kind(k.name);
    const zc::value* existing = nullptr;
    for (const auto& e : entries_of(target, k))
      if (e.first == name) existing = e.second;
    zc::value incoming = val;
    rewrite_refs(incoming, s, names);
    const bool comparable = existing != nullptr && k.ref != zc::ref_target::agent && !content;
    if (comparable && normalized(incoming, s) == normalized(*existing, s)) {
      if (auto grant = credential_grant(k, name, *existing, s)) lent.push_back(std::move(*grant));
      return "reuse";
    }
    why = why_renamed(k, name, content, existing, comparable);
    const auto used = [&](const std::string& c) { return in_use(k, content, c); };
    if (k.two_tier) {
      const std::string family = name.substr(0, name.find('.'));
      to = family + "." +
           zc::imported_alias(
               name.substr(name.find('.') + 1),
               bounded_search([&](const std::string& c) { return used(family + "." + c); }, kind,
                              name));
    } else {
      to = zc::imported_alias(name, bounded_search(used, kind, name));
    }
    return "rename";
  }

  void run() {
    prepare();
    for (const kind_info& k : kinds) {
      const std::string kind(k.name);
      for (const auto& [name, val] : entries_of(rep.closure, k)) {
        if (mapped.count({kind, name})) continue;
        const zc::entry_schema* s = schema_of<Schema>(k, name);
        if (s == nullptr) throw error(errc::config_invalid, "unknown " + kind + " " + name, name);
        std::string to = name;
        std::string action = "add";
        std::string why;
        const bool content = has_content(k, name);
        if (k.ref == zc::ref_target::agent && o.as) {
          check_as(k, *o.as, content);
          to = *o.as;
          if (to != name) action = "rename";
          if (to != name) why = "named by --as";
        } else if (in_use(k, content, name)) {
          action = collide(k, name, *val, *s, content, to, why);
        }
        names[{k.ref, name}] = to;
        p.entries.push_back({kind, name, to, action, why});
        if (action == "reuse") continue;
        taken[kind].insert(to);
        added.push_back({&k, name, to, val});
        if (k.ref == zc::ref_target::agent) p.alias = to;
      }
    }
  }
};

/// Step 5: the tables to append, every reference rewritten with the final names; each
/// skill bundle that travels uses the target's default directory for its alias.
template <class Schema>
void build_additions(const std::vector<decided>& added, const rename_map& names, import_plan& p) {
  zc::value servers = zc::value::make_array();
  for (const decided& a : added) {
    zc::value entry = *a.val;
    rewrite_refs(entry, *schema_of<Schema>(*a.kind, a.from), names);
    if (a.kind->ref == zc::ref_target::mcp_server) {
      entry.set("name", zc::value::make_string(a.to));
      servers.items.push_back(std::move(entry));
      continue;
    }
    if (a.kind->ref == zc::ref_target::skill_bundle) entry.erase("directory");
    zc::make_table_path(p.additions, a.kind->section).set(a.to, std::move(entry));
  }
  // Two-tier names were set as "family.alias" keys above; split them into tables.
  for (const kind_info& k : kinds) {
    if (!k.two_tier) continue;
    zc::value* section = const_cast<zc::value*>(at(p.additions, k.section));
    if (section == nullptr) continue;
    zc::value split = zc::value::make_table();
    for (zc::member& m : section->members) {
      const std::size_t dot = m.key.find('.');
      split.child_table(m.key.substr(0, dot)).set(m.key.substr(dot + 1), std::move(m.val));
    }
    *section = std::move(split);
  }
  if (!servers.items.empty()) p.additions.child_table("mcp").set("servers", std::move(servers));
}

/// The command that supplies the secret at `path` of the config `config`: clawport's own
/// (importer/secrets.hpp stores it as ZeroClaw does; `zeroclaw config set <path>` on the
/// target host is the alternative), with the config named so that pasting it never sets
/// the field of another install.
inline text::command_line supply_command(const std::string& path, const std::string& config) {
  return text::paste_command({"clawport", "secrets", "set", path, "--config", config});
}

/// Step 7's to-do list: the secrets to supply (listed ones, then blank ones the manifest
/// does not list), the host-local settings to review, what was left behind. A setting of
/// an entry the target's own replaces (reuse, --map) is not the operator's to redo.
template <class Renamed>
void todo_list(const verify::report& rep, const Renamed& renamed_path, import_plan& p) {
  for (const std::string& s : p.secrets)
    p.todo.push_back({"secret", "required_secret", s,
                      "scrubbed on export; the agent needs it to run",
                      supply_command(s, p.config_path)});
  for (const verify::finding& f : rep.findings) {
    if (f.code != "secret_unlisted") continue;
    if (const auto to = renamed_path(f.path))
      p.todo.push_back({"secret", f.code, *to, f.detail, supply_command(*to, p.config_path)});
  }
  for (const verify::finding& f : rep.host_local)
    if (const auto to = renamed_path(f.path))
      p.todo.push_back({"review", f.code, *to, f.detail, {}});
  for (const verify::finding& f : rep.dropped)
    p.todo.push_back({"recreate", f.code, f.path, f.detail, {}});
}

/// The memory backend the imported agent will use: its own `memory.backend`, else the
/// target's `[memory] backend` (empty: the default, sqlite).
inline std::string memory_backend_of(const verify::report& rep, const zc::value& target,
                                     const std::string& source_alias) {
  const zc::value* own = at(rep.closure, "agents." + source_alias + ".memory.backend");
  if (own != nullptr && own->is_string()) return std::string(text::trim(own->text));
  const zc::value* install = at(target, "memory.backend");
  return install != nullptr && install->is_string() ? std::string(text::trim(install->text))
                                                    : std::string();
}

/// The memory's to-do: the runtime's reindex after a merge (vectors never travel, and the
/// rows are untrusted input that will enter prompts), or that it was left out.
inline void memory_todo(const verify::report& rep, import_plan& p) {
  if (!rep.memory) return;
  const std::string file(bundle::memory_entries_file);
  if (!p.memory) {
    p.todo.push_back({"recreate",
                      "memory_left_out",
                      file,
                      std::to_string(rep.memory->entries) +
                          " memories travelled in this bundle; this import leaves them out (the "
                          "agent starts with an empty memory; import again with --with-memory "
                          "to merge them)",
                      {}});
    return;
  }
  if (!p.memory->markdown.empty()) {
    p.todo.push_back({"memory",
                      "memory_markdown",
                      zc::default_workspace(p.alias) + "/MEMORY.md",
                      std::to_string(p.memory->entries) + " memories written for `" + p.alias +
                          "` as the Markdown backend's files of its new workspace; read them: "
                          "they enter the agent's prompts",
                      {}});
    return;
  }
  p.todo.push_back(
      {"memory", "memory_reindex", p.memory->store,
       std::to_string(p.memory->entries) + " memories merged for `" + p.alias +
           "` without embeddings (the source's model: " +
           (p.memory->embedding_model.empty() ? std::string("none recorded")
                                              : p.memory->embedding_model) +
           "); rebuild the search index, and read them: they enter the agent's prompts",
       text::paste_command({"zeroclaw", "memory", "reindex"})});
}

/// The `--map` choices shown with the plan: each model provider it adds (or renames),
/// with the target's own model providers.
inline void offer_maps(const zc::value& target, import_plan& p) {
  const kind_info* k = kind_named("model_provider");
  std::vector<std::string> local;
  for (const auto& e : entries_of(target, *k)) local.push_back(e.first);
  if (local.empty()) return;
  for (const entry_change& e : p.entries)
    if (e.kind == k->name && (e.action == "add" || e.action == "rename"))
      p.map_options.push_back({e.kind, e.from, local});
}

/// Steps 6-7: the trees to place, then the secrets and risk flags with the renamed paths
/// (the credentials a reuse lends last).
inline void place_and_flag(const verify::report& rep, rename_map& names, const mapped_set& mapped,
                           const std::vector<verify::finding>& lent, import_plan& p) {
  if (rep.has_directory("workspace"))
    p.placements.push_back({"workspace", "workspace", zc::default_workspace(p.alias)});
  for (const std::string& s : rep.skill_bundles) {
    const std::string to = names[{zc::ref_target::skill_bundle, s}];
    if (mapped.count({"skill_bundle", s})) continue;
    p.placements.push_back({"skill_bundle", bundle::skill_bundle_path(s),
                            std::string(zc::install_shared_dir) + "/skills/" + to});
  }
  const auto renamed_path = [&](const std::string& path) -> std::optional<std::string> {
    for (const entry_change& e : p.entries) {
      const kind_info* k = kind_named(e.kind);
      const std::string prefix = entry_path(*k, e.from);
      if (path != prefix && path.rfind(prefix + ".", 0) != 0) continue;
      if (e.action == "reuse" || e.action == "map") return std::nullopt;
      return entry_path(*k, e.to) + path.substr(prefix.size());
    }
    return path;
  };
  for (const std::string& s : rep.required_secrets)
    if (const auto to = renamed_path(s)) p.secrets.push_back(*to);
  for (const verify::finding& f : rep.risk_flags)
    p.risk_flags.push_back({f.code, renamed_path(f.path).value_or(f.path), f.detail, false});
  p.risk_flags.insert(p.risk_flags.end(), lent.begin(), lent.end());
  todo_list(rep, renamed_path, p);
}

}  // namespace detail

/// `--map KIND.ALIAS=LOCAL` split and its kind checked (the part a command line checks).
using detail::map_choice;
using detail::parse_map;

namespace detail {

/// plan_import; with `for_apply`, the bundle's trees are verified by the copy that places
/// them (verify::verify_bundle_deferring), so apply reads each of their bytes once.
template <class Fs, class Schema>
import_plan plan(Fs& fs, const import_options& o, bool for_apply) {
  namespace zc = clawport::zeroclaw;
  namespace d = detail;
  import_plan p;
  p.bundle = o.bundle;
  p.config_path = o.config_path;

  // 1. Verify first. A bundle with a digest list is not kept in memory (the plan carries
  // the digest of the list's stream); one without keeps its files (they are its list).
  const bool listed = has_digest_list(fs, o.bundle);
  verify::progress_function progress;
  if (o.on_progress)
    progress = [&o](std::uint64_t n, std::uint64_t total) { o.on_progress("verifying", n, total); };
  verify::report rep =
      !listed ? verify::verify_bundle_files<Fs, Schema>(fs, o.bundle, o.limits, o.jobs, progress)
      : for_apply ? verify::verify_bundle_deferring<Fs, Schema>(
                        fs, o.bundle, o.limits,
                        {std::string(bundle::workspace_dir), std::string(bundle::skills_dir)},
                        o.jobs, progress)
                  : verify::verify_bundle<Fs, Schema>(fs, o.bundle, o.limits, o.jobs, progress);
  if (o.require_signature) verify::check_signature(rep, o.require_signature);
  if (o.strict) rep.require_authenticated();
  if (!rep.ok()) throw rep.first_error();
  if (o.require_signature) {
    p.signed_by = rep.signed_by;
    p.signature_sha256 = rep.file(bundle::signature_file)->sha256;
  }
  p.bytes_deferred = rep.bytes_deferred;
  for (const verify::finding& f : rep.findings)
    if (f.warning) p.warnings.push_back(f);
  p.source_alias = rep.root_agent;
  p.manifest_sha256 = rep.manifest_sha256;
  if (listed && rep.file(bundle::digest_list_file) == nullptr)
    throw d::stream_changed("its digest list is gone");  // its files were not kept
  p.files = plan_file_stream(rep);
  if (const zc::value* prov = rep.manifest.find("provenance")) {
    if (const zc::value* v = prov->find("exported_at")) p.exported_at = v->text;
    if (const zc::value* v = prov->find("zeroclaw_version")) p.producer = v->text;
  }

  // 2. The target install. 3. --map. 4. Every incoming entry. 5. The tables to append.
  // 6-7. Placements, secrets and risk flags.
  const zc::value target = d::read_target<Fs, Schema>(fs, o, p);
  auto root = fs.open_root(p.install_root);
  d::rename_map names;
  d::mapped_set mapped;
  d::apply_maps(o, rep, target, names, mapped, p);
  d::entry_decider<Fs, Schema> decide{fs, root, o, rep, target, p, names, mapped, {}, {}, {}, {}};
  decide.run();
  d::build_additions<Schema>(decide.added, names, p);
  d::place_and_flag(rep, names, mapped, decide.lent, p);
  d::offer_maps(target, p);
  p.memory = d::plan_memory(rep, o.with_memory, o.memory, p.install_root, p.alias,
                            d::memory_backend_of(rep, target, p.source_alias) == "markdown");
  if (p.memory && !p.memory->markdown.empty() &&
      std::none_of(p.placements.begin(), p.placements.end(),
                   [](const placement& pl) { return pl.kind == "workspace"; }))
    throw error(errc::unsupported,
                "agent " + p.alias +
                    " is on the Markdown memory backend, whose memories live in its workspace, "
                    "and the bundle carries no workspace; import without --with-memory",
                std::string(bundle::memory_entries_file));
  d::memory_todo(rep, p);

  // 8. The merged config must validate as a whole before anything is written.
  p.appended = toml_writer::write(p.additions, false);
  const zc::append_plan merged = zc::append_tables(p.config_before, p.additions, "", o.config_path);
  if (const auto problem = zc::validate_config<Schema>(merged.merged))
    throw error(
        errc::config_invalid,
        "the merged config would not validate, so nothing is imported: " + problem->display(),
        problem->path);
  p.plan_integrity = clawport::plan::integrity_of(d::canonical(p));
  return p;
}

}  // namespace detail

/// Plans importing the bundle `o.bundle` into the install whose config is `o.config_path`.
/// Reads (never writes) through `fs`. Throws clawport::error: errc::bundle_invalid /
/// limit_exceeded (the bundle does not verify; the first finding), errc::config_parse /
/// config_invalid (the target config does not parse or validate on its own, or the merged
/// one would not), errc::invalid_argument (a bad --as or --map), errc::not_found (a --map
/// target that does not exist), errc::destination_refused (an --as alias that exists).
template <class Fs, class Schema = zeroclaw::schema_v3>
import_plan plan_import(Fs& fs, const import_options& o) {
  return detail::plan<Fs, Schema>(fs, o, false);
}

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
