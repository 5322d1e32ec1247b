// SPDX-License-Identifier: MIT
// The skill bundle the carry tests copy (tests/bundle/carry_test.cpp) and the export copy's
// fault sweep (tests/fs/copy_test.cpp) copies: research_tools under install/shared/skills/,
// with a skill its include/exclude leaves out and a loose file.
#pragma once

#include "support/test.hpp"

#include <string>
#include <string_view>

namespace {

const char* const kSkills = "install/shared/skills/research_tools";

template <class F>
void research_tools(F& f) {
  f.write(std::string(kSkills) + "/web_search/SKILL.md", "search skill");
  f.write(std::string(kSkills) + "/web_search/run.sh", "#!/bin/sh\n", 0755);
  f.write(std::string(kSkills) + "/internal_only/SKILL.md", "internal runbook");
  f.write(std::string(kSkills) + "/.sync-marker", "local state");
}

inline clawport::bundle::skill_source research_source(const std::string& root) {
  return clawport::bundle::skill_source{
      "research_tools", root + "/install/shared/skills/research_tools",
      "shared/skills/research_tools",
      [](std::string_view skill) { return skill != "internal_only"; }};
}

}  // namespace
