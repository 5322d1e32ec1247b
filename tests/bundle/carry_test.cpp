// SPDX-License-Identifier: MIT
// Carrying skill bundles into skills/<alias>/ (bundle/carry.hpp, §7.6) on every backend:
// the caller's include/exclude, skipped and empty skills, refused bundle roots, and the
// staged races (entry seam).
#include "support/test.hpp"

#include "bundle/research_tools.hpp"
#include "fs/fixture.hpp"
#include "fs/racing.hpp"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace {

using clawport::errc;
using clawport::error;
namespace bundle = clawport::bundle;

/// Everything in the fixture except the staging tree.
template <class F>
std::map<std::string, std::string> outside_stage(const F& f) {
  auto all = f.snapshot();
  for (auto it = all.begin(); it != all.end();) {
    it = it->first == "stage" || it->first.rfind("stage/", 0) == 0 ? all.erase(it) : ++it;
  }
  return all;
}

/// Runs `fn`, requires a clawport::error, returns its message.
template <class Fn>
std::string failure(Fn&& fn) {
  try {
    fn();
  } catch (const error& e) {
    return e.what();
  }
  FAIL("expected clawport::error");
  return {};
}

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

template <class F, class Fs>
bundle::skill_copy_result copy_skills(F& f, Fs& fs,
                                      const std::vector<bundle::skill_source>& sources) {
  f.mkdir("stage");
  auto staging = fs.open_root(f.root_path() + "/stage");
  return bundle::copy_skill_bundles(fs, f.root_path() + "/install", sources, staging);
}

template <class F>
bundle::skill_copy_result copy_skills(F& f, const std::vector<bundle::skill_source>& sources) {
  return copy_skills(f, f.fs, sources);
}

}  // namespace

TEST_CASE_TEMPLATE("skills: skill_bundle_content_travels_next_to_the_workspace", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  research_tools(f);
  auto r = copy_skills(f, {research_source(f.root_path())});
  CHECK(r.bundles == 1);
  CHECK(r.tally.files == 2);
  CHECK(r.without_content.empty());
  REQUIRE(r.carried.size() == 1);
  CHECK(r.carried[0].alias == "research_tools");
  CHECK(r.carried[0].skills == std::vector<std::string>{"web_search"});
  REQUIRE(r.sources.size() == 1);
  // a_carried_skill_bundle_is_advertised_and_present; copy_preserves_the_executable_bit
  CHECK(f.snapshot("stage/skills") == std::map<std::string, std::string>{
                                          {"research_tools", "d"},
                                          {"research_tools/web_search", "d"},
                                          {"research_tools/web_search/SKILL.md", "f:search skill"},
                                          {"research_tools/web_search/run.sh", "f:#!/bin/sh\n+x"}});
}

TEST_CASE_TEMPLATE("skills: a_skill_bundle_with_no_content_is_recorded (bundle dir missing)", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.mkdir("install/shared/skills");
  auto r = copy_skills(f, {research_source(f.root_path())});
  CHECK(r.bundles == 0);
  CHECK(r.without_content == std::vector<std::string>{"research_tools"});
  CHECK(r.sources.empty());
  CHECK_FALSE(f.exists("stage/skills"));
}

TEST_CASE_TEMPLATE("skills: a_skill_whose_entries_are_all_skipped_is_not_advertised", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("outside/SKILL.md", "host");
  f.mkdir(std::string(kSkills) + "/web_search/empty_dir");
  f.symlink(std::string(kSkills) + "/web_search/SKILL.md", "../../../../../outside/SKILL.md");
  auto r = copy_skills(f, {research_source(f.root_path())});
  CHECK(r.tally.files == 0);
  CHECK(r.tally.symlinks_skipped == 1);
  CHECK(r.bundles == 0);
  CHECK(r.without_content == std::vector<std::string>{"research_tools"});
  CHECK_FALSE(f.exists("stage/skills"));
  CHECK(f.snapshot("stage").empty());
}

TEST_CASE_TEMPLATE("skills: an_empty_skill_bundle_is_not_advertised_and_leaves_no_tree", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write(std::string(kSkills) + "/internal_only/SKILL.md", "internal runbook");
  auto r = copy_skills(f, {research_source(f.root_path())});
  CHECK(r.bundles == 0);
  CHECK(r.without_content == std::vector<std::string>{"research_tools"});
  CHECK_FALSE(f.exists("stage/skills"));
}

TEST_CASE_TEMPLATE("skills: include/exclude is the caller's predicate; loose files are silent", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  research_tools(f);
  f.write(std::string(kSkills) + "/summarize/SKILL.md", "sum");
  f.fifo(std::string(kSkills) + "/socket-like");
  std::vector<std::string> asked;
  auto source = research_source(f.root_path());
  source.admits_skill = [&](std::string_view s) {
    asked.emplace_back(s);
    return s == "summarize" || s == "web_search" || s == ".sync-marker";
  };
  auto r = copy_skills(f, {source});
  std::sort(asked.begin(), asked.end());
  // Asked only about skill directories, once opened and identity-checked (the exporter
  // answers with the skill's logical name, read through that handle).
  CHECK(asked == std::vector<std::string>{"internal_only", "summarize", "web_search"});
  REQUIRE(r.carried.size() == 1);
  CHECK(r.carried[0].skills == std::vector<std::string>{"summarize", "web_search"});
  CHECK(r.tally.files == 3);
  CHECK(r.tally.others_skipped == 0);  // loose entries at the bundle root are not counted
  CHECK_FALSE(f.exists("stage/skills/research_tools/.sync-marker"));
  // An empty predicate admits every skill.
  F g;
  research_tools(g);
  auto all = research_source(g.root_path());
  all.admits_skill = nullptr;
  auto r2 = copy_skills(g, {all});
  CHECK(r2.carried[0].skills == std::vector<std::string>{"internal_only", "web_search"});
}

TEST_CASE_TEMPLATE("skills: a_symlinked_skill_is_skipped_rather_than_followed", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("outside/borrowed/SKILL.md", "host skill");
  f.write(std::string(kSkills) + "/web_search/SKILL.md", "search skill");
  f.symlink(std::string(kSkills) + "/borrowed", "../../../../outside/borrowed");
  auto r = copy_skills(f, {research_source(f.root_path())});
  CHECK(r.tally.files == 1);
  CHECK(r.tally.symlinks_skipped == 1);
  CHECK_FALSE(f.exists("stage/skills/research_tools/borrowed"));
}

TEST_CASE_TEMPLATE("skills: a skill with only empty directories is removed again", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write(std::string(kSkills) + "/web_search/SKILL.md", "search skill");
  f.mkdir(std::string(kSkills) + "/hollow/a/b");
  auto r = copy_skills(f, {research_source(f.root_path())});
  CHECK(r.carried[0].skills == std::vector<std::string>{"web_search"});
  CHECK_FALSE(f.exists("stage/skills/research_tools/hollow"));
}

TEST_CASE_TEMPLATE("skills: no planned sources creates nothing", F, CLAWPORT_FS_FIXTURES) {
  F f;
  auto r = copy_skills(f, {});
  CHECK(r.bundles == 0);
  CHECK(r.without_content.empty());
  CHECK(f.snapshot("stage").empty());
}

TEST_CASE_TEMPLATE("skills: several bundles, one without content, share one tally", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  research_tools(f);
  f.write("install/shared/skills/writing/style/SKILL.md", "style");
  auto writing = bundle::skill_source{"writing", "w", "shared/skills/writing", nullptr};
  auto missing = bundle::skill_source{"missing", "m", "shared/skills/missing", nullptr};
  auto r = copy_skills(f, {research_source(f.root_path()), missing, writing});
  CHECK(r.bundles == 2);
  CHECK(r.tally.files == 3);
  CHECK(r.without_content == std::vector<std::string>{"missing"});
  REQUIRE(r.carried.size() == 2);
  CHECK(r.carried[0].alias == "research_tools");
  CHECK(r.carried[1].alias == "writing");
  CHECK(r.sources.size() == 2);
}

TEST_CASE_TEMPLATE("skills: a_traversing_skill_alias_writes_nothing_outside_the_staging_tree", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  research_tools(f);
  auto before = outside_stage(f);
  auto source = research_source(f.root_path());
  source.alias = "../../outside";
  auto msg = failure([&] { copy_skills(f, {source}); });
  CHECK(contains(msg, "failed to create skills/../../outside in the bundle"));
  CHECK(outside_stage(f) == before);
  CHECK_FALSE(f.exists("outside"));
}

TEST_CASE_TEMPLATE("skills: symlinked and escaping bundle roots are refused, nothing written", F,
                   CLAWPORT_FS_FIXTURES) {
  struct layout {
    const char* name;
    std::function<void(F&)> make;
    const char* expected;
  };
  std::vector<layout> layouts{
      {"a_skill_root_reached_through_a_symlinked_ancestor_is_refused",
       [](F& f) {
         f.write("outside/research_tools/web_search/SKILL.md", "host");
         f.mkdir("install/shared");
         f.symlink("install/shared/skills", "../../outside");
       },
       "is a symlink or leaves that tree"},
      {"a_skill_root_redirected_inside_the_install_is_refused",
       [](F& f) {
         f.write("install/private-skills/research_tools/web_search/SKILL.md", "private");
         f.mkdir("install/shared");
         f.symlink("install/shared/skills", "../private-skills");
       },
       "is a symlink or leaves that tree"},
      {"a_symlinked_skill_bundle_root_is_refused",
       [](F& f) {
         f.write("outside/research_tools/web_search/SKILL.md", "host");
         f.mkdir("install/shared/skills");
         f.symlink(kSkills, "../../../outside/research_tools");
       },
       "resolves to the symlink"},
  };
  for (const layout& l : layouts) {
    CAPTURE(l.name);
    F f;
    l.make(f);
    auto before = outside_stage(f);
    try {
      copy_skills(f, {research_source(f.root_path())});
      FAIL("expected a refusal");
    } catch (const error& e) {
      CHECK_MESSAGE(contains(e.what(), l.expected), e.what());
      CHECK(contains(e.what(), "symlink"));
      CHECK(e.code() == errc::unsafe_path);
    }
    CHECK(outside_stage(f) == before);
    auto staged = f.snapshot("stage");
    CHECK((staged.empty() || staged == std::map<std::string, std::string>{{"skills", "d"}}));
  }
}

TEST_CASE_TEMPLATE("skills: a_skill_replaced_by_an_excluded_sibling_directory_is_not_copied", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  research_tools(f);
  clawport::testing::racing<typename F::backend> fs(f.fs);
  fs.after_classify("web_search", [&] {
    f.rename(std::string(kSkills) + "/web_search", std::string(kSkills) + "/web_search.old");
    f.rename(std::string(kSkills) + "/internal_only", std::string(kSkills) + "/web_search");
  });
  auto source = research_source(f.root_path());
  source.admits_skill = [](std::string_view s) { return s == "web_search"; };
  auto r = copy_skills(f, fs, {source});
  CHECK(fs.fired());
  CHECK(r.tally.replaced_skipped == 1);
  for (const auto& [path, what] : f.snapshot("stage")) {
    CHECK_FALSE(contains(what, "internal runbook"));
  }
}

TEST_CASE_TEMPLATE("skills: a_skill_file_renamed_over_an_admitted_entry_is_not_copied", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  research_tools(f);
  f.write(std::string(kSkills) + "/web_search/notes.md", "mine");
  f.write("host.txt", "host bytes");
  clawport::testing::racing<typename F::backend> fs(f.fs);
  fs.after_classify("notes.md",
                    [&] { f.rename("host.txt", std::string(kSkills) + "/web_search/notes.md"); });
  auto r = copy_skills(f, fs, {research_source(f.root_path())});
  CHECK(r.tally.replaced_skipped == 1);
  CHECK(r.tally.files == 2);
  for (const auto& [path, what] : f.snapshot("stage")) CHECK_FALSE(contains(what, "host bytes"));
}

TEST_CASE_TEMPLATE("skills: a_skill_replaced_by_a_symlink_to_an_excluded_sibling_is_not_followed",
                   F, CLAWPORT_FS_FIXTURES) {
  F f;
  research_tools(f);
  clawport::testing::racing<typename F::backend> fs(f.fs);
  fs.after_classify("web_search", [&] {
    f.rename(std::string(kSkills) + "/web_search", std::string(kSkills) + "/web_search.old");
    f.symlink(std::string(kSkills) + "/web_search", "internal_only");
  });
  auto msg = failure([&] { copy_skills(f, fs, {research_source(f.root_path())}); });
  CHECK(contains(msg, "skills/research_tools/web_search"));
  CHECK(contains(msg, "failed to open"));
  for (const auto& [path, what] : f.snapshot("stage")) {
    CHECK_FALSE(contains(what, "internal runbook"));
  }
}
