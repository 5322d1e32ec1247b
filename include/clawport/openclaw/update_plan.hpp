// SPDX-License-Identifier: MIT
// `claw update <claw-or-agent> [--from <pkg>] --dry-run` (docs/openclaw.md, "Update"): the
// update plan `openclaw.clawUpdatePlan.v1` from the ledger, the disk and the new package (by
// default the recorded source), its own planIntegrity (integrity.hpp), drift refused as
// `manual` actions; and its human form.
#pragma once

#include "../core/config.hpp"
#include "integrity.hpp"
#include "lifecycle.hpp"
#include "update_model.hpp"
#include "value.hpp"

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

inline value mcp_update_effect(const mcp_server_decl& server) {
  return value::object(
      {{"summary", server.remote ? "remote server" : "local command"}, {"payloadWithheld", true}});
}

/// One recorded MCP server reference against the target's declaration (or its absence).
inline void update_recorded_mcp(update_builder& b, const mcp_status& m,
                                const claw_manifest& target);

/// The same, with the recorded relationship on the action.
inline void update_recorded_mcp_tagged(update_builder& b, const mcp_status& m,
                                       const claw_manifest& target) {
  const std::size_t at = b.actions.size();
  update_recorded_mcp(b, m, target);
  if (b.actions.size() > at) b.actions[at].relationship = m.row.relationship;
}

inline void update_recorded_mcp(update_builder& b, const mcp_status& m,
                                const claw_manifest& target) {
  const bool managed = m.managed();
  value d = value::object({{"currentDigest", m.row.config_digest},
                           {"relationship", m.row.relationship},
                           {"state", m.state}});
  const mcp_server_decl* decl = target.mcp_server(m.name);
  if (decl == nullptr) {
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
  const std::string want = digest_of(canonical_mcp_server(decl->declaration));
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
          mcp_update_effect(*decl));
  }
}

/// MCP servers: the recorded ones, then the target's new ones (managed, or referenced when
/// an identical declaration exists; a different one collides).
inline void update_mcp_actions(update_builder& b, const install_status& s, const value& cfg,
                               const claw_manifest& target) {
  std::map<std::string, mcp_status> recorded;
  for (const auto& m : s.mcp_servers) {
    mcp_status x = m;
    const value* live = config_member(cfg, "mcp", "servers", m.name);
    // A managed server a killed update already gave the target's declaration: done, not drift.
    const mcp_server_decl* decl = target.mcp_server(m.name);
    if (x.state == "modified" && x.managed() && live != nullptr && decl != nullptr &&
        digest_of(canonical_mcp_server(*live)) ==
            digest_of(canonical_mcp_server(decl->declaration)))
      x.state = "present";
    recorded[m.name] = std::move(x);
  }
  for (const auto& m : recorded) update_recorded_mcp_tagged(b, m.second, target);
  for (const mcp_server_decl& decl : target.mcp_servers) {
    const std::string& name = decl.name;
    if (recorded.count(name)) continue;
    const std::string want = digest_of(canonical_mcp_server(decl.declaration));
    value d = value::object({{"desiredDigest", want}});
    const value* live = config_member(cfg, "mcp", "servers", name);
    if (live != nullptr && digest_of(canonical_mcp_server(*live)) != want) {
      b.act(update_kind::mcp_server, name, update_verb::manual, d,
            "MCP server " + name + " already exists with a different configuration.",
            errc::mcp_server_collision);
      continue;
    }
    const std::string relationship = live != nullptr ? "referenced" : "managed";
    d["relationship"] = relationship;
    b.act(update_kind::mcp_server, name, update_verb::add, d).relationship = relationship;
    b.cap(update_kind::mcp_server, name, "mcpServers." + name, update_verb::add, true,
          mcp_update_effect(decl));
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
                    const add_plan& tp, const claw_manifest& target) {
  update_agent_actions(b, s, cfg, tp.agent_config);
  std::map<std::string, const add_action*> wanted;
  for (const auto& a : tp.actions)
    if (a.kind == add_kind::workspace_file || a.kind == add_kind::bootstrap) wanted[a.id] = &a;
  update_recorded_files(b, s, wanted, files_at_target(fs, s, wanted));
  update_new_files(fs, b, s, wanted);
  update_package_actions(b, s.record, tp);
  update_mcp_actions(b, s, cfg, target);
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
      detail::update_actions(fs, b, s, *cfg, *out.target, out.package->model);
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
