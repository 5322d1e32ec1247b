// SPDX-License-Identifier: MIT
// What clawport writes for OpenClaw, through the Fs policy only: directories walked one
// component at a time without following links, create-only files, atomic replacement
// (temporary name, flush, rename, directory flush), the provenance ledger
// `<state-dir>/clawport-claws.json` and the agent's registration in `openclaw.json` with the
// JSON5 keep-or-refuse rule (docs/openclaw.md, "Lifecycle").
#pragma once

#include "../core/error.hpp"
#include "../formats/json5.hpp"
#include "../fs/modes.hpp"
#include "../fs/open_path.hpp"
#include "../fs/policy.hpp"
#include "../fs/sys_error.hpp"
#include "../fs/write_new_file.hpp"
#include "../publish/replace_file.hpp"
#include "environment.hpp"
#include "package.hpp"
#include "value.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// The ledger's file name in the state directory, and its schema.
inline constexpr const char* ledger_file_name = "clawport-claws.json";
inline constexpr const char* ledger_schema = "clawport.openclawClawLedger.v1";
inline constexpr const char* install_schema = "clawport.openclawClawInstall.v1";
inline constexpr const char* config_file_name = "openclaw.json";
/// The modes OpenClaw gives what it makes: the state directory owner-only, and owner-only
/// files (openclaw.json, the ledgers, workspace files). Only a new file or directory gets
/// one: an existing file keeps its own.
inline constexpr std::uint32_t state_dir_mode = fs::modes::private_dir;
inline constexpr std::uint32_t private_file_mode = fs::modes::private_file;
inline constexpr std::uint64_t state_file_max_bytes = 16 * 1024 * 1024;

namespace detail {

inline std::string parent_of(const std::string& abs) {
  const std::string p = paths::parent(abs);
  return p.empty() ? "/" : p;
}

/// The one rule for every OpenClaw path clawport opens, in plans and in writes alike:
/// `anchor` (a prefix of `abs`) and everything above it are the operator's own path, and a
/// symlink there is followed, as export opens the install root following links and walks
/// nothing below it that way (fs/anchored.hpp, `open_anchored_root`); below the anchor,
/// `abs` is walked one component at a time and a link is refused (errc::unsafe_path). With
/// `created` non-null, missing components are made (`mode`, 0755 unless said) and their
/// absolute paths appended, outermost first; otherwise a missing one throws not_found.
template <class Fs>
typename Fs::dir open_below_anchor(Fs& fs, const std::string& anchor, const std::string& abs,
                                   std::vector<std::string>* created = nullptr,
                                   std::uint32_t mode = fs::modes::dir) {
  typename Fs::dir cur = fs.open_root("/");
  std::string walked;
  const std::size_t followed = paths::components(anchor).size();
  const std::vector<std::string> parts = paths::components(abs);
  const auto missing = [](const std::string& at) {
    return error(errc::not_found, at + " does not exist", at);
  };
  // The anchor and above: the operator's own path, opened following links.
  std::size_t k = 0;
  for (; k < parts.size() && k < followed; ++k) {
    walked += "/" + parts[k];
    auto st = fs.stat_at(cur, parts[k]);
    if (!st && created != nullptr) {
      fs.make_dir_at(cur, parts[k], mode);
      created->push_back(walked);
      st = fs.stat_at(cur, parts[k]);
    }
    if (!st) throw missing(walked);
    if (st->kind != fs::file_kind::symlink && st->kind != fs::file_kind::directory)
      throw error(errc::unsafe_path,
                  walked + " is not a directory; clawport writes only through real directories",
                  walked);
    cur = fs.open_root(walked);
  }
  // Below it: fs::open_path, never through a link.
  const std::vector<std::string> below(parts.begin() + static_cast<std::ptrdiff_t>(k), parts.end());
  const std::string base = walked.empty() ? "/" : walked;
  fs::path_result<Fs> r = fs::try_open_path(
      fs, cur, paths::join_components(below, false), created != nullptr, base,
      [&](const std::string& rel) { created->push_back(paths::join(base, rel)); }, mode);
  const std::string at = paths::join(base, r.at);
  switch (r.refusal) {
    case fs::path_refusal::none:
      return r.dir ? std::move(*r.dir) : std::move(cur);
    case fs::path_refusal::missing:
      throw missing(at);
    case fs::path_refusal::symlink:
    case fs::path_refusal::not_directory: {
      const bool link = r.refusal == fs::path_refusal::symlink;
      throw error(errc::unsafe_path,
                  at + " is " + (link ? "a symbolic link" : "not a directory") +
                      "; clawport writes only through real directories" +
                      (link ? " (links are followed only above " + anchor + ")" : std::string()),
                  at);
    }
    case fs::path_refusal::changed:
      throw error(errc::identity_changed, at + " was replaced while it was opened", at);
    default:
      throw fs::path_error(r, base);
  }
}

/// Opens the directory `abs` (a workspace, an export's output, a package): its parent is
/// the operator's own path, the directory itself and anything below it are never followed
/// (the rule of `open_below_anchor`, as `open_configured_root` binds a configured workspace).
template <class Fs>
typename Fs::dir open_dir_path(Fs& fs, const std::string& abs,
                               std::vector<std::string>* created = nullptr) {
  return open_below_anchor(fs, parent_of(abs), abs, created);
}

/// Opens the state directory: it and everything above it are the operator's own path
/// (a symlinked `~/.openclaw` or a HOME below a symlinked `/home` is followed); what is
/// inside it is never followed (the rule of `open_below_anchor`).
template <class Fs>
typename Fs::dir open_state_dir(Fs& fs, const std::string& state_dir,
                                std::vector<std::string>* created = nullptr) {
  // Made owner-only, as OpenClaw makes it (0700): it holds the config and the ledgers.
  return open_below_anchor(fs, state_dir, state_dir, created, state_dir_mode);
}

/// Removes directories this run created (innermost first); best effort.
template <class Fs>
void remove_created_dirs(Fs& fs, const std::vector<std::string>& created) noexcept {
  for (auto it = created.rbegin(); it != created.rend(); ++it) {
    try {
      auto parent = open_dir_path(fs, parent_of(*it));
      fs.remove_dir_at(parent, paths::file_name(*it));
    } catch (...) {
    }
  }
}

/// Creates `rel` (a `/`-separated relative path) under `root`, create-only, of `mode` (less
/// the umask; owner-only unless told, as OpenClaw writes workspace files), making missing
/// directories (0755, as it makes them; recorded in `created_dirs`, relative, outermost first).
template <class Fs>
void create_rel_file(Fs& fs, const typename Fs::dir& root, const std::string& rel,
                     const std::string& bytes, std::vector<std::string>& created_dirs,
                     std::uint32_t mode = private_file_mode) {
  const fs::path_result<Fs> at =
      fs::try_open_path(fs, root, paths::parent(rel), true, {},
                        [&](const std::string& made) { created_dirs.push_back(made); });
  if (at.refusal == fs::path_refusal::symlink || at.refusal == fs::path_refusal::not_directory)
    throw error(errc::unsafe_path, at.at + " is not a real directory", at.at);
  if (!at.ok()) throw fs::path_error(at);
  fs::write_new_file(fs, at.get(root), paths::file_name(rel), bytes, mode);
}

/// Calls `f(parent_dir, last_name)` for `rel` under `root` (no links on the way); returns
/// false without calling when a directory on the way is absent or not a real directory.
template <class Fs, class F>
bool at_rel(Fs& fs, const typename Fs::dir& root, const std::string& rel, F&& f) {
  const fs::path_result<Fs> at = fs::try_open_path(fs, root, paths::parent(rel));
  if (!at.ok()) return false;
  f(at.get(root), paths::file_name(rel));
  return true;
}

/// Reads `name` in the directory `dir_path`; nullopt when the file (or the directory) is
/// absent. Refuses links and oversized files.
template <class Fs>
std::optional<std::string> read_state_file(Fs& fs, const std::string& dir_path,
                                           const std::string& name) {
  std::optional<typename Fs::dir> d;
  try {
    d.emplace(open_state_dir(fs, dir_path));
  } catch (const error& e) {
    if (e.code() == errc::not_found) return std::nullopt;
    throw;
  }
  const std::string shown = paths::join(dir_path, name);
  file_read r = read_in_root(fs, *d, name, state_file_max_bytes);
  if (r.status == read_status::missing) return std::nullopt;
  if (r.status != read_status::ok) {
    throw error(r.status == read_status::io ? errc::io : errc::unsafe_path,
                read_problem(r.status, shown, state_file_max_bytes, r.detail), shown);
  }
  return std::move(r.bytes);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------
// The provenance ledger
// ---------------------------------------------------------------------------------------

/// One managed workspace file of an install (`openclaw.clawWorkspaceFileRecord.v1`).
struct file_row {
  std::string path;  ///< workspace-relative
  std::string source_path;
  std::string content_digest;
  std::string kind;  ///< file | bootstrap
  std::string relationship = "managed";
  std::string origin;  ///< claw-introduced | adopted
  std::string status;  ///< pending | complete

  /// Whether the Claw introduced the file, so that `claw remove` and `claw update` may
  /// delete it. An adopted file was in the workspace, byte-identical, before the add: it
  /// stays the operator's and is only ever released.
  bool claw_introduced() const { return origin != "adopted"; }
};

/// A ClawHub package of an install (never installed offline).
struct package_ref {
  std::string kind;  ///< skill | plugin
  std::string ref;
  std::string version;
  std::string relationship;  ///< managed | referenced
  std::string status;        ///< not_installed
  std::string install;       ///< the command that installs it later
};

/// An MCP server reference of an install (`openclaw.clawMcpServerRef.v1`).
struct mcp_ref {
  std::string name;
  std::string config_digest;
  std::string relationship;  ///< managed | referenced
  std::string origin;        ///< claw-introduced | pre-existing
  bool independent_owner = false;
  std::string status;
  bool managed() const { return relationship == "managed"; }
};

/// A cron job reference of an install (`openclaw.clawCronRef.v1`).
struct cron_ref {
  std::string manifest_id;
  std::string declaration_key;
  std::string status;  ///< not_applied
  std::string code;
  value job;  ///< the declaration as the host would get it
};

/// One install record (`clawport.openclawClawInstall.v1`).
struct install_record {
  std::string agent_id;
  std::string status;  ///< pending | complete | partial | removing
  source_identity claw;
  std::int64_t manifest_schema_version = 1;
  std::string plan_integrity;
  std::string workspace;
  std::string workspace_origin;  ///< created | adopted
  /// created (by `claw add`) | adopted (`claw migrate` enrolled an agent that existed: remove
  /// releases it, keeping the agent, its workspace and transcripts, as upstream's migrate).
  std::string agent_origin = "created";
  std::string agent_config_digest;
  std::vector<std::string> agent_owned_paths;
  std::string config;  ///< pending | registered | refused | removed
  std::vector<file_row> workspace_files;
  std::vector<std::string> created_dirs;  ///< workspace-relative, made by this Claw
  std::vector<package_ref> packages;
  std::vector<mcp_ref> mcp_servers;
  std::vector<cron_ref> cron_jobs;
  std::string added_at;
  std::string updated_at;
};

inline value to_json(const package_ref& p) {
  return value::object({{"kind", p.kind},
                        {"ref", p.ref},
                        {"version", p.version},
                        {"relationship", p.relationship},
                        {"status", p.status},
                        {"install", p.install}});
}

/// A workspace file row, an MCP server reference and a cron reference as the ledger holds them.
inline value to_json(const file_row& f) {
  return value::object({{"schemaVersion", "openclaw.clawWorkspaceFileRecord.v1"},
                        {"path", f.path},
                        {"sourcePath", f.source_path},
                        {"contentDigest", f.content_digest},
                        {"kind", f.kind},
                        {"relationship", f.relationship},
                        {"origin", f.origin},
                        {"status", f.status}});
}
inline value to_json(const mcp_ref& m) {
  return value::object({{"schemaVersion", "openclaw.clawMcpServerRef.v1"},
                        {"name", m.name},
                        {"configDigest", m.config_digest},
                        {"relationship", m.relationship},
                        {"origin", m.origin},
                        {"independentOwner", m.independent_owner},
                        {"status", m.status}});
}
inline value to_json(const cron_ref& c) {
  return value::object({{"schemaVersion", "openclaw.clawCronRef.v1"},
                        {"manifestId", c.manifest_id},
                        {"declarationKey", c.declaration_key},
                        {"status", c.status},
                        {"code", c.code},
                        {"job", c.job}});
}

/// The install record as the ledger holds it.
inline value to_json(const install_record& r) {
  using t = install_record;
  value v = json::object_of<value>(
      r, json::field("schemaVersion", [](const t&) { return install_schema; }),
      json::field("agentId", &t::agent_id), json::field("status", &t::status),
      json::field("claw", [](const t& x) { return to_json(x.claw); }),
      json::field("manifestSchemaVersion", &t::manifest_schema_version),
      json::field("planIntegrity", &t::plan_integrity), json::field("workspace", &t::workspace),
      json::field("workspaceOrigin", &t::workspace_origin),
      json::field("agentOrigin", &t::agent_origin),
      json::field("agentConfigDigest", &t::agent_config_digest),
      json::field("agentOwnedPaths", &t::agent_owned_paths), json::field("config", &t::config));
  v["workspaceFiles"] = array_of(r.workspace_files);
  v["createdDirs"] = r.created_dirs;
  v["packages"] = array_of(r.packages);
  v["mcpServers"] = array_of(r.mcp_servers);
  v["cronJobs"] = array_of(r.cron_jobs);
  v["addedAt"] = r.added_at;
  v["updatedAt"] = r.updated_at;
  return v;
}

namespace detail {

/// JSON as the ledger file holds it: members sorted (OpenClaw's stableStringify).
inline value as_ledger_holds(const value& v) { return value::parse(stable_stringify(v)); }

/// Reads the members of one ledger record; a missing or mistyped member is
/// errc::config_parse naming the record, the member and the file.
struct record_reader {
  std::string shown;  ///< the ledger file
  std::string where;  ///< `installs.<id>`

  [[noreturn]] void fail(const std::string& member) const {
    throw error(errc::config_parse,
                shown + ": " + where + "." + member +
                    " is missing or mistyped; clawport will not act on provenance it cannot read",
                shown);
  }
  const value& at(const value& o, const char* k, const std::string& in) const {
    if (!o.is_object() || !o.contains(k)) fail(in + k);
    return o[k];
  }
  std::string str(const value& o, const char* k, const std::string& in = "") const {
    const value& v = at(o, k, in);
    if (!v.is_string()) fail(in + k);
    return v.get<std::string>();
  }
  const value& list(const value& o, const char* k) const {
    const value& v = at(o, k, "");
    if (!v.is_array()) fail(k);
    return v;
  }
  std::vector<std::string> strings(const value& o, const char* k) const {
    std::vector<std::string> out;
    for (const auto& s : list(o, k)) {
      if (!s.is_string()) fail(k);
      out.push_back(s.get<std::string>());
    }
    return out;
  }
};

inline source_identity read_claw(const record_reader& rd, const value& rec) {
  const value& c = rd.at(rec, "claw", "");
  source_identity s;
  s.kind = rd.str(c, "kind", "claw.");
  s.name = rd.str(c, "name", "claw.");
  s.version = rd.str(c, "version", "claw.");
  s.package_root = rd.str(c, "packageRoot", "claw.");
  s.manifest_path = rd.str(c, "manifestPath", "claw.");
  s.integrity_kind = rd.str(c, "integrityKind", "claw.");
  s.integrity = rd.str(c, "integrity", "claw.");
  const value& n = rd.at(c, "byteLength", "claw.");
  if (!n.is_number_unsigned()) rd.fail("claw.byteLength");
  s.byte_length = n.get<std::uint64_t>();
  return s;
}

inline void read_rows(const record_reader& rd, const value& rec, install_record& r) {
  for (const auto& f : rd.list(rec, "workspaceFiles"))
    r.workspace_files.push_back(
        {rd.str(f, "path", "workspaceFiles[]."), rd.str(f, "sourcePath", "workspaceFiles[]."),
         rd.str(f, "contentDigest", "workspaceFiles[]."), rd.str(f, "kind", "workspaceFiles[]."),
         rd.str(f, "relationship", "workspaceFiles[]."), rd.str(f, "origin", "workspaceFiles[]."),
         rd.str(f, "status", "workspaceFiles[].")});
  for (const auto& p : rd.list(rec, "packages"))
    r.packages.push_back({rd.str(p, "kind", "packages[]."), rd.str(p, "ref", "packages[]."),
                          rd.str(p, "version", "packages[]."),
                          rd.str(p, "relationship", "packages[]."),
                          rd.str(p, "status", "packages[]."), rd.str(p, "install", "packages[].")});
  for (const auto& m : rd.list(rec, "mcpServers")) {
    const value& owner = rd.at(m, "independentOwner", "mcpServers[].");
    if (!owner.is_boolean()) rd.fail("mcpServers[].independentOwner");
    r.mcp_servers.push_back(
        {rd.str(m, "name", "mcpServers[]."), rd.str(m, "configDigest", "mcpServers[]."),
         rd.str(m, "relationship", "mcpServers[]."), rd.str(m, "origin", "mcpServers[]."),
         owner.get<bool>(), rd.str(m, "status", "mcpServers[].")});
  }
  for (const auto& c : rd.list(rec, "cronJobs"))
    r.cron_jobs.push_back({rd.str(c, "manifestId", "cronJobs[]."),
                           rd.str(c, "declarationKey", "cronJobs[]."),
                           rd.str(c, "status", "cronJobs[]."), rd.str(c, "code", "cronJobs[]."),
                           rd.at(c, "job", "cronJobs[].")});
}

/// One record of the ledger file `shown`, validated.
inline install_record read_install_record(const std::string& shown, const std::string& id,
                                          const value& rec) {
  const record_reader rd{shown, "installs." + id};
  if (!rec.is_object()) rd.fail("");
  install_record r;
  r.agent_id = id;
  r.status = rd.str(rec, "status");
  r.claw = read_claw(rd, rec);
  const value& msv = rd.at(rec, "manifestSchemaVersion", "");
  if (!msv.is_number_integer()) rd.fail("manifestSchemaVersion");
  r.manifest_schema_version = msv.get<std::int64_t>();
  r.plan_integrity = rd.str(rec, "planIntegrity");
  r.workspace = rd.str(rec, "workspace");
  r.workspace_origin = rd.str(rec, "workspaceOrigin");
  // Records written before agentOrigin existed: every agent was created by its add.
  if (rec.contains("agentOrigin")) r.agent_origin = rd.str(rec, "agentOrigin");
  r.agent_config_digest = rd.str(rec, "agentConfigDigest");
  r.agent_owned_paths = rd.strings(rec, "agentOwnedPaths");
  r.config = rd.str(rec, "config");
  // Records written before createdDirs existed have none.
  if (rec.contains("createdDirs")) r.created_dirs = rd.strings(rec, "createdDirs");
  read_rows(rd, rec, r);
  r.added_at = rd.str(rec, "addedAt");
  r.updated_at = rd.str(rec, "updatedAt");
  return r;
}

}  // namespace detail

/// `<state-dir>/clawport-claws.json`: `{schemaVersion, installs: {<agentId>: record}}`.
struct ledger {
  std::map<std::string, install_record> installs;  ///< by agent id
  std::optional<std::string> bytes;                ///< the file as read (nullopt: there was none)
};

/// The ledger document.
inline value to_json(const ledger& l) {
  value installs = value::object();
  for (const auto& r : l.installs) installs[r.first] = to_json(r.second);
  return value::object({{"schemaVersion", ledger_schema}, {"installs", std::move(installs)}});
}

/// Reads the ledger (an empty one when absent). A ledger clawport cannot read is an error:
/// nothing is decided from a guess.
template <class Fs>
ledger read_ledger(Fs& fs, const std::string& state_dir) {
  ledger l;
  l.bytes = detail::read_state_file(fs, state_dir, ledger_file_name);
  const std::string shown = paths::join(state_dir, ledger_file_name);
  if (!l.bytes) return l;
  const value doc = value::parse(*l.bytes, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("schemaVersion", "") != ledger_schema ||
      !doc.contains("installs") || !doc["installs"].is_object()) {
    throw error(errc::config_parse,
                shown + " is not a " + std::string(ledger_schema) +
                    " document; clawport will not act on provenance it cannot read",
                shown);
  }
  const value& installs = doc["installs"];
  for (auto it = installs.begin(); it != installs.end(); ++it)
    l.installs[it.key()] = detail::read_install_record(shown, it.key(), it.value());
  return l;
}

/// The ledger's text: stable (members sorted), two-space indented, newline-terminated.
inline std::string ledger_text(const value& doc) {
  return js_stringify(value::parse(stable_stringify(doc)), 2) + "\n";
}

/// Writes the ledger atomically, creating the state directory (its created components
/// are appended to `created`).
template <class Fs>
void write_ledger(Fs& fs, const std::string& state_dir, const ledger& l,
                  std::vector<std::string>* created = nullptr) {
  std::vector<std::string> mine;
  auto d = detail::open_state_dir(fs, state_dir, created != nullptr ? created : &mine);
  publish::replace_options o;
  o.new_mode = private_file_mode;
  publish::replace_file(fs, d, ledger_file_name, ledger_text(to_json(l)),
                        paths::join(state_dir, ledger_file_name), o);
}

/// Puts the ledger file back to `bytes` (or removes it when there was none).
template <class Fs>
void restore_state_file(Fs& fs, const std::string& state_dir, const std::string& name,
                        const std::optional<std::string>& bytes) {
  auto d = detail::open_state_dir(fs, state_dir);
  if (bytes) {
    publish::replace_file(fs, d, name, *bytes, paths::join(state_dir, name));
  } else if (fs.stat_at(d, name)) {
    fs.unlink_at(d, name);
    fs.sync_dir(d);
  }
}

// ---------------------------------------------------------------------------------------
// openclaw.json: keep or refuse
// ---------------------------------------------------------------------------------------

/// One change to `openclaw.json`: set (or, with `remove`, delete) `agents.entries.<id>`
/// and `mcp.servers.<name>` members; `drop_mcp_servers` are deleted in either mode (an
/// update sets some members and deletes others in one write).
struct config_change {
  std::vector<std::pair<std::string, value>> agents;       ///< id → entry (an `id` is dropped)
  std::vector<std::pair<std::string, value>> mcp_servers;  ///< name → server
  std::vector<std::string> drop_mcp_servers;               ///< names to delete
  bool remove = false;
  /// An add: the environment whose workspace rule names the sole agent's workspace when the
  /// roster grows past one (`pin_sole_owner`).
  std::optional<environment> env;
};

/// An agent's `agents.entries.<id>` record as OpenClaw writes it: the key is the id, so the
/// record carries none (agents.config `toAgentEntriesRecord`).
inline value config_entry_of(value agent_config) {
  if (agent_config.is_object()) agent_config.erase("id");
  return agent_config;
}

/// What happened to `openclaw.json`.
struct config_outcome {
  bool written = false;
  bool created = false;
  std::optional<std::string> previous;  ///< the bytes before (for rollback)
  std::string refusal;                  ///< set when the file was left alone
  std::string snippet;                  ///< what the user should add (or remove) by hand
};

/// The JSON5 text to merge by hand when the file cannot be rewritten.
inline std::string config_snippet(const config_change& c) {
  value doc = value::object();
  if (c.remove) {
    value paths = value::array();
    for (const auto& a : c.agents) paths.push_back("agents.entries." + a.first);
    for (const auto& m : c.mcp_servers) paths.push_back("mcp.servers." + m.first);
    for (const auto& m : c.drop_mcp_servers) paths.push_back("mcp.servers." + m);
    return "remove these members: " + js_stringify(paths, 0) + "\n";
  }
  for (const auto& a : c.agents) doc["agents"]["entries"][a.first] = a.second;
  for (const auto& m : c.mcp_servers) doc["mcp"]["servers"][m.first] = m.second;
  std::string text = js_stringify(doc, 2) + "\n";
  if (!c.drop_mcp_servers.empty()) {
    value paths = value::array();
    for (const auto& m : c.drop_mcp_servers) paths.push_back("mcp.servers." + m);
    text += "and remove these members: " + js_stringify(paths, 0) + "\n";
  }
  return text;
}

namespace detail {

/// Sets each `(name, value)` of `entries` in the object `into`, or erases each name when
/// `remove`: the one rule for the agent and MCP server entries of openclaw.json.
template <class Entries>
void merge_entries(value& into, const Entries& entries, bool remove) {
  for (const auto& e : entries) {
    if (remove) {
      into.erase(e.first);
    } else {
      into[e.first] = e.second;
    }
  }
}

/// `member` of the object `v`, made an object when absent; null when it is something else.
inline value* object_member(value& v, const char* member) {
  if (!v.contains(member)) v[member] = value::object();
  return v[member].is_object() ? &v[member] : nullptr;
}

/// Sets `agentId` of the object `doc.<a>[.<b>]` when it names none (and the path is objects).
inline void own_if_unowned(value& doc, const char* a, const char* b, const std::string& owner) {
  value* at = object_member(doc, a);
  if (at != nullptr && b != nullptr) at = object_member(*at, b);
  if (at != nullptr && !at->contains("agentId")) (*at)["agentId"] = owner;
}

/// A roster of one agent (the implicit `main` when none is configured) gaining a second, as
/// OpenClaw 2026.9.6 writes it (io.write-topology, agents.config): the sole agent becomes the
/// explicit owner: its workspace written down, `agents.ownership: "explicit"`, and the
/// heartbeat, the system agent and talk owned by it where nothing names an owner yet.
inline void pin_sole_owner(value& doc, const std::string& owner, const std::string& owner_ws) {
  value& agents = doc["agents"];
  value& entries = agents["entries"];
  if (!entries.contains(owner)) {  // the implicit main: listed first
    value pinned = value::object({{owner, value::object({{"workspace", owner_ws}})}});
    for (auto it = entries.begin(); it != entries.end(); ++it) pinned[it.key()] = it.value();
    entries = std::move(pinned);
  } else if (entries[owner].is_object() && !entries[owner].contains("workspace")) {
    entries[owner]["workspace"] = owner_ws;
  }
  if (!agents.contains("ownership")) {  // upstream's order: ownership, defaults, then the rest
    value ordered = value::object({{"ownership", "explicit"}});
    ordered["defaults"] = agents.contains("defaults") ? agents["defaults"] : value::object();
    for (auto it = agents.begin(); it != agents.end(); ++it) ordered[it.key()] = it.value();
    agents = std::move(ordered);
  }
  own_if_unowned(agents, "defaults", "heartbeat", owner);
  own_if_unowned(agents, "defaults", "systemAgent", owner);
  // Inherited auth stays the sole agent's (legacy-inherited-auth-dir): an explicit roster's
  // owner would otherwise be `main`.
  if (owner != "main") own_if_unowned(agents, "defaults", "authInheritance", owner);
  own_if_unowned(doc, "talk", nullptr, owner);
}

/// Adds or removes `change`'s agent entries in `doc` (parsed openclaw.json); false when
/// `agents.entries` is not an object.
inline bool merge_agents(value& doc, const config_change& change) {
  const value original = doc;
  const std::vector<configured_agent> before = configured_agents(original);
  value& agents = doc["agents"];
  if (agents.is_null()) agents = value::object();
  const bool listed =
      agents.contains("list") && agents["list"].is_array() && !agents["list"].empty();
  value& entries = agents["entries"];
  if (entries.is_null()) entries = value::object();
  if (!entries.is_object()) return false;
  std::vector<std::pair<std::string, value>> records;
  for (const auto& a : change.agents) records.emplace_back(a.first, config_entry_of(a.second));
  merge_entries(entries, records, change.remove);
  // Back to one agent: no roster left to own explicitly (agents.config `pruneAgentConfig`).
  if (change.remove && configured_agents(doc).size() <= 1) agents.erase("ownership");
  if (change.remove || listed || !change.env || before.size() > 1) return true;
  // The implicit `main` counts: a first entry is the roster's second agent.
  const std::string sole = before.empty() ? "main" : before.front().id;
  if (!before.empty() && configured_agents(doc).size() <= 1) return true;
  pin_sole_owner(doc, sole, agent_workspace(original, *change.env, sole).path);
  return true;
}

}  // namespace detail

/// Applies `change` to `<state-dir>/openclaw.json`. Absent: created (with the implicit
/// `main` agent kept as an entry). Strict JSON: only the named members change, everything
/// else is kept in order, and the file is replaced atomically. JSON5 features the writer
/// cannot keep (comments, unquoted keys, trailing commas, single quotes): the file is not
/// touched and `refusal`/`snippet` say what to do.
template <class Fs>
config_outcome apply_config_change(Fs& fs, const std::string& state_dir,
                                   const config_change& change,
                                   std::vector<std::string>* created_dirs) {
  config_outcome out;
  const std::string shown = paths::join(state_dir, config_file_name);
  out.previous = detail::read_state_file(fs, state_dir, config_file_name);
  // Every refusal leaves the file alone and hands the user the snippet to add by hand.
  const auto refuse = [&](std::string why) {
    out.refusal = std::move(why);
    out.snippet = config_snippet(change);
    return out;
  };
  value doc = value::object();
  if (out.previous) {
    doc = value::parse(*out.previous, nullptr, false);
    if (doc.is_discarded()) {
      return refuse(shown +
                    " uses JSON5 (comments, unquoted keys, trailing commas or single quotes) "
                    "that clawport cannot keep when rewriting it, so it was left byte-identical");
    }
    if (!doc.is_object() || (doc.contains("agents") && !doc["agents"].is_object()) ||
        (doc.contains("mcp") && !doc["mcp"].is_object())) {
      return refuse(shown + " does not have the shape clawport expects, so it was left alone");
    }
  }
  if (!change.agents.empty() && !detail::merge_agents(doc, change)) {
    return refuse(shown + ": agents.entries is not an object, so the file was left alone");
  }
  if (!change.mcp_servers.empty() || !change.drop_mcp_servers.empty()) {
    value& mcp = doc["mcp"];
    if (mcp.is_null()) mcp = value::object();
    value& servers = mcp["servers"];
    if (servers.is_null()) servers = value::object();
    if (!servers.is_object()) {
      return refuse(shown + ": mcp.servers is not an object, so the file was left alone");
    }
    detail::merge_entries(servers, change.mcp_servers, change.remove);
    for (const auto& m : change.drop_mcp_servers) servers.erase(m);
  }
  auto d = detail::open_state_dir(fs, state_dir, created_dirs);
  publish::replace_options o;
  o.new_mode = private_file_mode;  // as OpenClaw creates it: it may hold secrets
  publish::replace_file(fs, d, config_file_name, js_stringify(doc, 2) + "\n", shown, o);
  out.written = true;
  out.created = !out.previous;
  return out;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
