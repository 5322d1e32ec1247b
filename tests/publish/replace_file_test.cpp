// SPDX-License-Identifier: MIT
// publish::replace_file, the one atomic replace of a file the tool edits in place (issue 22
// items 5 and 6): the file keeps its mode and owner, nothing but the file changes, and a
// symlink or a hard-linked file is refused before anything is written. Real files.
#include "fs/fixture.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <string>

namespace {

namespace cp = clawport;
namespace pub = clawport::publish;
using fixture = cp::testing::posix_fixture;

cp::error refusal(fixture& f, const std::string& name) {
  auto d = f.fs.open_root(f.root_path());
  try {
    (void)pub::replace_file(f.fs, d, name, "new\n", f.root_path() + "/" + name);
  } catch (const cp::error& e) {
    return e;
  }
  FAIL("replace_file replaced " << name);
  return cp::error(cp::errc::io, "unreachable");
}

}  // namespace

TEST_CASE("replace_file keeps a 0600 file at 0600 and leaves nothing beside it") {
  fixture f;
  f.write("openclaw.json", "{}\n", 0600);
  f.write("other", "kept\n", 0644);
  auto d = f.fs.open_root(f.root_path());
  const pub::replace_result r = pub::replace_file(f.fs, d, "openclaw.json", "{\"a\":1}\n", "x");
  CHECK_FALSE(r.created);
  CHECK(f.mode("openclaw.json") == 0600);
  CHECK(f.snapshot() == std::map<std::string, std::string>{{"openclaw.json", "f:{\"a\":1}\n"},
                                                           {"other", "f:kept\n"}});
  // A new file gets new_mode through the umask, as a create does.
  pub::replace_options o;
  o.new_mode = 0600;
  CHECK(pub::replace_file(f.fs, d, "ledger.json", "{}\n", "y", o).created);
  CHECK(f.mode("ledger.json") == 0600);
}

TEST_CASE("replace_file keeps the owner and group of a file it replaces") {
  if (::geteuid() != 0) return;  // only root can give a file to another user
  fixture f;
  f.write("config.toml", "a = 1\n", 0640);
  const std::string path = f.root_path() + "/config.toml";
  REQUIRE(::chown(path.c_str(), 4321, 4322) == 0);
  auto d = f.fs.open_root(f.root_path());
  (void)pub::replace_file(f.fs, d, "config.toml", "a = 2\n", path);
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK(st.st_uid == 4321);
  CHECK(st.st_gid == 4322);
  CHECK((st.st_mode & 07777) == 0640);
  CHECK(f.read("config.toml") == "a = 2\n");
}

TEST_CASE("issue 41 item 8: new files and trees take the owner of the install's config") {
  if (::geteuid() != 0) return;  // only root can give a file to another user
  fixture f;
  f.write("config.toml", "a = 1\n", 0640);
  const std::string path = f.root_path() + "/config.toml";
  REQUIRE(::chown(path.c_str(), 12345, 12346) == 0);
  auto d = f.fs.open_root(f.root_path());
  const auto config = f.fs.stat_at(d, "config.toml");
  REQUIRE(config);
  const auto owned = [&](const std::string& rel) {
    struct stat st {};
    REQUIRE(::lstat((f.root_path() + "/" + rel).c_str(), &st) == 0);
    return st.st_uid == 12345 && st.st_gid == 12346;
  };
  // A new ledger (replace_options::new_owner), a new key (create_owned_file, mode exact).
  pub::replace_options o;
  o.new_owner = config;
  CHECK(pub::replace_file(f.fs, d, "ledger.json", "{}\n", "ledger.json", o).created);
  CHECK(owned("ledger.json"));
  pub::create_owned_file(f.fs, d, ".secret_key", "00\n", 0600, *config, path);
  CHECK(owned(".secret_key"));
  CHECK(f.mode(".secret_key") == 0600);
  // A new tree: every directory and file below it (fs::give_tree, on the one walk).
  f.write("tree/a/b/file", "x", 0644);
  f.write("tree/top", "y", 0600);
  cp::fs::give_tree(f.fs, f.fs.open_dir_at(d, "tree"), *config, path);
  for (const char* rel : {"tree", "tree/a", "tree/a/b", "tree/a/b/file", "tree/top"})
    CHECK_MESSAGE(owned(rel), rel);
  CHECK(f.mode("tree/top") == 0600);
}

TEST_CASE("replace_file refuses a hard-linked file: both names keep the old bytes") {
  fixture f;
  f.write("config.toml", "old\n", 0600);
  f.hardlink("config.toml", "dotfiles-config.toml");
  const auto before = f.snapshot();
  const cp::error e = refusal(f, "config.toml");
  CHECK(e.code() == cp::errc::unsafe_path);
  CHECK(e.subject() == f.root_path() + "/config.toml");
  CHECK(std::string(e.what()).find("2 hard links") != std::string::npos);
  CHECK(f.snapshot() == before);  // nothing written, no temporary, no split
}

TEST_CASE("replace_file refuses a symlink and a non-regular file, writing nothing") {
  fixture f;
  f.write("real.json", "old\n");
  f.symlink("link.json", "real.json");
  f.fifo("pipe.json");
  const auto before = f.snapshot();
  CHECK(refusal(f, "link.json").code() == cp::errc::unsafe_path);
  CHECK(refusal(f, "pipe.json").code() == cp::errc::unsafe_path);
  CHECK(f.snapshot() == before);
}

TEST_CASE("replace_file refuses a file replaced since the caller read it") {
  fixture f;
  f.write("config.toml", "old\n");
  auto d = f.fs.open_root(f.root_path());
  pub::replace_options o;
  o.expect = f.fs.stat_at(d, "config.toml");
  f.write("config.toml", "changed meanwhile\n");
  o.backup = "config.toml.bak";
  o.previous = "old\n";
  CHECK_THROWS_AS(pub::replace_file(f.fs, d, "config.toml", "new\n", "c", o), cp::error);
  CHECK(f.snapshot() ==
        std::map<std::string, std::string>{{"config.toml", "f:changed meanwhile\n"}});
}
