// SPDX-License-Identifier: MIT
// The add plan `openclaw.clawAddPlan.v1` (docs/openclaw.md): destination
// resolution against the state directory, the ordered actions, capability records,
// blockers, readiness, and planIntegrity over OpenClaw's stableStringify. ClawHub lookups go
// through a resolver policy; with none (offline) every package plans as an unresolved
// blocker, as upstream does without the registry.
#pragma once

#include "../formats/json5.hpp"
#include "diagnostics.hpp"
#include "grammar.hpp"
#include "integrity.hpp"
#include "package.hpp"
#include "state.hpp"
#include "tools.hpp"
#include "value.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

// ---------------------------------------------------------------------------------------
// The resolver policy
// ---------------------------------------------------------------------------------------

/// What a ClawHub preflight says about one package.
struct package_preflight {
  bool ok = false;
  std::optional<std::string> action;     ///< "install" | "reuse"
  std::optional<std::string> integrity;  ///< `sha256:<64 hex>`
  std::optional<std::string> install_id;
  std::optional<std::string> warning;         ///< ClawHub trust warning
  value requirements = value::array();        ///< plugin setup requirements
  errc code = errc::plugin_preflight_failed;  ///< when !ok: ClawHub's code, in the vocabulary
  std::string message;                        ///< when !ok
};

/// A resolver is any type with `std::optional<package_preflight> preflight(const value&
/// package) const` (nullopt: no preflight available). This one is offline.
struct offline_resolver {
  std::optional<package_preflight> preflight(const value&) const { return std::nullopt; }
};

// ---------------------------------------------------------------------------------------
// Destination resolution
// ---------------------------------------------------------------------------------------

/// The caller's choices and environment (environment.hpp: the state directory's sources,
/// home, cwd).
struct destination_request : environment {
  std::optional<std::string> agent_id;   ///< --agent-id
  std::optional<std::string> workspace;  ///< --workspace (`~` expanded, relative to `cwd`)
};

/// What the state directory's `openclaw.json` says.
struct host_state {
  std::string state_dir;
  bool config_found = false;
  std::vector<std::string> agent_ids;
  std::vector<std::string> workspaces;  ///< canonical workspace of every configured agent
  value mcp_servers = value::object();  ///< `mcp.servers`
  value config = value::object();       ///< the parsed openclaw.json (empty when absent)
  std::optional<diagnostic> problem;    ///< the config could not be read
};

/// What an existing workspace holds at one planned destination (the adopt rule).
struct existing_file {
  std::optional<std::string> digest;  ///< `sha256:<hex>` of a regular file
  std::string problem;                ///< why it cannot be adopted (not a plain regular file)
};

/// The resolved destination.
struct destination {
  std::string requested_id;
  std::string final_id;
  std::string workspace;  ///< canonical (through its nearest existing ancestor)
  bool workspace_exists = false;
  /// The caller adopts an existing workspace (`claw migrate`): byte-identical files are
  /// `adopt` actions, absent ones `write`, differing ones block. `claw add` never does: an
  /// existing workspace, empty or not, is a `workspace_collision` as upstream.
  bool adopt_existing = false;
  /// The workspace exists and is a real directory (filled by `probe_workspace`).
  bool workspace_adoptable = false;
  /// Planned destination (workspace-relative) → what is there; absent keys are absent
  /// files. Filled at the edge by `probe_workspace` (lifecycle.hpp).
  std::map<std::string, existing_file> existing;
};

/// Choices of the caller that shape the plan (and so its integrity).
struct add_options {
  /// Each ClawHub package becomes a recorded `skip` action ("not installed") instead of
  /// the offline blocker `package_install_unavailable`.
  bool without_packages = false;
};

namespace detail {

/// Canonicalises a directory path as every write opens it (state.hpp, `open_dir_path`):
/// its parent through the nearest existing ancestor (symlinked parents resolved: the
/// operator's own path), its last component kept as it is, never followed. `exists` says
/// whether that last component exists (a symlink there exists, and plans as a collision).
template <class Fs>
std::string canonical_through_ancestor(Fs& fs, const std::string& abs, bool& exists) {
  exists = false;
  const std::string name = paths::file_name(abs);
  std::string head = paths::parent(abs);
  if (abs.size() <= 1 || head.empty()) return abs;
  std::string tail;
  for (;;) {
    if (auto c = fs.canonical(head)) {
      const std::string parent = (*c == "/" ? "" : *c) + tail;
      if (tail.empty()) {
        try {
          exists = fs.stat_at(fs.open_root(*c), name).has_value();
        } catch (const error&) {
        }
      }
      return parent + "/" + name;
    }
    if (head == "/" || head.empty()) return abs;
    tail = "/" + paths::file_name(head) + tail;
    head = paths::parent(head);
  }
}

}  // namespace detail

/// Reads `<state-dir>/openclaw.json` (JSON5) through the Fs policy: configured agent ids
/// (`agents.entries` keys or `agents.list[].id`; the implicit `main` agent when none), their
/// canonical workspaces, and `mcp.servers`. A missing file is an install with only `main`.
template <class Fs>
host_state read_host_state(Fs& fs, const destination_request& req) {
  host_state h;
  h.state_dir = state_dir_of(req);
  value cfg = value::object();
  std::optional<typename Fs::dir> dir;
  try {
    dir.emplace(detail::open_state_dir(fs, h.state_dir));  // as every write opens it
  } catch (const error& e) {
    if (e.code() != errc::not_found)
      h.problem = error_at(errc::invalid_config, phase::plan, "$", e.what());
  }
  if (dir) {
    try {
      detail::file_read fr = detail::read_in_root(fs, *dir, "openclaw.json", 16 * 1024 * 1024);
      if (fr.status == detail::read_status::ok) {
        h.config_found = true;
        json5::result r = json5::parse(fr.bytes);
        if (r.ok() && r.data.is_object()) {
          cfg = std::move(r.data);
          if (const auto roster = roster_problem(cfg))  // upstream loads no such config
            h.problem = error_at(
                errc::invalid_config, phase::plan, "$",
                "OpenClaw config is invalid: " + h.state_dir + "/openclaw.json: " + *roster);
        } else {
          h.problem = error_at(errc::invalid_config, phase::plan, "$",
                               "Could not read " + h.state_dir + "/openclaw.json: " +
                                   (r.ok() ? std::string("not an object")
                                           : *r.error + " at line " + std::to_string(r.line) +
                                                 ", column " + std::to_string(r.column)) +
                                   ".");
        }
      } else if (fr.status != detail::read_status::missing) {
        h.problem = error_at(errc::invalid_config, phase::plan, "$",
                             detail::read_problem(fr.status, h.state_dir + "/openclaw.json",
                                                  16 * 1024 * 1024, fr.detail));
      }
    } catch (const error& e) {
      h.problem = error_at(errc::invalid_config, phase::plan, "$", e.what());
    }
  }
  // Every configured agent's workspace by the one rule (environment.hpp, agent_workspace).
  const auto workspace_of = [&](const std::string& id) {
    bool exists = false;
    return detail::canonical_through_ancestor(fs, agent_workspace(cfg, req, id).path, exists);
  };
  for (const configured_agent& a : configured_agents(cfg)) {
    h.agent_ids.push_back(a.id);
    h.workspaces.push_back(workspace_of(a.id));
  }
  if (h.agent_ids.empty()) {
    h.agent_ids.push_back("main");
    h.workspaces.push_back(workspace_of("main"));
  }
  if (const value* mcp = detail::get(cfg, "mcp")) {
    if (const value* servers = detail::get(*mcp, "servers"); servers && servers->is_object()) {
      h.mcp_servers = *servers;
    }
  }
  h.config = std::move(cfg);
  return h;
}

/// Resolves the final agent id and the canonical workspace: --workspace, else the new
/// agent's own `<state-dir>/workspace-<id>` (new_agent_workspace; an id that collides
/// does not take the configured agent's workspace).
template <class Fs>
destination resolve_destination(Fs& fs, const claw_package& pkg, const destination_request& req,
                                const host_state& /*host*/) {
  destination d;
  d.requested_id = pkg.model.agent.id;
  d.final_id = req.agent_id ? *req.agent_id : d.requested_id;
  const std::string ws =
      req.workspace ? operator_path(*req.workspace, req) : new_agent_workspace(req, d.final_id);
  d.workspace = detail::canonical_through_ancestor(fs, ws, d.workspace_exists);
  return d;
}

/// The same, reading the state directory's openclaw.json for it.
template <class Fs>
destination resolve_destination(Fs& fs, const claw_package& pkg, const destination_request& req) {
  return resolve_destination(fs, pkg, req, read_host_state(fs, req));
}

// ---------------------------------------------------------------------------------------
// The plan
// ---------------------------------------------------------------------------------------

namespace detail {

/// The order JavaScript's localeCompare gives plan keys (unicode::locale_less).
inline bool locale_less(const std::string& a, const std::string& b) {
  return unicode::locale_less(a, b);
}

/// OpenClaw's canonicalizeConfiguredMcpServer: legacy `type` → `transport`, snake_case
/// aliases → camelCase; strict Claw shapes pass unchanged.
inline value canonical_mcp_server(const value& s) {
  if (!s.is_object()) return s;
  value out = value::object();
  for (auto it = s.begin(); it != s.end(); ++it) {
    std::string k = it.key();
    if (k == "type") k = "transport";
    if (k == "tool_filter") k = "toolFilter";
    if (k == "connect_timeout") k = "connectTimeout";
    if (!out.contains(k)) out[k] = it.value();
  }
  return out;
}

inline value mcp_effect(const value& server) {
  value e = value::object();
  for (auto it = server.begin(); it != server.end(); ++it) {
    if (it.key() == "env") {
      std::vector<std::string> keys;
      for (auto k = it.value().begin(); k != it.value().end(); ++k) keys.push_back(k.key());
      std::sort(keys.begin(), keys.end(),
                [](const std::string& a, const std::string& b) { return utf16_less(a, b); });
      e["env"] = keys;
    } else {
      e[it.key()] = it.value();
    }
  }
  return e;
}

/// The digest OpenClaw records of a JSON value: `sha256:<hex>` of its stableStringify.
inline std::string digest_of(const value& v) {
  return digest::sha256_prefixed(stable_stringify(v));
}

}  // namespace detail

/// What one action of an add plan acts on.
enum class add_kind { agent, workspace, workspace_file, bootstrap, package, mcp_server, cron_job };

/// What one action of an add plan does.
enum class add_verb { create, adopt, write, seed, install, skip, configure, schedule };

/// What the plan expects to find where an action acts (`details.expectedState`).
enum class expected_state {
  absent,
  existing,                  ///< an adopted workspace
  existing_identical,        ///< an adopted, byte-identical file
  present_exact,             ///< an identical MCP server, or a package ClawHub reuses
  unresolved,                ///< a package no preflight resolved
  not_installed,             ///< a package skipped with --without-packages
  absent_or_native_consumed  ///< the package-root BOOTSTRAP.md (seeded once, then consumed)
};

inline constexpr std::string_view add_kind_names[] = {
    "agent", "workspace", "workspaceFile", "bootstrap", "package", "mcpServer", "cronJob"};
constexpr std::string_view to_string(add_kind k) noexcept {
  return wire_name<add_kind::cron_job>(k, add_kind_names, "agent");
}

inline constexpr std::string_view add_verb_names[] = {"create",  "adopt", "write",     "seed",
                                                      "install", "skip",  "configure", "schedule"};
constexpr std::string_view to_string(add_verb v) noexcept {
  return wire_name<add_verb::schedule>(v, add_verb_names, "create");
}

inline constexpr std::string_view expected_state_names[] = {
    "absent",     "existing",      "existing-identical",       "present-exact",
    "unresolved", "not-installed", "absent-or-native-consumed"};
constexpr std::string_view to_string(expected_state s) noexcept {
  return wire_name<expected_state::absent_or_native_consumed>(s, expected_state_names, "absent");
}

/// The command that installs one ClawHub package later, with a running OpenClaw.
inline std::string package_install_command(const package_decl& p) {
  return std::string("openclaw ") + (p.kind == "plugin" ? "plugins" : "skills") +
         " install clawhub:" + p.ref + "@" + p.version;
}

/// Something the agent needs before it is ready: an environment variable an MCP server
/// references, or its OAuth.
struct plan_requirement {
  std::string kind;  ///< environment | oauth
  std::string mcp_server;
  std::optional<std::string> name;  ///< environment: the variable
};

/// A ClawHub package action: the declaration and what the resolver said of it.
struct package_plan {
  package_decl decl;
  bool skipped = false;  ///< --without-packages: recorded, not installed
  std::optional<std::string> integrity;
  std::optional<std::string> install_id;
  std::optional<std::string> risk_warning;
  std::optional<std::string> owner_action;  ///< ClawHub's "install" | "reuse"
  value prerequisites = value::array();     ///< the resolver's setup requirements
};

/// One action of an add plan. The members after `reason` belong to some kinds only.
struct add_action {
  add_kind kind = add_kind::agent;
  std::string id;
  add_verb verb = add_verb::create;
  std::string target;
  expected_state expected = expected_state::absent;
  std::optional<std::string> reason;  ///< set: the action blocks, and says why
  bool blocked_silently = false;      ///< blocks without a reason (upstream's agent action)
  /// workspaceFile | bootstrap: the source path shown, whether it is the CLAW.md body, and
  /// the content digest (absent when the action blocks).
  std::string source;
  bool from_body = false;
  std::optional<std::string> digest;
  std::size_t byte_length = 0;  ///< bootstrap: the bytes of the package-root BOOTSTRAP.md
  /// agent: the entry registered in openclaw.json; mcpServer: the server declaration;
  /// cronJob: the job declaration.
  value declaration;
  std::vector<plan_requirement> prerequisites;  ///< mcpServer
  std::string agent_id;                         ///< cronJob: the agent it runs as
  bool last_channel = false;                    ///< cronJob: delivers to the last channel
  package_plan package;                         ///< package

  bool blocked() const { return blocked_silently || reason.has_value(); }
};

/// One capability an add escalates; classification and consent are the same for all.
struct capability_change {
  std::string kind;
  std::string id;
  std::string path;
  std::string action;
  std::string reason;  ///< why it escalates: upstream's sentence, bound into planIntegrity
  value effect;        ///< what the capability does, as the plan discloses it
};

/// The `reason` of each capability record, upstream's words (`claws-cli-output`).
namespace capability_reason {
inline constexpr const char* agent =
    "The new agent declares sandbox, tool, memory-search, or recurring heartbeat capabilities.";
inline constexpr const char* package_install =
    "The Claw requires downloadable package content or executable code.";
inline constexpr const char* package_reuse =
    "The Claw requires access to an existing package capability.";
inline constexpr const char* mcp_server =
    "The Claw declares an MCP execution or network tool surface.";
inline constexpr const char* cron_job = "The Claw declares recurring scheduled work.";
}  // namespace capability_reason

/// A notice of the plan: something consented to that the operator must do later.
struct plan_notice {
  std::string code;
  std::string path;
  std::string message;
};

/// The counts of an add plan's actions.
struct add_summary {
  std::size_t total = 0, agent = 0, workspace = 0, package = 0, mcp_server = 0, cron_job = 0,
              blocked = 0, escalations = 0;
};

/// The add plan `openclaw.clawAddPlan.v1` as data; `to_json` renders the document.
struct add_plan {
  source_identity claw;
  std::string requested_id;
  std::string final_id;
  std::string workspace;
  value agent_config = value::object();  ///< the entry registered in openclaw.json
  std::vector<add_action> actions;       ///< the agent first, then the workspace, files ...
  std::vector<capability_change> capabilities;
  std::vector<plan_requirement> requirements;  ///< readiness
  value extensions = value::array();           ///< the profile's; shown and bound, `[]` too
  std::vector<diagnostic> blockers;
  std::vector<plan_notice> notices;
  std::vector<diagnostic> diagnostics;
  std::string integrity;  ///< planIntegrity
  bool blocked = false;

  /// The first action of `kind`, or null.
  const add_action* first(add_kind kind) const {
    for (const auto& a : actions)
      if (a.kind == kind) return &a;
    return nullptr;
  }
};

/// The counts of `p`'s actions by kind.
inline add_summary summary_of(const add_plan& p) {
  add_summary s;
  s.total = p.actions.size();
  for (const auto& a : p.actions) {
    s.agent += a.kind == add_kind::agent;
    s.workspace += a.kind == add_kind::workspace || a.kind == add_kind::workspace_file ||
                   a.kind == add_kind::bootstrap;
    s.package += a.kind == add_kind::package;
    s.mcp_server += a.kind == add_kind::mcp_server;
    s.cron_job += a.kind == add_kind::cron_job;
    s.blocked += a.blocked();
  }
  s.escalations = p.capabilities.size();
  return s;
}

namespace detail {

inline value to_json(const plan_requirement& r) {
  value v = value::object({{"kind", r.kind}, {"mcpServer", r.mcp_server}});
  if (r.name) v["name"] = *r.name;
  return v;
}

inline value to_json(const std::vector<plan_requirement>& rs) {
  value a = value::array();
  for (const auto& r : rs) a.push_back(to_json(r));
  return a;
}

/// `{ready, requirements}`: ready when nothing is required.
inline value readiness_json(const std::vector<plan_requirement>& requirements) {
  return value::object({{"ready", requirements.empty()}, {"requirements", to_json(requirements)}});
}
inline value readiness_json(const add_plan& p) { return readiness_json(p.requirements); }

/// A cron job as the ledger records it: the declaration, the agent it runs as, and how
/// its `last` delivery resolves.
inline value cron_job_record(const add_action& a) {
  value job = a.declaration;
  job["agentId"] = a.agent_id;
  if (a.last_channel) job["deliveryResolution"] = "local-channel-state:last";
  return job;
}

/// A package action's `details`: the declaration, then what the resolver said.
inline value package_details(const add_action& a) {
  const package_plan& p = a.package;
  value d = value::object({{"kind", p.decl.kind},
                           {"source", p.decl.source},
                           {"ref", p.decl.ref},
                           {"version", p.decl.version}});
  if (p.skipped) {
    d["expectedState"] = std::string(to_string(a.expected));
    d["reason"] = "without-packages";
    return d;
  }
  if (p.integrity) d["integrity"] = *p.integrity;
  if (p.install_id) d["installId"] = *p.install_id;
  if (p.risk_warning) d["riskWarning"] = *p.risk_warning;
  if (!p.prerequisites.empty()) d["prerequisites"] = p.prerequisites;
  d["expectedState"] = std::string(to_string(a.expected));
  d["ownerAction"] = p.owner_action ? value(*p.owner_action) : undefined_value();
  // Upstream's requirementState: what installing the package needs before the agent runs.
  d["requirementState"] = a.blocked()                                        ? "conflicting"
                          : (p.owner_action && *p.owner_action == "install") ? "missing-installable"
                          : !p.prerequisites.empty()                         ? "setup-required"
                                                                             : "satisfied";
  return d;
}

/// An action's `details`, by kind (upstream's members and order).
inline value action_details(const add_action& a) {
  const std::string expected(to_string(a.expected));
  switch (a.kind) {
    case add_kind::agent: {
      value d = a.declaration;
      d["expectedState"] = expected;
      return d;
    }
    case add_kind::bootstrap:
      return value::object({{"sourcePath", "BOOTSTRAP.md"},
                            {"byteLength", a.byte_length},
                            {"expectedState", expected},
                            {"lifecycle", "native-seed-once"}});
    case add_kind::package:
      return package_details(a);
    case add_kind::mcp_server: {
      value d = a.declaration;
      d["expectedState"] = expected;
      d["prerequisites"] = to_json(a.prerequisites);
      return d;
    }
    case add_kind::cron_job: {
      value d = a.declaration;
      d["agentId"] = a.agent_id;
      d["expectedState"] = expected;
      if (a.last_channel) d["deliveryResolution"] = "local-channel-state:last";
      return d;
    }
    default:
      return value::object({{"expectedState", expected}});
  }
}

}  // namespace detail

/// One action as the plan document shows it.
inline value to_json(const add_action& a) {
  value v = value::object();
  v["kind"] = std::string(to_string(a.kind));
  v["id"] = a.id;
  v["action"] = std::string(to_string(a.verb));
  v["target"] = a.target;
  if (a.kind == add_kind::workspace_file || a.kind == add_kind::bootstrap) {
    v["source"] = a.source;
    if (a.from_body) v["sourceKind"] = "clawMarkdownBody";
  }
  // Upstream's order: a workspace file's digest comes last (it is set once every source
  // was read), a package's and the bootstrap's precede the details.
  const bool digest_last = a.kind == add_kind::workspace_file;
  if (a.kind == add_kind::package && !a.package.skipped)
    v["digest"] = a.package.integrity ? value(*a.package.integrity) : undefined_value();
  if (a.digest && !digest_last) v["digest"] = *a.digest;
  v["details"] = detail::action_details(a);
  v["blocked"] = a.blocked();
  if (a.reason) v["reason"] = *a.reason;
  if (a.digest && digest_last) v["digest"] = *a.digest;
  return v;
}

/// A capability record in upstream's member order (`{...change, classification, ...}`).
inline value to_json(const capability_change& c) {
  value v = value::object();
  v["kind"] = c.kind;
  v["id"] = c.id;
  v["path"] = c.path;
  v["action"] = c.action;
  v["reason"] = c.reason;
  v["effect"] = c.effect;
  v["classification"] = "escalation";
  v["requiresDistinctConsent"] = true;
  v["digest"] = detail::digest_of(c.effect);
  return v;
}

inline value to_json(const plan_notice& n) {
  return value::object({{"code", n.code}, {"path", n.path}, {"message", n.message}});
}

inline value to_json(const add_summary& s) {
  using t = add_summary;
  return json::object_of<value>(
      s, json::field("totalActions", &t::total), json::field("agentActions", &t::agent),
      json::field("workspaceActions", &t::workspace), json::field("packageActions", &t::package),
      json::field("mcpServerActions", &t::mcp_server), json::field("cronJobActions", &t::cron_job),
      json::field("blockedActions", &t::blocked),
      json::field("capabilityEscalations", &t::escalations));
}

/// The `openclaw.clawAddPlan.v1` document.
inline value to_json(const add_plan& p) {
  value plan = value::object();
  plan["schemaVersion"] = "openclaw.clawAddPlan.v1";
  plan["manifestSchemaVersion"] = 1;
  plan["stability"] = stability;
  plan["dryRun"] = true;
  plan["mutationAllowed"] = false;
  plan["planIntegrity"] = p.integrity;
  plan["claw"] = to_json(p.claw);
  plan["agent"] = value::object({{"requestedId", p.requested_id},
                                 {"finalId", p.final_id},
                                 {"workspace", p.workspace},
                                 {"config", p.agent_config}});
  plan["summary"] = to_json(summary_of(p));
  plan["actions"] = array_of(p.actions);
  plan["capabilityChanges"] = array_of(p.capabilities);
  plan["readiness"] = detail::readiness_json(p);
  plan["extensions"] = p.extensions;
  plan["blockers"] = to_json(p.blockers);
  // clawport's own notices (--without-packages); upstream's plan has no such member.
  if (!p.notices.empty()) plan["notices"] = array_of(p.notices);
  plan["diagnostics"] = to_json(p.diagnostics);
  return plan;
}

namespace detail {

/// The parts of an add plan as they are found, and what every part needs to know.
struct add_builder {
  const claw_package& pkg;
  const destination& dest;
  const host_state& host;
  const std::string& final_id;
  const std::string& ws;
  add_plan plan;
  std::vector<diagnostic> offline;       ///< diagnostics (not bound): what an offline add cannot do
  bool adopt = false;                    ///< an existing workspace is adopted
  std::optional<std::string> ws_reason;  ///< why the workspace blocks

  add_builder(const claw_package& p, const destination& d, const host_state& h)
      : pkg(p), dest(d), host(h), final_id(d.final_id), ws(d.workspace) {}

  void block(errc code, const std::string& path, const std::string& msg) {
    plan.blockers.push_back(error_at(code, phase::plan, path, msg));
  }

  add_action& act(add_kind kind, const std::string& id, add_verb verb, const std::string& target) {
    add_action a;
    a.kind = kind;
    a.id = id;
    a.verb = verb;
    a.target = target;
    plan.actions.push_back(std::move(a));
    return plan.actions.back();
  }

  void capability(const std::string& kind, const std::string& id, const std::string& path,
                  const std::string& action, const char* reason, value effect) {
    plan.capabilities.push_back({kind, id, path, action, reason, std::move(effect)});
  }

  /// The adopt rule for one file action: an identical existing file is adopted, a differing
  /// one (or anything not a plain regular file) blocks with workspace_file_conflict.
  void adopt_file(add_action& a, const std::string& rel, const std::string& want,
                  std::optional<std::string>& reason, const std::string& path) {
    if (!adopt || reason) return;
    const auto it = dest.existing.find(rel);
    if (it == dest.existing.end()) return;
    if (it->second.digest && *it->second.digest == want) {
      a.verb = add_verb::adopt;
      a.expected = expected_state::existing_identical;
      return;
    }
    reason = "Workspace file " + rel + " already exists" +
             (it->second.digest ? std::string(" with different content")
                                : " and " + it->second.problem) +
             "; clawport never overwrites it.";
    block(errc::workspace_file_conflict, path, *reason);
  }
};

/// The agent's configuration as the plan registers it: the manifest's agent, the profile's
/// settings over it (its `tools` materialised from the tool catalogue, tools.hpp), the
/// final id and workspace.
inline value agent_config_of(const claw_package& pkg, const std::string& final_id,
                             const std::string& ws) {
  value config = to_json(pkg.model.agent);
  if (pkg.profile) {
    for (auto it = pkg.profile->agent.begin(); it != pkg.profile->agent.end(); ++it)
      config[it.key()] = it.key() == "tools" ? materialize_tools(it.value()) : it.value();
  }
  config["id"] = final_id;
  config["workspace"] = ws;
  return config;
}

/// The agent and workspace actions: an invalid or taken id blocks, so does a workspace that
/// exists and cannot be adopted or belongs to a configured agent.
inline void add_agent_actions(add_builder& b) {
  const std::string& final_id = b.final_id;
  std::optional<std::string> agent_reason;
  if (!is_agent_id(final_id)) {
    agent_reason = "Final agent id " + js_string(final_id) + " is not a valid portable agent id.";
    b.block(errc::invalid_agent_id, "$.agent.id", *agent_reason);
  } else if (std::find(b.host.agent_ids.begin(), b.host.agent_ids.end(), final_id) !=
             b.host.agent_ids.end()) {
    agent_reason = "Agent id " + js_string(final_id) +
                   " already exists; Claws never merge into existing agents.";
    b.block(errc::agent_id_collision, "$.agent.id", *agent_reason);
  }
  const bool configured = std::find(b.host.workspaces.begin(), b.host.workspaces.end(), b.ws) !=
                          b.host.workspaces.end();
  b.adopt =
      b.dest.adopt_existing && b.dest.workspace_exists && b.dest.workspace_adoptable && !configured;
  if (configured || (b.dest.workspace_exists && !b.adopt)) {
    b.ws_reason = "Workspace " + js_string(b.ws) + " already exists.";
    b.block(errc::workspace_collision, "$.workspace",
            "Workspace " + js_string(b.ws) + " already exists; a Claw requires a new workspace.");
  }
  add_action& a = b.act(add_kind::agent, final_id, add_verb::create,
                        "agents.entries[" + js_string(final_id) + "]");
  a.declaration = b.plan.agent_config;
  a.blocked_silently = agent_reason.has_value();  // the blocker says why
  add_action& w =
      b.act(add_kind::workspace, final_id, b.adopt ? add_verb::adopt : add_verb::create, b.ws);
  w.expected = b.adopt ? expected_state::existing : expected_state::absent;
  w.reason = b.ws_reason;
}

/// The package-root BOOTSTRAP.md: upstream's `bootstrap` action, written once before the
/// other files (OpenClaw consumes it on the first run), blocked with the workspace.
inline void add_bootstrap_action(add_builder& b, const std::string& prefix) {
  const claw_package& pkg = b.pkg;
  if (!pkg.bootstrap) return;
  add_action& a =
      b.act(add_kind::bootstrap, "BOOTSTRAP.md", add_verb::write, prefix + "BOOTSTRAP.md");
  a.source = (pkg.source.package_root == "/" ? "" : pkg.source.package_root) + "/BOOTSTRAP.md";
  a.digest = sha256_digest(*pkg.bootstrap);
  a.byte_length = pkg.bootstrap->size();
  a.expected = expected_state::absent_or_native_consumed;
  a.reason = b.ws_reason;
}

/// The workspace files: the package-root BOOTSTRAP.md, the body, then bootstrap names and
/// files[]. As upstream, a workspace collision blocks the declared files (their digests
/// still shown) but not the body's SOUL.md; body and sources over the aggregate block every
/// file with one blocker.
inline void add_file_actions(add_builder& b) {
  const claw_package& pkg = b.pkg;
  const std::string prefix = b.ws == "/" ? "/" : b.ws + "/";
  add_bootstrap_action(b, prefix);
  std::optional<std::string> too_large;
  if (pkg.sources_too_large)
    too_large =
        "Workspace sources exceed " + std::to_string(pkg.workspace_total) + " aggregate bytes.";
  if (pkg.body) {
    add_action a;
    a.kind = add_kind::workspace_file;
    a.id = "SOUL.md";
    a.verb = add_verb::write;
    a.target = prefix + "SOUL.md";
    a.source = pkg.source.manifest_path;
    a.from_body = true;
    std::optional<std::string> reason = too_large;
    b.adopt_file(a, "SOUL.md", sha256_digest(*pkg.body), reason,
                 "$.workspace.bootstrapFiles.SOUL.md");
    if (!reason) a.digest = sha256_digest(*pkg.body);
    a.reason = reason;
    b.plan.actions.push_back(std::move(a));
  }
  for (const auto& s : pkg.sources) {
    add_action a;
    a.kind = add_kind::workspace_file;
    a.id = s.destination;
    a.verb = add_verb::write;
    a.target = prefix + s.destination;
    a.source = s.real_path;
    std::optional<std::string> reason;
    if (s.problem) {
      b.plan.blockers.push_back(
          error_at(s.problem->code, phase::plan, s.problem->path, s.problem->message));
      reason = s.problem->message;
    }
    b.adopt_file(a, s.destination, s.digest, reason,
                 s.bootstrap ? "$.workspace.bootstrapFiles." + s.destination : "$.workspace.files");
    if (!reason && !too_large && !s.digest.empty()) a.digest = s.digest;
    if (b.ws_reason) reason = b.ws_reason;  // upstream's order of reasons
    if (too_large) reason = too_large;
    a.reason = reason;
    b.plan.actions.push_back(std::move(a));
  }
  if (too_large) b.block(errc::workspace_sources_too_large, "$.workspace", *too_large);
}

/// A package recorded as a consented `skip` (--without-packages), with its notice.
inline void add_skipped_package(add_builder& b, add_action& a, std::size_t k) {
  const package_decl& p = a.package.decl;
  a.verb = add_verb::skip;
  a.expected = expected_state::not_installed;
  a.package.skipped = true;
  b.plan.notices.push_back({std::string(to_string(errc::package_not_installed)),
                            index("$.packages", k),
                            p.kind + " " + p.ref + "@" + p.version +
                                " is not installed (--without-packages); install it later with: " +
                                package_install_command(p)});
}

/// A package install action from the resolver's preflight (none: unresolved, blocked).
inline void add_resolved_package(add_builder& b, add_action& a, std::size_t k,
                                 const std::optional<package_preflight>& pf) {
  const package_decl& p = a.package.decl;
  value effect = value::object(
      {{"kind", p.kind}, {"source", p.source}, {"ref", p.ref}, {"version", p.version}});
  if (!pf) {
    // Upstream's offline preflight fails per kind (its message is the network error, so
    // not stable: clawport says why in its own words).
    a.expected = expected_state::unresolved;
    a.reason =
        "Package preflight failed: clawport does not contact ClawHub (--without-packages "
        "adds the Claw without its packages).";
    b.block(p.kind == "skill" ? errc::skill_preflight_failed : errc::plugin_preflight_failed,
            index("$.packages", k), *a.reason);
    effect["integrity"] = "unresolved";
  } else {
    package_plan& pp = a.package;
    pp.integrity = pf->integrity;
    pp.install_id = pf->install_id;
    pp.risk_warning = pf->warning;
    pp.prerequisites = pf->requirements;
    pp.owner_action = pf->action;
    a.expected = !pf->ok                                  ? expected_state::unresolved
                 : (pf->action && *pf->action == "reuse") ? expected_state::present_exact
                                                          : expected_state::absent;
    effect["integrity"] = pf->integrity ? *pf->integrity : "unresolved";
    if (pf->install_id) effect["installId"] = *pf->install_id;
    if (pf->warning) effect["riskWarning"] = *pf->warning;
    if (!pf->ok) {
      a.reason = pf->message.empty() ? "Package preflight failed." : pf->message;
      b.plan.blockers.push_back(error_at(pf->code, phase::plan, index("$.packages", k), *a.reason));
    }
  }
  const bool reuse = pf && pf->ok && pf->action && *pf->action == "reuse";
  b.capability("package", a.id, "packages." + p.kind + "." + p.ref, reuse ? "reuse" : "install",
               reuse ? capability_reason::package_reuse : capability_reason::package_install,
               std::move(effect));
}

/// The ClawHub packages: skipped (--without-packages) or preflighted by the resolver.
template <class Resolver>
void add_package_actions(add_builder& b, const Resolver& resolver, const add_options& opt) {
  for (std::size_t k = 0; k < b.pkg.model.packages.size(); ++k) {
    const package_decl& p = b.pkg.model.packages[k];
    add_action& a = b.act(add_kind::package, p.kind + ":" + p.ref, add_verb::install,
                          "clawhub:" + p.ref + "@" + p.version);
    a.package.decl = p;
    if (opt.without_packages) {
      // Recorded, bound into the integrity, and reported: never skipped silently.
      add_skipped_package(b, a, k);
    } else {
      add_resolved_package(b, a, k, resolver.preflight(to_json(p)));
    }
  }
}

/// The prerequisites of one MCP server: its environment references and OAuth.
inline std::vector<plan_requirement> mcp_prerequisites(add_builder& b, const std::string& name,
                                                       const value& server) {
  std::vector<plan_requirement> prereq;
  if (server.contains("env")) {
    for (auto e = server["env"].begin(); e != server["env"].end(); ++e) {
      std::string var;
      if (is_env_reference(e.value().get<std::string>(), &var))
        prereq.push_back({"environment", name, var});
    }
  }
  if (server.contains("auth") && server["auth"] == "oauth")
    prereq.push_back({"oauth", name, std::nullopt});
  for (const auto& r : prereq) b.plan.requirements.push_back(r);
  return prereq;
}

/// The MCP servers: absent, present-exact (identical), or a collision.
inline void add_mcp_actions(add_builder& b) {
  const value& servers = b.pkg.model.mcp_servers;
  for (auto it = servers.begin(); it != servers.end(); ++it) {
    const std::string& name = it.key();
    const value& server = it.value();
    add_action& a = b.act(add_kind::mcp_server, name, add_verb::configure, "mcp.servers." + name);
    a.prerequisites = mcp_prerequisites(b, name, server);
    a.declaration = server;
    if (b.host.mcp_servers.contains(name)) {
      if (stable_stringify(canonical_mcp_server(server)) ==
          stable_stringify(canonical_mcp_server(b.host.mcp_servers[name]))) {
        a.expected = expected_state::present_exact;
      } else {
        // Upstream's words; its action blocks without a reason of its own (the blocker says it).
        a.blocked_silently = true;
        b.block(errc::mcp_server_collision, "$.mcpServers." + name,
                "MCP server " + js_string(name) +
                    " already exists with different or unresolved configuration and will not be "
                    "overwritten.");
      }
    }
    b.capability("mcpServer", name, "mcpServers." + name, "configure",
                 capability_reason::mcp_server, mcp_effect(server));
  }
}

/// The cron jobs: planned, disclosed as needing a running Gateway.
inline void add_cron_actions(add_builder& b) {
  const value& jobs = b.pkg.model.cron_jobs;
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const value& job = jobs[k];
    const std::string id = job["id"].get<std::string>();
    b.offline.push_back(warning_at(errc::cron_gateway_required, phase::plan, index("$.cronJobs", k),
                                   "Cron job " + id +
                                       " needs a running OpenClaw Gateway (cron.add); "
                                       "clawport does not schedule it offline."));
    add_action& a =
        b.act(add_kind::cron_job, id, add_verb::schedule, "cron:" + id + ":agent=" + b.final_id);
    a.declaration = job;
    a.agent_id = b.final_id;
    a.last_channel = job.contains("delivery") && job["delivery"].contains("channel") &&
                     job["delivery"]["channel"] == "last";
    value effect = job;
    effect["agentId"] = b.final_id;
    b.capability("cronJob", id, "cronJobs." + id, "schedule", capability_reason::cron_job,
                 std::move(effect));
  }
}

/// The agent capability (the profile's escalating settings), then every capability sorted
/// by `<kind>:<id>:<path>` in localeCompare order.
inline void add_capabilities(add_builder& b) {
  if (b.pkg.profile) {
    value effect = value::object();
    for (const char* k : {"sandbox", "tools", "memory", "heartbeat"})
      if (b.pkg.profile->sets(k)) effect[k] = b.pkg.profile->agent.at(k);
    if (!effect.empty())
      b.capability("agent", b.final_id, "agent", "create", capability_reason::agent,
                   std::move(effect));
  }
  std::stable_sort(b.plan.capabilities.begin(), b.plan.capabilities.end(),
                   [](const capability_change& x, const capability_change& y) {
                     return locale_less(x.kind + ":" + x.id + ":" + x.path,
                                        y.kind + ":" + y.id + ":" + y.path);
                   });
}

}  // namespace detail

/// Builds the add plan of a package that read cleanly. Pure: the package, the
/// destination and the host state were gathered at the edge.
template <class Resolver = offline_resolver>
add_plan build_add_plan(const claw_package& pkg, const destination& dest, const host_state& host,
                        const Resolver& resolver = {}, const add_options& opt = {}) {
  detail::add_builder b(pkg, dest, host);
  add_plan& p = b.plan;
  p.claw = pkg.source;
  p.requested_id = dest.requested_id;
  p.final_id = dest.final_id;
  p.workspace = dest.workspace;
  p.agent_config = detail::agent_config_of(pkg, dest.final_id, dest.workspace);
  detail::add_agent_actions(b);
  detail::add_file_actions(b);
  detail::add_package_actions(b, resolver, opt);
  detail::add_mcp_actions(b);
  detail::add_cron_actions(b);
  detail::add_capabilities(b);
  if (host.problem) p.blockers.push_back(*host.problem);
  if (pkg.profile) p.extensions = pkg.profile->extensions;
  p.diagnostics = pkg.diagnostics;
  for (auto& d : b.offline) p.diagnostics.push_back(std::move(d));
  p.blocked = !p.blockers.empty();
  p.integrity = add_plan_integrity_of(p);
  return std::move(b.plan);
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
