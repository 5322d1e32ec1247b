// SPDX-License-Identifier: MIT
// The OpenClaw write side, offline (docs/openclaw.md, "Lifecycle"): `add` (consent, the
// plan rebuilt and compared, the workspace staged and published or adopted, provenance in
// the ledger, the agent registered in openclaw.json), `status` (drift, read-only) and
// `remove` (unchanged managed files only, the ledger entry last). Every failure of `add`
// is rolled back so the state directory and the workspace hold what they held before.
#pragma once

#include "../fs/walk.hpp"
#include "../plan/consent.hpp"
#include "../publish/staged_dir.hpp"
#include "../publish/undo.hpp"
#include "failure.hpp"
#include "plan.hpp"
#include "render.hpp"
#include "state.hpp"

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

/// What the caller consented to: `--yes` and `--plan-integrity` (plan/consent.hpp).
using consent = clawport::plan::consent;

namespace detail {

/// Sets `out.failed` to the consent refusal `r`, when there is one: true when the apply
/// stops there (every apply checks consent twice: given, then the integrity).
template <class Outcome>
bool refused(Outcome& out, const char* schema, const std::optional<clawport::plan::refusal>& r,
             const clawport::plan::subject& s) {
  if (!r) return false;
  out.failed = refusal_of(schema, *r, s);
  return true;
}

/// Every regular (or other non-directory) entry below `d`, `/`-separated and sorted (each
/// directory's names in byte order, depth first), without following links: the one walk
/// (fs/walk.hpp). A directory nested deeper than `depth` below `d` is errc::limit_exceeded
/// naming it (relative to `d`), never left out of the listing.
template <class Fs>
void list_tree(Fs& fs, const typename Fs::dir& d, const std::string& prefix,
               std::vector<std::string>& out, int depth) {
  struct lister : fs::walk_visitor {
    lister(Fs& f, std::vector<std::string>& o) : fs(f), out(o) {}
    Fs& fs;
    std::vector<std::string>& out;
    bool visit(const typename Fs::dir&, std::string_view, const std::string& rel,
               const fs::stat_info& st) {
      if (st.kind == fs::file_kind::directory) return true;
      out.push_back(rel);
      return false;
    }
    std::optional<typename Fs::dir> enter(const typename Fs::dir& parent, std::string_view name,
                                          const std::string&, const fs::stat_info&) {
      return fs.open_dir_at(parent, name);
    }
    error too_deep(const std::string& rel, std::size_t max) const {
      return error(errc::limit_exceeded,
                   rel + " is nested deeper than " + std::to_string(max) +
                       " directories; clawport lists no deeper, and refuses rather than leave "
                       "its files out",
                   rel);
    }
  } v(fs, out);
  fs::walk_options opt;
  opt.max_depth = depth < 0 ? 0 : static_cast<std::size_t>(depth);
  fs::walk(fs, d, v, opt, prefix);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------
// Planning an add against the disk
// ---------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------
// add
// ---------------------------------------------------------------------------------------

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
  publish::staged_dir<Fs> st(
      fs, parent, publish::staging_name(publish::staging_kind::claw, publish::random_token()));
  {
    std::vector<std::string> dirs;
    for (const auto& f : files) {
      const auto m = o.modes.find(f.first);
      create_rel_file(fs, st.handle(), f.first, f.second, dirs,
                      m == o.modes.end() ? private_file_mode : m->second);
    }
  }
  fs.sync_filesystem(parent);
  check(join_path(parent_of(abs), st.name()));
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
  r.ledger = join_path(state_dir, ledger_file_name);
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

// ---------------------------------------------------------------------------------------
// status
// ---------------------------------------------------------------------------------------

namespace detail {

/// The live `openclaw.json` (JSON5), or an empty object.
template <class Fs>
value live_config(Fs& fs, const std::string& state_dir) {
  const std::optional<std::string> bytes = read_state_file(fs, state_dir, config_file_name);
  if (!bytes) return value::object();
  json5::result r = json5::parse(*bytes);
  if (!r.ok() || !r.data.is_object()) {
    const std::string shown = join_path(state_dir, config_file_name);
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
    const auto o = owners.find(ws + "/" + x.path);
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
    for (const auto& f : r.second.workspace_files) ++owners[r.second.workspace + "/" + f.path];
  status_result out{state_dir, target, {}, false};
  for (const auto& r : l.installs)  // by agent id
    if (detail::matches(r.second, target))
      out.records.push_back(detail::status_of_record(fs, r.second, cfg, owners));
  out.ok = !target || !out.records.empty();
  return out;
}

// ---------------------------------------------------------------------------------------
// remove
// ---------------------------------------------------------------------------------------

namespace detail {

/// `  ERROR <code>: <message>`: the one line of a blocker in a plan's text.
inline std::string blocker_line(std::string_view code, const std::string& message) {
  return "  ERROR " + std::string(code) + ": " + message;
}
/// The line of each blocker of a plan.
/// The lines of typed blockers (plan_blocker or diagnostic: an errc `code` and a message).
template <class Blocker>
void blocker_lines(text::terminal_lines& line, const std::vector<Blocker>& blockers) {
  for (const auto& b : blockers) line(blocker_line(to_string(b.code), b.message));
}

}  // namespace detail

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

namespace detail {

/// `<verb> <kind> <id>` of a plan action, as the human plans and results show it.
template <class Action>
std::string action_words(const Action& a) {
  return std::string(to_string(a.verb)) + " " + std::string(to_string(a.kind)) + " " + a.id;
}

}  // namespace detail

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

/// Restores the ledger's previous bytes; what could not be restored, as a message tail.
template <class Fs>
std::string restore_ledger(Fs& fs, const std::string& state_dir,
                           const std::optional<std::string>& before) {
  try {
    restore_state_file(fs, state_dir, ledger_file_name, before);
    return "";
  } catch (const error& e) {
    return std::string("; the ledger could not be restored: ") + e.what();
  }
}

/// Remove step 2: the agent entry and the MCP servers this Claw created leave openclaw.json.
/// On a failure the ledger is restored and the failure returned.
template <class Fs>
std::optional<failure> remove_config_entries(Fs& fs, const std::string& state_dir,
                                             const config_change& change,
                                             const std::optional<std::string>& ledger_before) {
  constexpr const char* schema = "openclaw.clawRemoveResult.v1";
  if (change.agents.empty() && change.mcp_servers.empty()) return std::nullopt;
  config_outcome cfg;
  std::optional<std::string> config_before;
  try {
    config_before = read_state_file(fs, state_dir, config_file_name);
    cfg = apply_config_change(fs, state_dir, change, nullptr);
  } catch (const error& e) {
    std::string also;
    try {
      if (config_before) restore_state_file(fs, state_dir, config_file_name, config_before);
    } catch (const error& again) {
      also = std::string("; openclaw.json could not be restored: ") + again.what();
    }
    return failure_of(schema, errc::remove_failed,
                      std::string(e.what()) + "; nothing was removed" + also +
                          restore_ledger(fs, state_dir, ledger_before));
  }
  if (cfg.written) return std::nullopt;
  failure f = failure_of(schema, errc::config_commit_failed,
                         cfg.refusal + "; nothing was removed" +
                             restore_ledger(fs, state_dir, ledger_before) +
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
  const std::optional<std::string> ledger_before = l.bytes;
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
                            std::string(e.what()) + "; nothing was removed" +
                                detail::restore_ledger(fs, state_dir, ledger_before));
    return out;
  }
  // 2. openclaw.json.
  out.failed = detail::remove_config_entries(fs, state_dir, change, ledger_before);
  if (out.failed) return out;
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

// ---------------------------------------------------------------------------------------
// Human text
// ---------------------------------------------------------------------------------------

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
  line("Added agent " + r.agent_id + " (" + detail::status_of(r) + ")");
  line("  workspace: " + r.workspace + " (" + (r.adopted ? "adopted" : "created") + ")");
  line("  files written: " + std::to_string(r.files_written.size()) +
       ", adopted: " + std::to_string(r.files_adopted.size()));
  line(std::string("  openclaw.json: ") + (r.config_registered ? "registered" : "NOT registered"));
  detail::not_applied_lines(line, r.not_applied);
  return std::move(line.text);
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
