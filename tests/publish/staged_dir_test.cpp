// SPDX-License-Identifier: MIT
// The shared publish mechanisms of issue 23: publish::rename_noreplace (the one rename that
// never replaces, with the probe fallback where RENAME_NOREPLACE is missing),
// publish::staged_dir (made beside its destination under a registry name, locked, removed
// unless published) and publish::undo_journal (undo steps run newest first). Fault and
// crash sweeps on fs::faulty: the destination is absent or complete, and whatever a crash
// leaves is a name `clawport recover` removes.
#include "support/test.hpp"

#include <algorithm>
#include <cerrno>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace cp = clawport;
namespace fs = clawport::fs;
namespace pub = clawport::publish;
using mem = fs::memory;
using rig_fs = fs::faulty<fs::memory>;

const std::string kParent = "/home/out";

std::vector<std::string> children(mem& m, const std::string& path) {
  std::vector<std::string> out;
  auto d = m.open_root(path);
  m.for_each_entry(d, [&](std::string_view n) { out.emplace_back(n); });
  std::sort(out.begin(), out.end());
  return out;
}

mem::options no_rename2() {
  mem::options o;
  o.rename2_supported = false;
  return o;
}

/// Stages `a.txt` and `sub/b.txt` in a staged_dir named after the claw family and publishes
/// it to `dest`: the sequence every sweep below interrupts.
template <class Fs>
bool stage_and_publish(Fs& fs, const std::string& token = "AbC123") {
  auto parent = fs.open_root(kParent);
  pub::staged_dir<Fs> st(fs, parent, pub::staging_name(pub::staging_kind::claw, token));
  {
    auto f = fs.create_file_at(st.handle(), "a.txt", 0644);
    fs.write_all(f, "alpha", 5);
  }
  fs.make_dir_at(st.handle(), "sub", 0755);
  {
    auto sub = fs.open_dir_at(st.handle(), "sub");
    auto f = fs.create_file_at(sub, "b.txt", 0644);
    fs.write_all(f, "beta", 4);
  }
  fs.sync_filesystem(st.handle());
  return st.publish(parent, "dest");
}

const std::map<std::string, std::string> kPublished = {
    {"a.txt", "f:alpha"}, {"sub", "d"}, {"sub/b.txt", "f:beta"}};

}  // namespace

TEST_CASE("rename_noreplace renames into a vacant name and never replaces a taken one") {
  for (const bool rename2 : {true, false}) {
    CAPTURE(rename2);
    mem m = rename2 ? mem() : mem(no_rename2());
    m.write_file(kParent + "/from/x", "new");
    m.write_file(kParent + "/taken/y", "old");
    m.mkdirs(kParent + "/empty");
    auto d = m.open_root(kParent);
    CHECK_FALSE(pub::rename_noreplace(m, d, "from", d, "taken"));
    // An empty directory is taken too: a plain rename would have replaced it.
    CHECK_FALSE(pub::rename_noreplace(m, d, "from", d, "empty"));
    CHECK(m.read_file(kParent + "/from/x") == "new");
    CHECK(m.read_file(kParent + "/taken/y") == "old");
    CHECK(pub::rename_noreplace(m, d, "from", d, "vacant"));
    CHECK(children(m, kParent) == std::vector<std::string>{"empty", "taken", "vacant"});
    CHECK(m.read_file(kParent + "/vacant/x") == "new");
  }
}

TEST_CASE("rename_noreplace: a name taken between the probe and the rename is not replaced") {
  // The fallback's window: a directory appearing after the probe. A plain rename over a
  // non-empty directory fails with ENOTEMPTY, which is reported as taken.
  rig_fs f(no_rename2());
  f.inner().write_file(kParent + "/from/x", "new");
  int renames = 0;  // the second rename is the fallback's plain one, after the probe
  f.on_op([&renames](mem& m, std::string_view op, std::string_view) {
    if (op == "rename_at" && ++renames == 2) m.write_file(kParent + "/to/z", "theirs");
  });
  auto d = f.open_root(kParent);
  CHECK_FALSE(pub::rename_noreplace(f, d, "from", d, "to"));
  CHECK(f.inner().read_file(kParent + "/to/z") == "theirs");
  CHECK(f.inner().read_file(kParent + "/from/x") == "new");
  CHECK(renames == 2);
}

TEST_CASE("staged_dir: made locked under its registry name, published by one rename") {
  mem m;
  m.mkdirs(kParent);
  auto parent = m.open_root(kParent);
  {
    pub::staged_dir<mem> st(m, parent, ".clawport-claw-AbC123");
    CHECK(st.name() == ".clawport-claw-AbC123");
    CHECK(st.intact());
    // Locked: another open of it cannot take the lock, so recover leaves it alone.
    auto other = m.open_dir_at(parent, st.name());
    CHECK_FALSE(m.try_lock(other));
    const cp::recover_report r = cp::recover(m, parent, "dest", "dest");
    CHECK(r.busy == 1);
    CHECK(r.removed == 0);
    CHECK(m.exists(kParent + "/.clawport-claw-AbC123"));
  }
  // Dropped without publishing: the staging tree is gone.
  CHECK(children(m, kParent).empty());
  CHECK(stage_and_publish(m));
  CHECK(children(m, kParent) == std::vector<std::string>{"dest"});
  CHECK(m.snapshot(kParent + "/dest") == kPublished);
}

TEST_CASE("staged_dir: a taken destination is refused, both left as they were") {
  for (const bool rename2 : {true, false}) {
    CAPTURE(rename2);
    mem m = rename2 ? mem() : mem(no_rename2());
    m.write_file(kParent + "/dest/mine", "kept");
    CHECK_FALSE(stage_and_publish(m));
    CHECK(children(m, kParent) == std::vector<std::string>{"dest"});
    CHECK(m.snapshot(kParent + "/dest") == std::map<std::string, std::string>{{"mine", "f:kept"}});
  }
}

TEST_CASE("staged_dir: a name that is not the directory it made is never removed") {
  mem m;
  m.mkdirs(kParent);
  auto parent = m.open_root(kParent);
  {
    pub::staged_dir<mem> st(m, parent, ".clawport-convert-AbC123");
    m.rename(kParent + "/.clawport-convert-AbC123", kParent + "/moved");
    m.write_file(kParent + "/.clawport-convert-AbC123/theirs", "x");
    CHECK_FALSE(st.intact());
  }
  CHECK(m.read_file(kParent + "/.clawport-convert-AbC123/theirs") == "x");
  CHECK(m.exists(kParent + "/moved"));
}

TEST_CASE("staged_dir: a name another process holds is refused and left alone") {
  mem m;
  m.mkdirs(kParent + "/.clawport-claw-AbC123");
  auto parent = m.open_root(kParent);
  // make_dir_at fails with EEXIST: nothing of the other run's directory is touched.
  CHECK_THROWS_AS(pub::staged_dir<mem>(m, parent, ".clawport-claw-AbC123"), cp::error);
  CHECK(m.exists(kParent + "/.clawport-claw-AbC123"));
}

// Issue 43 item 4: import stages through staged_dir's plan-named form (no wrapper of its
// own); mirrors import_rerun_test's leftover and busy cases at the staged_dir level.
TEST_CASE("staged_dir: the plan-named form reclaims a killed run's leftover, refuses a held one") {
  const std::string name = pub::import_staging_name("0123456789ab", "workspace");
  const std::string at = kParent + "/" + name;
  mem m;
  m.write_file(at + "/half/copied.md", "partial");  // a killed run's, unlocked
  auto parent = m.open_root(kParent);
  {
    pub::staged_dir<mem> st(m, parent, pub::plan_named{"0123456789ab", "workspace", "agents/a"});
    CHECK(st.name() == name);
    CHECK(st.reclaimed());
    CHECK(m.snapshot(at).empty());  // the leftover's content is gone, the new one is empty
    // Held: a second run of the plan is refused, naming the path, and touches nothing.
    m.write_file(at + "/mine", "x");
    try {
      pub::staged_dir<mem> other(m, parent,
                                 pub::plan_named{"0123456789ab", "workspace", "agents/a"});
      FAIL("a held staging directory was taken");
    } catch (const cp::error& e) {
      CHECK(e.code() == cp::errc::destination_refused);
      CHECK(std::string(e.what()) == "another import of this plan is running (it holds agents/a/" +
                                         name + "); nothing was written");
    }
    CHECK(m.read_file(at + "/mine") == "x");
  }
  CHECK(children(m, kParent).empty());
  {  // nothing there: made, nothing reclaimed
    pub::staged_dir<mem> st(m, parent, pub::plan_named{"0123456789ab", "workspace", ""});
    CHECK_FALSE(st.reclaimed());
  }
  // A file under the name is not an import's: refused, left as it was.
  m.write_file(at, "not mine");
  CHECK_THROWS_WITH_AS(
      pub::staged_dir<mem>(m, parent, pub::plan_named{"0123456789ab", "workspace", ""}),
      (name + " exists and is not a directory an import made; nothing was written").c_str(),
      cp::error);
  CHECK(m.read_file(at) == "not mine");
}

TEST_CASE("staged_dir: publish_entry moves one entry out and the staging tree is removed") {
  mem m;
  m.mkdirs(kParent);
  auto parent = m.open_root(kParent);
  {
    pub::staged_dir<mem> st(m, parent, ".clawport-stage-AbC123", 0700);
    m.make_dir_at(st.handle(), "lint", 0755);
    m.write_file(kParent + "/.clawport-stage-AbC123/lint/SKILL.md", "s");
    CHECK(st.publish_entry("lint", parent, "lint"));
    st.remove();
  }
  CHECK(children(m, kParent) == std::vector<std::string>{"lint"});
}

TEST_CASE("fault sweep of staged_dir: published whole, or nothing left beside it") {
  std::size_t ops = 0;
  {
    rig_fs f;
    f.inner().mkdirs(kParent);
    f.reset_counts();
    REQUIRE(stage_and_publish(f));
    ops = f.count();
  }
  REQUIRE(ops > 10);
  for (const bool rename2 : {true, false}) {
    for (std::size_t n = 1; n <= ops + 1; ++n) {
      CAPTURE(rename2);
      CAPTURE(n);
      rig_fs f = rename2 ? rig_fs() : rig_fs(no_rename2());
      f.inner().mkdirs(kParent);
      f.reset_counts();
      f.fail_at(n, EIO);
      bool ok = false;
      try {
        ok = stage_and_publish(f);
      } catch (const cp::error& e) {
        CHECK(e.sys_errno() == EIO);
      }
      const std::vector<std::string> left = children(f.inner(), kParent);
      if (ok) {
        CHECK(left == std::vector<std::string>{"dest"});
        CHECK(f.inner().snapshot(kParent + "/dest") == kPublished);
      } else {
        // Only the cleanup's own failure may leave the staging tree, under its name.
        CHECK((left.empty() || left == std::vector<std::string>{".clawport-claw-AbC123"}));
      }
    }
  }
}

TEST_CASE("crash sweep of staged_dir: absent or complete; a leftover is recover's") {
  std::size_t ops = 0;
  {
    rig_fs f;
    f.inner().mkdirs(kParent);
    f.reset_counts();
    REQUIRE(stage_and_publish(f));
    ops = f.count();
  }
  for (std::size_t n = 0; n <= ops; ++n) {
    CAPTURE(n);
    rig_fs f;
    f.inner().mkdirs(kParent);
    f.reset_counts();
    f.crash_after(n);
    try {
      (void)stage_and_publish(f);
    } catch (...) {
    }
    mem& m = f.inner();
    if (m.exists(kParent + "/dest")) CHECK(m.snapshot(kParent + "/dest") == kPublished);
    // The machine restarts: recover removes whatever the crash left beside the destination.
    auto parent = m.open_root(kParent);
    const cp::recover_report r = cp::recover(m, parent, "dest", kParent + "/dest");
    CHECK(r.ignored.empty());
    const std::vector<std::string> left = children(m, kParent);
    CHECK((left.empty() || left == std::vector<std::string>{"dest"}));
  }
}

TEST_CASE("undo_journal runs its steps newest first, each once, past a failing one") {
  std::vector<std::string> done;
  std::vector<std::string> left;
  {
    pub::undo_journal j;
    j.add("the workspace", [&] { done.push_back("workspace"); });
    j.add("the ledger", [&] { throw cp::error(cp::errc::io, "disk full", "ledger.json"); });
    j.add("the config", [&] { done.push_back("config"); });
    CHECK(j.size() == 3);
    left = j.run();
    CHECK(j.size() == 0);
  }  // already run: the destructor undoes nothing twice
  CHECK(done == std::vector<std::string>{"config", "workspace"});
  CHECK(left == std::vector<std::string>{"the ledger: disk full"});
}

TEST_CASE("undo_journal: committed, nothing is undone; dropped uncommitted, all is") {
  std::vector<std::string> done;
  {
    pub::undo_journal j;
    j.add("a", [&] { done.push_back("a"); });
    j.commit();
  }
  CHECK(done.empty());
  {
    pub::undo_journal j;
    j.add("a", [&] { done.push_back("a"); });
    j.add("b", [&] { done.push_back("b"); });
  }
  CHECK(done == std::vector<std::string>{"b", "a"});
}

TEST_CASE("every staging family is in the registry, indexed by its kind, with its grammar") {
  CHECK(std::size(pub::staging_families) == 7);
  CHECK(pub::temp_file_name(pub::staging_kind::replace, "config.toml", "AbC123") ==
        ".config.toml.tmp-AbC123");
  CHECK(pub::temp_file_name(pub::staging_kind::update, "AGENTS.md", "AbC123") ==
        ".AGENTS.md.clawport-update-AbC123");
  const auto m = pub::match_staging(".config.toml.tmp-AbC123", "config.toml");
  REQUIRE(m.family != nullptr);
  CHECK(m.family->kind == pub::staging_kind::replace);
  CHECK(m.exact);
  CHECK_FALSE(pub::match_staging(".config.toml.tmp-toolong1", "config.toml").exact);
  // A temporary file belongs to the file it replaces: beside another destination, or
  // without one, it is no family's.
  CHECK(pub::match_staging(".config.toml.tmp-AbC123", "other.toml").family == nullptr);
  CHECK(pub::match_staging(".config.toml.tmp-AbC123").family == nullptr);
  CHECK(pub::match_staging(".clawport-claw-AbC123", "config.toml").family->kind ==
        pub::staging_kind::claw);
}

TEST_CASE("recover removes a killed replace's .config.toml.tmp-<token> and keeps the rest") {
  mem m;
  m.write_file("/inst/config.toml", "a = 1\n");
  m.write_file("/inst/.config.toml.tmp-AbC123", "a = 2\n");        // a killed replace's
  m.write_file("/inst/.config.toml.tmp-toolong1", "x");            // not the grammar
  m.write_file("/inst/.openclaw.json.tmp-AbC123", "{}");           // another file's
  m.mkdirs("/inst/.config.toml.tmp-XyZ789");                       // not a file
  m.write_file("/inst/.config.toml.clawport-update-QwE456", "u");  // claw update's family
  auto parent = m.open_root("/inst");
  const cp::recover_report r = cp::recover(m, parent, "config.toml", "/inst/config.toml");
  CHECK(r.removed == 2);
  CHECK(r.removed_trees ==
        std::vector<std::string>{".config.toml.clawport-update-QwE456", ".config.toml.tmp-AbC123"});
  CHECK(r.ignored == std::vector<std::string>{".config.toml.tmp-toolong1"});
  const auto has = [&](const std::string& line) {
    return std::find(r.actions.begin(), r.actions.end(), line) != r.actions.end();
  };
  CHECK(
      has("removed the incomplete temporary file .config.toml.tmp-AbC123 (left by a command "
          "replacing the file that was killed)"));
  CHECK(has("left .config.toml.tmp-XyZ789 alone: it is not a regular file"));
  CHECK(
      has("left .config.toml.tmp-toolong1 alone: not a name a command replacing the file "
          "creates, so not recover's to touch"));
  CHECK(children(m, "/inst") ==
        std::vector<std::string>{".config.toml.tmp-XyZ789", ".config.toml.tmp-toolong1",
                                 ".openclaw.json.tmp-AbC123", "config.toml"});
  CHECK(m.read_file("/inst/config.toml") == "a = 1\n");
}

TEST_CASE("crash sweep of replace_file: config.toml old or new; recover removes the rest") {
  const auto run = [](rig_fs& f) {
    auto d = f.open_root("/inst");
    (void)pub::replace_file(f, d, "config.toml", "a = 2\n", "/inst/config.toml");
  };
  std::size_t ops = 0;
  {
    rig_fs f;
    f.inner().write_file("/inst/config.toml", "a = 1\n");
    f.reset_counts();
    run(f);
    ops = f.count();
  }
  for (std::size_t n = 0; n <= ops; ++n) {
    CAPTURE(n);
    rig_fs f;
    f.inner().write_file("/inst/config.toml", "a = 1\n");
    f.reset_counts();
    f.crash_after(n);
    try {
      run(f);
    } catch (...) {
    }
    mem& m = f.inner();
    const std::string now = m.read_file("/inst/config.toml");
    CHECK((now == "a = 1\n" || now == "a = 2\n"));
    auto parent = m.open_root("/inst");
    const cp::recover_report r = cp::recover(m, parent, "config.toml", "/inst/config.toml");
    CHECK(r.ignored.empty());
    CHECK(r.failed.empty());
    CHECK(children(m, "/inst") == std::vector<std::string>{"config.toml"});
  }
}

TEST_CASE("staged_dir: an export's is made as its creation name, locked, then renamed") {
  mem m;
  m.mkdirs(kParent);
  auto parent = m.open_root(kParent);
  {
    pub::staged_dir<mem> st(m, parent, pub::staging_kind::export_bundle, "AbC123");
    CHECK(st.name() == ".zeroclaw-export-AbC123");
    CHECK(st.intact());
    CHECK(children(m, kParent) == std::vector<std::string>{".zeroclaw-export-AbC123"});
    auto other = m.open_dir_at(parent, st.name());
    CHECK_FALSE(m.try_lock(other));  // still locked: the lock followed the inode
  }
  CHECK(children(m, kParent).empty());
}

namespace {

/// fs::memory where another process (`recover`, taking it for a dead command's) removes the
/// first staging directory made between its mkdir and its open.
struct racing : mem {
  int removed = 0;
  dir open_dir_at(const dir& d, std::string_view n) {
    if (removed == 0 && n.substr(0, 1) == ".") {
      ++removed;
      mem::remove_dir_at(d, n);
    }
    return mem::open_dir_at(d, n);
  }
};

}  // namespace

TEST_CASE(
    "staged_dir (issue 43 item 4): one protocol for every family; a directory recover "
    "took before the lock is made again under a fresh name") {
  for (const auto kind : {pub::staging_kind::export_bundle, pub::staging_kind::claw,
                          pub::staging_kind::skills, pub::staging_kind::convert}) {
    CAPTURE(static_cast<int>(kind));
    racing r;
    r.mkdirs(kParent);
    auto parent = r.open_root(kParent);
    // Before, every family but export made its directory, then opened it: the open failed
    // (ENOENT) and the command with it.
    pub::staged_dir<racing> st(r, parent, kind);
    CHECK(r.removed == 1);
    CHECK(st.intact());
    CHECK(pub::match_staging(st.name(), "dest").family == &pub::family_of(kind));
    CHECK(children(r, kParent) == std::vector<std::string>{st.name()});
  }
}

// ---- issue 43 item 4: publish::exchange_entry, the one "new in, old aside" ----------------

namespace {

/// `dest` holds the old tree, `.clawport-skills-t/new` the new one: the upgrade's layout.
template <class Fs>
void exchange_layout(Fs& fs) {
  mem& m = fs.inner();
  m.write_file(kParent + "/dest/old.txt", "old");
  m.write_file(kParent + "/.clawport-skills-t/new/new.txt", "new");
}

const std::map<std::string, std::string> kOld = {{"old.txt", "f:old"}};
const std::map<std::string, std::string> kNew = {{"new.txt", "f:new"}};

/// Swaps the new tree in; the old one's entry in the staging directory, or what threw.
template <class Fs>
std::string swap(Fs& fs) {
  auto parent = fs.open_root(kParent);
  auto stage = fs.open_dir_at(parent, ".clawport-skills-t");
  return pub::exchange_entry(fs, stage, "new", parent, "dest", "previous", [](const cp::error& e) {
    return cp::error(e.code(), std::string("stranded: ") + e.what());
  });
}

}  // namespace

TEST_CASE("exchange_entry swaps the new tree in and the old aside, with or without renameat2") {
  for (const bool rename2 : {true, false}) {
    CAPTURE(rename2);
    rig_fs f = rename2 ? rig_fs() : rig_fs(no_rename2());
    exchange_layout(f);
    const std::string aside = swap(f);
    CHECK(aside == (rename2 ? "new" : "previous"));
    CHECK(f.inner().snapshot(kParent + "/dest") == kNew);
    CHECK(f.inner().snapshot(kParent + "/.clawport-skills-t/" + aside) == kOld);
    // exchange_back undoes it whole.
    auto parent = f.open_root(kParent);
    auto stage = f.open_dir_at(parent, ".clawport-skills-t");
    pub::exchange_back(f, stage, "new", parent, "dest", aside);
    CHECK(f.inner().snapshot(kParent + "/dest") == kOld);
    CHECK(f.inner().snapshot(kParent + "/.clawport-skills-t/new") == kNew);
    CHECK(children(f.inner(), kParent + "/.clawport-skills-t") == std::vector<std::string>{"new"});
  }
}

TEST_CASE("fault sweep of exchange_entry: the old tree at dest or the new one, never neither") {
  for (const bool rename2 : {true, false}) {
    std::size_t ops = 0;
    {
      rig_fs f = rename2 ? rig_fs() : rig_fs(no_rename2());
      exchange_layout(f);
      f.reset_counts();
      (void)swap(f);
      ops = f.count();
    }
    for (std::size_t n = 1; n <= ops + 1; ++n) {
      CAPTURE(rename2);
      CAPTURE(n);
      rig_fs f = rename2 ? rig_fs() : rig_fs(no_rename2());
      exchange_layout(f);
      f.reset_counts();
      f.fail_at(n, EIO);
      bool ok = false;
      try {
        (void)swap(f);
        ok = true;
      } catch (const cp::error& e) {
        CHECK(std::string(e.what()).find("stranded") == std::string::npos);
      }
      mem& m = f.inner();
      CHECK(m.snapshot(kParent + "/dest") == (ok ? kNew : kOld));
      if (!ok) CHECK(m.snapshot(kParent + "/.clawport-skills-t/new") == kNew);
    }
  }
}

TEST_CASE("crash sweep of exchange_entry: dest holds the old tree or the new one") {
  std::size_t ops = 0;
  {
    rig_fs f(no_rename2());
    exchange_layout(f);
    f.reset_counts();
    (void)swap(f);
    ops = f.count();
  }
  for (std::size_t n = 0; n <= ops; ++n) {
    CAPTURE(n);
    rig_fs f(no_rename2());
    exchange_layout(f);
    f.reset_counts();
    f.crash_after(n);
    try {
      (void)swap(f);
    } catch (...) {
    }
    mem& m = f.inner();
    // Between the fallback's two renames dest is vacant: the old tree is then `previous` in
    // the staging directory, which recover never deletes blind (an upgrade's intent says).
    if (m.exists(kParent + "/dest")) {
      const auto s = m.snapshot(kParent + "/dest");
      CHECK((s == kOld || s == kNew));
    } else {
      CHECK(m.snapshot(kParent + "/.clawport-skills-t/previous") == kOld);
    }
  }
}

TEST_CASE("undo_journal: rename_back moves a renamed tree back, never over a taken name") {
  mem m;
  m.write_file(kParent + "/a/x", "x");
  auto d = m.open_root(kParent);
  REQUIRE(pub::rename_noreplace(m, d, "a", d, "b"));
  {
    pub::undo_journal j;
    j.add("the move", pub::rename_back(m, d, "a", d, "b"));
    CHECK(j.run_tail().empty());
  }
  CHECK(m.read_file(kParent + "/a/x") == "x");
  REQUIRE(pub::rename_noreplace(m, d, "a", d, "b"));
  m.write_file(kParent + "/a/theirs", "y");  // the old name was taken meanwhile
  pub::undo_journal j;
  j.add("the move", pub::rename_back(m, d, "a", d, "b"));
  const std::string tail = j.run_tail();
  CHECK(tail.rfind("; the move: a is taken", 0) == 0);
  CHECK(m.read_file(kParent + "/b/x") == "x");
  CHECK(m.read_file(kParent + "/a/theirs") == "y");
}
