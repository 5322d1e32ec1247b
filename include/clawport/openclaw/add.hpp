// SPDX-License-Identifier: MIT
// `claw add` offline (docs/openclaw.md, "Lifecycle"): consent, the plan rebuilt and
// compared, the workspace staged and published or adopted, provenance in the ledger, the
// agent registered in openclaw.json. Every failure is rolled back so the state directory and
// the workspace hold what they held before.
#pragma once

#include "../core/config.hpp"
#include "../core/paths.hpp"
#include "../publish/staged_dir.hpp"
#include "../publish/undo.hpp"
#include "failure.hpp"
#include "lifecycle_base.hpp"
#include "plan.hpp"
#include "render.hpp"
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

/// Fills `dest.workspace_adoptable` and `dest.existing` from the disk: what an existing
/// workspace holds at each planned destination (`claw migrate`, which adopts one).
template <class Fs>
void probe_workspace(Fs& fs, const claw_package& pkg, destination& dest) {
  dest.existing.clear();
  dest.workspace_adoptable = false;
  if (!dest.workspace_exists) return;
  std::optional<typename Fs::dir> root;
  try {
    root.emplace(detail::open_dir_path(fs, dest.workspace));
  } catch (const error&) {
    return;  // not a real directory: the plan reports workspace_collision
  }
  dest.workspace_adoptable = true;
  std::vector<std::string> rels;
  if (pkg.body) rels.push_back("SOUL.md");
  for (const auto& s : pkg.sources) rels.push_back(s.destination);
  if (pkg.bootstrap) rels.push_back("BOOTSTRAP.md");
  for (const auto& rel : rels) {
    const detail::file_read r = detail::read_in_root(fs, *root, rel, state_file_max_bytes);
    if (r.status == detail::read_status::missing && r.detail.empty()) continue;
    existing_file e;
    if (r.status == detail::read_status::ok) {
      e.digest = sha256_digest(r.bytes);
    } else {
      e.problem = "is not a plain regular file (" +
                  detail::read_problem(r.status, rel, state_file_max_bytes, r.detail) + ")";
    }
    dest.existing[rel] = std::move(e);
  }
}

/// The add plan exactly as `add` will rebuild it: the host config, the ledger's recorded
/// agents and workspaces (they collide too), the destination and what it already holds.
template <class Fs, class Resolver = offline_resolver>
add_plan plan_add(Fs& fs, const claw_package& pkg, const destination_request& req,
                  const add_options& opt = {}, const Resolver& resolver = {}) {
  host_state host = read_host_state(fs, req);
  try {
    const ledger l = read_ledger(fs, host.state_dir);
    for (const auto& r : l.installs) {
      if (std::find(host.agent_ids.begin(), host.agent_ids.end(), r.first) == host.agent_ids.end())
        host.agent_ids.push_back(r.first);
      host.workspaces.push_back(r.second.workspace);
    }
  } catch (const error& e) {
    if (!host.problem) host.problem = error_at(errc::invalid_ledger, phase::plan, "$", e.what());
  }
  // An existing workspace is never adopted by an add (upstream: workspace_collision).
  const destination dest = resolve_destination(fs, pkg, req, host);
  return build_add_plan(pkg, dest, host, resolver, opt);
}

// add

namespace detail {

/// One file the add writes or adopts.
struct planned_file {
  std::string rel;          ///< workspace-relative destination
  std::string source_path;  ///< package-relative ("CLAW.md" for the body)
  std::string digest;
  std::string kind;  ///< "file" or "bootstrap"
  bool adopt = false;
  std::string bytes;  ///< for writes: re-read and checked against `digest`
};

inline const workspace_source* source_for(const claw_package& pkg, const std::string& dest) {
  for (const auto& s : pkg.sources)
    if (s.destination == dest) return &s;
  return nullptr;
}

/// The bytes one file action of an add plan (`workspaceFile` or `bootstrap`) writes: the
/// CLAW.md body or the package file, re-read through `root` and checked against the
/// action's digest. False with `problem` set when it cannot be read or changed since.
template <class Fs>
bool planned_bytes(Fs& fs, const claw_package& pkg, const typename Fs::dir& root,
                   const add_action& a, std::string& source_path, std::string& bytes,
                   std::string& problem) {
  const std::string& rel = a.id;
  if (a.from_body) {
    source_path = "CLAW.md";
    bytes = pkg.body ? *pkg.body : std::string();
  } else {
    const workspace_source* s = a.kind == add_kind::bootstrap ? nullptr : source_for(pkg, rel);
    source_path = s != nullptr ? s->source : "BOOTSTRAP.md";
    const file_read r = read_in_root(fs, root, source_path, state_file_max_bytes);
    if (r.status != read_status::ok) {
      problem = read_problem(r.status, source_path, state_file_max_bytes, r.detail);
      return false;
    }
    bytes = r.bytes;
  }
  if (!a.digest || sha256_digest(bytes) != *a.digest) {
    problem = source_path + " changed after the plan was made";
    return false;
  }
  return true;
}

/// What the undo steps of an add (publish::undo_journal) need, filled as the add runs.
/// Declared before the journal, so it outlives the steps that refer to it.
struct add_undo_state {
  std::vector<std::string> created_state_dirs;  ///< absolute, outermost first
  std::optional<std::string> ledger_before;
  std::vector<std::string> created_parents;       ///< absolute, outermost first
  bool workspace_published = false;               ///< a new workspace was renamed into place
  std::vector<std::string> adopted_written;       ///< files written into an adopted workspace
  std::vector<std::string> adopted_created_dirs;  ///< directories made there
  bool config_written = false;
  std::optional<std::string> config_before;
};

/// Records the undo of the workspace step of an add: a new workspace is removed (then the
/// parents made for it), or the files written into an adopted one and the directories
/// made there. Recorded before the step: it may fail half-way (its undo removes only what
/// is recorded in `s`), a new workspace after its rename (a failed directory flush).
template <class Fs>
void record_workspace_undo(Fs& fs, const std::string& ws, bool adopted, add_undo_state& s,
                           publish::undo_journal& undo) {
  if (adopted) {
    undo.add(ws, [&fs, &s, ws] {
      if (s.adopted_written.empty() && s.adopted_created_dirs.empty()) return;
      auto root = open_dir_path(fs, ws);
      for (auto it = s.adopted_written.rbegin(); it != s.adopted_written.rend(); ++it)
        at_rel(fs, root, *it, [&](const typename Fs::dir& d, const std::string& n) {
          if (fs.stat_at(d, n)) fs.unlink_at(d, n);
        });
      for (auto it = s.adopted_created_dirs.rbegin(); it != s.adopted_created_dirs.rend(); ++it)
        at_rel(fs, root, *it, [&](const typename Fs::dir& d, const std::string& n) {
          if (fs.stat_at(d, n)) fs.remove_dir_at(d, n);
        });
    });
    return;
  }
  undo.add(ws, [&fs, &s] { remove_created_dirs(fs, s.created_parents); });
  undo.add(ws, [&fs, &s, ws] {
    if (!s.workspace_published) return;
    auto parent = open_dir_path(fs, parent_of(ws));
    fs.remove_tree_at(parent, paths::file_name(ws));
  });
}

/// Where `publish_new_dir` may follow links, and the modes of the files it writes.
struct new_dir_options {
  std::string anchor;                          ///< empty: the parent's parent
  std::map<std::string, std::uint32_t> modes;  ///< relative path → mode; absent: 0644
};

/// Publishes the new directory `abs` holding `files` (relative path → bytes): staged beside
/// it (publish::staged_dir, locked so `recover` leaves it alone), flushed,
/// `check(staged_path)` run on the staged tree, then one no-replace rename into place (a
/// directory that appeared meanwhile is never replaced: errc::destination_refused). Missing
/// parents are made and appended to `created_parents`; `published` is set once the rename
/// happened. On a failure before the rename the staging directory is removed and the error
/// rethrown. `o` may name the anchor below which no link is followed (a package inside the
/// state directory: the state directory) and the mode of a file (fs::copied_mode of the
/// file it was made from); by default links above the parent are followed, files are 0644.
template <class Fs, class Check>
void publish_new_dir(Fs& fs, const std::string& abs,
                     const std::vector<std::pair<std::string, std::string>>& files,
                     std::vector<std::string>& created_parents, bool& published, Check&& check,
                     const new_dir_options& o = {}) {
  const std::string above = parent_of(abs);
  auto parent = open_below_anchor(fs, o.anchor.empty() ? parent_of(above) : o.anchor, above,
                                  &created_parents);
  const std::string name = paths::file_name(abs);
  publish::staged_dir<Fs> st(fs, parent, publish::staging_kind::claw, {}, fs::modes::dir);
  {
    std::vector<std::string> dirs;
    for (const auto& f : files) {
      const auto m = o.modes.find(f.first);
      create_rel_file(fs, st.handle(), f.first, f.second, dirs,
                      m == o.modes.end() ? private_file_mode : m->second);
    }
  }
  fs.sync_filesystem(parent);
  check(paths::join(parent_of(abs), st.name()));
  if (!st.publish(parent, name))
    throw error(errc::destination_refused,
                abs + " appeared while it was staged; nothing was published", abs);
  published = true;
  fs.sync_dir(parent);
}

/// Writes a brand-new workspace: staged beside it, then one rename into place.
template <class Fs>
void publish_new_workspace(Fs& fs, const std::string& ws, const std::vector<planned_file>& files,
                           add_undo_state& s) {
  std::vector<std::pair<std::string, std::string>> tree;
  for (const auto& f : files) tree.emplace_back(f.rel, f.bytes);
  publish_new_dir(fs, ws, tree, s.created_parents, s.workspace_published,
                  [](const std::string&) {});
}

/// Writes the missing files of an adopted workspace, create-only.
template <class Fs>
void fill_adopted_workspace(Fs& fs, const std::string& ws, const std::vector<planned_file>& files,
                            add_undo_state& s) {
  auto root = open_dir_path(fs, ws);
  for (const auto& f : files) {
    if (f.adopt) continue;
    create_rel_file(fs, root, f.rel, f.bytes, s.adopted_created_dirs);
    s.adopted_written.push_back(f.rel);
  }
  fs.sync_filesystem(root);
}

/// A failed step's message after the rollback ran: what undoing could not restore, if
/// anything (`what` names the operation: "add", "update").
inline std::string after_rollback(std::string message, const std::vector<std::string>& left,
                                  std::string_view what) {
  if (left.empty()) return message + "; everything this " + std::string(what) + " did was undone";
  message += "; could not undo:";
  for (const auto& s : left) message += " " + s + ";";
  return message;
}

}  // namespace detail

/// A part an apply recorded but could not do offline: a ClawHub package (installed by the
/// command `install`) or a cron job (it needs a running Gateway, `message` says so).
struct not_applied_item {
  std::string kind;  ///< package | cronJob
  std::string id;
  errc code = errc::package_not_installed;
  std::string install;  ///< a package: the command that installs it
  std::string message;  ///< a cron job: why it was not scheduled
};

inline value to_json(const not_applied_item& n) {
  value v =
      value::object({{"kind", n.kind}, {"id", n.id}, {"code", std::string(to_string(n.code))}});
  if (!n.install.empty()) v["install"] = n.install;
  if (!n.message.empty()) v["message"] = n.message;
  return v;
}

/// A `claw add` that ran: what it wrote and registered, and what it could not do offline.
/// Partial when openclaw.json was left alone (`config_refusal` says why, `config_snippet`
/// is what to add by hand).
struct add_result {
  std::string plan_integrity;
  std::string agent_id;
  std::string workspace;
  bool adopted = false;  ///< an existing workspace was adopted, not created
  std::vector<std::string> files_written;
  std::vector<std::string> files_adopted;
  bool config_registered = false;
  std::string config_refusal;
  std::string config_snippet;
  std::vector<not_applied_item> not_applied;
  std::string ledger;                          ///< the ledger file
  std::vector<plan_requirement> requirements;  ///< what the agent still needs to run
};

namespace detail {

inline const char* status_of(const add_result& r) {
  return r.config_registered ? "complete" : "partial";
}
/// The error a partial add reports, in its document and its text (the snippet follows).
inline std::string failure_message(const add_result& r) {
  return r.config_refusal + "; add this to it by hand:";
}

}  // namespace detail

/// The error of an add that ran: partial when openclaw.json could not be written (the
/// snippet says what to add by hand).
inline std::optional<error_member> error_member_of(const add_result& r) {
  if (r.config_registered) return std::nullopt;
  return error_member{errc::config_commit_failed, detail::failure_message(r), r.config_snippet, ""};
}

/// The result document of an add that ran.
inline value to_json(const add_result& r) {
  using t = add_result;
  value d = result_document("openclaw.clawAddResult.v1", detail::status_of(r), r.plan_integrity,
                            r.agent_id);
  d.update(json::object_of<value>(
      r, json::field("workspace", &t::workspace),
      json::field("workspaceOrigin", [](const t& x) { return x.adopted ? "adopted" : "created"; }),
      json::field("filesWritten", &t::files_written),
      json::field("filesAdopted", &t::files_adopted),
      json::field("configRegistered", &t::config_registered),
      json::field("notApplied", [](const t& x) { return array_of(x.not_applied); }),
      json::field("ledger", &t::ledger)));
  if (const auto e = error_member_of(r)) d["error"] = to_json(*e);
  d["readiness"] = detail::readiness_json(r.requirements);
  return d;
}

namespace detail {

/// A ClawHub package `id` (declared as `d`), never installed offline.
inline not_applied_item package_not_applied(const std::string& id, const package_decl& d) {
  return {"package", id, errc::package_not_installed, package_install_command(d), {}};
}

/// A cron job `id`: scheduling needs a running Gateway.
inline not_applied_item cron_not_applied(const std::string& id) {
  return {"cronJob",
          id,
          errc::cron_gateway_required,
          {},
          "Scheduling needs a running OpenClaw Gateway; clawport does not schedule cron jobs "
          "offline."};
}

/// What a consented add does, gathered from its plan (every byte re-read and checked)
/// before anything is written.
struct add_ops {
  std::string agent_id;
  std::string workspace;
  bool adopted = false;  ///< an existing workspace is adopted
  value agent_config;
  std::vector<planned_file> files;
  std::vector<mcp_ref> mcp_refs;
  std::vector<package_ref> packages;
  std::vector<cron_ref> crons;
  std::vector<not_applied_item> not_applied;
  config_change change;
};

/// The ledger row of a ClawHub package (never installed offline); add and update record
/// the same row.
inline package_ref package_row(const package_decl& d) {
  return {d.kind,          d.ref,
          d.version,       d.kind == "plugin" ? "referenced" : "managed",
          "not_installed", package_install_command(d)};
}

/// A ClawHub package: recorded as not installed, and reported.
inline void add_package_op(add_ops& ops, const add_action& a) {
  const package_decl& d = a.package.decl;
  ops.packages.push_back(package_row(d));
  ops.not_applied.push_back(package_not_applied(a.id, d));
}

/// An MCP server: configured unless an identical one is there (then only referenced).
inline void add_mcp_op(add_ops& ops, const add_action& a) {
  const std::string& name = a.id;
  const value& server = a.declaration;
  const bool exact = a.expected == expected_state::present_exact;
  if (!exact) ops.change.mcp_servers.emplace_back(name, server);
  ops.mcp_refs.push_back({name, digest_of(canonical_mcp_server(server)),
                          exact ? "referenced" : "managed",
                          exact ? "pre-existing" : "claw-introduced", exact, "complete"});
}

/// A cron job: recorded as not applied (it needs a running Gateway), and reported.
inline void add_cron_op(add_ops& ops, const add_action& a) {
  const value job = cron_job_record(a);
  const std::string& id = a.id;
  ops.crons.push_back({id, "claw:" + ops.agent_id + ":" + id, "not_applied",
                       std::string(to_string(errc::cron_gateway_required)), job});
  ops.not_applied.push_back(cron_not_applied(id));
}

/// Every operation of the add plan `p`; the problem when a source changed since the plan.
template <class Fs>
std::optional<std::string> gather_add_ops(Fs& fs, const claw_package& pkg, const add_plan& p,
                                          const typename Fs::dir& pkg_root, add_ops& ops) {
  ops.agent_id = p.final_id;
  ops.workspace = p.workspace;
  for (const add_action& a : p.actions) {
    switch (a.kind) {
      case add_kind::agent:
        ops.agent_config = a.declaration;
        break;
      case add_kind::workspace:
        ops.adopted = a.verb == add_verb::adopt;
        break;
      case add_kind::workspace_file:
      case add_kind::bootstrap: {
        planned_file f;
        f.rel = a.id;
        f.digest = a.digest.value_or("");
        f.adopt = a.verb == add_verb::adopt;
        f.kind = a.kind == add_kind::bootstrap ? "bootstrap" : "file";
        std::string problem;
        if (!planned_bytes(fs, pkg, pkg_root, a, f.source_path, f.bytes, problem)) return problem;
        if (f.adopt) f.bytes.clear();
        ops.files.push_back(std::move(f));
        break;
      }
      case add_kind::package:
        add_package_op(ops, a);
        break;
      case add_kind::mcp_server:
        add_mcp_op(ops, a);
        break;
      case add_kind::cron_job:
        add_cron_op(ops, a);
        break;
    }
  }
  ops.change.agents.emplace_back(ops.agent_id, ops.agent_config);
  return std::nullopt;
}

/// The digest an install records of its agent entry: of the entry as written (no `id`).
inline std::string agent_entry_digest(const value& agent_config) {
  return digest_of(config_entry_of(agent_config));
}

/// A new install record (an add's, a migration's): the agent, the Claw and the consent it
/// was installed under, its workspace, the agent entry it owns, the add's time.
inline install_record new_record(const std::string& agent_id, const source_identity& claw,
                                 const std::string& plan_integrity, const add_plan& add,
                                 const std::string& workspace, const char* workspace_origin,
                                 std::string agent_digest, const std::string& now) {
  install_record r;
  r.agent_id = agent_id;
  r.claw = claw;
  r.plan_integrity = plan_integrity;
  r.workspace = workspace;
  r.workspace_origin = workspace_origin;
  r.agent_config_digest = std::move(agent_digest);
  r.agent_owned_paths = {add.first(add_kind::agent)->target};
  r.added_at = now;
  r.updated_at = now;
  return r;
}

/// The install record the add writes first, `pending`.
inline install_record pending_record(const add_plan& p, const add_ops& ops,
                                     const std::string& now) {
  install_record r =
      new_record(ops.agent_id, p.claw, p.integrity, p, ops.workspace,
                 ops.adopted ? "adopted" : "created", agent_entry_digest(ops.agent_config), now);
  r.status = "pending";
  r.config = "pending";
  for (const auto& f : ops.files)
    r.workspace_files.push_back({f.rel, f.source_path, f.digest, f.kind, "managed",
                                 f.adopt ? "adopted" : "claw-introduced", "pending"});
  r.packages = ops.packages;
  r.mcp_servers = ops.mcp_refs;
  r.cron_jobs = ops.crons;
  return r;
}

/// The add's steps: ledger `pending` → workspace → openclaw.json → ledger `complete` or
/// `partial`. `step` names the step running; each step records its undo in `undo` (state
/// in `s`), so a failure throws and the caller runs the journal: newest first, openclaw.json
/// → workspace → its parents → the ledger → the state directories made.
template <class Fs>
config_outcome run_add(Fs& fs, const std::string& state_dir, const add_ops& ops,
                       install_record record, add_undo_state& s, publish::undo_journal& undo,
                       errc& step) {
  step = errc::provenance_failed;
  ledger l = read_ledger(fs, state_dir);
  s.ledger_before = l.bytes;
  s.config_before = read_state_file(fs, state_dir, config_file_name);
  l.installs[ops.agent_id] = record;
  // Each undo is recorded before its write: a write that fails after its rename (a failed
  // directory flush) is undone too. The state directories the writes make go last.
  undo.add(state_dir, [&fs, &s] { remove_created_dirs(fs, s.created_state_dirs); });
  undo.add("the ledger", [&fs, &s, state_dir] {
    restore_state_file(fs, state_dir, ledger_file_name, s.ledger_before);
  });
  write_ledger(fs, state_dir, l, &s.created_state_dirs);

  step = errc::workspace_files_failed;
  record_workspace_undo(fs, ops.workspace, ops.adopted, s, undo);
  if (ops.adopted) {
    fill_adopted_workspace(fs, ops.workspace, ops.files, s);
  } else {
    publish_new_workspace(fs, ops.workspace, ops.files, s);
  }

  step = errc::config_commit_failed;
  s.config_written = true;
  undo.add("openclaw.json", [&fs, &s, state_dir] {
    if (s.config_written) restore_state_file(fs, state_dir, config_file_name, s.config_before);
  });
  const config_outcome cfg = apply_config_change(fs, state_dir, ops.change, &s.created_state_dirs);
  s.config_written = cfg.written;

  // The ledger's undo above restores it as it was before the `pending` record.
  step = errc::provenance_failed;
  record.status = cfg.written ? "complete" : "partial";
  record.config = cfg.written ? "registered" : "refused";
  for (auto& f : record.workspace_files) f.status = "complete";
  record.created_dirs = s.adopted_created_dirs;
  l.installs[ops.agent_id] = std::move(record);
  write_ledger(fs, state_dir, l);
  return cfg;
}

/// The typed result of the add `p` that ran the operations `ops`.
inline add_result add_result_of(const add_plan& p, add_ops& ops, const config_outcome& cfg,
                                const std::string& state_dir) {
  add_result r;
  r.plan_integrity = p.integrity;
  r.agent_id = ops.agent_id;
  r.workspace = ops.workspace;
  r.adopted = ops.adopted;
  for (const auto& f : ops.files) (f.adopt ? r.files_adopted : r.files_written).push_back(f.rel);
  r.config_registered = cfg.written;
  if (!cfg.written) {
    r.config_refusal = cfg.refusal;
    r.config_snippet = cfg.snippet;
  }
  r.not_applied = std::move(ops.not_applied);
  r.ledger = paths::join(state_dir, ledger_file_name);
  r.requirements = p.requirements;
  return r;
}

}  // namespace detail

/// A finished `claw add --yes`: its typed result once it ran, else why it stopped: refused
/// or failed (`failed`), the package did not read (`invalid`) or the plan blocks
/// (`blocked_plan`).
struct add_outcome : outcome<add_result> {
  std::optional<invalid_package> invalid;
  std::optional<add_plan> blocked_plan;
};

/// The document `claw add --yes --json` prints: the result, the failure, the package's
/// failure envelope or the blocked plan.
inline value to_json(const add_outcome& o) {
  if (o.invalid) return to_json(*o.invalid);
  if (o.blocked_plan) return to_json(*o.blocked_plan);
  return to_json(static_cast<const outcome<add_result>&>(o));
}

/// The error of `claw add --yes`: the package's first error diagnostic, the blocked plan's
/// first error, else the failure's or the partial result's.
inline std::optional<error_member> error_member_of(const add_outcome& o) {
  if (o.invalid) return error_member_of(*o.invalid);
  if (o.blocked_plan) return error_member_of(*o.blocked_plan);
  return error_member_of(static_cast<const outcome<add_result>&>(o));
}

/// `claw add` with consent: rebuilds the plan, requires the consented planIntegrity, then
/// applies it (ledger `pending` → workspace → openclaw.json → ledger `complete`|`partial`).
/// `now` is the RFC 3339 time recorded in the ledger.
template <class Fs, class Resolver = offline_resolver>
add_outcome apply_add(Fs& fs, const claw_package& pkg, const destination_request& req,
                      const add_options& opt, const consent& c, const std::string& now,
                      const Resolver& resolver = {}) {
  constexpr const char* schema = "openclaw.clawAddResult.v1";
  add_outcome out;
  const clawport::plan::subject subject{"Claw", "add --dry-run"};
  if (detail::refused(out, schema, clawport::plan::check_given(c), subject)) return out;
  if (!pkg.ok()) {
    out.invalid = invalid_package{pkg.diagnostics};
    return out;
  }
  const add_plan p = plan_add(fs, pkg, req, opt, resolver);
  if (p.blocked) {
    out.blocked_plan = p;
    return out;
  }
  const std::string& integrity = p.integrity;
  if (detail::refused(out, schema, clawport::plan::check_integrity(*c.plan_integrity, integrity),
                      subject))
    return out;
  const auto fail = [&](errc code, std::string message) {
    out.failed = failure_of(schema, code, std::move(message));
    out.failed->plan_integrity = integrity;
    return out;
  };
  // What the plan writes, with the bytes re-read and checked against the consented digests.
  detail::add_ops ops;
  std::optional<typename Fs::dir> pkg_root;
  try {
    pkg_root.emplace(detail::open_dir_path(fs, pkg.source.package_root));
  } catch (const error& e) {
    return fail(errc::workspace_source_changed, e.what());
  }
  if (auto problem = detail::gather_add_ops(fs, pkg, p, *pkg_root, ops))
    return fail(errc::workspace_source_changed, *problem + "; run add --dry-run again.");
  ops.change.env = static_cast<const environment&>(req);  // the sole agent's workspace rule
  const std::string state_dir = state_dir_of(req);
  detail::add_undo_state undo_state;
  publish::undo_journal undo;  // after what its steps refer to: destroyed first
  errc step = errc::provenance_failed;
  config_outcome cfg;
  try {
    cfg = detail::run_add(fs, state_dir, ops, detail::pending_record(p, ops, now), undo_state, undo,
                          step);
  } catch (const error& e) {
    return fail(step, detail::after_rollback(e.what(), undo.run(), "add"));
  }
  undo.commit();
  out.result = detail::add_result_of(p, ops, cfg, state_dir);
  out.ok = cfg.written;
  return out;
}

namespace detail {

inline void not_applied_lines(text::terminal_lines& line,
                              const std::vector<not_applied_item>& items) {
  for (const auto& n : items) {
    std::string l =
        "  not applied: " + n.kind + " " + n.id + " (" + std::string(to_string(n.code)) + ")";
    if (!n.install.empty()) l += ": " + n.install;
    line(l);
  }
}

}  // namespace detail

/// The human form of an add that ran (after the experimental banner); a partial one starts
/// with its error and the snippet to add by hand. Every line through the one terminal-safe
/// renderer (core/text.hpp).
inline std::string result_text(const add_result& r) {
  text::terminal_lines line;
  line(experimental_banner);
  if (!r.config_registered) {
    line("ERROR " + std::string(to_string(errc::config_commit_failed)) + ": " +
         detail::failure_message(r));
    line.block(r.config_snippet);
  }
  // Items not applied are listed below the summary: a "complete" add says so, so that it is
  // not read as "everything" (issue 44, the new-user run); "partial" says it already.
  const std::string status = detail::status_of(r);
  line("Added agent " + r.agent_id + " (" + status +
       (r.not_applied.empty() || status != "complete"
            ? std::string()
            : "; " + std::to_string(r.not_applied.size()) + " item(s) not applied, listed below") +
       ")");
  line("  workspace: " + r.workspace + " (" + (r.adopted ? "adopted" : "created") + ")");
  line("  files written: " + std::to_string(r.files_written.size()) +
       ", adopted: " + std::to_string(r.files_adopted.size()));
  line(std::string("  openclaw.json: ") + (r.config_registered ? "registered" : "NOT registered"));
  detail::not_applied_lines(line, r.not_applied);
  return std::move(line.text);
}

/// The human form of `claw add --yes`: its result's or failure's, the package's
/// diagnostics, or the plan that blocks it.
inline std::string result_text(const add_outcome& o) {
  if (o.invalid) return result_text(*o.invalid);
  if (o.blocked_plan) return plan_text(*o.blocked_plan);
  return result_text(static_cast<const outcome<add_result>&>(o));
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
