// SPDX-License-Identifier: MIT
// The copy (§7.3-§7.6) under fs::faulty on every backend: races staged through the
// before_open hook (between classification and open), and sweeps that fail, or crash, each
// operation of a whole workspace + skills copy in turn.
#include "support/test.hpp"

#include <cerrno>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "fixture.hpp"

namespace {

using clawport::errc;
using clawport::error;
using clawport::fs::faulty;
using clawport::fs::simulated_crash;
using clawport::testing::swept;
namespace fs = clawport::fs;
namespace bundle = clawport::bundle;

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}
bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

/// Everything in the fixture except the staging tree `stage/`.
template <class F>
std::map<std::string, std::string> outside_stage(const F& f) {
  auto all = f.snapshot();
  for (auto it = all.begin(); it != all.end();) {
    it = it->first == "stage" || starts_with(it->first, "stage/") ? all.erase(it) : ++it;
  }
  return all;
}

/// An install with a workspace, a memory store, a skill bundle and host files outside it.
template <class F>
void build_install(F& f) {
  f.write("install/agents/researcher/workspace/IDENTITY.md", "I am the researcher");
  f.write("install/agents/researcher/workspace/notes.md", "my notes");
  f.write("install/agents/researcher/workspace/notes/plan.md", "the plan");
  f.write("install/agents/researcher/workspace/run.sh", "#!/bin/sh\necho hi\n", 0755);
  f.mkdir("install/agents/researcher/workspace/empty");
  f.write("install/agents/researcher/workspace/memory/brain.db", "SQLite format 3");
  f.write("install/shared/skills/research_tools/web_search/SKILL.md", "# web search");
  f.write("install/shared/skills/research_tools/web_search/run.sh", "#!/bin/sh\n", 0755);
  f.write("install/shared/skills/research_tools/internal_only/SKILL.md", "internal runbook");
  f.write("host/secret", "host bytes");
  f.mkdir("host/dir");
  f.write("host/dir/inner", "host dir bytes");
  f.mkdir("stage");
}

/// What one export copies: the anchored workspace into stage/workspace, then the skills.
struct copy_result {
  fs::copy_tally workspace;
  bundle::skill_copy_result skills;
};

/// Op counts at the phase boundaries of `run_copy`, to tell which error subject to expect.
struct phases {
  std::size_t root_opened = 0;  // after the anchored workspace root is open
  std::size_t staged = 0;       // after stage/ and stage/workspace are ready
  std::size_t workspace = 0;    // after the workspace copy
};

/// `jobs`: threads of the workspace copy (fs/jobs.hpp; faulty serializes the calls).
template <class F, class Fs>
copy_result run_copy(F& f, Fs& fs, phases* marks = nullptr, unsigned jobs = 1) {
  const std::string install = f.root_path() + "/install";
  copy_result out;
  auto root = fs::open_anchored_root(fs, install, "agents/researcher/workspace", "agents");
  REQUIRE(root.opened());
  if (marks) marks->root_opened = fs.count();
  auto stage = fs.open_root(f.root_path() + "/stage");
  try {
    fs.make_dir_at(stage, "workspace", 0777);
  } catch (const error& e) {
    throw error(e.code(), std::string("failed to create workspace in the bundle: ") + e.what(),
                "workspace", e.sys_errno());
  }
  std::optional<typename Fs::dir> ws;
  try {
    ws.emplace(fs.open_dir_at(stage, "workspace"));
  } catch (const error& e) {
    throw error(e.code(), std::string("failed to open workspace in the bundle: ") + e.what(),
                "workspace", e.sys_errno());
  }
  if (marks) marks->staged = fs.count();
  clawport::fs::copy_spec spec{"workspace", clawport::zeroclaw::workspace_entry_included};
  spec.jobs = jobs;
  fs::copy_tree(fs, *root.handle, *ws, spec, out.workspace);
  if (marks) marks->workspace = fs.count();
  bundle::skill_source source;
  source.alias = "research_tools";
  source.source = install + "/shared/skills/research_tools";
  source.relative = "shared/skills/research_tools";
  source.admits_skill = [](std::string_view skill) { return skill != "internal_only"; };
  out.skills = bundle::copy_skill_bundles(fs, install, {source}, stage);
  return out;
}

/// Every path the copy can name in an error: the bundle paths of what it carries.
const std::set<std::string>& bundle_paths() {
  static const std::set<std::string> paths = {
      "workspace",
      "workspace/IDENTITY.md",
      "workspace/notes.md",
      "workspace/notes",
      "workspace/notes/plan.md",
      "workspace/run.sh",
      "workspace/empty",
      "skills",
      "skills/research_tools",
      "skills/research_tools/web_search",
      "skills/research_tools/internal_only",  // classified and opened, then not admitted
      "skills/research_tools/web_search/SKILL.md",
      "skills/research_tools/web_search/run.sh",
  };
  return paths;
}

}  // namespace

TEST_CASE_TEMPLATE("copy under faulty: the undisturbed copy", F, CLAWPORT_FS_FIXTURES) {
  F f;
  build_install(f);
  faulty<typename F::backend&> fs(f.fs);
  const auto before = outside_stage(f);
  const copy_result r = run_copy(f, fs);
  CHECK(r.workspace.files == 4);
  CHECK(r.skills.tally.files == 2);
  CHECK(r.skills.bundles == 1);
  CHECK(outside_stage(f) == before);
  CHECK(f.snapshot("stage") == std::map<std::string, std::string>{
                                   {"skills", "d"},
                                   {"skills/research_tools", "d"},
                                   {"skills/research_tools/web_search", "d"},
                                   {"skills/research_tools/web_search/SKILL.md", "f:# web search"},
                                   {"skills/research_tools/web_search/run.sh", "f:#!/bin/sh\n+x"},
                                   {"workspace", "d"},
                                   {"workspace/IDENTITY.md", "f:I am the researcher"},
                                   {"workspace/empty", "d"},
                                   {"workspace/notes", "d"},
                                   {"workspace/notes.md", "f:my notes"},
                                   {"workspace/notes/plan.md", "f:the plan"},
                                   {"workspace/run.sh", "f:#!/bin/sh\necho hi\n+x"},
                               });
}

// The races of §10.B, each staged by the before_open hook at the moment between the
// copy's classification of an entry and its open.
TEST_CASE_TEMPLATE("copy under faulty: races between classification and open", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  build_install(f);
  faulty<typename F::backend&> fs(f.fs);
  const std::string ws = "install/agents/researcher/workspace/";
  // Runs `swap` once, when the copy is about to open source entry `entry`.
  auto at_open = [&](std::string entry, std::function<void()> swap) {
    auto fired = std::make_shared<bool>(false);
    fs.before_open(
        [=](typename F::backend&, const typename F::backend::dir&, std::string_view name) {
          if (*fired || name != entry) return;
          *fired = true;
          swap();
        });
    return fired;
  };

  SUBCASE("a file swapped for a symlink fails the whole copy (§7.4, test 16)") {
    auto fired = at_open("notes.md", [&] {
      f.remove(ws + "notes.md");
      f.symlink(ws + "notes.md", "../../../../host/secret");
    });
    std::map<std::string, std::string> before = outside_stage(f);
    try {
      run_copy(f, fs);
      FAIL("the copy followed a symlink");
    } catch (const error& e) {
      CHECK(*fired);
      CHECK(e.subject() == "workspace/notes.md");
      CHECK(contains(e.what(), "failed to open workspace/notes.md"));
    }
    before.erase(ws + "notes.md");
    auto after = outside_stage(f);
    after.erase(ws + "notes.md");
    CHECK(after == before);
    CHECK_FALSE(f.exists("stage/workspace/notes.md"));
  }
  SUBCASE("a directory swapped for a symlink is a hard error (test 41)") {
    at_open("notes", [&] {
      f.rename(ws + "notes", "aside");
      f.symlink(ws + "notes", "../../../../host/dir");
    });
    try {
      run_copy(f, fs);
      FAIL("the copy followed a symlink");
    } catch (const error& e) {
      CHECK(e.subject() == "workspace/notes");
      CHECK(contains(e.what(), "failed to open workspace/notes"));
    }
    CHECK(f.read("host/dir/inner") == "host dir bytes");
    CHECK_FALSE(f.exists("stage/workspace/notes/inner"));
  }
  SUBCASE("a host file renamed over the entry is skipped as replaced (test 36)") {
    at_open("notes.md", [&] { f.rename("host/secret", ws + "notes.md"); });
    const copy_result r = run_copy(f, fs);
    CHECK(r.workspace.replaced_skipped == 1);
    CHECK(r.workspace.files == 3);
    CHECK_FALSE(f.exists("stage/workspace/notes.md"));
  }
  SUBCASE("a file replaced by a hard link to a host file is skipped (test 38)") {
    at_open("notes.md", [&] {
      f.remove(ws + "notes.md");
      f.hardlink("host/secret", ws + "notes.md");
    });
    const copy_result r = run_copy(f, fs);
    CHECK(r.workspace.hard_links_skipped == 1);
    CHECK(r.workspace.replaced_skipped == 0);
    CHECK_FALSE(f.exists("stage/workspace/notes.md"));
  }
  SUBCASE("a directory replaced by another directory: skipped, its empty copy stays") {
    at_open("notes", [&] {
      f.rename(ws + "notes", "aside");
      f.rename("host/dir", ws + "notes");
    });
    const copy_result r = run_copy(f, fs);
    CHECK(r.workspace.replaced_skipped == 1);
    CHECK(f.snapshot("stage/workspace/notes").empty());
    CHECK(f.exists("stage/workspace/notes"));
  }
  SUBCASE("a skill replaced by an excluded sibling directory is not copied (test 29)") {
    const std::string b = "install/shared/skills/research_tools/";
    at_open("web_search", [&] {
      f.rename(b + "web_search", "aside");
      f.rename(b + "internal_only", b + "web_search");
    });
    const copy_result r = run_copy(f, fs);
    CHECK(r.skills.tally.replaced_skipped == 1);
    for (const auto& e : f.snapshot("stage")) CHECK_FALSE(contains(e.second, "internal runbook"));
  }
  SUBCASE("the anchored root replaced by another directory: source-root-replaced (test 26)") {
    const std::string before_ws = f.read(ws + "notes.md");
    at_open("workspace", [&] {
      f.rename("install/agents/researcher/workspace", "aside");
      f.mkdir("install/agents/researcher/workspace");
    });
    try {
      run_copy(f, fs);
      FAIL("copied a replaced root");
    } catch (const error& e) {
      CHECK(e.code() == errc::identity_changed);
      CHECK(contains(e.what(), "was replaced while the export was opening it"));
      CHECK(contains(e.what(), "agents/researcher/workspace"));
    }
    CHECK(f.snapshot("stage").empty());
    CHECK(f.read("aside/notes.md") == before_ws);
  }
  SUBCASE("an anchored ancestor swapped for a symlink: failed to open (test 23)") {
    at_open("agents", [&] {
      f.rename("install/agents", "aside");
      f.symlink("install/agents", "../aside");
    });
    try {
      run_copy(f, fs);
      FAIL("walked through a symlink");
    } catch (const error& e) {
      CHECK(contains(e.what(), "failed to open"));
      CHECK(contains(e.what(), "agents"));
    }
    CHECK(f.snapshot("stage").empty());
  }
}

// For every operation the copy performs, a run where that operation fails: the error
// names what failed (a bundle path, or the source root being opened) and nothing outside
// the staging tree is created or changed.
TEST_CASE_TEMPLATE("copy under faulty: fault-injection sweep (ENOSPC, EIO)", F,
                   CLAWPORT_FS_FIXTURES) {
  // One thread, then the copy with jobs (issue 25): every failure is still reported cleanly.
  for (const unsigned jobs : {1u, 3u}) {
    CAPTURE(jobs);
    phases marks;
    std::size_t total = 0;
    {
      F f;
      build_install(f);
      faulty<typename F::backend&> fs(f.fs);
      run_copy(f, fs, &marks, jobs);
      total = fs.count();
    }
    REQUIRE(total > 40);
    std::size_t covered = 0;
    // Every operation fails once with each errno on fs::memory; on the real filesystem (where
    // a run costs a temporary tree) every operation fails once, the errno alternating.
    const bool both_errnos = std::is_same<typename F::backend, fs::memory>::value;
    std::size_t expected = 0;
    std::size_t skipped = 0;  // on 3 threads, the points `swept` leaves out of this run
    for (int err : {ENOSPC, EIO}) {
      for (std::size_t i = 1; i <= total; ++i) {
        if (!both_errnos && (i % 2 == 0) != (err == EIO)) continue;
        ++expected;
        if (!swept(i, jobs)) {
          ++skipped;
          continue;
        }
        F f;
        build_install(f);
        const auto before = outside_stage(f);
        faulty<typename F::backend&> fs(f.fs);
        fs.fail_at(i, err);
        CAPTURE(err);
        CAPTURE(i);
        try {
          run_copy(f, fs, nullptr, jobs);
          FAIL("the copy survived a failed operation");
        } catch (const error& e) {
          const std::string what = e.what();
          CAPTURE(what);
          CAPTURE(fs.log()[i - 1].op);
          CHECK(fs.failures() == 1);
          CHECK(e.sys_errno() == err);
          CHECK(contains(e.what(), e.subject()));
          // A source root being opened names its path; the staging directory its own path;
          // everything the copy carries its bundle path.
          const bool source_root = starts_with(e.subject(), f.root_path() + "/install");
          const bool staging = e.subject() == f.root_path() + "/stage";
          CHECK((source_root || staging || bundle_paths().count(e.subject()) == 1));
          if (i <= marks.root_opened) CHECK(source_root);
          if (i > marks.staged && i <= marks.workspace) {
            CHECK(starts_with(e.subject(), "workspace"));
          }
          ++covered;
        }
        CHECK(outside_stage(f) == before);
      }
    }
    CHECK(covered + skipped == expected);
    CHECK(expected == (both_errnos ? 2 * total : total));
    MESSAGE("copy fault-injection points: " << total << " operations, " << covered
                                            << " failing runs, all survived");
  }
}

// A copy killed after each operation: whatever it left is inside the staging tree.
TEST_CASE_TEMPLATE("copy under faulty: crash sweep", F, CLAWPORT_FS_FIXTURES) {
  for (const unsigned jobs : {1u, 3u}) {
    CAPTURE(jobs);
    std::size_t total = 0;
    {
      F f;
      build_install(f);
      faulty<typename F::backend&> fs(f.fs);
      run_copy(f, fs, nullptr, jobs);
      total = fs.count();
    }
    for (std::size_t n = 0; n < total; ++n) {
      if (!swept(n, jobs)) continue;
      F f;
      build_install(f);
      const auto before = outside_stage(f);
      faulty<typename F::backend&> fs(f.fs);
      fs.crash_after(n);
      CAPTURE(n);
      CHECK_THROWS_AS(run_copy(f, fs, nullptr, jobs), simulated_crash);
      CHECK(fs.count() == n);
      CHECK(outside_stage(f) == before);
    }
  }
}
