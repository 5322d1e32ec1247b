// SPDX-License-Identifier: MIT
// <clawport/skills.hpp> alone: read a SKILL.toml and a config's skill tables.
#include <clawport/skills.hpp>

int header_skills() {
  const clawport::skills::skill s = clawport::skills::parse_skill_toml(
      "[skill]\nname = \"pdf\"\ndescription = \"Reads PDFs\"\n", "SKILL.toml");
  const clawport::skills::skills_config cfg = clawport::skills::parse_skills_config(
      "[agents.a]\nskill_bundles = [\"tools\"]\n[skill_bundles.tools]\n");
  return s.name == "pdf" && cfg.agents.at("a").skill_bundles.size() == 1 ? 0 : 1;
}
