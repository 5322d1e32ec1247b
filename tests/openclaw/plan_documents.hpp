// SPDX-License-Identifier: MIT
// A claw plan's planIntegrity recomputed from the printed document, as a consumer (or the
// real OpenClaw) would: the document's members read back into integrity.hpp's bound parts.
// The library computes it from the typed plan only; these check that the two agree.
#pragma once

#include <clawport/clawport.hpp>

#include <string>

namespace plan_documents {

namespace oc = clawport::openclaw;

/// An add plan document's planIntegrity.
inline std::string add_integrity(const oc::value& plan) {
  oc::add_plan_bound b;
  b.manifest_schema_version = plan.at("manifestSchemaVersion");
  b.claw_integrity = plan.at("claw").at("integrity");
  b.final_id = plan.at("agent").at("finalId");
  b.workspace = plan.at("agent").at("workspace");
  b.actions = plan.at("actions");
  b.capability_changes = plan.at("capabilityChanges");
  b.blockers = plan.at("blockers");
  if (plan.contains("extensions")) b.extensions = plan["extensions"];
  if (plan.contains("notices")) b.notices = plan["notices"];
  return clawport::plan::integrity_of(oc::add_plan_canonical_text(b));
}

/// A remove plan document's canonical text.
inline std::string remove_text(const oc::value& plan) {
  oc::remove_plan_bound b;
  b.target = plan.at("target");
  if (plan.contains("agentId")) b.agent_id = plan["agentId"];
  b.actions = plan.at("actions");
  b.blockers = plan.at("blockers");
  return oc::remove_plan_canonical_text(b);
}

/// A remove plan document's planIntegrity.
inline std::string remove_integrity(const oc::value& plan) {
  return clawport::plan::integrity_of(remove_text(plan));
}

/// An update plan document's planIntegrity: the whole plan but its integrity.
inline std::string update_integrity(oc::value plan) {
  plan.erase("planIntegrity");
  return clawport::plan::integrity_of(oc::stable_stringify(plan));
}

}  // namespace plan_documents
