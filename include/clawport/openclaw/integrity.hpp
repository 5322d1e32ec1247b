// SPDX-License-Identifier: MIT
// Every claw plan's planIntegrity, in one place, computed from the typed plan (each part
// rendered by its own `to_json`), never by rendering the whole document and reading it back.
// The add plan's: what OpenClaw 2026.9.6 binds
// (`claws-cli-output`: stableStringify of {manifestSchemaVersion, clawIntegrity, finalId,
// workspace, actions, capabilityChanges, blockers, extensions, notices?}). `extensions` is
// bound always, `[]` included; each capability record carries its `reason`; `notices` only
// when there are any. An update binds its whole plan but the integrity; a remove binds the
// target, the agent id (undefined when none), the actions and the blockers.
#pragma once

#include "../core/config.hpp"
#include "../formats/stable_json.hpp"
#include "../plan/integrity.hpp"
#include "value.hpp"

#include <string>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// The parts of an add plan that planIntegrity binds, already rendered.
struct add_plan_bound {
  value manifest_schema_version = 1;
  value claw_integrity;
  value final_id;
  value workspace;
  value actions = value::array();
  value capability_changes = value::array();
  value blockers = value::array();
  value extensions = value::array();
  value notices = value::array();  ///< bound only when not empty
};

/// The canonical text of an add plan's planIntegrity (stableStringify sorts the keys).
inline std::string add_plan_canonical_text(const add_plan_bound& b) {
  value bound = value::object({{"manifestSchemaVersion", b.manifest_schema_version},
                               {"clawIntegrity", b.claw_integrity},
                               {"finalId", b.final_id},
                               {"workspace", b.workspace},
                               {"actions", b.actions},
                               {"capabilityChanges", b.capability_changes},
                               {"blockers", b.blockers},
                               {"extensions", b.extensions}});
  if (!b.notices.empty()) bound["notices"] = b.notices;
  return json::stable_stringify(bound);
}

/// The bound parts of a typed add plan (`Plan` is `add_plan`, plan.hpp: a template so this
/// header sits below it; each part is rendered by its own `to_json`, found by ADL).
template <class Plan>
add_plan_bound add_plan_bound_of(const Plan& p) {
  add_plan_bound b;
  b.claw_integrity = p.claw.integrity;
  b.final_id = p.final_id;
  b.workspace = p.workspace;
  for (const auto& a : p.actions) b.actions.push_back(to_json(a));
  for (const auto& c : p.capabilities) b.capability_changes.push_back(to_json(c));
  b.blockers = to_json(p.blockers);
  b.extensions = p.extensions;
  for (const auto& n : p.notices) b.notices.push_back(to_json(n));
  return b;
}

/// `planIntegrity` (`sha256:<hex>`) of a typed add plan.
template <class Plan>
std::string add_plan_integrity_of(const Plan& p) {
  return clawport::plan::integrity_of(add_plan_canonical_text(add_plan_bound_of(p)));
}

/// The parts of a remove plan that planIntegrity binds, already rendered.
struct remove_plan_bound {
  value target;
  value agent_id = undefined_value();  ///< stableStringify keeps an undefined member
  value actions = value::array();
  value blockers = value::array();
};

/// The canonical text of a remove plan's planIntegrity.
inline std::string remove_plan_canonical_text(const remove_plan_bound& b) {
  return json::stable_stringify(value::object({{"target", b.target},
                                               {"agentId", b.agent_id},
                                               {"actions", b.actions},
                                               {"blockers", b.blockers}}));
}

/// The bound parts of a typed remove plan (`Plan` is `remove_plan`).
template <class Plan>
remove_plan_bound remove_plan_bound_of(const Plan& p) {
  remove_plan_bound b;
  b.target = p.target;
  if (p.agent_id) b.agent_id = *p.agent_id;
  for (const auto& a : p.actions) b.actions.push_back(to_json(a));
  b.blockers = to_json(p.blockers);
  return b;
}

/// `planIntegrity` (`sha256:<hex>`) of a typed remove plan.
template <class Plan>
std::string remove_plan_integrity_of(const Plan& p) {
  return clawport::plan::integrity_of(remove_plan_canonical_text(remove_plan_bound_of(p)));
}

/// `planIntegrity` of a typed update plan (`Plan` is `update_plan`): the plan's members but
/// its integrity, as `update_plan_bound` (update.hpp, found by ADL) renders them from the
/// typed parts; the document is that object with `planIntegrity` appended.
template <class Plan>
std::string update_plan_integrity_of(const Plan& p) {
  return clawport::plan::integrity_of(json::stable_stringify(update_plan_bound(p)));
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
