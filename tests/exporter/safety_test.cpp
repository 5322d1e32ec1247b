// SPDX-License-Identifier: MIT
// Issue 9 part B: what goes into a bundle. Each case is run on fs::memory and on the real
// filesystem (tests/exporter/rig.hpp) and proves what a hostile or careless layout can no
// longer leak, and that a refusal writes nothing.
#include "harness.hpp"

#include <string>
#include <vector>

using clawport::testing::children;
using clawport::testing::harness;
using clawport::testing::memory_rig;
using clawport::testing::posix_rig;
namespace cp = clawport;
namespace sk = clawport::skills;
using strings = std::vector<std::string>;

namespace {
[[maybe_unused]] bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

/// The names of the skills `agent_skills` says the agent loads from bundle `alias`.
template <class H>
strings loaded_from_bundle(H& h, const std::string& alias) {
  const sk::skills_config cfg = sk::parse_skills_config(h.config);
  const sk::skill_view view =
      sk::agent_skills(h.fsys(), cfg, sk::install_paths{h.path("install"), ""}, "researcher");
  strings out;
  for (const auto& e : view.entries)
    if (e.loaded() && e.bundle == alias) out.push_back(e.name);
  std::sort(out.begin(), out.end());
  return out;
}

std::string skill_md(const std::string& name, const std::string& body) {
  return "---\nname: " + name + "\ndescription: a skill\n---\n" + body + "\n";
}
}  // namespace

#define RIGS memory_rig, posix_rig

// ---- item 13: include/exclude by the skill's logical name ----------------------------

TEST_CASE_TEMPLATE("item13: an excluded skill in a differently named directory stays behind", R,
                   RIGS) {
  harness<R> h;
  h.config +=
      "skill_bundles = [\"research_tools\"]\n\n[skill_bundles.research_tools]\n"
      "exclude = [\"internal_notes\"]\n";
  h.write(h.skills_dir + "/internal-notes/SKILL.md", skill_md("internal_notes", "secret runbook"));
  h.write(h.skills_dir + "/web-search/SKILL.md", skill_md("web_search", "search the web"));
  const auto r = h.run();
  CHECK(children(h, "out/bundle/skills/research_tools") == strings{"web-search"});
  CHECK_FALSE(h.bundle_contains("secret runbook"));
  CHECK(r.skills.files == 1);
  CHECK(loaded_from_bundle(h, "research_tools") == strings{"web_search"});
}

TEST_CASE_TEMPLATE("item13: an included skill in a differently named directory travels", R, RIGS) {
  harness<R> h;
  h.config +=
      "skill_bundles = [\"research_tools\"]\n\n[skill_bundles.research_tools]\n"
      "include = [\"web_search\"]\n";
  h.write(h.skills_dir + "/web-search/SKILL.toml",
          "[skill]\nname = \"web_search\"\ndescription = \"search\"\n");
  h.write(h.skills_dir + "/web_search/SKILL.md", skill_md("other_skill", "not included"));
  const auto r = h.run();
  CHECK(r.skill_bundles == 1);
  CHECK(children(h, "out/bundle/skills/research_tools") == strings{"web-search"});
  CHECK_FALSE(h.bundle_contains("not included"));
  CHECK(loaded_from_bundle(h, "research_tools") == strings{"web_search"});
}

TEST_CASE_TEMPLATE("item13: the dry run carries the same skills by logical name", R, RIGS) {
  harness<R> h;
  h.config +=
      "skill_bundles = [\"research_tools\"]\n\n[skill_bundles.research_tools]\n"
      "exclude = [\"internal_notes\"]\n";
  h.write(h.skills_dir + "/internal-notes/SKILL.md", skill_md("internal_notes", "secret runbook"));
  h.write(h.skills_dir + "/web-search/SKILL.md", skill_md("web_search", "search the web"));
  const auto dry = h.template run<cp::publish::none>();
  CHECK(dry.skills.files == 1);
  CHECK(dry.skill_bundles == 1);
  CHECK(children(h, "out").empty());
}
