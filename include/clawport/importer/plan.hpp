// SPDX-License-Identifier: MIT
// Planning an import (docs/cli.md, `clawport import`): verify the bundle first, then place
// every incoming entry against the target install. An entry that collides is renamed
// (`<alias>_imported`, `_imported_2`, ...: ZeroClaw's alias grammar) and every reference to
// it rewritten (the schema's reference fields); an existing entry that is identical after
// normalisation (defaults pruned, secrets ignored) is reused, and when the target's entry
// holds credentials the reuse is a capability grant (`reuses_credential`); `--map KIND.ALIAS=LOCAL`
// points references at a local entry; `--as` names the agent. The merged config is
// validated as a whole before the plan is returned, and the plan is hashed
// (`plan_integrity`) from a canonical serialisation. The plan's data is import_plan.hpp, the
// collision decider collision.hpp, `--map` map.hpp, the config's kinds of entry
// zeroclaw/entries.hpp.
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
#include "../zeroclaw/config_append.hpp"
#include "../zeroclaw/document.hpp"
#include "../zeroclaw/install_layout.hpp"
#include "../zeroclaw/parse.hpp"
#include "../zeroclaw/schema_v3.hpp"
#include "../zeroclaw/shape.hpp"
#include "../zeroclaw/validate.hpp"
#include "collision.hpp"
#include "file_stream.hpp"
#include "import_plan.hpp"
#include "map.hpp"
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

namespace detail {

namespace zc = clawport::zeroclaw;

/// Throws errc::cancelled when the caller asked to stop (a signal, in the CLI); apply's
/// undo removes whatever was staged, so nothing of the import is left.
inline void check_cancelled(const import_options& o) {
  if (o.cancelled && o.cancelled())
    throw error(errc::cancelled,
                "the import into " + o.config_path +
                    " was interrupted; the install was left as it was and nothing staged remains",
                o.config_path);
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

/// Step 5: the tables to append, every reference rewritten with the final names; each
/// skill bundle that travels uses the target's default directory for its alias.
template <class Schema>
void build_additions(const std::vector<decided>& added, const rename_map& names, import_plan& p) {
  zc::value servers = zc::value::make_array();
  for (const decided& a : added) {
    zc::value entry = *a.val;
    rewrite_refs(entry, *zc::entry_schema_of<Schema>(*a.kind, a.from), names);
    if (a.kind->ref == zc::ref_target::mcp_server) {
      entry.set("name", zc::value::make_string(a.to));
      servers.items.push_back(std::move(entry));
      continue;
    }
    if (a.kind->ref == zc::ref_target::skill_bundle) entry.erase("directory");
    zc::make_table_path(p.additions, a.kind->section).set(a.to, std::move(entry));
  }
  // Two-tier names were set as "family.alias" keys above; split them into tables.
  for (const zc::entry_kind& k : zc::entry_kinds) {
    if (!k.two_tier) continue;
    zc::value* section = const_cast<zc::value*>(zc::find_path(p.additions, k.section));
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
  const zc::value* own = zc::find_path(rep.closure, "agents." + source_alias + ".memory.backend");
  if (own != nullptr && own->is_string()) return std::string(text::trim(own->text));
  const zc::value* install = zc::find_path(target, "memory.backend");
  return install != nullptr && install->is_string() ? std::string(text::trim(install->text))
                                                    : std::string();
}

/// The memory's to-do: the runtime's reindex after a merge (vectors never travel, and the
/// rows are untrusted input that will enter prompts), or that it was left out.
inline void memory_todo(const verify::report& rep, import_plan& p) {
  if (!rep.memory) return;
  // The exporter lists the store as left behind ("bundle format 1 does not carry it"); this
  // bundle carries its memories, so the items below say what happens to them instead.
  p.todo.erase(std::remove_if(p.todo.begin(), p.todo.end(),
                              [](const todo_item& t) {
                                return t.group == "recreate" && t.kind == "not_yet_portable" &&
                                       t.path == "workspace/memory";
                              }),
               p.todo.end());
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
      const zc::entry_kind* k = zc::entry_kind_named(e.kind);
      const std::string prefix = zc::entry_path(*k, e.from);
      if (path != prefix && path.rfind(prefix + ".", 0) != 0) continue;
      if (e.action == "reuse" || e.action == "map") return std::nullopt;
      return zc::entry_path(*k, e.to) + path.substr(prefix.size());
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
  if (o.on_progress || o.cancelled)
    progress = [&o](std::uint64_t n, std::uint64_t total) {
      d::check_cancelled(o);
      if (o.on_progress) o.on_progress("verifying", n, total);
    };
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
  p.memory = d::plan_memory(fs, rep, o.with_memory, o.memory, p.install_root, p.alias,
                            d::memory_backend_of(rep, target, p.source_alias) == "markdown",
                            o.bundle, o.limits);
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
