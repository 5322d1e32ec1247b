// SPDX-License-Identifier: MIT
// The add plan `openclaw.clawAddPlan.v1` as data (docs/openclaw.md): its actions (kind,
// verb, expected state, each enum's wire name), capability records, requirements, notices,
// summary and blockers, and its document.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../digest/sha256.hpp"
#include "../formats/unicode.hpp"
#include "diagnostics.hpp"
#include "package.hpp"
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

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
