// SPDX-License-Identifier: MIT
// <clawport/zeroclaw.hpp> alone: plan an export from config text and render both files.
#include <clawport/zeroclaw.hpp>

int header_zeroclaw() {
  const char* config =
      "schema_version = 3\n"
      "[providers.models.anthropic.main]\nmodel = \"m\"\n"
      "[risk_profiles.guarded]\n"
      "[agents.a]\nmodel_provider = \"anthropic.main\"\nrisk_profile = \"guarded\"\n";
  clawport::zeroclaw::export_plan plan = clawport::zeroclaw::plan_export(config, "a");
  const std::string toml = clawport::zeroclaw::render_config_toml(plan);
  const std::string manifest = clawport::zeroclaw::render_manifest(plan, clawport::timestamp{});
  return plan.root_alias == "a" && !toml.empty() && !manifest.empty() &&
                 clawport::zeroclaw::to_json(plan)["format_version"] ==
                     clawport::bundle_format_version
             ? 0
             : 1;
}
