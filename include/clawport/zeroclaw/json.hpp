// SPDX-License-Identifier: MIT
// The plan as JSON, for `clawport export --dry-run --json` and other tooling. Carries
// what the manifest carries plus clawport's report-only data (host-local notes, sources).
#pragma once

#include <nlohmann/json.hpp>

#include "../core/version.hpp"
#include "plan.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

inline nlohmann::json to_json(const export_plan& plan) {
  nlohmann::json j;
  j["format_version"] = bundle_format_version;
  j["root_agent"] = plan.root_alias;
  j["required_secrets"] = plan.required_secrets;
  j["skill_bundles"] = manifest_skill_bundles(plan);
  j["dropped"] = nlohmann::json::array();
  for (const dropped_item& d : plan.dropped)
    j["dropped"].push_back(
        {{"path", d.path}, {"reason", std::string(to_string(d.reason))}, {"detail", d.detail}});
  j["risk_flags"] = nlohmann::json::array();
  for (const risk_flag& f : plan.risk_flags)
    j["risk_flags"].push_back(
        {{"kind", std::string(to_string(f.kind))}, {"path", f.path}, {"detail", f.detail}});
  j["host_local"] = nlohmann::json::array();
  for (const host_local_note& n : plan.host_local)
    j["host_local"].push_back(
        {{"kind", std::string(to_string(n.kind))}, {"path", n.path}, {"detail", n.detail}});
  j["workspace"] = {{"configured", plan.workspace.configured}, {"path", plan.workspace.path}};
  j["identity_document"] =
      plan.identity_document ? nlohmann::json(*plan.identity_document) : nlohmann::json();
  j["skill_sources"] = nlohmann::json::array();
  for (const skill_source& s : plan.skill_sources)
    j["skill_sources"].push_back({{"alias", s.alias},
                                  {"relative", s.relative},
                                  {"include", s.filter.include},
                                  {"exclude", s.filter.exclude}});
  return j;
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
