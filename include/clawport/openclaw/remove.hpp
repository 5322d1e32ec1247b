// SPDX-License-Identifier: MIT
// `claw remove` (docs/openclaw.md, "Lifecycle"): the remove plan
// `openclaw.clawRemovePlan.v1` (unchanged managed files only) and its apply, the ledger
// entry last, each step undone on failure.
#pragma once

#include "../core/config.hpp"
#include "../publish/undo.hpp"
#include "lifecycle_base.hpp"
#include "status.hpp"

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
namespace openclaw {

/// What one action of a remove plan acts on.
enum class remove_kind {
  agent,
  mcp_server,
  package_ref,
  cron_job,
  workspace_file,
  workspace,
  install_record
};

/// What one action of a remove plan does: `erase` is the wire `delete` (a file the Claw
/// introduced and nobody changed, the install record).
enum class remove_verb { remove, retain, release, erase };

inline constexpr std::string_view remove_kind_names[] = {
    "agent", "mcpServer", "packageRef", "cronJob", "workspaceFile", "workspace", "installRecord"};
constexpr std::string_view to_string(remove_kind k) noexcept {
  return wire_name<remove_kind::install_record>(k, remove_kind_names, "agent");
}

inline constexpr std::string_view remove_verb_names[] = {"remove", "retain", "release", "delete"};
constexpr std::string_view to_string(remove_verb v) noexcept {
  return wire_name<remove_verb::erase>(v, remove_verb_names, "remove");
}

/// One action of a remove plan; `details` is what the plan shows of it.
struct remove_action {
  remove_kind kind = remove_kind::agent;
  std::string id;
  remove_verb verb = remove_verb::remove;
  value details;
  std::string origin;  ///< workspaceFile: the row's origin (created | adopted | ...)
};

/// The remove plan `openclaw.clawRemovePlan.v1`, as data.
struct remove_plan {
  std::string target;
  std::optional<std::string> agent_id;  ///< the one install `target` names
  std::vector<remove_action> actions;
  std::vector<plan_blocker> blockers;
  std::string integrity;  ///< planIntegrity

  /// The ids of the actions of `kind` whose verb is `verb`.
  std::vector<std::string> ids(remove_kind kind, remove_verb verb) const {
    std::vector<std::string> out;
    for (const auto& a : actions)
      if (a.kind == kind && a.verb == verb) out.push_back(a.id);
    return out;
  }
};

/// One action as the remove plan shows it.
inline value to_json(const remove_action& a) {
  return value::object({{"kind", std::string(to_string(a.kind))},
                        {"id", a.id},
                        {"action", std::string(to_string(a.verb))},
                        {"details", a.details}});
}

/// The error of a remove plan: its first blocker.
inline std::optional<error_member> error_member_of(const remove_plan& p) {
  return first_error(p.blockers);
}

/// The remove plan document.
inline value to_json(const remove_plan& p) {
  value plan = mutation_document("openclaw.clawRemovePlan.v1", false);
  plan["planIntegrity"] = p.integrity;
  plan["target"] = p.target;
  if (p.agent_id) plan["agentId"] = *p.agent_id;
  plan["actions"] = array_of(p.actions);
  plan["blockers"] = to_json(p.blockers);
  return plan;
}

/// The human form of a remove plan (after the experimental banner), every line through the
/// one terminal-safe renderer (core/text.hpp).
inline std::string plan_text(const remove_plan& p) {
  text::terminal_lines line;
  line(experimental_banner);
  line("Plan: remove " + p.target + " (dry run, nothing written)");
  line("  plan integrity:  " + p.integrity);
  for (const auto& a : p.actions) {
    std::string l = "    " + detail::action_words(a);
    // An adopted file is kept, never deleted.
    if (a.kind == remove_kind::workspace_file && a.verb == remove_verb::retain &&
        a.origin == "adopted")
      l += " (adopted: kept)";
    line(l);
  }
  detail::blocker_lines(line, p.blockers);
  return std::move(line.text);
}

namespace detail {

/// The install records `target` names (agent id or Claw package name), sorted.
inline std::vector<std::string> installs_named(const ledger& l, const std::string& target) {
  std::vector<std::string> found;
  for (const auto& r : l.installs)
    if (matches(r.second, target)) found.push_back(r.first);
  return found;
}

/// The blocker when `target` names no install or more than one.
inline std::optional<plan_blocker> target_blocker(const std::vector<std::string>& found,
                                                  const std::string& target) {
  if (found.empty())
    return make_blocker(errc::claw_not_found,
                        "No Claw installed as agent or package " + target + ".");
  if (found.size() > 1)
    return make_blocker(errc::claw_ambiguous,
                        target + " names more than one installed Claw; name the agent id.");
  return std::nullopt;
}

/// The remove actions of the agent entry, the MCP servers, packages and cron jobs.
inline void remove_config_actions(remove_plan& p, const install_status& s) {
  const install_record& rec = s.record;
  const std::string& id = s.agent_id;
  const auto act = [&](remove_kind kind, const std::string& aid, remove_verb verb, value details) {
    p.actions.push_back({kind, aid, verb, std::move(details), {}});
  };
  if (rec.agent_origin == "adopted") {
    // A migrated agent predates its Claw: remove releases the install record and keeps the
    // agent, its workspace and its transcripts (upstream's migrate tests, agentRemoved false).
    act(remove_kind::agent, id, remove_verb::release,
        value::object({{"state", s.agent_state}, {"origin", "adopted"}}));
  } else if (s.agent_state == "present") {
    act(remove_kind::agent, id, remove_verb::remove,
        value::object(
            {{"target",
              rec.agent_owned_paths.empty() ? value() : value(rec.agent_owned_paths.front())}}));
  } else if (s.agent_state == "modified") {
    act(remove_kind::agent, id, remove_verb::retain, value::object({{"state", "modified"}}));
    p.blockers.push_back(
        make_blocker(errc::agent_modified, "Agent " + id +
                                               " was changed in openclaw.json since it was "
                                               "added; restore it or remove it by hand first."));
  }
  for (const auto& m : s.mcp_servers) {
    const bool mine = m.managed() && m.state == "present";
    act(remove_kind::mcp_server, m.name,
        mine ? remove_verb::remove : (m.managed() ? remove_verb::retain : remove_verb::release),
        value::object({{"state", m.state}, {"relationship", m.row.relationship}}));
  }
  for (const auto& pk : s.packages)
    act(remove_kind::package_ref, pk.first.kind + ":" + pk.first.ref, remove_verb::release,
        value::object({{"state", pk.second}}));
  for (const auto& j : rec.cron_jobs)
    act(remove_kind::cron_job, j.manifest_id, remove_verb::release,
        value::object({{"state", "not-applied"}}));
}

/// The remove actions of the workspace: unchanged files the Claw introduced are deleted,
/// the rest retained or released; the workspace goes only if it was created and nothing
/// stays in it.
inline void remove_workspace_actions(remove_plan& p, const install_status& s) {
  const install_record& rec = s.record;
  bool keeps = false;
  for (const auto& f : s.files) {
    const bool introduced = f.row.claw_introduced();
    const remove_verb verb = f.state == "missing"                   ? remove_verb::release
                             : f.state == "unchanged" && introduced ? remove_verb::erase
                                                                    : remove_verb::retain;
    keeps = keeps || verb == remove_verb::retain;
    p.actions.push_back({remove_kind::workspace_file, f.path, verb,
                         value::object({{"state", f.state},
                                        {"contentDigest", f.row.content_digest},
                                        {"origin", f.row.origin}}),
                         f.row.origin});
    if (f.state == "unsafe" && introduced)
      p.blockers.push_back(
          make_blocker(errc::workspace_file_unsafe,
                       "Workspace file " + f.path + " is not a plain regular file any more."));
  }
  for (const auto& u : s.unmanaged) {
    keeps = true;
    p.actions.push_back({remove_kind::workspace_file,
                         u,
                         remove_verb::retain,
                         value::object({{"state", "unmanaged"}}),
                         {}});
  }
  const bool created = rec.workspace_origin == "created";
  p.actions.push_back(
      {remove_kind::workspace,
       rec.workspace,
       created && !keeps ? remove_verb::remove : remove_verb::retain,
       value::object({{"origin", rec.workspace_origin}, {"emptyDirectoriesOnly", true}}),
       {}});
  p.actions.push_back({remove_kind::install_record,
                       s.agent_id,
                       remove_verb::erase,
                       value::object({{"ledger", ledger_file_name}}),
                       {}});
}

}  // namespace detail

/// The remove plan of `target` against the ledger, the live openclaw.json and the disk.
template <class Fs>
remove_plan build_remove_plan(Fs& fs, const destination_request& req, const std::string& target) {
  const std::string state_dir = state_dir_of(req);
  const ledger l = read_ledger(fs, state_dir);
  remove_plan p;
  p.target = target;
  const std::vector<std::string> found = detail::installs_named(l, target);
  if (auto b = detail::target_blocker(found, target)) {
    p.blockers.push_back(std::move(*b));
  } else {
    p.agent_id = found.front();
    const install_record& rec = l.installs.at(*p.agent_id);
    const value cfg = detail::live_config(fs, state_dir);
    const install_status s = detail::status_of_record(fs, rec, cfg, {});
    detail::remove_config_actions(p, s);
    detail::remove_workspace_actions(p, s);
  }
  p.integrity = remove_plan_integrity_of(p);
  return p;
}

/// `claw remove <target> --dry-run`: the remove plan `openclaw.clawRemovePlan.v1`.
template <class Fs>
value plan_remove(Fs& fs, const destination_request& req, const std::string& target) {
  return to_json(build_remove_plan(fs, req, target));
}

/// What a consented remove did.
struct remove_result {
  std::string agent_id;
  bool agent_removed = false;
  std::vector<std::string> files_deleted;
  std::vector<std::string> retained;  ///< workspace files kept
  std::vector<std::string> released;  ///< `<kind>:<id>` of every released action
  std::string failure;                ///< empty when complete
};

/// What `apply_remove` returns: the typed result once the remove ran, else why it stopped.
using remove_outcome = outcome<remove_result>;

namespace detail {

inline const char* status_of(const remove_result& r) {
  return r.failure.empty() ? "complete" : "partial";
}
/// The error a partial remove reports, in its document and its text.
inline std::string failure_message(const remove_result& r) {
  return r.failure + "; run claw status to see what remains";
}

}  // namespace detail

/// The error of a remove that ran and could not finish.
inline std::optional<error_member> error_member_of(const remove_result& r) {
  if (r.failure.empty()) return std::nullopt;
  return error_member{errc::remove_failed, detail::failure_message(r), std::nullopt, ""};
}

/// The result document of a remove that ran.
inline value to_json(const remove_result& r) {
  value d = document("openclaw.clawRemoveResult.v1");
  d["dryRun"] = false;
  d["status"] = detail::status_of(r);
  d["agentId"] = r.agent_id;
  d["agentRemoved"] = r.agent_removed;
  d["workspaceFiles"] = r.files_deleted;
  d["retained"] = r.retained;
  d["released"] = r.released;
  if (const auto e = error_member_of(r)) d["error"] = to_json(*e);
  return d;
}

namespace detail {

/// The record's workspace rows without the paths in `gone`.
inline std::vector<file_row> rows_without(const install_record& rec,
                                          const std::set<std::string>& gone) {
  std::vector<file_row> rows;
  for (const auto& f : rec.workspace_files)
    if (!gone.count(f.path)) rows.push_back(f);
  return rows;
}

/// The undo step (publish::undo_journal) that puts back the state file `name` as it was
/// (`before`; none: it did not exist), unless `skip` is set by then; its name in the journal
/// is the tail of a failure message.
template <class Fs>
std::function<void()> restore_step(Fs& fs, const std::string& state_dir, std::string name,
                                   std::optional<std::string> before,
                                   std::shared_ptr<const bool> skip = nullptr) {
  return [&fs, &state_dir, name = std::move(name), before = std::move(before), skip] {
    if (!(skip && *skip)) restore_state_file(fs, state_dir, name, before);
  };
}

/// Remove step 2: the agent entry and the MCP servers this Claw created leave openclaw.json
/// (its previous bytes recorded in `undo` first). On a failure `undo` runs (openclaw.json,
/// then the ledger) and the failure is returned.
template <class Fs>
std::optional<failure> remove_config_entries(Fs& fs, const std::string& state_dir,
                                             const config_change& change,
                                             publish::undo_journal& undo) {
  constexpr const char* schema = "openclaw.clawRemoveResult.v1";
  if (change.agents.empty() && change.mcp_servers.empty()) return std::nullopt;
  config_outcome cfg;
  auto refused = std::make_shared<bool>(false);  // refused: nothing was written
  try {
    std::optional<std::string> before = read_state_file(fs, state_dir, config_file_name);
    if (before)
      undo.add("openclaw.json could not be restored",
               restore_step(fs, state_dir, config_file_name, std::move(before), refused));
    cfg = apply_config_change(fs, state_dir, change, nullptr);
  } catch (const error& e) {
    return failure_of(schema, errc::remove_failed,
                      std::string(e.what()) + "; nothing was removed" + undo.run_tail());
  }
  if (cfg.written) return std::nullopt;
  *refused = true;
  failure f = failure_of(schema, errc::config_commit_failed,
                         cfg.refusal + "; nothing was removed" + undo.run_tail() +
                             ". Remove the members by hand, then run remove again:");
  f.snippet = cfg.snippet;
  return f;
}

/// Remove step 3: one unlink per file to delete; the deleted ones are appended to
/// `deleted`. Returns the failure, if any.
template <class Fs>
std::string delete_workspace_files(Fs& fs, const std::string& ws,
                                   const std::vector<std::string>& doomed,
                                   std::vector<std::string>& deleted) {
  if (doomed.empty()) return "";  // a re-run after a kill: the workspace may be gone already
  try {
    auto root = open_dir_path(fs, ws);
    for (const auto& rel : doomed) {
      at_rel(fs, root, rel,
             [&](const typename Fs::dir& d, const std::string& n) { fs.unlink_at(d, n); });
      deleted.push_back(rel);
    }
    fs.sync_filesystem(root);
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

/// Remove step 3b: the empty directories this Claw made (in an adopted workspace) or the
/// directories of a created workspace, deepest first, then the created workspace itself
/// when `remove_ws` and it is empty. Leftovers are untidy, not inconsistent: never fails.
template <class Fs>
void remove_emptied_dirs(Fs& fs, const install_record& rec, bool remove_ws) {
  const std::string& ws = rec.workspace;
  try {
    std::vector<std::string> dirs;
    for (const auto& f : rec.workspace_files) {
      std::string rel = f.path;
      for (rel = paths::parent(rel); !rel.empty() && rel != "/"; rel = paths::parent(rel))
        dirs.push_back(rel);
    }
    std::sort(dirs.begin(), dirs.end(), [](const std::string& a, const std::string& b) {
      return a.size() > b.size() || (a.size() == b.size() && a < b);
    });
    dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
    const bool created = rec.workspace_origin == "created";
    const std::set<std::string> made(rec.created_dirs.begin(), rec.created_dirs.end());
    auto root = open_dir_path(fs, ws);
    for (const auto& rel : dirs) {
      if (!created && !made.count(rel)) continue;
      at_rel(fs, root, rel, [&](const typename Fs::dir& d, const std::string& n) {
        const auto st = fs.stat_at(d, n);
        if (!st || st->kind != fs::file_kind::directory) return;
        auto sub = fs.open_dir_at(d, n);
        if (fs.is_empty(sub)) fs.remove_dir_at(d, n);
      });
    }
    if (remove_ws) {
      auto parent = open_dir_path(fs, parent_of(ws));
      if (fs.is_empty(root)) fs.remove_dir_at(parent, paths::file_name(ws));
    }
  } catch (const error&) {
  }
}

}  // namespace detail

/// `claw remove <target> --yes --plan-integrity`: the ledger first marks the files about to
/// go `removing`, then openclaw.json (the agent entry and the MCP servers this Claw created,
/// unchanged), then the unchanged managed files, then the directories it emptied, then the
/// ledger entry. A failure part-way rewrites the ledger entry to what is still on disk, so
/// the ledger never names a file that is gone.
template <class Fs>
remove_outcome apply_remove(Fs& fs, const destination_request& req, const std::string& target,
                            const consent& c, const std::string& now) {
  constexpr const char* schema = "openclaw.clawRemoveResult.v1";
  const clawport::plan::subject subject{"remove", "remove --dry-run"};
  remove_outcome out;
  if (detail::refused(out, schema, clawport::plan::check_given(c), subject)) return out;
  const remove_plan plan = build_remove_plan(fs, req, target);
  if (detail::refused(out, schema,
                      clawport::plan::check_integrity(*c.plan_integrity, plan.integrity), subject))
    return out;
  if (!plan.blockers.empty()) {
    out.failed = failure_of(schema, errc::remove_blocked, plan.blockers[0].message);
    out.failed->blockers = plan.blockers;
    return out;
  }
  const std::string state_dir = state_dir_of(req);
  remove_result res;
  res.agent_id = *plan.agent_id;
  const std::string& id = res.agent_id;
  ledger l = read_ledger(fs, state_dir);
  install_record rec = l.installs.at(id);
  config_change change;
  change.remove = true;
  if (!plan.ids(remove_kind::agent, remove_verb::remove).empty())
    change.agents.emplace_back(id, value());
  for (const auto& name : plan.ids(remove_kind::mcp_server, remove_verb::remove))
    change.mcp_servers.emplace_back(name, value());
  res.agent_removed = !change.agents.empty();
  res.retained = plan.ids(remove_kind::workspace_file, remove_verb::retain);
  for (const auto& a : plan.actions)
    if (a.verb == remove_verb::release)
      res.released.push_back(std::string(to_string(a.kind)) + ":" + a.id);
  const bool remove_ws = !plan.ids(remove_kind::workspace, remove_verb::remove).empty();
  const std::vector<std::string> doomed = plan.ids(remove_kind::workspace_file, remove_verb::erase);

  // 1. The intent first: the ledger marks the files about to be deleted `removing` (still
  // clawport's, so a remove killed after this is finished by its re-run, which deletes
  // what is unchanged and releases what is gone).
  publish::undo_journal undo;  // until openclaw.json is written: the ledger, openclaw.json
  undo.add("the ledger could not be restored",
           detail::restore_step(fs, state_dir, ledger_file_name, l.bytes));
  try {
    install_record removing = rec;
    removing.status = "removing";
    const std::set<std::string> marked(doomed.begin(), doomed.end());
    for (auto& row : removing.workspace_files)
      if (marked.count(row.path)) row.status = "removing";
    removing.updated_at = now;
    l.installs[id] = removing;
    write_ledger(fs, state_dir, l);
  } catch (const error& e) {
    // The rename may have happened before a failed directory flush: put it back.
    out.failed = failure_of(schema, errc::remove_failed,
                            std::string(e.what()) + "; nothing was removed" + undo.run_tail());
    return out;
  }
  // 2. openclaw.json.
  out.failed = detail::remove_config_entries(fs, state_dir, change, undo);
  if (out.failed) return out;
  undo.commit();  // from here a failure is recorded in the ledger, never undone
  // 3. The files, one unlink each, then the directories they emptied.
  res.failure = detail::delete_workspace_files(fs, rec.workspace, doomed, res.files_deleted);
  if (res.failure.empty()) detail::remove_emptied_dirs(fs, rec, remove_ws);
  // 4. The ledger entry goes last; after a failure it names again what is still there.
  try {
    if (res.failure.empty()) {
      l.installs.erase(id);
    } else {
      rec.workspace_files =
          detail::rows_without(rec, {res.files_deleted.begin(), res.files_deleted.end()});
      rec.status = "partial";
      rec.config = "removed";
      rec.updated_at = now;
      l.installs[id] = rec;
    }
    write_ledger(fs, state_dir, l);
  } catch (const error& e) {
    res.failure += (res.failure.empty() ? "" : "; ") +
                   std::string("the ledger could not be updated: ") + e.what();
  }
  out.ok = res.failure.empty();
  out.result = std::move(res);
  return out;
}

/// The human form of a remove that ran (after the experimental banner); a partial one starts
/// with its error. Every line through the one terminal-safe renderer (core/text.hpp).
inline std::string result_text(const remove_result& r) {
  text::terminal_lines line;
  line(experimental_banner);
  if (!r.failure.empty())
    line("ERROR " + std::string(to_string(errc::remove_failed)) + ": " +
         detail::failure_message(r));
  line("Removed " + r.agent_id + " (" + detail::status_of(r) +
       "): " + std::to_string(r.files_deleted.size()) + " files deleted, " +
       std::to_string(r.retained.size()) + " kept");
  for (const auto& kept : r.retained) line("  kept " + kept);
  return std::move(line.text);
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
