// SPDX-License-Identifier: MIT
// `claw update <claw-or-agent> [--from <pkg>]` offline (docs/openclaw.md, "Update"): the
// update plan `openclaw.clawUpdatePlan.v1` from the ledger, the disk and the new package
// (by default the recorded source), its own planIntegrity, drift refused as `manual`
// actions; the apply stages every new file beside its destination, renames them in, writes
// openclaw.json once and the ledger last, and undoes everything in reverse on any failure.
// ClawHub packages and cron jobs cannot be applied offline: they are recorded as not
// installed / not applied and the result is `partial` with `update_partial`.
#pragma once

#include "../publish/names.hpp"
#include "../publish/undo.hpp"
#include "lifecycle.hpp"

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

/// What one action (or capability change) of an update plan acts on.
enum class update_kind { agent, workspace_file, package, mcp_server, cron_job };

/// What one action of an update plan does; `manual` is drift clawport leaves to the
/// operator (it blocks). A capability change is an add, change, remove or release.
enum class update_verb { add, change, remove, release, unchanged, manual };

inline constexpr std::string_view update_kind_names[] = {"agent", "workspaceFile", "package",
                                                         "mcpServer", "cronJob"};
constexpr std::string_view to_string(update_kind k) noexcept {
  return wire_name<update_kind::cron_job>(k, update_kind_names, "agent");
}

inline constexpr std::string_view update_verb_names[] = {"add",     "change",    "remove",
                                                         "release", "unchanged", "manual"};
constexpr std::string_view to_string(update_verb v) noexcept {
  return wire_name<update_verb::manual>(v, update_verb_names, "add");
}

/// One action of an update plan. What the apply reads is typed; `details` is what the plan
/// document shows of it.
struct update_action {
  update_kind kind = update_kind::agent;
  std::string id;
  update_verb verb = update_verb::unchanged;
  std::optional<std::string> reason;  ///< why a `manual` action blocks
  value details = value::object();
  std::string current_digest;  ///< workspaceFile: the recorded content digest
  bool current_present = false;
  std::string relationship;  ///< mcpServer `add`: managed | referenced
};

/// A capability the update grants (an escalation, which needs distinct consent) or takes
/// away (a reduction).
struct update_capability_change {
  update_kind kind = update_kind::agent;
  std::string id;
  std::string path;  ///< `agent.tools`, `packages.<id>`, `mcpServers.<name>`, ...
  update_verb verb = update_verb::add;  ///< add | change | remove | release
  bool escalation = false;
  value effect = value::object();  ///< what the plan document shows of the new capability
};

inline value to_json(const update_capability_change& c) {
  return value::object({{"kind", std::string(to_string(c.kind))},
                        {"id", c.id},
                        {"path", c.path},
                        {"action", std::string(to_string(c.verb))},
                        {"classification", c.escalation ? "escalation" : "reduction"},
                        {"requiresDistinctConsent", c.escalation},
                        {"effect", c.effect}});
}

/// One action as the plan document shows it: kind, id, action, blocked (and why), then
/// its details.
inline value to_json(const update_action& a) {
  value x = value::object();
  x["kind"] = std::string(to_string(a.kind));
  x["id"] = a.id;
  x["action"] = std::string(to_string(a.verb));
  x["blocked"] = a.reason.has_value();
  if (a.reason) x["reason"] = *a.reason;
  for (auto it = a.details.begin(); it != a.details.end(); ++it) x[it.key()] = it.value();
  return x;
}

/// An update plan, as data; `plan` is its document, rendered once it is built.
struct update_plan {
  value plan;               ///< `openclaw.clawUpdatePlan.v1`, rendered by to_json
  std::string target_name;  ///< the `<claw-or-agent>` asked for
  bool found = false;       ///< it names exactly one install
  std::string agent_id;     ///< the install the target names
  std::optional<source_identity> current_claw;  ///< the installed Claw, when found
  std::optional<std::string> source;            ///< the package read as the target
  std::optional<claw_package> package;          ///< the target package, when it was read
  std::optional<add_plan> target;               ///< the target add plan (built against the record)
  std::vector<update_action> actions;           ///< sorted by `<kind>:<id>`
  std::vector<update_capability_change> capability_changes;  ///< sorted by `<kind>:<id>`
  std::vector<plan_blocker> blockers;
  std::vector<diagnostic> diagnostics;  ///< the target package's (only its errors if invalid)
  bool blocked = false;
  std::string integrity;  ///< planIntegrity

  /// The action of `kind` on `id`, or null.
  const update_action* action(update_kind kind, const std::string& id) const {
    for (const auto& a : actions)
      if (a.kind == kind && a.id == id) return &a;
    return nullptr;
  }
};

namespace detail {

inline value claw_summary(const source_identity& claw) {
  return value::object(
      {{"name", claw.name}, {"version", claw.version}, {"integrity", claw.integrity}});
}

/// A cron job declaration as the add plan records it, without what the plan adds.
inline value cron_declaration(value job) {
  job.erase("agentId");
  job.erase("deliveryResolution");
  job.erase("expectedState");
  return job;
}

/// The actions, capability changes and blockers of an update plan as they are found.
struct update_builder {
  std::vector<update_action> actions;
  std::vector<update_capability_change> caps;
  std::vector<plan_blocker> blockers;

  void block(errc code, const std::string& message) {
    blockers.push_back(make_blocker(code, message));
  }
  /// Records an action; a `manual` one (with its reason) blocks with `code`.
  update_action& act(update_kind kind, const std::string& id, update_verb verb, value details,
                     const std::optional<std::string>& manual = {},
                     errc code = errc::update_blocked) {
    update_action a;
    a.kind = kind;
    a.id = id;
    a.verb = manual ? update_verb::manual : verb;
    a.reason = manual;
    a.details = std::move(details);
    actions.push_back(std::move(a));
    if (manual) block(code, *manual);
    return actions.back();
  }
  void cap(update_kind kind, const std::string& id, const std::string& path, update_verb verb,
           bool escalation, value effect) {
    caps.push_back({kind, id, path, verb, escalation, std::move(effect)});
  }
};

/// The agent entry: unchanged, changed, or manual when it was edited by hand; the
/// capability changes of its escalating settings.
inline void update_agent_actions(update_builder& b, const install_status& s, const value& cfg,
                                 const value& desired) {
  const std::string& id = s.agent_id;
  const std::string want = agent_entry_digest(desired);
  const std::string& have = s.record.agent_config_digest;
  value d = value::object({{"currentDigest", have}, {"desiredDigest", want}});
  const value* entry = config_member(cfg, "agents", "entries", id);
  // Already the target's entry (a killed update wrote it): done, not drift.
  const bool at_target = entry != nullptr && digest_of(*entry) == want;
  if (s.agent_state == "modified" && !at_target) {
    b.act(update_kind::agent, id, update_verb::manual, d,
          "Agent " + id +
              " was changed in openclaw.json since it was added or updated; restore it first.",
          errc::agent_changed);
  } else {
    b.act(update_kind::agent, id,
          s.agent_state == "missing" || want != have || s.agent_state == "modified"
              ? update_verb::change
              : update_verb::unchanged,
          d);
  }
  const value* live = config_member(cfg, "agents", "entries", id);
  for (const char* k : {"sandbox", "tools", "memory", "heartbeat"}) {
    const value* before = live ? get(*live, k) : nullptr;
    const value* after = get(desired, k);
    if ((before == nullptr) == (after == nullptr) && (!before || *before == *after)) continue;
    b.cap(update_kind::agent, id, std::string("agent.") + k,
          after ? update_verb::change : update_verb::remove, after != nullptr,
          after ? *after : value::object());
  }
}

/// The recorded workspace files against the target's: drift is manual, the rest added,
/// changed, removed (introduced) or released (adopted). A file in `at_target` (modified
/// against the ledger, but holding exactly the target's bytes: an update killed between its
/// renames) is done, not drift: it is changed again to the same bytes and its row updated.
inline void update_recorded_files(update_builder& b, const install_status& s,
                                  const std::map<std::string, const add_action*>& wanted,
                                  const std::set<std::string>& at_target = {}) {
  for (const auto& f : s.files) {
    const std::string& rel = f.path;
    const std::string& st = f.state;
    const auto w = wanted.find(rel);
    value d = value::object({{"currentDigest", f.row.content_digest},
                             {"currentPresent", st != "missing"},
                             {"state", st}});
    if (w != wanted.end()) d["desiredDigest"] = w->second->digest.value_or("");
    update_action* a = nullptr;
    if (at_target.count(rel) && w != wanted.end()) {
      a = &b.act(update_kind::workspace_file, rel, update_verb::change, d);
      a->current_digest = w->second->digest.value_or("");
      a->current_present = true;
      continue;
    }
    if (st != "unchanged" && st != "missing") {
      a = &b.act(update_kind::workspace_file, rel, update_verb::manual, d,
                 "Workspace file " + rel + " is " + st +
                     " since it was added; restore it (or move your version aside) first.",
                 errc::workspace_file_drift);
    } else if (w == wanted.end()) {
      a = &b.act(update_kind::workspace_file, rel,
                 f.row.claw_introduced() ? update_verb::remove : update_verb::release, d);
    } else if (st == "missing") {
      // A consumed BOOTSTRAP.md (seeded once) is not seeded again.
      a = &b.act(update_kind::workspace_file, rel,
                 f.row.kind == "bootstrap" ? update_verb::unchanged : update_verb::add, d);
    } else {
      a = &b.act(update_kind::workspace_file, rel,
                 f.row.content_digest == w->second->digest.value_or("") ? update_verb::unchanged
                                                                        : update_verb::change,
                 d);
    }
    a->current_digest = f.row.content_digest;
    a->current_present = st != "missing";
  }
}

/// The target's workspace files the record does not name: added, or manual when an
/// unmanaged file occupies the place.
template <class Fs>
void update_new_files(Fs& fs, update_builder& b, const install_status& s,
                      const std::map<std::string, const add_action*>& wanted) {
  std::set<std::string> recorded;
  for (const auto& f : s.files) recorded.insert(f.path);
  std::optional<typename Fs::dir> root;
  try {
    root.emplace(open_dir_path(fs, s.record.workspace));
  } catch (const error&) {
  }
  for (const auto& w : wanted) {
    if (recorded.count(w.first)) continue;
    value d = value::object(
        {{"currentPresent", false}, {"desiredDigest", w.second->digest.value_or("")}});
    bool occupied = false;
    bool at_target = false;  // the target's bytes already (a killed update put them there)
    if (root) {
      const file_read r = read_in_root(fs, *root, w.first, state_file_max_bytes);
      occupied = !(r.status == read_status::missing && r.detail.empty());
      at_target = r.status == read_status::ok && w.second->digest &&
                  sha256_digest(r.bytes) == *w.second->digest;
    }
    if (at_target) {
      d["currentPresent"] = true;
      update_action& a = b.act(update_kind::workspace_file, w.first, update_verb::change, d);
      a.current_digest = *w.second->digest;
      a.current_present = true;
    } else if (occupied) {
      d["currentPresent"] = true;
      b.act(update_kind::workspace_file, w.first, update_verb::manual, d,
            "An unmanaged file occupies " + w.first +
                "; clawport never overwrites it: move it aside first.",
            errc::workspace_file_collision)
          .current_present = true;
    } else {
      b.act(update_kind::workspace_file, w.first, update_verb::add, d);
    }
  }
}

/// ClawHub packages: never installed or uninstalled offline, only recorded.
inline void update_package_actions(update_builder& b, const install_record& rec,
                                   const add_plan& tp) {
  std::map<std::string, std::string> cur;   ///< id → version
  std::map<std::string, std::string> want;  ///< id → version
  for (const auto& p : rec.packages) cur[p.kind + ":" + p.ref] = p.version;
  for (const auto& a : tp.actions)
    if (a.kind == add_kind::package) want[a.id] = a.package.decl.version;
  for (const auto& c : cur) {
    const auto n = want.find(c.first);
    if (n == want.end()) {
      b.act(update_kind::package, c.first, update_verb::release,
            value::object({{"currentVersion", c.second}}));
      b.cap(update_kind::package, c.first, "packages." + c.first, update_verb::release, false,
            value::object());
      continue;
    }
    const bool same = c.second == n->second;
    b.act(update_kind::package, c.first, same ? update_verb::unchanged : update_verb::change,
          value::object({{"currentVersion", c.second}, {"desiredVersion", n->second}}));
    if (!same)
      b.cap(update_kind::package, c.first, "packages." + c.first, update_verb::change, true,
            value::object({{"version", n->second}}));
  }
  for (const auto& n : want) {
    if (cur.count(n.first)) continue;
    b.act(update_kind::package, n.first, update_verb::add,
          value::object({{"desiredVersion", n.second}}));
    b.cap(update_kind::package, n.first, "packages." + n.first, update_verb::add, true,
          value::object({{"version", n.second}}));
  }
}

inline value mcp_update_effect(const value& server) {
  return value::object({{"summary", server.contains("url") ? "remote server" : "local command"},
                        {"payloadWithheld", true}});
}

/// One recorded MCP server reference against the target's declaration (or its absence).
inline void update_recorded_mcp(update_builder& b, const mcp_status& m, const value& new_mcp);

/// The same, with the recorded relationship on the action.
inline void update_recorded_mcp_tagged(update_builder& b, const mcp_status& m,
                                       const value& new_mcp) {
  const std::size_t at = b.actions.size();
  update_recorded_mcp(b, m, new_mcp);
  if (b.actions.size() > at) b.actions[at].relationship = m.row.relationship;
}

inline void update_recorded_mcp(update_builder& b, const mcp_status& m, const value& new_mcp) {
  const bool managed = m.managed();
  value d = value::object({{"currentDigest", m.row.config_digest},
                           {"relationship", m.row.relationship},
                           {"state", m.state}});
  if (!new_mcp.contains(m.name)) {
    if (!managed) {
      b.act(update_kind::mcp_server, m.name, update_verb::release, d);
    } else if (m.state == "modified") {
      b.act(update_kind::mcp_server, m.name, update_verb::manual, d,
            "MCP server " + m.name + " was changed in openclaw.json; restore it first.",
            errc::mcp_config_conflict);
    } else {
      b.act(update_kind::mcp_server, m.name, update_verb::remove, d);
    }
    if (!managed || m.state != "modified")
      b.cap(update_kind::mcp_server, m.name, "mcpServers." + m.name, update_verb::remove, false,
            value::object());
    return;
  }
  const std::string want = digest_of(canonical_mcp_server(new_mcp[m.name]));
  d["desiredDigest"] = want;
  if (m.state == "modified") {
    b.act(update_kind::mcp_server, m.name, update_verb::manual, d,
          "MCP server " + m.name + " was changed in openclaw.json; restore it first.",
          errc::mcp_config_conflict);
  } else if (want == m.row.config_digest) {
    b.act(update_kind::mcp_server, m.name,
          m.state == "missing" && managed ? update_verb::change : update_verb::unchanged, d);
  } else if (!managed) {
    b.act(update_kind::mcp_server, m.name, update_verb::manual, d,
          "MCP server " + m.name +
              " is a shared declaration this Claw did not create; change it by hand.",
          errc::mcp_config_conflict);
  } else {
    b.act(update_kind::mcp_server, m.name, update_verb::change, d);
    b.cap(update_kind::mcp_server, m.name, "mcpServers." + m.name, update_verb::change, true,
          mcp_update_effect(new_mcp[m.name]));
  }
}

/// MCP servers: the recorded ones, then the target's new ones (managed, or referenced when
/// an identical declaration exists; a different one collides).
inline void update_mcp_actions(update_builder& b, const install_status& s, const value& cfg,
                               const value& new_mcp) {
  std::map<std::string, mcp_status> recorded;
  for (const auto& m : s.mcp_servers) {
    mcp_status x = m;
    const value* live = config_member(cfg, "mcp", "servers", m.name);
    // A managed server a killed update already gave the target's declaration: done, not drift.
    if (x.state == "modified" && x.managed() && live != nullptr && new_mcp.contains(m.name) &&
        digest_of(canonical_mcp_server(*live)) == digest_of(canonical_mcp_server(new_mcp[m.name])))
      x.state = "present";
    recorded[m.name] = std::move(x);
  }
  for (const auto& m : recorded) update_recorded_mcp_tagged(b, m.second, new_mcp);
  for (auto it = new_mcp.begin(); it != new_mcp.end(); ++it) {
    if (recorded.count(it.key())) continue;
    const std::string want = digest_of(canonical_mcp_server(it.value()));
    value d = value::object({{"desiredDigest", want}});
    const value* live = config_member(cfg, "mcp", "servers", it.key());
    if (live != nullptr && digest_of(canonical_mcp_server(*live)) != want) {
      b.act(update_kind::mcp_server, it.key(), update_verb::manual, d,
            "MCP server " + it.key() + " already exists with a different configuration.",
            errc::mcp_server_collision);
      continue;
    }
    const std::string relationship = live != nullptr ? "referenced" : "managed";
    d["relationship"] = relationship;
    b.act(update_kind::mcp_server, it.key(), update_verb::add, d).relationship = relationship;
    b.cap(update_kind::mcp_server, it.key(), "mcpServers." + it.key(), update_verb::add, true,
          mcp_update_effect(it.value()));
  }
}

/// Cron jobs (they need a Gateway: recorded, never scheduled offline).
inline void update_cron_actions(update_builder& b, const install_record& rec, const add_plan& tp) {
  std::map<std::string, value> cur, want;
  for (const auto& j : rec.cron_jobs) cur[j.manifest_id] = cron_declaration(j.job);
  for (const auto& a : tp.actions)
    if (a.kind == add_kind::cron_job) want[a.id] = a.declaration;
  for (const auto& c : cur) {
    const auto n = want.find(c.first);
    const std::string have = digest_of(c.second);
    value d = value::object({{"currentDigest", have}});
    if (n == want.end()) {
      b.act(update_kind::cron_job, c.first, update_verb::remove, d);
      b.cap(update_kind::cron_job, c.first, "cronJobs." + c.first, update_verb::remove, false,
            value::object());
      continue;
    }
    const std::string want_digest = digest_of(n->second);
    d["desiredDigest"] = want_digest;
    const bool same = want_digest == have;
    b.act(update_kind::cron_job, c.first, same ? update_verb::unchanged : update_verb::change, d);
    if (!same)
      b.cap(update_kind::cron_job, c.first, "cronJobs." + c.first, update_verb::change, true,
            value::object({{"payloadWithheld", true}}));
  }
  for (const auto& n : want) {
    if (cur.count(n.first)) continue;
    b.act(update_kind::cron_job, n.first, update_verb::add,
          value::object({{"desiredDigest", digest_of(n.second)}}));
    b.cap(update_kind::cron_job, n.first, "cronJobs." + n.first, update_verb::add, true,
          value::object({{"payloadWithheld", true}}));
  }
}

/// The recorded files that differ from their ledger row but hold exactly the bytes the
/// target wants (an update killed between two renames left them so).
template <class Fs>
std::set<std::string> files_at_target(Fs& fs, const install_status& s,
                                      const std::map<std::string, const add_action*>& wanted) {
  std::set<std::string> out;
  std::optional<typename Fs::dir> root;
  for (const auto& f : s.files) {
    const auto w = wanted.find(f.path);
    if (f.state != "modified" || w == wanted.end() || !w->second->digest) continue;
    try {
      if (!root) root.emplace(open_dir_path(fs, s.record.workspace));
    } catch (const error&) {
      return out;
    }
    const file_read r = read_in_root(fs, *root, f.path, state_file_max_bytes);
    if (r.status == read_status::ok && sha256_digest(r.bytes) == *w->second->digest)
      out.insert(f.path);
  }
  return out;
}

/// Every action of the update of `s` to the target add plan `tp`.
template <class Fs>
void update_actions(Fs& fs, update_builder& b, const install_status& s, const value& cfg,
                    const add_plan& tp, const value& new_mcp) {
  update_agent_actions(b, s, cfg, tp.agent_config);
  std::map<std::string, const add_action*> wanted;
  for (const auto& a : tp.actions)
    if (a.kind == add_kind::workspace_file || a.kind == add_kind::bootstrap) wanted[a.id] = &a;
  update_recorded_files(b, s, wanted, files_at_target(fs, s, wanted));
  update_new_files(fs, b, s, wanted);
  update_package_actions(b, s.record, tp);
  update_mcp_actions(b, s, cfg, new_mcp);
  update_cron_actions(b, s.record, tp);
}

/// Reads the target package (`from`, else the recorded source) and builds its add plan
/// against the recorded identity into `out` (with the source and the package's
/// diagnostics); what blocks goes to `b`.
template <class Fs>
void read_update_target(Fs& fs, update_plan& out, update_builder& b, const std::string& state_dir,
                        const install_record& rec, const std::optional<std::string>& from) {
  const std::string source = from                         ? *from
                             : rec.claw.kind == "package" ? rec.claw.package_root
                                                          : rec.claw.manifest_path;
  out.source = source;
  claw_package pkg = read_package(fs, source);
  if (!pkg.ok()) {
    bool unreadable = false;
    for (const auto& d : pkg.diagnostics) {
      if (d.level != level::error) continue;
      unreadable = unreadable || has_code(d, errc::read_failed) ||
                   has_code(d, errc::package_read_failed) || has_code(d, errc::unsupported_source);
      out.diagnostics.push_back(d);
    }
    if (unreadable && !from) {
      b.block(errc::recorded_source_unavailable,
              "The recorded source " + source +
                  " cannot be read; pass --from <package> to update from another copy.");
    } else {
      b.block(errc::update_invalid, "The package " + source + " is invalid (run claw inspect).");
    }
    return;
  }
  out.diagnostics = pkg.diagnostics;
  if (pkg.source.name != rec.claw.name)
    b.block(errc::claw_identity_mismatch,
            "The package " + pkg.source.name + " is not the installed Claw " + rec.claw.name + ".");
  // The target add plan against the recorded identity: the agent id and workspace are
  // immutable; collisions with itself and ClawHub preflight are not update blockers.
  destination dest;
  dest.requested_id = pkg.model.agent.id;
  dest.final_id = out.agent_id;
  dest.workspace = rec.workspace;
  host_state host;
  host.state_dir = state_dir;
  add_options opt;
  opt.without_packages = true;
  add_plan tp = build_add_plan(pkg, dest, host, offline_resolver{}, opt);
  for (const diagnostic& x : tp.blockers) {
    if (has_code(x, errc::agent_id_collision) || has_code(x, errc::workspace_collision) ||
        has_code(x, errc::mcp_server_collision) || x.path.rfind("$.packages", 0) == 0)
      continue;
    b.blockers.push_back({x.code, x.message});  // the target plan's code
  }
  out.target = std::move(tp);
  out.package = std::move(pkg);
}

/// The `summary` of an update plan document: the actions by verb, the capability changes.
inline value update_summary(const update_plan& p) {
  const auto count = [&](update_verb verb) {
    return static_cast<std::size_t>(
        std::count_if(p.actions.begin(), p.actions.end(),
                      [&](const update_action& a) { return a.verb == verb; }));
  };
  const auto escalations = static_cast<std::size_t>(
      std::count_if(p.capability_changes.begin(), p.capability_changes.end(),
                    [](const update_capability_change& c) { return c.escalation; }));
  value summary = value::object();
  summary["totalActions"] = p.actions.size();
  summary["added"] = count(update_verb::add);
  summary["changed"] = count(update_verb::change);
  summary["removed"] = count(update_verb::remove);
  summary["released"] = count(update_verb::release);
  summary["unchanged"] = count(update_verb::unchanged);
  summary["manual"] = count(update_verb::manual);
  summary["blocked"] = count(update_verb::manual);
  summary["capabilityChanges"] = p.capability_changes.size();
  summary["capabilityEscalations"] = escalations;
  return summary;
}

/// `<kind>:<id>` of an action or capability change, its wire kind (the sort key).
template <class T>
std::string kind_id(const T& x) {
  return std::string(to_string(x.kind)) + ":" + x.id;
}

/// Sorts by `<kind>:<id>` in localeCompare order, stably.
template <class T, class Key>
void sort_by_kind_id(std::vector<T>& list, Key key) {
  std::stable_sort(list.begin(), list.end(),
                   [&](const T& a, const T& b) { return locale_less(key(a), key(b)); });
}

}  // namespace detail

/// What an update plan's planIntegrity binds (integrity.hpp): its document
/// `openclaw.clawUpdatePlan.v1` without the integrity, from the typed parts.
inline value update_plan_bound(const update_plan& p) {
  value doc = mutation_document("openclaw.clawUpdatePlan.v1", false);
  doc["target"] = p.target_name;
  doc["found"] = p.found;
  if (p.found) {
    doc["agentId"] = p.agent_id;
    if (p.current_claw) doc["currentClaw"] = detail::claw_summary(*p.current_claw);
  }
  if (p.source) doc["source"] = *p.source;
  if (p.package) doc["targetClaw"] = detail::claw_summary(p.package->source);
  doc["summary"] = detail::update_summary(p);
  doc["actions"] = array_of(p.actions);
  doc["capabilityChanges"] = array_of(p.capability_changes);
  doc["blockers"] = to_json(p.blockers);
  doc["diagnostics"] = to_json(p.diagnostics);
  return doc;
}

/// The error of an update plan: its package's first error diagnostic, else its first blocker.
inline std::optional<error_member> error_member_of(const update_plan& p) {
  if (auto e = first_error(p.diagnostics)) return e;
  return first_error(p.blockers);
}

/// The update plan document `openclaw.clawUpdatePlan.v1` (with planIntegrity once known).
inline value to_json(const update_plan& p) {
  value doc = update_plan_bound(p);
  if (!p.integrity.empty()) doc["planIntegrity"] = p.integrity;
  return doc;
}

/// `claw update <target> [--from <pkg>] --dry-run`: the update plan against the ledger, the
/// live openclaw.json, the workspace and the target package. Changes nothing.
template <class Fs>
update_plan plan_update(Fs& fs, const destination_request& req, const std::string& target,
                        const std::optional<std::string>& from = std::nullopt) {
  update_plan out;
  out.target_name = target;
  const std::string state_dir = state_dir_of(req);
  const ledger l = read_ledger(fs, state_dir);
  detail::update_builder b;
  const std::vector<std::string> found = detail::installs_named(l, target);
  out.found = found.size() == 1;
  if (auto x = detail::target_blocker(found, target)) b.blockers.push_back(*x);
  if (out.found) {
    out.agent_id = found.front();
    const install_record& rec = l.installs.at(out.agent_id);
    out.current_claw = rec.claw;
    if (rec.status != "complete")
      b.block(errc::update_target_blocked, "The install of " + out.agent_id + " is " + rec.status +
                                               ", not complete; finish or remove it first.");
    detail::read_update_target(fs, out, b, state_dir, rec, from);
    std::optional<value> cfg;
    try {
      cfg = detail::live_config(fs, state_dir);
    } catch (const error& e) {
      b.block(errc::mcp_config_unavailable, e.what());
    }
    if (cfg && out.target) {
      const install_status s = detail::status_of_record(fs, rec, *cfg, {});
      detail::update_actions(fs, b, s, *cfg, *out.target, out.package->model.mcp_servers);
    }
  }
  detail::sort_by_kind_id(b.actions, [](const update_action& a) { return detail::kind_id(a); });
  detail::sort_by_kind_id(b.caps,
                          [](const update_capability_change& c) { return detail::kind_id(c); });
  out.actions = std::move(b.actions);
  out.capability_changes = std::move(b.caps);
  out.blockers = std::move(b.blockers);
  out.blocked = !out.blockers.empty();
  out.integrity = update_plan_integrity_of(out);
  out.plan = to_json(out);
  return out;
}

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
        ops.change.mcp_servers.emplace_back(a.id, pkg.model.mcp_servers[a.id]);
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
  const value& servers = up.package->model.mcp_servers;
  for (auto it = servers.begin(); it != servers.end(); ++it) {
    const update_action* u = up.action(update_kind::mcp_server, it.key());
    const auto old = old_refs.find(it.key());
    if (old != old_refs.end() && u != nullptr && u->verb == update_verb::unchanged) {
      refs.push_back(old->second);
      continue;
    }
    const bool shared = u != nullptr && u->relationship == "referenced";
    refs.push_back({it.key(), digest_of(canonical_mcp_server(it.value())),
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

/// The human form of an update plan (after the experimental banner), every line through the
/// one terminal-safe renderer (core/text.hpp).
inline std::string plan_text(const update_plan& p) {
  text::terminal_lines line;
  line(experimental_banner);
  line("Plan: update " + p.target_name + " (dry run, nothing written)");
  if (p.found && p.current_claw && p.package)
    line("  " + p.current_claw->name + " " + p.current_claw->version + " -> " +
         p.package->source.version);
  line("  plan integrity:  " + p.integrity);
  std::size_t unchanged = 0;
  for (const auto& a : p.actions) {
    if (a.verb == update_verb::unchanged) {
      ++unchanged;
      continue;
    }
    line("    " + detail::action_words(a));
  }
  if (unchanged > 0) line("    (" + std::to_string(unchanged) + " unchanged)");
  for (const auto& c : p.capability_changes) {
    const std::string classification = c.escalation ? "escalation" : "reduction";
    line(std::string("  ") + (c.escalation ? "! " : "  ") + classification + " " + c.path + " (" +
         std::string(to_string(c.verb)) + ")");
  }
  detail::blocker_lines(line, p.blockers);
  return std::move(line.text);
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
