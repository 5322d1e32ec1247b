// SPDX-License-Identifier: MIT
// `claw migrate <agent-id>` offline (docs/openclaw.md, "Migrate"): enrolls an agent that
// never came from a package as a Claw. The plan (`openclaw.clawMigrationPlan.v1`) generates
// a package for <state-dir>/claws/local/<agent-id> from the agent's entry and its prompt
// files (the export's rules), then plans adding that package over the agent as it is: every
// file adopted, nothing in the workspace or openclaw.json written. With consent the package
// is staged, read back with the one package reader, checked against the consented plan and
// published; the ledger then records the install, so `claw status|update|export|remove`
// treat the agent as any added Claw. A failure undoes the package and the ledger. The
// intent is recorded first (issue 41): a `pending` install record before the package is
// published, so a kill anywhere leaves either nothing, or that record (with or without the
// package), which the re-run of the same plan finishes.
#pragma once

#include "../fs/copy.hpp"
#include "export.hpp"
#include "lifecycle.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

inline constexpr const char* migration_plan_schema = "openclaw.clawMigrationPlan.v1";
inline constexpr const char* migration_result_schema = "openclaw.clawMigrationResult.v1";

/// What a migration leaves as the operator's, unmanaged: bound into the plan's integrity
/// with upstream's wording, so the list is the same data upstream digests.
inline const std::vector<std::string>& migration_retained() {
  static const std::vector<std::string> retained = {
      "BOOTSTRAP.md (one-time workspace seed)", "credentials and auth state",
      "session indexes and transcripts", "agent databases and runtime state",
      "all other workspace files and directories"};
  return retained;
}

/// One file of a migration plan: package-relative (generated) or absolute (workspace).
struct migration_file {
  std::string path;
  std::uint64_t byte_length = 0;
  std::string digest;
};

/// The migration plan as data; `to_json` renders `openclaw.clawMigrationPlan.v1`.
struct migration_plan {
  std::string agent_id;
  std::string workspace;     ///< canonical
  std::string package_root;  ///< <state-dir>/claws/local/<agent-id>
  std::string package_name;
  std::string package_version;                  ///< package.json `version`, as generated
  value agent = value::object();                ///< the generated manifest's agent
  std::optional<value> profile;                 ///< the generated OpenClaw profile
  std::vector<migration_file> package_files;    ///< localeCompare order of path
  std::vector<migration_file> workspace_files;  ///< the prompt files captured
  /// The generated package: package-relative path → bytes (published by apply).
  std::vector<std::pair<std::string, std::string>> tree;
  /// The mode of a tree file made from a prompt file: fs::copied_mode of that file's (a
  /// 0600 TOOLS.md stays 0600); the others are 0644. Not part of the integrity.
  std::map<std::string, std::uint32_t> file_modes;
  std::string state_root;  ///< the state directory, canonical: no link is followed below it
  /// A killed migration of this agent left its `pending` record (and, when true, its
  /// package, byte for byte the one this plan generates): apply finishes it. Not part of
  /// the integrity: the plan is the one the killed run had consent for.
  bool resuming = false;
  bool package_in_place = false;
  value live_entry = value::object();  ///< agents.entries.<id> as it is now
  add_plan add;                        ///< adding the package over the agent as it is
  std::vector<diagnostic> blockers;
  std::string integrity;  ///< planIntegrity
  bool blocked() const { return !blockers.empty(); }
};

namespace detail {

/// The path-independent identity of a generated package (upstream's package identity
/// digest): `<len(path)>:<path>:<len(bytes)>:` + bytes per file in localeCompare order.
inline std::pair<std::string, std::uint64_t> package_identity(
    const std::vector<std::pair<std::string, std::string>>& tree) {
  auto sorted = tree;
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& a, const auto& b) { return locale_less(a.first, b.first); });
  digest::sha256 h;
  std::uint64_t total = 0;
  for (const auto& f : sorted) snapshot_record(h, total, f.first, f.second);
  return {digest::prefixed(digest::to_hex(h.finish())), total};
}

/// The plan's integrity: stableStringify of {schemaVersion, addPlan, packageFiles, retained}.
inline std::string migration_integrity(const migration_plan& p) {
  value files = value::array();
  for (const auto& f : p.package_files)
    files.push_back(
        value::object({{"path", f.path}, {"digest", f.digest}, {"byteLength", f.byte_length}}));
  value bound = value::object();
  bound["schemaVersion"] = migration_plan_schema;
  bound["addPlan"] = to_json(p.add);
  bound["packageFiles"] = std::move(files);
  bound["retained"] = migration_retained();
  return clawport::plan::integrity_of(stable_stringify(bound));
}

/// What planning has found so far; `refuse` records the first blocker.
struct migration_scan {
  migration_plan plan;
  host_state host;
  std::vector<std::string> ledger_workspaces;  ///< other installs' workspaces
  bool refuse(errc code, const std::string& path, const std::string& message) {
    plan.blockers.push_back(error_at(code, phase::plan, path, message));
    return false;
  }
};

/// Whether one of `a`, `b` (canonical) contains the other.
inline bool paths_overlap(const std::string& a, const std::string& b) {
  const auto within = [](const std::string& in, const std::string& x) {
    return x == in || (x.size() > in.size() && x.compare(0, in.size(), in) == 0 &&
                       (in == "/" || x[in.size()] == '/'));
  };
  return within(a, b) || within(b, a);
}

/// Whether `r` is the record a killed `claw migrate` wrote before publishing its package
/// (`run_migration`): pending, the agent adopted (an add's is created).
inline bool interrupted_migration(const install_record& r) {
  return r.status == "pending" && r.agent_origin == "adopted";
}

/// The other installs' workspaces in ledger `l` (every one but `agent_id`'s).
inline std::vector<std::string> other_workspaces(const ledger& l, const std::string& agent_id) {
  std::vector<std::string> out;
  for (const auto& r : l.installs)
    if (r.first != agent_id) out.push_back(r.second.workspace);
  return out;
}

/// The agent: a valid id, an `agents.entries` member of a readable openclaw.json, not in
/// the ledger (unless as a killed migration's `pending` record: the plan resumes it).
/// Other agents and installs are kept for the overlap checks and the add plan.
template <class Fs>
bool scan_agent(Fs& fs, const destination_request& req, migration_scan& s) {
  migration_plan& p = s.plan;
  if (!is_agent_id(p.agent_id))
    return s.refuse(errc::invalid_agent_id, "$.agent.id",
                    "Agent id " + js_string(p.agent_id) + " is not a valid Claw agent id.");
  s.host = read_host_state(fs, req);
  if (s.host.problem) {
    p.blockers.push_back(*s.host.problem);
    return false;
  }
  const value* entry = config_member(s.host.config, "agents", "entries", p.agent_id);
  if (entry == nullptr || !entry->is_object())
    return s.refuse(errc::agent_not_found, "$.agent.id",
                    "No agent " + js_string(p.agent_id) + " in agents.entries of " +
                        paths::join(s.host.state_dir, config_file_name) + ".");
  p.live_entry = *entry;
  const ledger l = read_ledger(fs, s.host.state_dir);
  const auto mine = l.installs.find(p.agent_id);
  p.resuming = mine != l.installs.end() && interrupted_migration(mine->second);
  if (mine != l.installs.end() && !p.resuming)
    return s.refuse(errc::agent_already_managed, "$.agent.id",
                    "Agent " + js_string(p.agent_id) +
                        " is already a Claw; use claw status, update or remove instead.");
  s.ledger_workspaces = other_workspaces(l, p.agent_id);
  return true;
}

/// The workspace (the one rule) must exist as a real directory and overlap no other agent's
/// or install's; the package destination must not exist nor lie in a workspace.
template <class Fs>
bool scan_places(Fs& fs, const destination_request& req, migration_scan& s) {
  migration_plan& p = s.plan;
  bool exists = false;
  p.workspace =
      canonical_through_ancestor(fs, agent_workspace(s.host.config, req, p.agent_id).path, exists);
  try {
    (void)open_dir_path(fs, p.workspace);
  } catch (const error&) {
    return s.refuse(errc::workspace_unavailable, "$.workspace",
                    "Workspace " + p.workspace +
                        " must already exist as a local directory and cannot be a symlink.");
  }
  // The package goes inside the state directory, reached as every OpenClaw write is
  // (open_below_anchor): links above the state directory followed, none below it.
  p.state_root = fs.canonical(s.host.state_dir).value_or(s.host.state_dir);
  p.package_root = paths::join(p.state_root, "claws/local/" + p.agent_id);
  exists = false;
  try {
    exists = fs.stat_at(open_below_anchor(fs, p.state_root, parent_of(p.package_root)), p.agent_id)
                 .has_value();
  } catch (const error& e) {
    if (e.code() != errc::not_found)
      return s.refuse(e.code(), "$.packageRoot",
                      std::string(e.what()) + "; the package is written only inside " +
                          p.state_root + ", never through a link");
  }
  // A killed migration's package is checked against the generated tree once it is known.
  p.package_in_place = exists && p.resuming;
  if (exists && !p.resuming)
    return s.refuse(errc::package_destination_exists, "$.packageRoot",
                    "Local Claw package destination " + p.package_root +
                        " already exists. Move or inspect it before migrating.");
  std::vector<std::string> others = s.ledger_workspaces;
  for (std::size_t k = 0; k < s.host.agent_ids.size(); ++k)
    if (s.host.agent_ids[k] != p.agent_id) others.push_back(s.host.workspaces[k]);
  if (paths_overlap(p.workspace, p.package_root))
    return s.refuse(errc::workspace_ownership_ambiguous, "$.packageRoot",
                    "The package destination " + p.package_root + " overlaps the workspace " +
                        p.workspace + ".");
  for (const auto& o : others) {
    if (paths_overlap(p.workspace, o) || paths_overlap(p.package_root, o))
      return s.refuse(errc::workspace_ownership_ambiguous, "$.workspace",
                      "Workspace " + p.workspace + " or the package destination " + p.package_root +
                          " overlaps the workspace " + o +
                          " of another agent. Resolve workspace ownership before migrating.");
  }
  return true;
}

/// The prompt files the package carries (the five bootstrap names, BOOTSTRAP.md stays):
/// plain regular files in UTF-8; SOUL.md becomes the CLAW.md body when it is not blank.
template <class Fs>
bool capture_files(Fs& fs, migration_scan& s, managed_files& mf) {
  migration_plan& p = s.plan;
  const auto root = open_dir_path(fs, p.workspace);
  for (const char* name : bootstrap_file_names) {
    const file_read r = read_in_root(fs, root, name, state_file_max_bytes);
    if (r.status == read_status::missing && r.detail.empty()) continue;
    const std::string at = std::string("$.workspace.") + name;
    if (r.status != read_status::ok)
      return s.refuse(errc::workspace_file_unsafe, at,
                      std::string(name) + " must be a regular, non-symlinked, non-hardlinked " +
                          "file (" + read_problem(r.status, name, state_file_max_bytes, r.detail) +
                          ").");
    if (!clawport::detail::valid_utf8(r.bytes))
      return s.refuse(errc::workspace_file_encoding_unsupported, at,
                      std::string(name) + " is not valid UTF-8 text.");
    p.workspace_files.push_back(
        {paths::join(p.workspace, name), r.bytes.size(), sha256_digest(r.bytes)});
    // Its permission bits travel as a copy's do (the umask applies when it is created).
    if (const auto st = fs.stat_at(root, name)) mf.modes[name] = fs::copied_mode(st->mode, 0);
    if (std::string(name) == "SOUL.md") {
      mf.soul = r.bytes;
    } else {
      mf.files.emplace_back(name, r.bytes);
    }
  }
  return true;
}

/// The generated package's text (the export's rules): package.json, CLAW.md, the profile
/// of the portable settings and the prompt files.
inline bool generate_tree(migration_scan& s, const managed_files& mf) {
  migration_plan& p = s.plan;
  export_parts parts;
  parts.agent = value::object({{"id", p.agent_id}});
  for (const char* k : {"name", "description", "identity"})
    if (const value* v = get(p.live_entry, k)) parts.agent[k] = *v;
  parts.profile = portable_profile(p.live_entry);
  const bool body = mf.soul && !text::js_trim(*mf.soul).empty();
  const export_text text = build_export_text(parts, mf, body);
  if (const auto r = check_exported(text, parts))
    return s.refuse(errc::agent_setting_unsupported, "$.agent", r->message);
  // No recorded package identity: upstream's export naming.
  const package_naming naming = name_package(nullptr, p.agent_id, text.manifest, text.hashed);
  const value package_json = package_json_of(naming);
  p.package_name = naming.name;
  p.package_version = naming.version;
  p.agent = parts.agent;
  p.profile = parts.profile;
  p.tree = package_tree(text, package_json);
  p.file_modes = package_modes(mf, body);
  for (const auto& f : p.tree)
    p.package_files.push_back({f.first, f.second.size(), sha256_digest(f.second)});
  std::sort(p.package_files.begin(), p.package_files.end(),
            [](const auto& a, const auto& b) { return locale_less(a.path, b.path); });
  return true;
}

/// The package a killed migration published must be, file for file and byte for byte,
/// the tree this plan generates (it was published whole, by one rename); anything else at
/// the destination is not clawport's to adopt.
template <class Fs>
bool check_package_in_place(Fs& fs, migration_scan& s) {
  migration_plan& p = s.plan;
  if (!p.package_in_place) return true;
  std::vector<std::string> present;
  bool same = false;
  try {
    const auto root = open_below_anchor(fs, p.state_root, p.package_root);
    list_tree(fs, root, "", present, 8);
    same = present.size() == p.tree.size();
    for (const auto& [rel, bytes] : p.tree) {
      if (!same) break;
      const file_read r = read_in_root(fs, root, rel, state_file_max_bytes);
      same = r.status == read_status::ok && r.bytes == bytes;
    }
  } catch (const error&) {
    same = false;
  }
  if (same) return true;
  return s.refuse(errc::package_destination_exists, "$.packageRoot",
                  "Local Claw package destination " + p.package_root +
                      " exists and is not the package an interrupted migration of " + p.agent_id +
                      " published (its pending record is in the ledger). Move it away, then "
                      "migrate again.");
}

/// The generated package as the reader would see it at the destination, built from its
/// own bytes (planning writes nothing). Apply reads the staged copy with read_package and
/// refuses when the two plans differ.
inline claw_package planned_package(const migration_plan& p) {
  claw_package pkg;
  const auto bytes_of = [&](const std::string& rel) -> const std::string* {
    for (const auto& f : p.tree)
      if (f.first == rel) return &f.second;
    return nullptr;
  };
  const envelope env = split_envelope(*bytes_of("CLAW.md"));
  const limits lim;
  const yaml_document doc{"CLAW.md frontmatter", errc::invalid_claw_frontmatter,
                          errc::unsupported_claw_yaml_feature, "", 1};
  std::optional<value> raw =
      yaml_to_json(env.frontmatter, doc, lim.manifest, lim.yaml_depth, pkg.diagnostics);
  manifest_result mr = validate_manifest(raw ? *raw : value::object());
  for (auto& d : mr.diagnostics) pkg.diagnostics.push_back(std::move(d));
  pkg.model = std::move(mr.model);
  if (!text::js_trim(env.body).empty()) pkg.body = env.body;
  if (p.profile) {
    profile_result pr = validate_profile(*p.profile, "$.profiles.openclaw");
    for (auto& d : pr.diagnostics) pkg.diagnostics.push_back(std::move(d));
    pkg.profile = std::move(pr.profile);
    pkg.profile_path = "profiles/openclaw.yml";
  }
  pkg.sources = declared_sources(pkg.model);
  for (auto& src : pkg.sources) {
    const std::string* b = bytes_of(src.source);
    src.real_path = paths::join(p.package_root, src.source);
    src.byte_length = b ? b->size() : 0;
    src.digest = b ? sha256_digest(*b) : std::string();
  }
  source_identity& id = pkg.source;
  id.kind = "package";
  id.name = p.package_name;
  id.version = p.package_version;
  id.package_root = p.package_root;
  id.manifest_path = paths::join(p.package_root, "CLAW.md");
  std::tie(id.integrity, id.byte_length) = package_identity(p.tree);
  return pkg;
}

/// A package read at `from` as if it were at `to`: the paths rebased, the identity the
/// path-independent one of `tree` (consent binds the bytes, not where they were staged).
inline claw_package rebased(claw_package pkg, const std::string& from, const std::string& to,
                            const std::vector<std::pair<std::string, std::string>>& tree) {
  const auto rebase = [&](std::string& path) {
    if (path.compare(0, from.size(), from) == 0) path = to + path.substr(from.size());
  };
  rebase(pkg.source.package_root);
  rebase(pkg.source.manifest_path);
  for (auto& s : pkg.sources) rebase(s.real_path);
  const auto identity = package_identity(tree);
  pkg.source.integrity = identity.first;
  pkg.source.byte_length = identity.second;
  return pkg;
}

/// The add plan of `pkg` over the agent as it is (its own id and workspace are not
/// collisions; every other agent's and install's are), with the agent, the workspace and
/// every file adopted; then the agent's settings must come out exactly as configured.
template <class Fs>
void plan_adoption(Fs& fs, const migration_scan& s, const claw_package& pkg, migration_plan& p) {
  host_state host = s.host;
  for (std::size_t k = host.agent_ids.size(); k-- > 0;) {
    if (host.agent_ids[k] != p.agent_id) continue;
    host.agent_ids.erase(host.agent_ids.begin() + static_cast<std::ptrdiff_t>(k));
    host.workspaces.erase(host.workspaces.begin() + static_cast<std::ptrdiff_t>(k));
  }
  for (const auto& w : s.ledger_workspaces) host.workspaces.push_back(w);
  destination dest;
  dest.requested_id = dest.final_id = p.agent_id;
  dest.workspace = p.workspace;
  dest.workspace_exists = true;
  dest.adopt_existing = true;
  probe_workspace(fs, pkg, dest);
  p.add = build_add_plan(pkg, dest, host, offline_resolver{}, add_options{});
  for (auto& a : p.add.actions) {
    if (a.kind != add_kind::agent) continue;
    a.verb = add_verb::adopt;
    a.expected = expected_state::existing;
  }
  p.add.integrity = add_plan_integrity_of(p.add);
  for (const auto& b : p.add.blockers) p.blockers.push_back(b);
  value live = p.live_entry;
  live["id"] = p.agent_id;
  live["workspace"] = p.workspace;
  std::string differing;
  value keys = live;
  keys.update(p.add.agent_config);
  for (auto it = keys.begin(); it != keys.end(); ++it) {
    const value* want = get(live, it.key().c_str());
    const value* got = get(p.add.agent_config, it.key().c_str());
    if (want == nullptr || got == nullptr || *want != *got)
      differing +=
          (differing.empty() ? "" : ", ") + ("agents.entries." + p.agent_id + "." + it.key());
  }
  if (!differing.empty())
    p.blockers.push_back(
        error_at(errc::agent_setting_unsupported, phase::plan, "$.agent",
                 "A Claw v1 package cannot reproduce " + differing +
                     " exactly; remove the setting or leave the agent unmanaged."));
}

}  // namespace detail

/// The `openclaw.clawMigrationPlan.v1` document.
inline value to_json(const migration_plan& p) {
  const auto files = [](const std::vector<migration_file>& fs) {
    value out = value::array();
    for (const auto& f : fs)
      out.push_back(
          value::object({{"path", f.path}, {"byteLength", f.byte_length}, {"digest", f.digest}}));
    return out;
  };
  value d = mutation_document(migration_plan_schema, false);
  d["agentId"] = p.agent_id;
  d["workspace"] = p.workspace;
  d["packageRoot"] = p.package_root;
  d["packageName"] = p.package_name;
  d["agent"] = p.agent;
  if (p.profile) d["openClawProfile"] = *p.profile;
  d["generatedPackageFiles"] = files(p.package_files);
  d["workspaceFiles"] = files(p.workspace_files);
  d["retained"] = migration_retained();
  d["planIntegrity"] = p.integrity;
  d["blockers"] = to_json(p.blockers);
  return d;
}

/// `claw migrate <agent-id>` without consent: the plan. Reads the state directory and the
/// workspace; writes nothing. A refusal is a plan whose `blockers` name it.
template <class Fs>
migration_plan plan_migration(Fs& fs, const destination_request& req, const std::string& agent_id) {
  detail::migration_scan s;
  s.plan.agent_id = agent_id;
  detail::managed_files mf;
  try {
    if (detail::scan_agent(fs, req, s) && detail::scan_places(fs, req, s) &&
        detail::capture_files(fs, s, mf) && detail::generate_tree(s, mf) &&
        detail::check_package_in_place(fs, s)) {
      detail::plan_adoption(fs, s, detail::planned_package(s.plan), s.plan);
    }
  } catch (const error& e) {
    s.refuse(e.code(), e.subject().empty() ? "$" : e.subject(), e.what());
  }
  s.plan.integrity = detail::migration_integrity(s.plan);
  return std::move(s.plan);
}

namespace detail {

/// What the undo steps of a migration need, filled as it runs.
struct migrate_undo_state {
  std::vector<std::string> created_parents;  ///< made for the package, outermost first
  bool published = false;
  std::vector<std::string> created_state_dirs;
  std::optional<std::string> ledger_before;
};

/// The staged package, read with the one reader, must plan exactly as consented.
template <class Fs>
void check_staged(Fs& fs, const destination_request& req, const migration_plan& p,
                  const std::string& staged) {
  const claw_package read = read_package(fs, staged);
  if (!read.ok())
    throw error(errc::migration_changed,
                "the generated package does not read clean (a clawport bug): " +
                    json::dump(to_json(read.diagnostics), -1),
                p.package_root);
  migration_scan s;
  s.plan = p;
  s.host = read_host_state(fs, req);
  // The migration's own `pending` record is in the ledger by now: not another install.
  s.ledger_workspaces = other_workspaces(read_ledger(fs, s.host.state_dir), p.agent_id);
  s.plan.blockers.clear();
  plan_adoption(fs, s, rebased(read, staged, p.package_root, p.tree), s.plan);
  if (s.plan.blocked() || migration_integrity(s.plan) != p.integrity)
    throw error(errc::migration_changed,
                "The agent, its workspace files or the local ownership changed after consent; "
                "run migrate --dry-run again",
                p.package_root);
}

/// The install record of a migrated agent: complete (or `pending`, the intent written
/// before the package is published), its workspace adopted, every prompt file adopted (the
/// operator's: released, never deleted, by remove), the agent entry as it is in
/// openclaw.json.
inline install_record migrated_record(const migration_plan& p, const source_identity& claw,
                                      const std::string& now, bool pending = false) {
  const char* status = pending ? "pending" : "complete";
  install_record r = new_record(p.agent_id, claw, p.integrity, p.add, p.workspace, "adopted",
                                digest_of(p.live_entry), now);
  r.status = status;
  r.agent_origin = "adopted";  // remove releases the agent rather than deleting it
  r.config = pending ? "pending" : "registered";
  for (const auto& a : p.add.actions) {
    if (a.kind != add_kind::workspace_file) continue;
    const std::string source = a.from_body ? "CLAW.md" : a.source.substr(p.package_root.size() + 1);
    r.workspace_files.push_back(
        {a.id, source, a.digest.value_or(""), "file", "managed", "adopted", status});
  }
  return r;
}

/// The migration's steps: the intent (a `pending` record in the ledger), the package
/// staged, checked and published (already in place when a killed run is resumed), then
/// the record completed. A failure restores the ledger as it was (a resumed run's
/// `pending` record stays, with its package).
template <class Fs>
void run_migration(Fs& fs, const destination_request& req, const migration_plan& p,
                   const std::string& now, migrate_undo_state& s, publish::undo_journal& undo,
                   errc& step) {
  step = errc::provenance_failed;
  const std::string state_dir = state_dir_of(req);
  ledger l = read_ledger(fs, state_dir);
  s.ledger_before = l.bytes;
  const auto mine = l.installs.find(p.agent_id);
  if (mine != l.installs.end() && !(p.resuming && interrupted_migration(mine->second)))
    throw error(errc::migration_changed, "agent " + p.agent_id + " was added meanwhile",
                p.agent_id);
  l.installs[p.agent_id] = migrated_record(p, planned_package(p).source, now, true);
  undo.add(state_dir, [&fs, &s] { remove_created_dirs(fs, s.created_state_dirs); });
  undo.add("the ledger", [&fs, &s, state_dir] {
    restore_state_file(fs, state_dir, ledger_file_name, s.ledger_before);
  });
  write_ledger(fs, state_dir, l, &s.created_state_dirs);

  step = errc::publish_failed;
  undo.add(p.package_root, [&fs, &s] { remove_created_dirs(fs, s.created_parents); });
  undo.add(p.package_root, [&fs, &s, root = p.package_root] {
    if (!s.published) return;
    auto parent = open_dir_path(fs, parent_of(root));
    fs.remove_tree_at(parent, paths::file_name(root));
  });
  if (p.package_in_place) {
    check_staged(fs, req, p, p.package_root);
  } else {
    publish_new_dir(
        fs, p.package_root, p.tree, s.created_parents, s.published,
        [&](const std::string& staged) { check_staged(fs, req, p, staged); },
        new_dir_options{p.state_root, p.file_modes});
  }
  const claw_package published = read_package(fs, p.package_root);
  if (!published.ok())
    throw error(errc::migration_changed, "the published package does not read clean",
                p.package_root);

  step = errc::provenance_failed;
  l.installs[p.agent_id] = migrated_record(p, published.source, now);
  write_ledger(fs, state_dir, l);
}

}  // namespace detail

/// A migration that ran: the package it published and the ledger that records it.
struct migration_result {
  std::string agent_id;
  std::string workspace;
  std::string package_root;
  std::string plan_integrity;
  std::vector<std::string> files_written;  ///< package-relative
  std::string ledger;                      ///< the ledger file
};

/// A migration that ran reports no error.
inline std::optional<error_member> error_member_of(const migration_result&) { return std::nullopt; }

/// The `openclaw.clawMigrationResult.v1` document of a migration that ran.
inline value to_json(const migration_result& r) {
  using t = migration_result;
  return json::object_of<value>(
      r, json::field("schemaVersion", [](const t&) { return migration_result_schema; }),
      json::field("stability", [](const t&) { return stability; }),
      json::field("dryRun", [](const t&) { return false; }),
      json::field("status", [](const t&) { return "complete"; }),
      json::field("agentId", &t::agent_id), json::field("workspace", &t::workspace),
      json::field("packageRoot", &t::package_root),
      json::field("planIntegrity", &t::plan_integrity),
      json::field("filesWritten", &t::files_written), json::field("ledger", &t::ledger));
}

/// What `apply_migration` returns: the typed result once the migration ran, else why it
/// stopped: refused or failed (`failed`), or the plan blocks (`blocked_plan`).
struct migration_outcome : outcome<migration_result> {
  std::optional<migration_plan> blocked_plan;
};

/// The error of a migration plan: its first blocker.
inline std::optional<error_member> error_member_of(const migration_plan& p) {
  return first_error(p.blockers);
}

/// The error of a migration that did not run: the blocked plan's, else the failure's.
inline std::optional<error_member> error_member_of(const migration_outcome& o) {
  if (o.blocked_plan) return error_member_of(*o.blocked_plan);
  return error_member_of(static_cast<const outcome<migration_result>&>(o));
}

/// The document `claw migrate --yes --json` prints: the result, the failure or the
/// blocked plan.
inline value to_json(const migration_outcome& o) {
  if (o.blocked_plan) return to_json(*o.blocked_plan);
  return to_json(static_cast<const outcome<migration_result>&>(o));
}

/// `claw migrate <agent-id> --yes --plan-integrity`: rebuilds the plan, requires the
/// consented integrity, publishes the generated package (staged, read back and re-planned
/// first) and records the install in the ledger. Any failure undoes both. `now` is the
/// RFC 3339 time the ledger records.
template <class Fs>
migration_outcome apply_migration(Fs& fs, const destination_request& req,
                                  const std::string& agent_id, const consent& c,
                                  const std::string& now) {
  constexpr const char* schema = migration_result_schema;
  migration_outcome out;
  const clawport::plan::subject subject{"migration", "migrate --dry-run"};
  if (detail::refused(out, schema, clawport::plan::check_given(c), subject)) return out;
  const migration_plan p = plan_migration(fs, req, agent_id);
  if (p.blocked()) {
    out.blocked_plan = p;
    return out;
  }
  if (detail::refused(out, schema, clawport::plan::check_integrity(*c.plan_integrity, p.integrity),
                      subject)) {
    out.failed->agent_id = agent_id;
    return out;
  }
  detail::migrate_undo_state undo_state;
  publish::undo_journal undo;  // after what its steps refer to: destroyed first
  errc step = errc::publish_failed;
  try {
    detail::run_migration(fs, req, p, now, undo_state, undo, step);
  } catch (const error& e) {
    const errc code = e.code() == errc::migration_changed ? e.code() : step;
    out.failed =
        failure_of(schema, code, detail::after_rollback(e.what(), undo.run(), "migration"));
    out.failed->agent_id = agent_id;
    out.failed->plan_integrity = p.integrity;
    return out;
  }
  undo.commit();
  migration_result res{p.agent_id,  p.workspace, p.package_root,
                       p.integrity, {},          paths::join(state_dir_of(req), ledger_file_name)};
  for (const auto& f : p.package_files) res.files_written.push_back(f.path);
  out.ok = true;
  out.result = std::move(res);
  return out;
}

/// The human form of a migration plan (after the experimental banner), every line through
/// the one terminal-safe renderer (core/text.hpp).
inline std::string plan_text(const migration_plan& p) {
  text::terminal_lines line;
  line(experimental_banner);
  line("Plan: migrate agent " + p.agent_id + " to a Claw (dry run, nothing written)");
  if (!p.workspace.empty()) line("  workspace:       " + p.workspace);
  if (!p.package_name.empty())
    line("  package:         " + p.package_root + " (" + p.package_name + ")");
  line("  plan integrity:  " + p.integrity);
  if (p.resuming)
    line(std::string("  resumes:         the migration killed before it finished (its pending "
                     "ledger record") +
         (p.package_in_place ? " and its package" : "") + ")");
  for (const auto& f : p.package_files) line("    generate " + f.path);
  for (const auto& f : p.workspace_files) line("    adopt " + f.path);
  for (const auto& r : migration_retained()) line("    retain " + r);
  detail::blocker_lines(line, p.blockers);
  return std::move(line.text);
}

/// The human form of a migration that ran (after the experimental banner).
inline std::string result_text(const migration_result& r) {
  text::terminal_lines line;
  line(experimental_banner);
  line("Migrated agent " + r.agent_id + " to the Claw package " + r.package_root);
  line("  ledger: " + r.ledger);
  return std::move(line.text);
}

/// The human form `claw migrate --yes` prints: its result's or failure's, or the plan that
/// blocks it.
inline std::string result_text(const migration_outcome& o) {
  if (o.blocked_plan) return plan_text(*o.blocked_plan);
  return result_text(static_cast<const outcome<migration_result>&>(o));
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
