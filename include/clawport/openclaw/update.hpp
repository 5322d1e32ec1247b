// SPDX-License-Identifier: MIT
// `claw update <claw-or-agent> --yes` offline (docs/openclaw.md, "Update"): the plan is
// update_plan.hpp's; the apply stages every new file beside its destination, renames them in,
// writes openclaw.json once and the ledger last, and undoes everything in reverse on any failure.
// ClawHub packages and cron jobs cannot be applied offline: they are recorded as not
// installed / not applied and the result is `partial` with `update_partial`.
#pragma once

#include "../publish/names.hpp"
#include "../publish/undo.hpp"
#include "lifecycle.hpp"
#include "update_plan.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

namespace detail {

/// What the undo steps of an update (publish::undo_journal) need, filled as it runs.
/// Declared before the journal, so it outlives the steps that refer to it.
struct update_undo_state {
  std::vector<std::string> created_dirs;  ///< workspace-relative, outermost first
  std::set<std::string> renamed;          ///< staged files already renamed into place
  bool config_written = false;            ///< openclaw.json may have been rewritten
};

/// Records the undo of a workspace-relative path `rel` under `root`: `f(dir, name)`.
template <class Fs, class F>
void record_at_rel(Fs& fs, const typename Fs::dir& root, const std::string& rel,
                   publish::undo_journal& undo, F f) {
  undo.add(rel, [&fs, &root, rel, f] {
    at_rel(fs, root, rel, [&](const typename Fs::dir& d, const std::string& n) { f(d, n); });
  });
}

/// Records the undo of the directories `s.created_dirs` gained since it held `from`
/// entries: each removed again once empty.
template <class Fs>
void record_created_dirs(Fs& fs, const typename Fs::dir& root, const update_undo_state& s,
                         std::size_t from, publish::undo_journal& undo) {
  for (std::size_t i = from; i < s.created_dirs.size(); ++i)
    record_at_rel(
        fs, root, s.created_dirs[i], undo, [&fs](const typename Fs::dir& d, const std::string& n) {
          const auto st = fs.stat_at(d, n);
          if (st && st->kind == fs::file_kind::directory && fs.is_empty(fs.open_dir_at(d, n)))
            fs.remove_dir_at(d, n);
        });
}

inline std::string temp_sibling(const std::string& rel, const std::string& token) {
  return paths::join(paths::parent(rel), publish::temp_file_name(publish::staging_kind::update,
                                                                 paths::file_name(rel), token));
}

}  // namespace detail

/// One plan action an update applied: `verb` add | change | remove on the `kind` `id`.
struct applied_action {
  update_kind kind = update_kind::agent;
  std::string id;
  update_verb verb = update_verb::add;
};

inline value to_json(const applied_action& a) {
  return value::object({{"kind", std::string(to_string(a.kind))},
                        {"id", a.id},
                        {"action", std::string(to_string(a.verb))}});
}

namespace detail {

/// One file an update writes: its new bytes, the bytes it replaces (for the undo) and the
/// staging name beside it.
struct update_write {
  std::string rel;
  std::string bytes;
  std::optional<std::string> old;  ///< the current bytes of a changed file
  std::string temp;
};

/// What an update's apply does, gathered (and every byte re-read and checked) before
/// anything is written.
struct update_ops {
  std::vector<update_write> writes;
  std::vector<std::pair<std::string, std::string>> removes;  ///< rel → current bytes
  config_change change;
  std::vector<applied_action> applied;
  std::vector<not_applied_item> not_applied;
};

/// The add-plan action of the target for the file `rel`.
inline const add_action* target_file_action(const add_plan& tp, const std::string& rel) {
  for (const auto& a : tp.actions)
    if ((a.kind == add_kind::workspace_file || a.kind == add_kind::bootstrap) && a.id == rel)
      return &a;
  return nullptr;
}

/// A workspace file action: the current bytes re-read and checked against the plan, the new
/// bytes read from the package and checked against the target's digest. The problem when
/// something changed since the plan was made.
template <class Fs>
std::optional<std::string> gather_file_op(Fs& fs, const update_plan& up, const update_action& a,
                                          const typename Fs::dir& pkg_root,
                                          const typename Fs::dir& root, const std::string& token,
                                          update_ops& ops) {
  std::optional<std::string> old;
  if (a.verb != update_verb::add) {
    const file_read r = read_in_root(fs, root, a.id, state_file_max_bytes);
    if (r.status == read_status::ok) {
      if (sha256_digest(r.bytes) != a.current_digest)
        return a.id + " changed after the plan was made";
      old = r.bytes;
    } else if (a.current_present) {
      return a.id + " changed after the plan was made";
    }
  }
  if (a.verb == update_verb::remove) {
    if (old) ops.removes.emplace_back(a.id, *old);
    return std::nullopt;
  }
  update_write w;
  w.rel = a.id;
  w.old = old;
  w.temp = temp_sibling(a.id, token);
  std::string source_path, problem;
  if (!planned_bytes(fs, *up.package, pkg_root, *target_file_action(*up.target, a.id), source_path,
                     w.bytes, problem))
    return problem;
  ops.writes.push_back(std::move(w));
  return std::nullopt;
}

/// Every operation of the update plan `up`; the problem when something changed since.
template <class Fs>
std::optional<std::string> gather_update_ops(Fs& fs, const update_plan& up,
                                             const typename Fs::dir& pkg_root,
                                             const typename Fs::dir& root, update_ops& ops) {
  const std::string token = publish::random_token();
  const claw_package& pkg = *up.package;
  for (const auto& a : up.actions) {
    if (a.verb != update_verb::unchanged) ops.applied.push_back({a.kind, a.id, a.verb});
    const bool adds = a.verb == update_verb::add || a.verb == update_verb::change;
    if (a.kind == update_kind::workspace_file && (adds || a.verb == update_verb::remove)) {
      if (auto problem = gather_file_op(fs, up, a, pkg_root, root, token, ops)) return problem;
    } else if (a.kind == update_kind::agent && a.verb == update_verb::change) {
      ops.change.agents.emplace_back(up.agent_id, up.target->agent_config);
    } else if (a.kind == update_kind::mcp_server) {
      if ((a.verb == update_verb::add && a.relationship == "managed") ||
          a.verb == update_verb::change)
        ops.change.mcp_servers.emplace_back(a.id, pkg.model.mcp_server(a.id)->declaration);
      if (a.verb == update_verb::remove) ops.change.drop_mcp_servers.push_back(a.id);
    } else if (a.kind == update_kind::package && adds) {
      package_decl d;
      for (const auto& t : up.target->actions)
        if (t.kind == add_kind::package && t.id == a.id) d = t.package.decl;
      ops.not_applied.push_back(package_not_applied(a.id, d));
    } else if (a.kind == update_kind::cron_job && adds) {
      ops.not_applied.push_back(cron_not_applied(a.id));
    }
  }
  return std::nullopt;
}

/// The ledger rows of the target's workspace files: an unchanged file keeps its row.
inline std::vector<file_row> updated_file_rows(const update_plan& up, const install_record& rec) {
  std::map<std::string, file_row> old_rows;
  for (const auto& r : rec.workspace_files) old_rows[r.path] = r;
  std::vector<file_row> rows;
  for (const auto& a : up.target->actions) {
    if (a.kind != add_kind::workspace_file && a.kind != add_kind::bootstrap) continue;
    const std::string& rel = a.id;
    const update_action* u = up.action(update_kind::workspace_file, rel);
    const auto old = old_rows.find(rel);
    if (u != nullptr && u->verb == update_verb::unchanged && old != old_rows.end()) {
      rows.push_back(old->second);
      continue;
    }
    std::string source_path = a.from_body ? "CLAW.md" : "";
    if (source_path.empty()) {
      const workspace_source* src =
          a.kind == add_kind::bootstrap ? nullptr : source_for(*up.package, rel);
      source_path = src != nullptr ? src->source : "BOOTSTRAP.md";
    }
    rows.push_back({rel, source_path, a.digest.value_or(""),
                    a.kind == add_kind::bootstrap ? "bootstrap" : "file", "managed",
                    old != old_rows.end() ? old->second.origin : "claw-introduced", "complete"});
  }
  return rows;
}

/// The ledger rows of the target's ClawHub packages (never installed offline).
inline std::vector<package_ref> package_rows(const add_plan& tp) {
  std::vector<package_ref> pkgs;
  for (const auto& a : tp.actions)
    if (a.kind == add_kind::package) pkgs.push_back(package_row(a.package.decl));
  return pkgs;
}

/// The ledger references of the target's MCP servers: an unchanged one keeps its row.
inline std::vector<mcp_ref> updated_mcp_refs(const update_plan& up, const install_record& rec) {
  std::map<std::string, mcp_ref> old_refs;
  for (const auto& r : rec.mcp_servers) old_refs[r.name] = r;
  std::vector<mcp_ref> refs;
  for (const mcp_server_decl& decl : up.package->model.mcp_servers) {
    const update_action* u = up.action(update_kind::mcp_server, decl.name);
    const auto old = old_refs.find(decl.name);
    if (old != old_refs.end() && u != nullptr && u->verb == update_verb::unchanged) {
      refs.push_back(old->second);
      continue;
    }
    const bool shared = u != nullptr && u->relationship == "referenced";
    refs.push_back({decl.name, digest_of(canonical_mcp_server(decl.declaration)),
                    shared ? "referenced" : "managed", shared ? "pre-existing" : "claw-introduced",
                    shared, "complete"});
  }
  return refs;
}

/// The ledger references of the target's cron jobs (recorded, not applied offline).
inline std::vector<cron_ref> cron_refs(const add_plan& tp, const std::string& agent_id) {
  std::vector<cron_ref> crons;
  for (const auto& a : tp.actions)
    if (a.kind == add_kind::cron_job)
      crons.push_back({a.id, "claw:" + agent_id + ":" + a.id, "not_applied",
                       std::string(to_string(errc::cron_gateway_required)), cron_job_record(a)});
  return crons;
}

/// The install record after the update (its `createdDirs` are completed by the apply).
inline install_record updated_record(const update_plan& up, const install_record& rec,
                                     const std::string& now) {
  install_record record = rec;
  record.claw = up.package->source;
  record.plan_integrity = up.integrity;
  record.agent_config_digest = agent_entry_digest(up.target->agent_config);
  record.updated_at = now;
  record.workspace_files = updated_file_rows(up, rec);
  record.packages = package_rows(*up.target);
  record.mcp_servers = updated_mcp_refs(up, rec);
  record.cron_jobs = cron_refs(*up.target, up.agent_id);
  return record;
}

/// Update step 1: every new file staged beside its destination, then renamed in; removed
/// files unlinked, then the directories this Claw made that the removals emptied. Each
/// change records its undo in `undo` once done, so the journal, run newest first, puts
/// back the removed files, then the replaced ones, then removes the staged files with the
/// directories made for them, then flushes.
template <class Fs>
void update_workspace(Fs& fs, const typename Fs::dir& root, const install_record& rec,
                      const update_ops& ops, update_undo_state& s, publish::undo_journal& undo) {
  undo.add(rec.workspace, [&fs, &root] {
    try {
      fs.sync_filesystem(root);
    } catch (const error&) {
    }
  });
  for (const auto& w : ops.writes) {
    const std::size_t dirs_before = s.created_dirs.size();
    try {
      create_rel_file(fs, root, w.temp, w.bytes, s.created_dirs);  // removes its file on failure
    } catch (...) {
      record_created_dirs(fs, root, s, dirs_before, undo);
      throw;
    }
    record_created_dirs(fs, root, s, dirs_before, undo);
    const std::string temp = w.temp;
    undo.add(temp, [&fs, &root, &s, temp] {
      if (s.renamed.count(temp)) return;  // it is in place now: the file's own undo restores
      at_rel(fs, root, temp, [&](const typename Fs::dir& d, const std::string& n) {
        if (fs.stat_at(d, n)) fs.unlink_at(d, n);
      });
    });
  }
  if (!ops.writes.empty()) fs.sync_filesystem(root);
  for (const auto& w : ops.writes) {
    at_rel(fs, root, w.rel, [&](const typename Fs::dir& d, const std::string& n) {
      fs.rename_at(d, paths::file_name(w.temp), d, n, fs::rename_mode::replace);
    });
    s.renamed.insert(w.temp);
    const std::optional<std::string> old = w.old;
    const std::string rel = w.rel;
    record_at_rel(fs, root, rel, undo,
                  [&fs, old, rel](const typename Fs::dir& d, const std::string& n) {
                    if (old) {
                      publish::replace_file(fs, d, n, *old, rel);
                    } else if (fs.stat_at(d, n)) {
                      fs.unlink_at(d, n);
                    }
                  });
  }
  for (const auto& r : ops.removes) {
    at_rel(fs, root, r.first,
           [&](const typename Fs::dir& d, const std::string& n) { fs.unlink_at(d, n); });
    const std::string rel = r.first;
    const std::string bytes = r.second;
    undo.add(rel, [&fs, &root, rel, bytes] {
      std::vector<std::string> dirs;
      create_rel_file(fs, root, rel, bytes, dirs);
    });
  }
  const std::set<std::string> made(rec.created_dirs.begin(), rec.created_dirs.end());
  for (const auto& r : ops.removes) {
    std::string rel = r.first;
    for (rel = paths::parent(rel); !rel.empty() && rel != "/"; rel = paths::parent(rel)) {
      if (rec.workspace_origin != "created" && !made.count(rel)) break;
      bool emptied = false;
      at_rel(fs, root, rel, [&](const typename Fs::dir& d, const std::string& n) {
        const auto st = fs.stat_at(d, n);
        if (!st || st->kind != fs::file_kind::directory || !fs.is_empty(fs.open_dir_at(d, n)))
          return;
        fs.remove_dir_at(d, n);
        emptied = true;
      });
      if (!emptied) break;
    }
  }
  if (!ops.writes.empty() || !ops.removes.empty()) fs.sync_filesystem(root);
}

}  // namespace detail

/// A `claw update` that ran: what it applied, what it could not do offline (then it is
/// partial), and the install record as the ledger now holds it.
struct update_result {
  std::string plan_integrity;
  std::string agent_id;
  source_identity previous_claw;
  std::vector<applied_action> applied;
  std::vector<not_applied_item> not_applied;
  install_record record;
};

namespace detail {

inline const char* status_of(const update_result& r) {
  return r.not_applied.empty() ? "complete" : "partial";
}
/// The error a partial update reports, in its document and its text.
inline std::string failure_message(const update_result& r) {
  return "The workspace, openclaw.json and the ledger were updated; " +
         std::to_string(r.not_applied.size()) +
         " part(s) need a running OpenClaw (ClawHub packages, cron jobs) and were recorded as "
         "not applied.";
}

/// The typed result of the update `up` that ran the operations `ops`: the install record
/// `rec` became `record`.
inline update_result update_result_of(const update_plan& up, const install_record& rec,
                                      install_record record, update_ops& ops) {
  update_result r;
  r.plan_integrity = up.integrity;
  r.agent_id = up.agent_id;
  r.previous_claw = rec.claw;
  r.applied = std::move(ops.applied);
  r.not_applied = std::move(ops.not_applied);
  r.record = std::move(record);
  return r;
}

}  // namespace detail

/// The error of an update that ran partly (what it could not apply offline).
inline std::optional<error_member> error_member_of(const update_result& r) {
  if (r.not_applied.empty()) return std::nullopt;
  return error_member{errc::update_partial, detail::failure_message(r), std::nullopt, ""};
}

/// The result document of an update that ran.
inline value to_json(const update_result& r) {
  using t = update_result;
  value d = result_document("openclaw.clawUpdateResult.v1", detail::status_of(r), r.plan_integrity,
                            r.agent_id);
  d.update(json::object_of<value>(
      r,
      json::field("previousClaw", [](const t& x) { return detail::claw_summary(x.previous_claw); }),
      json::field("targetClaw", [](const t& x) { return detail::claw_summary(x.record.claw); }),
      json::field("appliedActions", [](const t& x) { return array_of(x.applied); }),
      json::field("notApplied", [](const t& x) { return array_of(x.not_applied); })));
  if (const auto e = error_member_of(r)) d["error"] = to_json(*e);
  d["installRecord"] = detail::as_ledger_holds(to_json(r.record));  // as the ledger holds it
  return d;
}

/// What `apply_update` returns: the typed result once the update ran, else why it stopped.
using update_outcome = outcome<update_result>;

/// The human form of an update that ran (after the experimental banner); a partial one
/// starts with its error. Every line through the one terminal-safe renderer (core/text.hpp).
inline std::string result_text(const update_result& r) {
  text::terminal_lines line;
  line(experimental_banner);
  if (!r.not_applied.empty())
    line("ERROR " + std::string(to_string(errc::update_partial)) + ": " +
         detail::failure_message(r));
  line("Updated agent " + r.agent_id + " (" + detail::status_of(r) +
       "): " + r.previous_claw.version + " -> " + r.record.claw.version);
  for (const auto& a : r.applied) line("  " + detail::action_words(a));
  detail::not_applied_lines(line, r.not_applied);
  return std::move(line.text);
}

/// `claw update <target> --yes --plan-integrity`: rebuilds the plan, requires the consented
/// planIntegrity and no blocker, then applies it: the new and changed files are staged
/// beside their destinations and renamed in, removed files unlinked, openclaw.json written
/// once (agent entry, MCP servers), the ledger last. Any failure undoes every step in
/// reverse, so the workspace, openclaw.json and the ledger hold what they held before.
template <class Fs>
update_outcome apply_update(Fs& fs, const destination_request& req, const std::string& target,
                            const std::optional<std::string>& from, const consent& c,
                            const std::string& now) {
  constexpr const char* schema = "openclaw.clawUpdateResult.v1";
  const clawport::plan::subject subject{"update", "update --dry-run"};
  update_outcome out;
  if (detail::refused(out, schema, clawport::plan::check_given(c), subject)) return out;
  const update_plan up = plan_update(fs, req, target, from);
  const auto fail = [&](errc code, std::string message) {
    out.failed = failure_of(schema, code, std::move(message));
    out.failed->plan_integrity = up.integrity;
    return out;
  };
  if (detail::refused(out, schema, clawport::plan::check_integrity(*c.plan_integrity, up.integrity),
                      subject))
    return out;
  if (up.blocked) {
    fail(errc::update_blocked, up.blockers[0].message);
    out.failed->blockers = up.blockers;
    return out;
  }
  const std::string state_dir = state_dir_of(req);
  ledger l = read_ledger(fs, state_dir);
  const install_record rec = l.installs.at(up.agent_id);
  const std::string& ws = rec.workspace;
  // What to write, with the bytes re-read and checked (the plan is rebuilt, so any change
  // since the review shows as a different planIntegrity; this closes the last window).
  std::optional<typename Fs::dir> pkg_root;
  std::optional<typename Fs::dir> root;
  detail::update_ops ops;
  try {
    pkg_root.emplace(detail::open_dir_path(fs, up.package->source.package_root));
    root.emplace(detail::open_dir_path(fs, ws));
  } catch (const error& e) {
    return fail(errc::update_changed, std::string(e.what()) + "; nothing was changed");
  }
  if (auto problem = detail::gather_update_ops(fs, up, *pkg_root, *root, ops))
    return fail(errc::update_changed, *problem + "; nothing was changed");
  install_record record = detail::updated_record(up, rec, now);

  detail::update_undo_state undo_state;
  publish::undo_journal undo;  // after what its steps refer to: destroyed first
  errc step = errc::workspace_update_failed;
  try {
    detail::update_workspace(fs, *root, rec, ops, undo_state, undo);
    // 2. openclaw.json, once. Its undo is recorded before the write: a write that fails
    // after its rename (a failed directory flush) is undone too.
    const config_change& change = ops.change;
    if (!change.agents.empty() || !change.mcp_servers.empty() || !change.drop_mcp_servers.empty()) {
      step = change.agents.empty() ? errc::mcp_update_failed : errc::agent_update_failed;
      const std::optional<std::string> config_before =
          detail::read_state_file(fs, state_dir, config_file_name);
      undo_state.config_written = true;
      undo.add("openclaw.json", [&fs, &undo_state, state_dir, config_before] {
        if (undo_state.config_written)
          restore_state_file(fs, state_dir, config_file_name, config_before);
      });
      const config_outcome cfg = apply_config_change(fs, state_dir, change, nullptr);
      undo_state.config_written = cfg.written;
      if (!cfg.written) {
        const std::vector<std::string> left = undo.run();
        fail(step, cfg.refusal + "; the workspace was put back" +
                       (left.empty() ? std::string() : " except " + left.front()) +
                       ". Make this change by hand, then run update again:");
        out.failed->snippet = cfg.snippet;
        return out;
      }
    }
    // 3. The ledger, last (its undo recorded before the write, as the config's).
    step = errc::provenance_update_failed;
    for (const auto& d : undo_state.created_dirs) record.created_dirs.push_back(d);
    const std::optional<std::string> ledger_before = l.bytes;
    undo.add("the ledger", [&fs, state_dir, ledger_before] {
      restore_state_file(fs, state_dir, ledger_file_name, ledger_before);
    });
    l.installs[up.agent_id] = record;
    write_ledger(fs, state_dir, l);
  } catch (const error& e) {
    return fail(step, detail::after_rollback(e.what(), undo.run(), "update"));
  }
  undo.commit();
  out.ok = ops.not_applied.empty();
  out.result = detail::update_result_of(up, rec, std::move(record), ops);
  return out;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
