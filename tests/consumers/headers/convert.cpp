// SPDX-License-Identifier: MIT
// <clawport/convert.hpp> alone: a readonly agent's closure maps to a Claw package whose
// manifest OpenClaw's validator accepts, without narrowing.
#include <clawport/convert.hpp>

int header_convert() {
  namespace cv = clawport::convert;
  cv::bundle_input in;
  in.root_agent = "reader";
  in.closure = clawport::zeroclaw::parse_toml(
      "schema_version = 3\n[agents.reader]\nrisk_profile = \"ro\"\n"
      "[risk_profiles.ro]\nlevel = \"readonly\"\n",
      "config.toml");
  in.files["workspace/AGENTS.md"] = "Read.\n";
  const cv::mapped m = cv::map_to_claw(in);
  return m.agent == "reader" && m.files.count("CLAW.md") == 1 && m.losses.empty() ? 0 : 1;
}
