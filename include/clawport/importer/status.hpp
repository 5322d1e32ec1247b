// SPDX-License-Identifier: MIT
// `clawport status` (docs/cli.md): one look at a ZeroClaw install. Its agents, and which
// came from an import (the provenance comment the import wrote before their tables), the
// secret fields still blank (those the required-secrets ledger records, and every blank
// secret field the schema marks), whether the whole config validates (the rules of
// `Config::validate()`, zeroclaw/validate.hpp), and the leftovers of interrupted commands
// (the staging names of publish/names.hpp) with the `clawport recover` line that clears
// each. Reads only, through the Fs policy.
#pragma once

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/text.hpp"
#include "../fs/policy.hpp"
#include "../publish/names.hpp"
#include "../skills/staging_places.hpp"
#include "../skills/upgrade_recovery.hpp"
#include "../zeroclaw/install_layout.hpp"
#include "../zeroclaw/parse.hpp"
#include "../zeroclaw/schema_v3.hpp"
#include "../zeroclaw/secret_ledger.hpp"
#include "../zeroclaw/validate.hpp"
#include "plan.hpp"
#include "secrets.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

/// Where an agent came from, as the import recorded it in the config's provenance comment.
struct import_provenance {
  std::string imported_at;      ///< RFC 3339
  std::string source_alias;     ///< the agent's alias in the bundle
  std::string bundle;           ///< the bundle's path as imported
  std::string manifest_sha256;  ///< `sha256:<hex>`
  std::string exported_at;
  std::string producer;  ///< what exported it (`clawport 0.1.0`)
};

/// One `[agents.<alias>]` of the config.
struct agent_status {
  std::string alias;
  std::optional<import_provenance> imported;  ///< empty: configured on this install
};

/// A secret field that is blank.
struct blank_secret {
  std::string path;  ///< config path (`providers.models.anthropic.main.api_key`)
  /// `import` (the required-secrets ledger records it; absent from the config counts too),
  /// `schema` (a blank secret field the ledger does not record).
  std::string source;
};

/// A name an interrupted command left in the install.
struct leftover {
  std::string path;            ///< absolute
  std::string creator;         ///< who makes such names, in recover's words
  text::command_line command;  ///< the `clawport recover` line that clears it
  /// What the leftover holds and what recover will do with it, when that matters (a killed
  /// skills upgrade: which version is in place); empty otherwise.
  std::string detail;
};

/// What `clawport status` reports. `pending()` is what the exit status says.
struct install_status {
  std::string config_path;
  std::string install_root;
  std::vector<agent_status> agents;
  std::vector<blank_secret> blank_secrets;
  std::optional<zeroclaw::validation_error> invalid;  ///< the first problem, if any
  std::vector<leftover> leftovers;
  /// Values of the config encrypted (enc2:) while the install's `.secret_key` is missing:
  /// ZeroClaw cannot decrypt them, and `secrets set` refuses to make a new key.
  std::size_t encrypted_without_key = 0;

  bool pending() const {
    return !blank_secrets.empty() || invalid || !leftovers.empty() || encrypted_without_key > 0;
  }
};

namespace status_detail {

namespace zc = clawport::zeroclaw;

/// `text` after `head` up to `tail` (both must be found, in order); nullopt otherwise.
inline std::optional<std::string> between(std::string_view text, std::string_view head,
                                          std::string_view tail, std::size_t& from) {
  const std::size_t a = text.find(head, from);
  if (a == std::string_view::npos) return std::nullopt;
  const std::size_t b = text.find(tail, a + head.size());
  if (b == std::string_view::npos) return std::nullopt;
  from = b + tail.size();
  return std::string(text.substr(a + head.size(), b - a - head.size()));
}

/// Every provenance comment in the config's text, by the alias it names: the two lines
/// provenance_comment (plan.hpp) writes, `# ` before each.
inline std::vector<std::pair<std::string, import_provenance>> provenance_in(std::string_view text) {
  std::vector<std::pair<std::string, import_provenance>> out;
  static constexpr std::string_view first = "# Imported by clawport ";
  for (std::size_t at = text.find(first); at != std::string_view::npos;
       at = text.find(first, at + 1)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    const std::size_t eol = text.find('\n', at);
    if (eol == std::string_view::npos) break;  // the second line is missing
    const std::size_t end2 = text.find('\n', eol + 1);
    const std::string_view two = text.substr(at, end2 == std::string_view::npos ? end2 : end2 - at);
    std::size_t p = 0;
    import_provenance v;
    const auto when = between(two, " at ", ": agent `", p);
    const auto alias = between(two, "", "` (source alias `", p);
    const auto source = between(two, "", "`)\n# from bundle ", p);
    const auto bundle = between(two, "", ", manifest ", p);
    const auto digest = between(two, "", " (exported ", p);
    const auto exported = between(two, "", " by ", p);
    if (!when || !alias || !source || !bundle || !digest || !exported || two.back() != ')')
      continue;  // not a comment clawport wrote: nothing is guessed from it
    v.imported_at = *when;
    v.source_alias = *source;
    v.bundle = *bundle;
    v.manifest_sha256 = *digest;
    v.exported_at = *exported;
    v.producer = std::string(two.substr(p, two.size() - p - 1));
    out.emplace_back(*alias, std::move(v));
  }
  return out;
}

/// Every blank secret field of the config, by config path: the one list of `secrets
/// list` (list_secrets), kept to its blank fields.
template <class Schema>
std::vector<std::string> blank_secret_paths(const zc::value& config) {
  std::vector<std::string> out;
  for (secret_entry& e : list_secrets<Schema>(config))
    if (e.state == secret_state::blank) out.push_back(std::move(e.path));
  return out;
}

/// True when the secret at `path` holds a value in `config`.
inline bool is_set(const zc::value& config, const std::string& path) {
  const zc::value* v = secrets_detail::value_at(config, path);
  return v != nullptr && v->is_string() && !v->text.empty();
}

/// A skills staging tree's killed upgrade in words (skills::inspect_upgrade, the reading
/// `recover` acts on): which version is in place and what recover does; empty when the
/// tree records no upgrade or cannot be read.
template <class Fs>
std::string upgrade_detail(Fs& fs, const typename Fs::dir& dir, const std::string& name) {
  try {
    const auto st = fs.stat_at(dir, name);
    if (!st || st->kind != fs::file_kind::directory) return {};
    const typename Fs::dir stage = fs.open_dir_at(dir, name);
    if (const auto u = skills::inspect_upgrade(fs, dir, stage))
      return skills::upgrade_leftover_text(*u);
  } catch (const error&) {
    // unreadable: the leftover is still listed, without the detail
  }
  return {};
}

/// The leftovers of interrupted commands in the directory `relative` of the install
/// (`""`: the root), with the recover line for each; `files` are the files of that
/// directory whose temporary siblings a replace leaves (`config.toml`, the ledger).
template <class Fs>
void leftovers_in(Fs& fs, const typename Fs::dir& dir, const std::string& abs,
                  const std::vector<std::string>& files, install_status& st) {
  std::vector<std::string> names;
  fs.for_each_entry(dir, [&](std::string_view n) { names.emplace_back(n); });
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) {
    std::string destination;
    publish::staging_match m = publish::match_staging(n);
    for (const std::string& f : files) {
      if (m.family != nullptr) break;
      m = publish::match_staging(n, f);
      if (m.family != nullptr) destination = f;
    }
    if (m.family == nullptr || !m.exact) continue;
    if (m.intent && !files.empty())
      destination = files.front();  // recover beside the config finishes or undoes it
    else if (m.family->kind == publish::staging_kind::import)
      destination = n.substr(publish::family_of(publish::staging_kind::import).prefix.size() +
                             publish::import_token_length + 1);
    if (destination.empty()) destination = n;  // recover clears every staging tree beside it
    st.leftovers.push_back(
        {paths::join(abs, n), std::string(m.family->creator),
         text::paste_command({"clawport", "recover", paths::join(abs, destination)}),
         m.family->kind == publish::staging_kind::skills ? upgrade_detail(fs, dir, n)
                                                         : std::string()});
  }
}

/// The leftovers in every place of the one list where commands stage
/// (skills::staging_places: the root, `agents/`, each agent's directory, `shared/`,
/// `shared/skills/`, each bundle's directory, the global skills directory), those that exist.
template <class Fs>
void scan_leftovers(Fs& fs, install_status& st, const std::string& config_name,
                    const std::string& config_text, const std::string& data_dir) {
  skills::skills_config cfg;
  try {
    cfg = skills::parse_skills_config(config_text, st.config_path);
  } catch (const error&) {
    // a config the skills reader refuses: the default places are still scanned
  }
  std::vector<std::string> agents;
  try {
    auto d = fs.open_root(paths::join(st.install_root, zc::install_agents_dir));
    fs.for_each_entry(d, [&](std::string_view n) {
      if (publish::match_staging(n).family != nullptr) return;
      const auto s = fs.stat_at(d, n);
      if (s && s->kind == fs::file_kind::directory) agents.emplace_back(n);
    });
  } catch (const error&) {
    // no agents/ directory
  }
  std::sort(agents.begin(), agents.end());
  const skills::install_paths where{st.install_root, data_dir};
  for (const skills::staging_place& place :
       skills::staging_places(cfg, where, config_name, agents, {std::string(secret_key_file)})) {
    std::optional<typename Fs::dir> dir;
    try {
      dir.emplace(fs.open_root(place.path));
    } catch (const error& e) {
      if (e.code() == errc::not_found || e.sys_errno() == ENOTDIR) continue;
      throw;
    }
    leftovers_in(fs, *dir, place.path, place.files, st);
  }
}

}  // namespace status_detail

/// The state of the install whose config is `config_path` (absolute; `data_dir`: the
/// ZEROCLAW_DATA_DIR, empty for `<install>/data`, where the global skills directory is). Throws
/// clawport::error: errc::not_found (no config), errc::config_parse (it does not parse, or
/// the ledger is not clawport's), and the read refusals of fs::read_file.
template <class Fs, class Schema = zeroclaw::schema_v3>
install_status read_status(Fs& fs, const std::string& config_path,
                           const std::string& data_dir = {}) {
  namespace zc = clawport::zeroclaw;
  namespace sd = status_detail;
  install_status st;
  st.config_path = config_path;
  st.install_root = zc::install_root_of(config_path);
  const std::string config_name = paths::file_name(config_path);
  const std::optional<std::string> text = detail::read_config(fs, st.install_root, config_name);
  if (!text) throw zeroclaw::missing_config_error(config_path);
  const zc::value config = zc::parse_toml(*text, config_path);
  st.invalid = zc::validate_config<Schema>(config);

  const auto provenance = sd::provenance_in(*text);
  if (const zc::value* agents = zeroclaw::find_path(config, "agents");
      agents && agents->is_table()) {
    for (const zc::member& a : agents->members) {
      agent_status s{a.key, std::nullopt};
      for (const auto& [alias, p] : provenance)
        if (alias == a.key) s.imported = p;  // the latest comment naming it
      st.agents.push_back(std::move(s));
    }
  }

  const std::set<std::string> ledger = zc::read_secret_ledger(fs, st.install_root, config_name);
  for (const std::string& path : ledger)
    if (!sd::is_set(config, path)) st.blank_secrets.push_back({path, "import"});
  for (const std::string& path : sd::blank_secret_paths<Schema>(config))
    if (!ledger.count(path)) st.blank_secrets.push_back({path, "schema"});

  std::size_t encrypted = 0;
  for (const secret_entry& e : list_secrets<Schema>(config))
    encrypted += e.state == secret_state::encrypted ? 1 : 0;
  if (encrypted > 0 && !fs.stat_at(fs.open_root(st.install_root), std::string(secret_key_file)))
    st.encrypted_without_key = encrypted;

  sd::scan_leftovers(fs, st, config_name, *text, data_dir);
  return st;
}

/// The `clawport status --json` document.
inline nlohmann::json to_json(const install_status& st) {
  nlohmann::json j;
  j["config"] = st.config_path;
  j["agents"] = nlohmann::json::array();
  for (const agent_status& a : st.agents) {
    nlohmann::json item = {{"alias", a.alias}, {"imported", nullptr}};
    if (a.imported)
      item["imported"] = {{"at", a.imported->imported_at},
                          {"source_alias", a.imported->source_alias},
                          {"bundle", a.imported->bundle},
                          {"manifest_sha256", a.imported->manifest_sha256},
                          {"exported_at", a.imported->exported_at},
                          {"producer", a.imported->producer}};
    j["agents"].push_back(std::move(item));
  }
  j["blank_secrets"] = nlohmann::json::array();
  for (const blank_secret& b : st.blank_secrets)
    j["blank_secrets"].push_back({{"path", b.path}, {"source", b.source}});
  j["valid"] = !st.invalid.has_value();
  if (st.invalid)
    j["invalid"] = {
        {"code", st.invalid->code}, {"message", st.invalid->message}, {"path", st.invalid->path}};
  j["leftovers"] = nlohmann::json::array();
  for (const leftover& l : st.leftovers)
    j["leftovers"].push_back(
        {{"path", l.path},
         {"creator", l.creator},
         {"command", l.command.str()},
         {"detail", l.detail.empty() ? nlohmann::json() : nlohmann::json(l.detail)}});
  j["encrypted_without_key"] = st.encrypted_without_key;
  j["pending"] = st.pending();
  return j;
}

/// The `clawport secrets list --json` document: the config and each secret field's state.
inline nlohmann::json secrets_to_json(const std::string& config_path,
                                      const std::vector<secret_entry>& secrets) {
  nlohmann::json j;
  j["config"] = config_path;
  j["secrets"] = nlohmann::json::array();
  for (const secret_entry& s : secrets)
    j["secrets"].push_back({{"path", s.path}, {"state", to_string(s.state)}});
  return j;
}

/// The `clawport secrets set --json` document: where the value went and in which form.
inline nlohmann::json to_json(const set_secret_result& r) {
  return nlohmann::json{
      {"config", r.config}, {"path", r.path},         {"stored", to_string(r.stored)},
      {"backup", r.backup}, {"key_file", r.key_file}, {"key_created", r.key_created}};
}

/// `clawport secrets list` in words: each secret field's state and path.
inline std::string render_secrets(const std::string& config_path,
                                  const std::vector<secret_entry>& secrets) {
  text::terminal_lines line;
  line(std::to_string(secrets.size()) + " secret field(s) in " + config_path + ":");
  for (const secret_entry& s : secrets)
    line("  " + std::string(to_string(s.state)) + "  " + s.path);
  return std::move(line.text);
}

/// `clawport secrets set` in words: the field set, in which form, the key and the backup.
inline std::string render_set_secret(const set_secret_result& r) {
  text::terminal_lines line;
  const char* how = r.stored == secret_state::encrypted ? "encrypted (enc2:)"
                    : r.stored == secret_state::reference
                        ? "as a reference, resolved by ZeroClaw when it loads"
                        : "as plain text ([secrets] encrypt = false)";
  line("set " + r.path + " in " + r.config + ", " + how);
  if (r.key_created) line("  created the install's key " + r.key_file + " (mode 0600)");
  if (!r.backup.empty())
    line("  previous config kept as " + r.backup);
  else if (r.was_blank)
    line("  no backup kept: the field was blank before and nothing else changed");
  return std::move(line.text);
}

/// The status in words, through the one terminal-safe renderer.
inline std::string render_status(const install_status& st) {
  text::terminal_lines line;
  line("install " + st.install_root + " (" + st.config_path + ")");
  line("");
  line(std::to_string(st.agents.size()) + " agent(s):");
  for (const agent_status& a : st.agents) {
    if (!a.imported) {
      line("  " + a.alias);
      continue;
    }
    line("  " + a.alias + "  imported " + a.imported->imported_at + " from " + a.imported->bundle +
         " (agent `" + a.imported->source_alias + "`, manifest " + a.imported->manifest_sha256 +
         ")");
  }
  line("");
  line(st.invalid ? "config: does not validate: " + st.invalid->display() : "config: validates");
  if (!st.blank_secrets.empty()) {
    line("");
    line(std::to_string(st.blank_secrets.size()) + " secret(s) still blank:");
    // By where the blank comes from; each command alone on its line, so the whole line
    // can be pasted (issue 41 item 1).
    for (const auto& [source, heading] :
         {std::pair<const char*, const char*>{"import", "  left blank by an import:"},
          {"schema", "  blank in the config:"}}) {
      bool first = true;
      for (const blank_secret& b : st.blank_secrets) {
        if (b.source != source) continue;
        if (first) line(heading);
        first = false;
        line("    ", detail::supply_command(b.path, st.config_path));
      }
    }
  }
  if (st.encrypted_without_key > 0) {
    line("");
    line(std::to_string(st.encrypted_without_key) +
         " value(s) are encrypted and the key is missing: restore " +
         paths::join(st.install_root, std::string(secret_key_file)) +
         " (ZeroClaw cannot decrypt them without it)");
  }
  if (!st.leftovers.empty()) {
    line("");
    line(std::to_string(st.leftovers.size()) + " leftover(s) of interrupted commands:");
    for (const leftover& l : st.leftovers) {
      line("  " + l.path + " (left by " + l.creator + "):");
      if (!l.detail.empty()) line("    " + l.detail);
      line("    ", l.command);
    }
  }
  line("");
  line(st.pending() ? "pending: see above" : "nothing pending");
  return std::move(line.text);
}

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
