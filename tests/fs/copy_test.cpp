// SPDX-License-Identifier: MIT
// The tree copy (§7.4) and the workspace filter (§7.5) on every backend (skill bundles:
// tests/bundle/carry_test.cpp), with the upstream §10.B copy tests and the staged races.
#include "support/test.hpp"

#include "bundle/research_tools.hpp"
#include "fixture.hpp"
#include "racing.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

using clawport::errc;
using clawport::error;
namespace fs = clawport::fs;
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

/// Copies <root>/ws into <root>/stage/workspace through `fs` with the workspace spec.
template <class F, class Fs>
fs::copy_tally copy_workspace(F& f, Fs& fs) {
  f.mkdir("stage/workspace");
  auto src = fs.open_root(f.root_path() + "/ws");
  auto dst = fs.open_root(f.root_path() + "/stage/workspace");
  fs::copy_tally t;
  fs::copy_tree(fs, src, dst, clawport::testing::workspace_copy_spec(), t);
  return t;
}

template <class F>
fs::copy_tally copy_workspace(F& f) {
  return copy_workspace(f, f.fs);
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

}  // namespace

TEST_CASE("copy: workspace_entry_included (§7.5)") {
  using clawport::zeroclaw::workspace_entry_included;
  CHECK(workspace_entry_included(""));
  CHECK_FALSE(workspace_entry_included("memory"));
  CHECK_FALSE(workspace_entry_included("memory/brain.db"));
  CHECK_FALSE(workspace_entry_included("memory/sub/x"));
  CHECK_FALSE(workspace_entry_included("MEMORY_SNAPSHOT.md"));
  CHECK(workspace_entry_included("notes/memory/scratch.md"));
  CHECK(workspace_entry_included("notes/MEMORY_SNAPSHOT.md"));
  CHECK(workspace_entry_included("Memory"));
  CHECK_FALSE(workspace_entry_included("memory.md"));  // issue 30: MEMORY.md in any case
  CHECK_FALSE(workspace_entry_included("MEMORY.md"));
  CHECK_FALSE(workspace_entry_included("USER.md"));
  CHECK(workspace_entry_included("notes/MEMORY.md"));
  CHECK(workspace_entry_included("memoryx/a"));
  CHECK(workspace_entry_included("memory_snapshot.md"));
  CHECK(workspace_entry_included("MEMORY_SNAPSHOT.md.bak"));
  CHECK(workspace_entry_included("IDENTITY.md"));
}

TEST_CASE_TEMPLATE("copy: copy_skips_the_memory_store", F, CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/IDENTITY.md", "id");
  f.write("ws/notes/plan.md", "plan");
  f.write("ws/memory/brain.db", "db");
  auto t = copy_workspace(f);
  CHECK(t.files == 2);
  CHECK(t.bytes == 6);
  CHECK_FALSE(f.exists("stage/workspace/memory"));
  CHECK(f.snapshot("stage/workspace") ==
        std::map<std::string, std::string>{
            {"IDENTITY.md", "f:id"}, {"notes", "d"}, {"notes/plan.md", "f:plan"}});
}

TEST_CASE_TEMPLATE("copy: no_database_reaches_the_published_bundle", F, CLAWPORT_FS_FIXTURES) {
  F f;
  const std::string magic("SQLite format 3\0", 16);
  f.write("ws/memory/brain.db", magic + "home address");
  f.write("ws/memory/brain.db-wal", magic + "home address");
  f.write("ws/memory/brain.db-shm", magic);
  f.write("ws/MEMORY_SNAPSHOT.md", "home address");
  f.write("ws/notes/memory/scratch.md", "travels");
  f.write("ws/notes/MEMORY_SNAPSHOT.md", "travels too");
  auto t = copy_workspace(f);
  // Upstream has exactly one root file besides the store; here the two nested look-alikes
  // also travel, because the filter is anchored at the root.
  CHECK(t.files == 2);
  auto out = f.snapshot("stage/workspace");
  CHECK(out.count("memory") == 0);
  CHECK(out.count("MEMORY_SNAPSHOT.md") == 0);
  CHECK(out.count("notes/memory/scratch.md") == 1);
  CHECK(out.count("notes/MEMORY_SNAPSHOT.md") == 1);
  for (const auto& entry : out) {
    const std::string& path = entry.first;  // named: clang 14 cannot capture a binding
    const std::string& what = entry.second;
    CAPTURE(path);
    CHECK(what.rfind("f:" + magic, 0) != 0);
    CHECK_FALSE(contains(what, "home address"));
  }
}

TEST_CASE_TEMPLATE("copy: special files, symlinks and hard links are counted and skipped", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("outside/secret", "host bytes");
  f.write("ws/plain.md", "ok");
  f.fifo("ws/pipe");                          // copy_counts_special_files_it_skips (FIFO)
  f.symlink("ws/link", "../outside/secret");  // copy_skips_symlinks_instead_of_following...
  f.symlink("ws/dirlink", "../outside");      //   (a directory link is not followed either)
  f.write("ws/twice", "linked");
  f.hardlink("ws/twice", "ws/twice2");  // both names have nlink 2
  auto t = copy_workspace(f);
  CHECK(t.files == 1);
  CHECK(t.others_skipped == 1);
  CHECK(t.symlinks_skipped == 2);
  CHECK(t.hard_links_skipped == 2);
  CHECK(t.replaced_skipped == 0);
  CHECK(f.snapshot("stage/workspace") == std::map<std::string, std::string>{{"plain.md", "f:ok"}});
}

TEST_CASE_TEMPLATE("copy: copy_preserves_the_executable_bit, and modes in general", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/run.sh", "#!/bin/sh\n", 0755);
  f.write("ws/private", "p", 0600);
  f.write("ws/group", "g", 0750);
  copy_workspace(f);
  CHECK((f.mode("stage/workspace/run.sh") & 0111) == 0111);
  CHECK(f.mode("stage/workspace/run.sh") == 0755);
  CHECK(f.mode("stage/workspace/private") == 0600);
  CHECK(f.mode("stage/workspace/group") == 0750);
}

TEST_CASE_TEMPLATE("copy: empty directories are reproduced", F, CLAWPORT_FS_FIXTURES) {
  F f;
  f.mkdir("ws/empty");
  f.mkdir("ws/a/b/c");
  f.write("ws/a/file", "x");
  auto t = copy_workspace(f);
  CHECK(t.files == 1);
  CHECK(f.snapshot("stage/workspace") ==
        std::map<std::string, std::string>{
            {"a", "d"}, {"a/b", "d"}, {"a/b/c", "d"}, {"a/file", "f:x"}, {"empty", "d"}});
}

TEST_CASE_TEMPLATE("copy: a custom filter sees root-relative paths and prunes subtrees", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/keep/a", "1");
  f.write("ws/skip/b", "2");
  f.write("ws/keep/skip", "3");
  f.mkdir("stage/out");
  std::vector<std::string> seen;
  fs::copy_spec spec{"custom", [&](std::string_view rel) {
                       seen.emplace_back(rel);
                       return rel != "skip" && rel != "keep/skip";
                     }};
  auto src = f.fs.open_root(f.root_path() + "/ws");
  auto dst = f.fs.open_root(f.root_path() + "/stage/out");
  fs::copy_tally t;
  fs::copy_tree(f.fs, src, dst, spec, t);
  CHECK(t.files == 1);
  std::sort(seen.begin(), seen.end());
  // The excluded directory is never opened, so nothing below it is asked about.
  CHECK(seen == std::vector<std::string>{"keep", "keep/a", "keep/skip", "skip"});
  CHECK(f.snapshot("stage/out") ==
        std::map<std::string, std::string>{{"keep", "d"}, {"keep/a", "f:1"}});
}

TEST_CASE_TEMPLATE("copy: a destination entry that already exists is a hard error", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/notes.md", "new");
  f.write("stage/workspace/notes.md", "planted");
  auto msg = failure([&] { copy_workspace(f); });
  CHECK(contains(msg, "failed to create workspace/notes.md in the bundle"));
  CHECK(f.read("stage/workspace/notes.md") == "planted");
}

TEST_CASE_TEMPLATE("copy: the depth limit is CLAWPORT_MAX_TREE_DEPTH", F, CLAWPORT_FS_FIXTURES) {
  F f;
  std::string at_limit = "ws";
  for (int i = 0; i < CLAWPORT_MAX_TREE_DEPTH; ++i) at_limit += "/d";
  f.write(at_limit + "/leaf", "x");
  auto t = copy_workspace(f);
  CHECK(t.files == 1);  // exactly CLAWPORT_MAX_TREE_DEPTH levels is accepted

  F g;
  g.write(at_limit + "/d/leaf", "x");
  auto before = outside_stage(g);
  try {
    copy_workspace(g);
    FAIL("a tree one level deeper than the limit was copied");
  } catch (const error& e) {
    CHECK(e.code() == errc::limit_exceeded);
    CHECK(contains(e.what(), "nested deeper than " + std::to_string(CLAWPORT_MAX_TREE_DEPTH)));
    CHECK(e.subject().rfind("workspace/d/d/", 0) == 0);
  }
  CHECK(outside_stage(g) == before);
}

// ---- staged races (entry seam): classified one object, found another at open --------

TEST_CASE_TEMPLATE("copy: a_file_replaced_by_an_escaping_symlink_mid_copy_is_not_followed", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("outside/secret", "host bytes");
  f.write("ws/notes.md", "mine");
  clawport::testing::racing<typename F::backend> fs(f.fs);
  std::map<std::string, std::string> before;
  fs.after_classify("notes.md", [&] {
    f.remove("ws/notes.md");
    f.symlink("ws/notes.md", "../outside/secret");
    before = outside_stage(f);
  });
  auto msg = failure([&] { copy_workspace(f, fs); });
  CHECK(fs.fired());
  CHECK(contains(msg, "failed to open workspace/notes.md"));
  CHECK(contains(msg, "symbolic link"));
  CHECK(outside_stage(f) == before);
  CHECK_FALSE(f.exists("stage/workspace/notes.md"));
}

TEST_CASE_TEMPLATE("copy: a_file_replaced_by_an_in_root_symlink_to_memory_is_not_followed", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/memory/brain.db", "private memory");
  f.write("ws/notes.md", "mine");
  clawport::testing::racing<typename F::backend> fs(f.fs);
  fs.after_classify("notes.md", [&] {
    f.remove("ws/notes.md");
    f.symlink("ws/notes.md", "memory/brain.db");
  });
  auto msg = failure([&] { copy_workspace(f, fs); });
  CHECK(contains(msg, "workspace/notes.md"));
  for (const auto& [path, what] : f.snapshot("stage")) CHECK_FALSE(contains(what, "private"));
}

TEST_CASE_TEMPLATE("copy: a_directory_replaced_by_an_escaping_symlink_mid_copy_is_not_followed", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("outside/secret", "host bytes");
  f.write("ws/notes/a.md", "mine");
  clawport::testing::racing<typename F::backend> fs(f.fs);
  fs.after_classify("notes", [&] {
    f.rename("ws/notes", "ws/notes.moved");
    f.symlink("ws/notes", "../outside");
  });
  auto msg = failure([&] { copy_workspace(f, fs); });
  CHECK(contains(msg, "failed to open workspace/notes"));
  CHECK(f.read("outside/secret") == "host bytes");
  for (const auto& [path, what] : f.snapshot("stage")) CHECK_FALSE(contains(what, "host"));
}

TEST_CASE_TEMPLATE("copy: a_file_renamed_over_an_admitted_entry_is_not_copied", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("host.txt", "host bytes");
  f.write("ws/notes.md", "mine");
  clawport::testing::racing<typename F::backend> fs(f.fs);
  fs.after_classify("notes.md", [&] { f.rename("host.txt", "ws/notes.md"); });
  auto t = copy_workspace(f, fs);
  CHECK(t.replaced_skipped == 1);
  CHECK(t.files == 0);
  CHECK(f.snapshot("stage/workspace").empty());
}

TEST_CASE_TEMPLATE("copy: a_file_replaced_by_a_hard_link_to_a_host_file_is_not_copied", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("host.txt", "host bytes");
  f.write("ws/notes.md", "mine");
  clawport::testing::racing<typename F::backend> fs(f.fs);
  fs.after_classify("notes.md", [&] {
    f.remove("ws/notes.md");
    f.hardlink("host.txt", "ws/notes.md");
  });
  auto t = copy_workspace(f, fs);
  CHECK(t.hard_links_skipped == 1);  // checked before identity
  CHECK(t.replaced_skipped == 0);
  CHECK(t.files == 0);
  CHECK_FALSE(f.exists("stage/workspace/notes.md"));
  for (const auto& [path, what] : f.snapshot("stage")) CHECK_FALSE(contains(what, "host"));
}

TEST_CASE_TEMPLATE(
    "copy: a directory swapped for another real directory is skipped, its empty "
    "copy stays",
    F, CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/notes/a.md", "mine");
  f.write("ws/other/private.md", "not admitted");
  clawport::testing::racing<typename F::backend> fs(f.fs);
  fs.after_classify("notes", [&] {
    f.rename("ws/notes", "ws/notes.old");
    f.rename("ws/other", "ws/notes");
  });
  auto spec = fs::copy_spec{"workspace", [](std::string_view rel) {
                              return rel.rfind("other", 0) != 0 && rel.rfind("notes.old", 0) != 0;
                            }};
  f.mkdir("stage/workspace");
  auto src = fs.open_root(f.root_path() + "/ws");
  auto dst = fs.open_root(f.root_path() + "/stage/workspace");
  fs::copy_tally t;
  fs::copy_tree(fs, src, dst, spec, t);
  CHECK(t.replaced_skipped == 1);
  CHECK(t.files == 0);
  CHECK(f.snapshot("stage/workspace") == std::map<std::string, std::string>{{"notes", "d"}});
}

TEST_CASE_TEMPLATE("copy: a file swapped for a FIFO between classify and open is skipped", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/notes.md", "mine");
  clawport::testing::racing<typename F::backend> fs(f.fs);
  fs.after_classify("notes.md", [&] {
    f.remove("ws/notes.md");
    f.fifo("ws/notes.md");
  });
  auto t = copy_workspace(f, fs);  // must not block on the FIFO
  CHECK(t.files == 0);
  CHECK(f.snapshot("stage/workspace").empty());
}

TEST_CASE_TEMPLATE("copy: an entry that vanishes before it is inspected is not carried", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/a.md", "a");
  f.write("ws/b.md", "b");
  clawport::testing::racing<typename F::backend> fs(f.fs);
  // Whichever is inspected first removes the other before its turn.
  fs.after_classify("a.md", [&] { f.remove("ws/b.md"); });
  auto t = copy_workspace(f, fs);
  CHECK(t.files >= 1);
  CHECK(f.exists("stage/workspace/a.md"));
}

// ---- fault injection: every operation the copy performs, failed in turn ---------------

namespace {

template <class F>
void sweep_layout(F& f) {
  f.write("ws/IDENTITY.md", "id");
  f.write("ws/notes/plan.md", "plan");
  f.write("ws/run.sh", "#!/bin/sh\n", 0755);
  f.mkdir("ws/empty");
  f.write("ws/memory/brain.db", "db");
  f.write(std::string(kSkills) + "/web_search/SKILL.md", "search skill");
  f.write(std::string(kSkills) + "/web_search/lib/tool.py", "print()");
  f.mkdir(std::string(kSkills) + "/hollow");
  f.mkdir("stage/workspace");
}

/// The workspace copy then the skills copy, every Fs call made through `fs`; the
/// destination roots are opened on the undecorated backend.
template <class F, class Fs>
void copy_everything(F& f, Fs& fs) {
  auto src = f.fs.open_root(f.root_path() + "/ws");
  auto dst = f.fs.open_root(f.root_path() + "/stage/workspace");
  fs::copy_tally t;
  fs::copy_tree(fs, src, dst, clawport::testing::workspace_copy_spec(), t);
  auto staging = f.fs.open_root(f.root_path() + "/stage");
  bundle::copy_skill_bundles(fs, f.root_path() + "/install", {research_source(f.root_path())},
                             staging);
}

}  // namespace

TEST_CASE_TEMPLATE("copy: a failure of any operation is a hard error naming the bundle path", F,
                   CLAWPORT_FS_FIXTURES) {
  std::size_t points = 0;
  {
    F f;
    sweep_layout(f);
    fs::faulty<typename F::backend&> fs(f.fs);
    fs.reset_counts();
    copy_everything(f, fs);
    points = fs.count();
  }
  REQUIRE(points > 20);
  for (int err : {EIO, EMFILE}) {
    for (std::size_t i = 1; i <= points; ++i) {
      F f;
      sweep_layout(f);
      fs::faulty<typename F::backend&> fs(f.fs);
      fs.reset_counts();
      fs.fail_at(i, err);
      const auto before = outside_stage(f);
      CAPTURE(i);
      CAPTURE(err);
      try {
        copy_everything(f, fs);
        FAIL("the failed operation went unnoticed: " << fs.log().at(i - 1).op);
      } catch (const error& e) {
        CAPTURE(e.what());
        CAPTURE(fs.log().at(i - 1).op);
        CHECK(e.sys_errno() == err);
        CHECK(e.code() == (err == EMFILE ? errc::limit_exceeded : errc::io));
        const bool bundle_path =
            e.subject().rfind("workspace", 0) == 0 || e.subject().rfind("skills", 0) == 0;
        const bool root_path = e.subject().rfind(f.root_path() + "/install", 0) == 0;
        CHECK((bundle_path || root_path));
        CHECK(contains(e.what(), e.subject()));
      }
      CHECK(outside_stage(f) == before);
    }
  }
}

// ---- unreadable entries: on fs::memory, which checks permissions as a non-root owner --
// (the same checks on the real filesystem are in posix_test.cpp and skip under root)

TEST_CASE("copy: a_failed_export_removes_its_staging... (unreadable locked.md, fs::memory)") {
  fs::memory m;
  m.mkdirs("/r/stage/workspace");
  m.write_file("/r/ws/IDENTITY.md", "id");
  m.write_file("/r/ws/locked.md", "secret", 0000);
  auto src = m.open_root("/r/ws");
  auto dst = m.open_root("/r/stage/workspace");
  fs::copy_tally t;
  try {
    fs::copy_tree(m, src, dst, clawport::testing::workspace_copy_spec(), t);
    FAIL("an unreadable file was skipped");
  } catch (const error& e) {
    CHECK(contains(e.what(), "failed to open workspace/locked.md"));
    CHECK(e.sys_errno() == EACCES);
    CHECK(e.subject() == "workspace/locked.md");
  }
}

TEST_CASE("roots: unreadable ancestors fail instead of reading as absent (fs::memory)") {
  fs::memory m;
  m.mkdirs("/r/install/agents/researcher/workspace");
  m.chmod("/r/install/agents", 0000);
  try {
    // an_unreadable_workspace_ancestor_fails_the_export_instead_of_publishing
    fs::open_anchored_root(m, "/r/install", "agents/researcher/workspace", "agents");
    FAIL("an unreadable ancestor was treated as absent");
  } catch (const error& e) {
    CHECK(std::string(e.what()) == "failed to open /r/install/agents: Permission denied");
    CHECK(e.sys_errno() == EACCES);
  }
  m.mkdirs("/r/holder/workspace");
  m.chmod("/r/holder", 0000);
  try {
    // an_unreadable_configured_workspace_parent_fails_the_export
    fs::open_configured_root(m, "/r/holder/workspace", "workspace.path");
    FAIL("an unreadable parent was treated as absent");
  } catch (const error& e) {
    CHECK(contains(e.what(), "holder"));
  }
}

// ---- issue 9 part B at the walk level ---------------------------------------------------

TEST_CASE_TEMPLATE("walk: the counting sink counts what the copy carries and writes nothing", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/IDENTITY.md", "# me");
  f.write("ws/notes/plan.md", "plan");
  f.write("ws/memory/brain.db", "db");
  f.write("outside.txt", "o");
  f.hardlink("outside.txt", "ws/linked.txt");
  f.symlink("ws/link", f.root_path() + "/outside.txt");
  const auto before = f.snapshot();
  auto src = f.fs.open_root(f.root_path() + "/ws");
  fs::copy_tally counted;
  fs::counting_sink<typename F::backend> sink{f.fs};
  fs::walk_tree(f.fs, sink, src, {}, clawport::testing::workspace_copy_spec(), counted);
  CHECK(f.snapshot() == before);
  const fs::copy_tally copied = copy_workspace(f);
  CHECK(counted.files == copied.files);
  CHECK(counted.bytes == copied.bytes);
  CHECK(counted.hard_links_skipped == copied.hard_links_skipped);
  CHECK(counted.symlinks_skipped == copied.symlinks_skipped);
  CHECK(copied.files == 2);
}

TEST_CASE_TEMPLATE("walk: check_entry sees every directory and file before it is opened", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/a.md", "a");
  f.write("ws/sub/key", "SECRET");
  auto spec = clawport::testing::workspace_copy_spec();
  std::vector<std::string> seen;
  spec.check_entry = [&](const fs::file_id&, const std::string& path) {
    seen.push_back(path);
    if (path == "workspace/sub/key") throw error(errc::overlap, "refused " + path, path);
  };
  f.mkdir("stage/workspace");
  auto src = f.fs.open_root(f.root_path() + "/ws");
  auto dst = f.fs.open_root(f.root_path() + "/stage/workspace");
  fs::copy_tally t;
  CHECK(contains(failure([&] { fs::copy_tree(f.fs, src, dst, spec, t); }), "refused"));
  std::sort(seen.begin(), seen.end());
  CHECK(std::find(seen.begin(), seen.end(), "workspace/sub") != seen.end());
  CHECK(seen.back() == "workspace/sub/key");
  CHECK_FALSE(f.exists("stage/workspace/sub/key"));
}

TEST_CASE_TEMPLATE("walk: a file with two names when classified is never opened", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("outside.txt", "HOST");
  f.hardlink("outside.txt", "ws/notes.md");
  fs::faulty<typename F::backend&> faulty(f.fs);
  bool opened = false;
  faulty.before_open([&](auto&, const auto&, std::string_view n) {
    if (n == "notes.md") opened = true;
  });
  f.mkdir("stage/workspace");
  auto src = faulty.open_root(f.root_path() + "/ws");
  auto dst = faulty.open_root(f.root_path() + "/stage/workspace");
  fs::copy_tally t;
  fs::copy_tree(faulty, src, dst, clawport::testing::workspace_copy_spec(), t);
  CHECK(t.hard_links_skipped == 1);
  CHECK_FALSE(opened);
  CHECK_FALSE(f.exists("stage/workspace/notes.md"));
}

TEST_CASE_TEMPLATE("walk: setuid, setgid and sticky bits are not copied", F, CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/tool", "#!/bin/sh\n", 06755);
  f.write("ws/plain", "x", 01600);
  if (f.mode("ws/tool") != 06755) {
    MESSAGE("cannot set setuid/setgid on this filesystem as this user; skipped here");
    return;
  }
  copy_workspace(f);
  CHECK(f.mode("stage/workspace/tool") == 0755);
  CHECK(f.mode("stage/workspace/plain") == 0600);
}

// ---- issue 22 item 7: the umask, as `cp` without `-p`; item 8: the reading sink ----------

TEST_CASE("copy: copied_mode is the source's permission bits less the umask, never 07000") {
  CHECK(fs::copied_mode(0666, 022) == 0644);
  CHECK(fs::copied_mode(0777, 022) == 0755);
  CHECK(fs::copied_mode(0777, 077) == 0700);
  CHECK(fs::copied_mode(06777, 0) == 0777);
  CHECK(fs::copied_mode(01666, 002) == 0664);
  CHECK(fs::copied_mode(0600, 0) == 0600);  // the export's spec (umask 0) keeps the bits
}

TEST_CASE_TEMPLATE("walk: a spec's umask is applied to every copied file", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/open.md", "o", 0666);
  f.write("ws/run.sh", "#!/bin/sh\n", 0777);
  f.write("ws/notes/private.md", "p", 0600);
  f.mkdir("stage/workspace");
  auto src = f.fs.open_root(f.root_path() + "/ws");
  auto dst = f.fs.open_root(f.root_path() + "/stage/workspace");
  fs::copy_spec spec("workspace");
  spec.umask = 027;
  fs::copy_tally t;
  fs::copy_tree(f.fs, src, dst, spec, t);
  CHECK(t.files == 3);
  CHECK(f.mode("stage/workspace/open.md") == 0640);
  CHECK(f.mode("stage/workspace/run.sh") == 0750);
  CHECK(f.mode("stage/workspace/notes/private.md") == 0600);
  CHECK(f.mode("ws/open.md") == 0666);  // the source is left as it was
}

TEST_CASE_TEMPLATE("walk: the reading sink keeps every carried file in memory, writes nothing", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.write("ws/IDENTITY.md", "# me");
  f.write("ws/notes/plan.md", "plan");
  f.symlink("ws/link", f.root_path() + "/ws/IDENTITY.md");
  const auto before = f.snapshot();
  auto src = f.fs.open_root(f.root_path() + "/ws");
  fs::reading_sink<typename F::backend> sink{f.fs};
  fs::copy_tally t;
  fs::walk_tree(f.fs, sink, src, {}, fs::copy_spec("workspace"), t);
  CHECK(f.snapshot() == before);
  CHECK(sink.files == std::map<std::string, std::string>{{"workspace/IDENTITY.md", "# me"},
                                                         {"workspace/notes/plan.md", "plan"}});
  CHECK(t.files == 2);
  CHECK(t.symlinks_skipped == 1);
}
