// SPDX-License-Identifier: MIT
// `claw status` (docs/openclaw.md, "Lifecycle"): each install against the disk and the
// live openclaw.json (drift, ownership conflicts, unmanaged files), read-only.
#pragma once

#include "../core/config.hpp"
#include "../core/paths.hpp"
#include "add.hpp"
#include "lifecycle_base.hpp"
#include "state.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

namespace detail {

/// The live `openclaw.json` (JSON5), or an empty object.
template <class Fs>
value live_config(Fs& fs, const std::string& state_dir) {
  const std::optional<std::string> bytes = read_state_file(fs, state_dir, config_file_name);
  if (!bytes) return value::object();
  json5::result r = json5::parse(*bytes);
  if (!r.ok() || !r.data.is_object()) {
    const std::string shown = paths::join(state_dir, config_file_name);
    throw error(errc::config_parse,
                shown + " does not parse" + (r.ok() ? std::string() : ": " + *r.error), shown);
  }
  return std::move(r.data);
}

inline const value* config_member(const value& cfg, const char* a, const char* b,
                                  const std::string& key) {
  const value* x = get(cfg, a);
  const value* y = x ? get(*x, b) : nullptr;
  return y && y->is_object() ? get(*y, key.c_str()) : nullptr;
}

/// The state of one recorded file: unchanged, modified, missing or unsafe.
template <class Fs>
std::string file_state(Fs& fs, const std::optional<typename Fs::dir>& root, const file_row& f) {
  if (!root) return "missing";
  const file_read r = read_in_root(fs, *root, f.path, state_file_max_bytes);
  if (r.status == read_status::missing && r.detail.empty()) return "missing";
  if (r.status != read_status::ok) return "unsafe";
  return sha256_digest(r.bytes) == f.content_digest ? "unchanged" : "modified";
}

/// Whether `target` (none: every install) names the install `rec`: its agent id or its
/// Claw's package name.
inline bool matches(const install_record& rec, const std::optional<std::string>& t) {
  return !t || *t == rec.agent_id || rec.claw.name == *t;
}

}  // namespace detail

/// One recorded workspace file against the disk.
struct file_status {
  std::string path;
  file_row row;       ///< the ledger row
  std::string state;  ///< unchanged | modified | missing | unsafe | the row's own status
  bool ownership_conflict = false;
};

/// One recorded MCP server reference against the live openclaw.json.
struct mcp_status {
  std::string name;
  mcp_ref row;        ///< the ledger reference
  std::string state;  ///< present | modified | missing
  bool managed() const { return row.managed(); }
};

/// One install record against the disk and the live openclaw.json.
struct install_status {
  std::string agent_id;
  install_record record;    ///< the ledger's install record (a copy: the status owns it)
  std::string agent_state;  ///< present | modified | missing
  std::vector<file_status> files;
  std::vector<std::string> unmanaged;
  std::vector<std::pair<package_ref, std::string>> packages;  ///< ledger row → state
  std::vector<mcp_status> mcp_servers;
};

namespace detail {

/// The state of the agent entry: present (as recorded), modified or missing.
inline std::string agent_state(const value& cfg, const install_record& rec) {
  const value* entry = config_member(cfg, "agents", "entries", rec.agent_id);
  if (entry == nullptr) return "missing";
  // A ledger written when the entry still carried its `id` recorded the digest with it.
  const bool same = agent_entry_digest(*entry) == rec.agent_config_digest ||
                    digest_of(*entry) == rec.agent_config_digest;
  return same ? "present" : "modified";
}

/// Every file below `root` (the workspace `ws`) that no row of the record names.
template <class Fs>
std::vector<std::string> unmanaged_files(Fs& fs, const typename Fs::dir& root,
                                         const std::string& ws,
                                         const std::set<std::string>& managed) {
  std::vector<std::string> all, out;
  try {
    list_tree(fs, root, "", all, 32);
  } catch (const error& e) {
    // Too deep to list: said, never a partial list of unmanaged files.
    if (e.code() == errc::limit_exceeded)
      throw error(e.code(), "failed to list the workspace " + ws + ": " + e.what(),
                  paths::join(ws, e.subject()));
  }
  for (const auto& rel : all)
    if (!managed.count(rel)) out.push_back(rel);
  return out;
}

/// The status of one install record against the disk.
template <class Fs>
install_status status_of_record(Fs& fs, const install_record& rec, const value& cfg,
                                const std::map<std::string, int>& owners) {
  install_status s;
  s.agent_id = rec.agent_id;
  s.record = rec;
  s.agent_state = agent_state(cfg, rec);
  const std::string& ws = rec.workspace;
  std::optional<typename Fs::dir> root;
  try {
    root.emplace(open_dir_path(fs, ws));
  } catch (const error&) {
  }
  std::set<std::string> managed;
  for (const auto& f : rec.workspace_files) {
    file_status x;
    x.path = f.path;
    x.row = f;
    // A `removing` row is a remove's intent (it was about to delete the file): its state
    // is the disk's, so a re-run deletes it if unchanged and releases it if gone.
    x.state = f.status == "complete" || f.status == "removing" ? file_state(fs, root, f) : f.status;
    const auto o = owners.find(paths::join(ws, x.path));
    x.ownership_conflict = o != owners.end() && o->second > 1;
    managed.insert(x.path);
    s.files.push_back(std::move(x));
  }
  if (root) s.unmanaged = unmanaged_files(fs, *root, ws, managed);
  for (const auto& p : rec.packages)
    s.packages.emplace_back(p, p.status == "not_installed" ? "not-installed" : "incomplete");
  for (const auto& m : rec.mcp_servers) {
    mcp_status x;
    x.name = m.name;
    x.row = m;
    const value* live = config_member(cfg, "mcp", "servers", x.name);
    x.state = live == nullptr                                             ? "missing"
              : digest_of(canonical_mcp_server(*live)) == m.config_digest ? "present"
                                                                          : "modified";
    s.mcp_servers.push_back(std::move(x));
  }
  return s;
}

/// The status of one install record as `claw status` prints it.
inline value to_json(const install_status& s) {
  const install_record& rec = s.record;
  value d = value::object();
  d["agentId"] = s.agent_id;
  d["install"] = value::object({{"status", rec.status},
                                {"claw", as_ledger_holds(to_json(rec.claw))},
                                {"planIntegrity", rec.plan_integrity},
                                {"workspace", rec.workspace},
                                {"workspaceOrigin", rec.workspace_origin},
                                {"agentOrigin", rec.agent_origin},
                                {"config", rec.config}});
  d["agentState"] = s.agent_state;
  value files = value::array();
  for (const auto& f : s.files) {
    value x = value::object({{"path", f.path},
                             {"sourcePath", f.row.source_path},
                             {"contentDigest", f.row.content_digest},
                             {"origin", f.row.origin},
                             {"state", f.state}});
    if (f.ownership_conflict) x["ownershipConflict"] = true;
    files.push_back(std::move(x));
  }
  d["workspaceFiles"] = std::move(files);
  d["unmanagedFiles"] = s.unmanaged;
  value pkgs = value::array();
  for (const auto& p : s.packages) {
    value x = as_ledger_holds(to_json(p.first));
    x["state"] = p.second;
    pkgs.push_back(std::move(x));
  }
  d["packages"] = std::move(pkgs);
  value mcps = value::array();
  for (const auto& m : s.mcp_servers)
    mcps.push_back(value::object({{"name", m.row.name},
                                  {"relationship", m.row.relationship},
                                  {"origin", m.row.origin},
                                  {"state", m.state}}));
  d["mcpServers"] = std::move(mcps);
  value crons = value::array();
  for (const auto& j : rec.cron_jobs)
    crons.push_back(value::object({{"id", j.manifest_id},
                                   {"declarationKey", j.declaration_key},
                                   {"state", "not-applied"},
                                   {"code", j.code}}));
  d["cronJobs"] = std::move(crons);
  return d;
}

}  // namespace detail

/// What `claw status` found: each recorded install it looked at (all, or the ones `target`
/// names) against the disk. The records own their ledger rows.
struct status_result {
  std::string state_dir;
  std::optional<std::string> target;
  std::vector<install_status> records;
  bool ok = false;  ///< false only when a target matched nothing
};

/// A status names no error of its own (a target that matched nothing is the caller's).
inline std::optional<error_member> error_member_of(const status_result&) { return std::nullopt; }

/// The `openclaw.clawStatus.v1` document.
inline value to_json(const status_result& r) {
  const std::optional<std::string>& target = r.target;
  const std::vector<install_status>& records = r.records;
  std::size_t partial = 0, missing_agents = 0, drifted = 0, pkg_refs = 0, missing_pkgs = 0,
              mcp_refs = 0, drifted_mcp = 0, cron_refs = 0, unmanaged = 0, conflicts = 0,
              modified_agents = 0;
  value rendered = value::array();
  for (const auto& s : records) {
    partial += s.record.status != "complete";
    missing_agents += s.agent_state == "missing";
    modified_agents += s.agent_state == "modified";
    for (const auto& f : s.files) {
      // A file a killed remove had deleted (its row `removing`) is not drift.
      drifted += f.state != "unchanged" && !(f.row.status == "removing" && f.state == "missing");
      conflicts += f.ownership_conflict;
    }
    unmanaged += s.unmanaged.size();
    pkg_refs += s.packages.size();
    for (const auto& p : s.packages) missing_pkgs += p.second != "present";
    mcp_refs += s.mcp_servers.size();
    for (const auto& m : s.mcp_servers) drifted_mcp += m.state != "present";
    cron_refs += s.record.cron_jobs.size();
    rendered.push_back(detail::to_json(s));
  }
  value d = document("openclaw.clawStatus.v1");
  if (target) d["target"] = *target;
  d["stateDir"] = r.state_dir;
  d["summary"] = value::object({{"claws", records.size()},
                                {"partial", partial},
                                {"missingAgents", missing_agents},
                                {"modifiedAgents", modified_agents},
                                {"driftedFiles", drifted},
                                {"unmanagedFiles", unmanaged},
                                {"ownershipConflicts", conflicts},
                                {"packageRefs", pkg_refs},
                                {"missingPackages", missing_pkgs},
                                {"driftedPackages", 0},
                                {"incompletePackages", 0},
                                {"mcpServerRefs", mcp_refs},
                                {"driftedMcpServers", drifted_mcp},
                                {"unresolvedMcpServerRefs", 0},
                                {"cronRefs", cron_refs},
                                {"unresolvedCronRefs", cron_refs}});
  d["records"] = std::move(rendered);
  return d;
}

/// `claw status [target]`: every recorded install (or the one whose agent id or Claw name is
/// `target`) against the disk. Changes nothing.
template <class Fs>
status_result claw_status(Fs& fs, const destination_request& req,
                          const std::optional<std::string>& target) {
  const std::string state_dir = state_dir_of(req);
  const ledger l = read_ledger(fs, state_dir);
  const value cfg = detail::live_config(fs, state_dir);
  std::map<std::string, int> owners;
  for (const auto& r : l.installs)
    for (const auto& f : r.second.workspace_files)
      ++owners[paths::join(r.second.workspace, f.path)];
  status_result out{state_dir, target, {}, false};
  for (const auto& r : l.installs)  // by agent id
    if (detail::matches(r.second, target))
      out.records.push_back(detail::status_of_record(fs, r.second, cfg, owners));
  out.ok = !target || !out.records.empty();
  return out;
}

namespace detail {

/// The lines of one install's status.
inline void status_lines(text::terminal_lines& line, const install_status& s) {
  line("Claw " + s.record.claw.name + " as agent " + s.agent_id + ": install " + s.record.status +
       ", agent " + s.agent_state);
  for (const auto& f : s.files)
    line("  " + f.state + " " + f.path + (f.ownership_conflict ? " (ownership conflict)" : ""));
  for (const auto& u : s.unmanaged) line("  unmanaged " + u);
  for (const auto& m : s.mcp_servers) line("  mcp " + m.row.name + ": " + m.state);
  for (const auto& p : s.packages)
    line("  package " + p.first.kind + ":" + p.first.ref + ": " + p.second);
  for (const auto& j : s.record.cron_jobs) line("  cron " + j.manifest_id + ": not-applied");
}

}  // namespace detail

/// The human form of `claw status` (after the experimental banner), every line through the
/// one terminal-safe renderer (core/text.hpp).
inline std::string result_text(const status_result& r) {
  text::terminal_lines line;
  line(experimental_banner);
  for (const auto& s : r.records) detail::status_lines(line, s);
  if (r.records.empty()) line("No Claws installed.");
  return std::move(line.text);
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
