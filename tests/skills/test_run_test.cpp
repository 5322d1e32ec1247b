// SPDX-License-Identifier: MIT
// `skills test` as the library runs and renders it (issue 43: the CLI only parses and
// prints): the loop over the selected skills (`skills::test_skills`: the audit asked about,
// the bundle kept), its report (`render_test_run`, with the bundle beside each skill when
// they come from several bundles, issue 44 item 10), the one failure error, and the human
// reports of the other lifecycle commands (`render_text`).
#include "support/test.hpp"

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace {

namespace cp = clawport;
namespace sk = clawport::skills;
using clawport::fs::memory;

/// A runner that starts nothing: every command passes, each call recorded.
struct passing_runner {
  mutable std::vector<std::string> seen;
  sk::command_outcome run(const std::vector<std::string>& argv, const std::string& cwd,
                          std::chrono::milliseconds) const {
    seen.push_back(cwd + ": " + argv.back());
    return sk::command_outcome{0, "ok", false, {}};
  }
};

/// A skill `name` in bundle directory `dir` with a one-line TEST.sh.
void add_tested_skill(memory& m, const std::string& dir, const std::string& name) {
  m.write_file(dir + "/" + name + "/SKILL.md",
               "---\nname: " + name + "\ndescription: checks\n---\nRun the checks.\n");
  m.write_file(dir + "/" + name + "/TEST.sh", "echo ok | 0 | ok\n");
}

}  // namespace

TEST_CASE("skills::test_skills: every target tested in order, a failing audit asked about") {
  memory m;
  add_tested_skill(m, "/i/shared/skills/a", "lint");
  add_tested_skill(m, "/i/shared/skills/b", "lint");
  sk::test_selection sel;
  sel.targets = {{"lint", "/i/shared/skills/a/lint", "a"},
                 {"lint", "/i/shared/skills/b/lint", "b"}};
  const passing_runner runner;
  std::vector<std::string> announced;
  const auto on_skill = [&](const sk::test_target& t) { announced.push_back(t.directory); };

  // allow_scripts: both audits pass, nothing is asked.
  sel.allow_scripts = true;
  const auto never = [](const sk::test_target&, const std::string&) -> bool {
    FAIL("asked about a clean skill");
    return false;
  };
  const sk::test_run all = sk::test_skills(m, runner, sel, {}, never, on_skill);
  REQUIRE(all.results.size() == 2);
  CHECK(all.results[0].bundle == "a");
  CHECK(all.results[1].bundle == "b");
  CHECK(all.skipped.empty());
  CHECK_FALSE(all.failed());
  CHECK(announced ==
        std::vector<std::string>{"/i/shared/skills/a/lint", "/i/shared/skills/b/lint"});
  // Two skills of one name from two bundles: each line names its bundle.
  const std::string text = sk::render_test_run(all, "");
  CHECK(text.find("  \u2713 a/lint \u2014 1/1 passed\n") != std::string::npos);
  CHECK(text.find("  \u2713 b/lint \u2014 1/1 passed\n") != std::string::npos);

  // TEST.sh is a script: without allow_scripts the audit fails and the caller decides.
  sel.allow_scripts = false;
  runner.seen.clear();
  std::vector<std::string> asked;
  const sk::test_run some =
      sk::test_skills(m, runner, sel, {}, [&](const sk::test_target& t, const std::string& why) {
        asked.push_back(t.bundle);
        CHECK(why.find("TEST.sh") != std::string::npos);
        return t.bundle == "a";
      });
  CHECK(asked == std::vector<std::string>{"a", "b"});
  REQUIRE(some.results.size() == 1);
  CHECK(some.skipped == std::vector<std::string>{"lint"});
  CHECK(runner.seen == std::vector<std::string>{"/i/shared/skills/a/lint: echo ok"});
  // One bundle: the name as upstream prints it.
  CHECK(sk::render_test_run(some, "").find("  \u2713 lint \u2014 1/1 passed\n") !=
        std::string::npos);
}

TEST_CASE("skills::render_test_run: a named skill without TEST.sh; the one failure error") {
  sk::test_run run;
  run.results.resize(1);
  run.results[0].skill_name = "docs";
  CHECK(sk::render_test_run(run, "docs") == "  - No TEST.sh found for skill 'docs'.\n");
  CHECK(sk::render_test_run(run, "") ==
        "\n  - docs \u2014 no test cases\n\n  \u2713 All 0 test(s) "
        "passed across 1 skill(s).\n");
  const cp::error e = sk::test_failure_error("docs");
  CHECK(e.code() == cp::errc::skill_test_failed);
  CHECK(std::string(e.what()) == "some skill tests failed");
  CHECK(e.subject() == "docs");
}

TEST_CASE("skills::render_text: the human reports of the lifecycle commands, escaped") {
  const cp::text::marks plain = cp::text::marks_for(true);
  sk::remove_result removed;
  removed.name = "lint";
  removed.bundle = "ops";
  removed.archived_to = "/i/shared/skills/_deleted/lint";
  CHECK(sk::render_text(removed, plain) ==
        "  ok Skill 'lint' removed from bundle 'ops' and archived at "
        "/i/shared/skills/_deleted/lint\n");
  removed.archived_to.clear();
  removed.directory = "/i/skills/li\x1bnt";
  CHECK(sk::render_text(removed) == "  \u2713 Skill 'lint' deleted from /i/skills/li\\x1bnt\n");
  sk::restore_result restored;
  restored.name = "lint";
  restored.bundle = "ops";
  restored.directory = "/i/shared/skills/ops/lint";
  restored.restored_from = "lint-1";
  restored.other_archives = {"lint-0"};
  CHECK(sk::render_text(restored) ==
        "  \u2713 Skill 'lint' restored into bundle 'ops' at /i/shared/skills/ops/lint\n"
        "    from lint-1\n    1 older archive(s) kept: lint-0\n");
  CHECK(sk::render_text(std::vector<sk::bundle_entry>{}, "/i/config.toml") ==
        "No skill bundles configured in /i/config.toml (`clawport skills bundle add <alias>` "
        "adds one).\n");
  sk::bundle_add_result added;
  added.alias = "ops";
  CHECK(sk::render_text(added) == "skill bundle 'ops' already exists (no change)\n");
}

// Issue 43 item 6: one name check for remove, restore, install and test, one lookup (and
// its two refusals) for remove and test, so the two commands word them alike.
TEST_CASE("skills: one skill-name check and one lookup for remove, restore, install and test") {
  for (const char* bad : {"", ".", "..", "a/b", "a\\b", "x/../y", "a..b"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(sk::check_skill_dir_name(bad),
                         ("Invalid skill name: " + std::string(bad)).c_str(), cp::error);
  }
  CHECK_NOTHROW(sk::check_skill_dir_name("lint-2.0"));
  memory m;
  m.write_file("/i/config.toml", "");
  add_tested_skill(m, "/i/shared/skills/a", "lint");
  add_tested_skill(m, "/i/shared/skills/b", "lint");
  const sk::skills_config cfg = sk::parse_skills_config("[skill_bundles.a]\n[skill_bundles.b]\n");
  const sk::install_paths where{"/i", ""};
  const std::string several =
      "skill 'lint' exists in several locations (bundle a, bundle b); pass --bundle to choose";
  CHECK_THROWS_WITH(sk::test_targets(m, cfg, where, "lint", ""), several.c_str());
  CHECK_THROWS_WITH(sk::locate_skill(m, cfg, where, "lint", "", ""), several.c_str());
  const std::string none =
      "Skill not found: ghost (looked in every configured bundle and the global skills directory)";
  CHECK_THROWS_WITH(sk::test_targets(m, cfg, where, "ghost", ""), none.c_str());
  CHECK_THROWS_WITH(sk::locate_skill(m, cfg, where, "ghost", "", ""), none.c_str());
  // The names each command refused its own way before: one message now.
  CHECK_THROWS_WITH(sk::test_targets(m, cfg, where, "..", ""),
                    "Invalid skill name: .. (give a skill directory's name, or a path to test a "
                    "directory outside the install)");
  const sk::skills_dir_location loc = sk::locate_skill(m, cfg, where, "lint", "a", "");
  CHECK_THROWS_WITH(sk::remove_skill(m, loc, "/i", "a\\b", false, 0), "Invalid skill name: a\\b");
  CHECK_THROWS_WITH(sk::install_skill_directory(m, "/i/shared/skills/b/lint", loc, "a..b"),
                    "Invalid skill name: a..b");
  CHECK(m.exists("/i/shared/skills/a/lint/TEST.sh"));  // nothing was touched
}
