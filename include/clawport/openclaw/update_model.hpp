// SPDX-License-Identifier: MIT
// An update plan as data (docs/openclaw.md, "Update"): its actions and capability changes,
// each kind and verb an enum with its wire name.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "add_plan.hpp"
#include "failure.hpp"
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

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
