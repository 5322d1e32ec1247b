// SPDX-License-Identifier: MIT
// The kernel helpers of issue 43: fs::open_path (the one descent down a relative path
// through handles), fs::write_new_file (the one create-only write) and fs::temp_dir (the
// one private temporary directory). Real files through fs::posix, and fs::faulty<memory>
// for the failures a disk cannot be made to give on demand.
#include "fixture.hpp"

#include <cerrno>
#include <string>
#include <vector>

namespace {

namespace cp = clawport;
namespace fs = clawport::fs;
using fixture = cp::testing::posix_fixture;

cp::error open_refusal(fixture& f, const std::string& rel, bool create = false) {
  auto root = f.fs.open_root(f.root_path());
  try {
    (void)fs::open_path(f.fs, root, rel, create, "ROOT");
  } catch (const cp::error& e) {
    return e;
  }
  FAIL("open_path opened " << rel);
  return cp::error(cp::errc::io, "unreachable");
}

}  // namespace

TEST_CASE("open_path descends through real directories and makes what is missing") {
  fixture f;
  f.mkdir("a/b");
  auto root = f.fs.open_root(f.root_path());
  const fs::path_result<fs::posix> got = fs::open_path(f.fs, root, "a/b");
  REQUIRE(got.dir);
  CHECK(f.fs.stat(*got.dir).id == f.fs.stat_at(f.fs.open_root(f.root_path() + "/a"), "b")->id);
  // The empty path is the root itself.
  const fs::path_result<fs::posix> self = fs::open_path(f.fs, root, "");
  CHECK_FALSE(self.dir);
  CHECK(&self.get(root) == &root);
  // create: each missing directory made, reported outermost first, the existing one not.
  std::vector<std::string> made;
  (void)fs::open_path(f.fs, root, "a/c/d", true, {},
                      [&](const std::string& rel) { made.push_back(rel); });
  CHECK(made == std::vector<std::string>{"a/c", "a/c/d"});
  CHECK(f.snapshot("a/c") == std::map<std::string, std::string>{{"d", "d"}});
}

TEST_CASE("open_path refuses .., ., empty components and absolute paths before opening") {
  fixture f;
  f.mkdir("a");
  for (const std::string rel : {"../a", "a/..", "a/./b", "a//b", "/a", "a/"}) {
    const cp::error e = open_refusal(f, rel, true);
    CHECK(e.code() == cp::errc::unsafe_path);
    CHECK(e.subject() == (rel.front() == '/' ? rel : "ROOT/" + rel));
  }
  CHECK(f.snapshot("") == std::map<std::string, std::string>{{"a", "d"}});  // nothing made
}

TEST_CASE("open_path never follows a symlink on the way, nor creates through one") {
  fixture f;
  f.mkdir("real/x");
  f.symlink("link", "real");
  const cp::error e = open_refusal(f, "link/x");
  CHECK(e.code() == cp::errc::unsafe_path);
  CHECK(e.subject() == "ROOT/link");
  CHECK(std::string(e.what()).find("symbolic link") != std::string::npos);
  const cp::error c = open_refusal(f, "link/new", true);
  CHECK(c.code() == cp::errc::unsafe_path);
  CHECK_FALSE(f.exists("real/new"));
  // A file on the way is not a directory; a missing one without `create` is not_found.
  f.write("file", "x");
  CHECK(open_refusal(f, "file/y").code() == cp::errc::unsafe_path);
  const cp::error m = open_refusal(f, "real/none/z");
  CHECK(m.code() == cp::errc::not_found);
  CHECK(m.subject() == "ROOT/real/none");
  // try_open_path says the same without throwing.
  auto root = f.fs.open_root(f.root_path());
  const fs::path_result<fs::posix> r = fs::try_open_path(f.fs, root, "link/x");
  CHECK(r.refusal == fs::path_refusal::symlink);
  CHECK(r.at == "link");
  CHECK_FALSE(r.dir);
}

TEST_CASE("open_path: a backend failure names the path it was opening") {
  fs::faulty<fs::memory> disk;
  disk.inner().mkdirs("/t/a/b");
  auto root = disk.open_root("/t");
  disk.fail_at("open_dir_at", 2, EACCES);
  try {
    (void)fs::open_path(disk, root, "a/b", false, "/t");
    FAIL("opened");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::io);
    CHECK(e.sys_errno() == EACCES);
    CHECK(e.subject() == "/t/a/b");
    CHECK(std::string(e.what()).rfind("failed to open /t/a/b: ", 0) == 0);
  }
}

TEST_CASE("write_new_file: create-only, never through a link, a half-written file removed") {
  fixture f;
  f.write("taken", "old");
  f.write("target", "t");
  f.symlink("link", "target");
  auto root = f.fs.open_root(f.root_path());
  (void)fs::write_new_file(f.fs, root, "new", "bytes", fs::modes::file);
  CHECK(f.read("new") == "bytes");
  for (const char* name : {"taken", "link"}) {
    try {
      (void)fs::write_new_file(f.fs, root, name, "x", fs::modes::file);
      FAIL("wrote over " << name);
    } catch (const cp::error& e) {
      CHECK(e.sys_errno() == EEXIST);
    }
  }
  CHECK(f.read("taken") == "old");
  CHECK(f.read("target") == "t");
  // The write fails after the create: the file does not stay, half-written.
  fs::faulty<fs::memory> disk;
  disk.inner().mkdirs("/t");
  auto t = disk.open_root("/t");
  disk.fail_at("write_all", 1, ENOSPC);
  CHECK_THROWS_AS(fs::write_new_file(disk, t, "f", "bytes", fs::modes::file), cp::error);
  CHECK_FALSE(disk.inner().exists("/t/f"));
}

TEST_CASE("temp_dir: a private directory under the root holding put files, removed at end") {
  fixture f;
  std::string path;
  {
    fs::temp_dir<fs::posix> t(f.fs, f.root_path(), "clawport-sign.");
    path = t.path();
    CHECK(path.rfind(f.root_path() + "/clawport-sign.", 0) == 0);
    CHECK(path.size() == (f.root_path() + "/clawport-sign.").size() + 6);
    const std::string data = t.put("data", "signed bytes");
    CHECK(data == path + "/data");
    const std::string rel = path.substr(f.root_path().size() + 1);
    CHECK(f.read(rel + "/data") == "signed bytes");
    CHECK((f.mode(rel) & 07777) == 0700);
    CHECK((f.mode(rel + "/data") & 0077) == 0);
    CHECK_THROWS_AS(t.put("data", "again"), cp::error);  // create-only
  }
  CHECK(f.snapshot("").empty());
}
