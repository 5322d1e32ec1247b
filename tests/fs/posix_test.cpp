// SPDX-License-Identifier: MIT
// fs::posix on the real filesystem: what only a kernel can show (renameat2, flock,
// descriptor limits, copy_file_range and its fallback, symlink refusal by O_NOFOLLOW).
#include "support/test.hpp"

#include "fixture.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using clawport::errc;
using clawport::error;
namespace fs = clawport::fs;

fs::posix::dir open_root(posix_fixture& f) { return f.fs.open_root(f.root_path()); }

/// Runs `fn`, requires it to throw clawport::error, and returns that error.
template <class Fn>
error thrown(Fn&& fn) {
  try {
    fn();
  } catch (const error& e) {
    return e;
  }
  FAIL("expected clawport::error");
  return error(errc::io, "unreachable");
}

}  // namespace

static_assert(fs::check_policy<fs::posix>());
static_assert(!std::is_copy_constructible<fs::posix::dir>::value);
static_assert(!std::is_copy_constructible<fs::posix::file>::value);
static_assert(std::is_nothrow_move_constructible<fs::posix::dir>::value);

TEST_CASE("posix: open_root, classification without following links, handle identity") {
  posix_fixture f;
  f.write("file.txt", "hello");
  f.mkdir("sub");
  f.symlink("link", "sub");
  f.fifo("pipe");
  auto root = open_root(f);
  CHECK(root.native_handle() >= 0);

  auto file = f.fs.stat_at(root, "file.txt");
  REQUIRE(file);
  CHECK(file->kind == fs::file_kind::regular);
  CHECK(file->size == 5);
  CHECK(file->nlink == 1);
  CHECK(file->mode == 0644);
  CHECK(f.fs.stat_at(root, "sub")->kind == fs::file_kind::directory);
  CHECK(f.fs.stat_at(root, "link")->kind == fs::file_kind::symlink);
  CHECK(f.fs.stat_at(root, "pipe")->kind == fs::file_kind::other);
  CHECK_FALSE(f.fs.stat_at(root, "absent"));

  auto sub = f.fs.open_dir_at(root, "sub");
  CHECK(f.fs.stat(sub).id == f.fs.stat_at(root, "sub")->id);
  auto fh = f.fs.open_file_at(root, "file.txt");
  CHECK(f.fs.stat(fh).id == file->id);

  // Moving a handle transfers the descriptor; the moved-from handle owns nothing.
  auto moved = std::move(sub);
  CHECK(moved.native_handle() >= 0);
  CHECK(sub.native_handle() == -1);  // NOLINT(bugprone-use-after-move)

  CHECK(thrown([&] { f.fs.open_root("relative/path"); }).code() == errc::invalid_argument);
  CHECK(thrown([&] { f.fs.open_root(f.root_path() + "/absent"); }).code() == errc::not_found);
}

TEST_CASE("posix: symlinks are refused by O_NOFOLLOW, never followed") {
  posix_fixture f;
  f.mkdir("outside");
  f.write("outside/secret", "host bytes");
  f.mkdir("root");
  f.symlink("root/dirlink", "../outside");
  f.symlink("root/filelink", "../outside/secret");
  auto root = f.fs.open_root(f.root_path() + "/root");

  auto e1 = thrown([&] { f.fs.open_dir_at(root, "dirlink"); });
  CHECK(e1.code() == errc::io);
  CHECK(e1.sys_errno() == ELOOP);
  CHECK(std::string(e1.what()).find("symbolic link") != std::string::npos);
  CHECK(e1.subject() == "dirlink");
  auto e2 = thrown([&] { f.fs.open_file_at(root, "filelink"); });
  CHECK(e2.sys_errno() == ELOOP);
  // A regular file opened as a directory, and a missing entry.
  f.write("root/plain", "x");
  CHECK(thrown([&] { f.fs.open_dir_at(root, "plain"); }).sys_errno() == ENOTDIR);
  auto missing = thrown([&] { f.fs.open_file_at(root, "missing"); });
  CHECK(missing.code() == errc::not_found);
  CHECK(std::string(missing.what()).find("missing") != std::string::npos);
}

TEST_CASE("posix: names that are not one component are refused before any system call") {
  posix_fixture f;
  f.mkdir("inner");
  auto inner = f.fs.open_root(f.root_path() + "/inner");
  for (const char* bad : {"", ".", "..", "../escape", "a/b", "/abs"}) {
    CAPTURE(bad);
    CHECK(thrown([&] { f.fs.make_dir_at(inner, bad, 0755); }).code() == errc::unsafe_path);
    CHECK(thrown([&] { f.fs.stat_at(inner, bad); }).code() == errc::unsafe_path);
    CHECK(thrown([&] { f.fs.create_file_at(inner, bad, 0644); }).code() == errc::unsafe_path);
  }
  CHECK_FALSE(f.exists("escape"));
  CHECK(f.snapshot("inner").empty());
}

TEST_CASE("posix: create_file_at is O_EXCL and does not follow a planted link") {
  posix_fixture f;
  f.write("victim", "keep");
  f.mkdir("d");
  f.symlink("d/planted", "../victim");
  f.write("d/existing", "old");
  auto d = f.fs.open_root(f.root_path() + "/d");
  CHECK(thrown([&] { f.fs.create_file_at(d, "planted", 0644); }).sys_errno() == EEXIST);
  CHECK(thrown([&] { f.fs.create_file_at(d, "existing", 0644); }).sys_errno() == EEXIST);
  CHECK(f.read("victim") == "keep");
  CHECK(f.read("d/existing") == "old");

  auto out = f.fs.create_file_at(d, "new", 0600);
  f.fs.write_all(out, "abc", 3);
  f.fs.set_mode(out, 0755);
  CHECK(f.read("d/new") == "abc");
  CHECK(f.mode("d/new") == 0755);
  f.fs.make_dir_at(d, "made", 0755);
  CHECK(thrown([&] { f.fs.make_dir_at(d, "made", 0755); }).sys_errno() == EEXIST);
}

TEST_CASE("posix: copy_data copies every byte, large and empty files, and pseudo-files") {
  posix_fixture f;
  std::string big;
  big.reserve(3 * 1024 * 1024 + 17);
  for (std::size_t i = 0; i < 3 * 1024 * 1024 + 17; ++i) big.push_back(static_cast<char>(i * 31));
  f.write("big", big);
  f.write("empty", "");
  auto root = open_root(f);
  {
    auto in = f.fs.open_file_at(root, "big");
    auto out = f.fs.create_file_at(root, "big.copy", 0644);
    CHECK(f.fs.copy_data(in, out) == big.size());
    auto in2 = f.fs.open_file_at(root, "empty");
    auto out2 = f.fs.create_file_at(root, "empty.copy", 0644);
    CHECK(f.fs.copy_data(in2, out2) == 0);
  }
  CHECK(f.read("big.copy") == big);
  CHECK(f.read("empty.copy").empty());

  // procfs reports size 0 and copy_file_range copies nothing: the read/write loop still
  // carries the content.
  auto proc = f.fs.open_root("/proc/self");
  auto status = f.fs.open_file_at(proc, "status");
  auto out = f.fs.create_file_at(root, "status.copy", 0644);
  std::uint64_t n = f.fs.copy_data(status, out);
  CHECK(n > 0);
  CHECK(f.read("status.copy").find("Name:") != std::string::npos);
}

TEST_CASE("posix: the sized copy_data copies the size given, no more, and 0 means to the end") {
  static_assert(fs::detail::has_sized_copy_data<fs::posix>::value);
  posix_fixture f;
  std::string big(1024 * 1024 + 5, 'b');
  f.write("big", big);
  f.write("grown", "0123456789");
  auto root = open_root(f);
  {
    auto in = f.fs.open_file_at(root, "big");
    auto out = f.fs.create_file_at(root, "big.copy", 0644);
    CHECK(f.fs.copy_data(in, out, f.fs.stat(in).size) == big.size());
    // "grown" had 4 bytes when stat'ed (the caller's size); 10 now: only 4 travel.
    auto in2 = f.fs.open_file_at(root, "grown");
    auto out2 = f.fs.create_file_at(root, "grown.copy", 0644);
    CHECK(f.fs.copy_data(in2, out2, 4) == 4);
    // A size larger than the file (it shrank) stops at the end of the file.
    auto in3 = f.fs.open_file_at(root, "grown");
    auto out3 = f.fs.create_file_at(root, "shrunk.copy", 0644);
    CHECK(f.fs.copy_data(in3, out3, 100) == 10);
    // Size 0 (a pseudo-file reports none): read to the end.
    auto proc = f.fs.open_root("/proc/self");
    auto status = f.fs.open_file_at(proc, "status");
    auto out4 = f.fs.create_file_at(root, "status.copy", 0644);
    CHECK(f.fs.copy_data(status, out4, 0) > 0);
  }
  CHECK(f.read("big.copy") == big);
  CHECK(f.read("grown.copy") == "0123");
  CHECK(f.read("shrunk.copy") == "0123456789");
  CHECK(f.read("status.copy").find("Name:") != std::string::npos);
}

TEST_CASE(
    "posix: a FIFO opened by open_file_at does not block the open, and read still waits "
    "for data instead of failing with EAGAIN") {
  posix_fixture f;
  const std::string fifo = f.root_path() + "/pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto root = open_root(f);
  auto in = f.fs.open_file_at(root, "pipe");  // no writer yet: O_NONBLOCK keeps this from hanging
  CHECK(f.fs.stat(in).kind == fs::file_kind::other);
  const int w = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  REQUIRE(w >= 0);
  // A writer that is present but has written nothing yet: the read blocks until it does.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::usleep(100 * 1000);
    const ssize_t put = ::write(w, "late", 4);
    ::_exit(put == 4 ? 0 : 1);
  }
  char buf[16] = {};
  const std::size_t n = f.fs.read(in, buf, sizeof buf);
  ::close(w);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(n == 4);
  CHECK(std::string(buf, n) == "late");
}

TEST_CASE("posix: for_each_entry streams names without . and .., and is_empty") {
  posix_fixture f;
  f.mkdir("d/sub");
  f.write("d/a", "1");
  f.symlink("d/l", "nowhere");
  auto d = f.fs.open_root(f.root_path() + "/d");
  std::vector<std::string> names;
  f.fs.for_each_entry(d, [&](std::string_view n) { names.emplace_back(n); });
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"a", "l", "sub"});
  // A second pass over the same handle sees the same entries (the handle's offset is
  // not consumed).
  std::size_t again = 0;
  f.fs.for_each_entry(d, [&](std::string_view) { ++again; });
  CHECK(again == 3);
  CHECK_FALSE(f.fs.is_empty(d));
  CHECK(f.fs.is_empty(f.fs.open_dir_at(d, "sub")));
}

TEST_CASE("posix: remove_tree_at deletes through handles and never follows a symlink") {
  posix_fixture f;
  f.mkdir("outside/keep");
  f.write("outside/keep/file", "host");
  f.mkdir("victim/a/b/c");
  f.write("victim/a/b/c/deep", "x");
  f.write("victim/top", "y");
  f.symlink("victim/a/escape", "../../outside");
  f.symlink("victim/a/b/abs", f.root_path() + "/outside/keep");
  f.fifo("victim/a/pipe");
  auto root = open_root(f);
  f.fs.remove_tree_at(root, "victim");
  CHECK_FALSE(f.exists("victim"));
  CHECK(f.read("outside/keep/file") == "host");

  // A name that is itself a symlink to a directory: the link goes, the target stays.
  f.symlink("link", "outside");
  f.fs.remove_tree_at(root, "link");
  CHECK_FALSE(f.exists("link"));
  CHECK(f.exists("outside/keep/file"));
  // A plain file, and a missing name.
  f.write("plain", "z");
  f.fs.remove_tree_at(root, "plain");
  CHECK_FALSE(f.exists("plain"));
  CHECK(thrown([&] { f.fs.remove_tree_at(root, "plain"); }).code() == errc::not_found);

  // Deeper than any sensible recursion: an explicit stack, one descriptor per level.
  std::string deep = "deep";
  for (int i = 0; i < 300; ++i) deep += "/d";
  f.mkdir(deep);
  f.fs.remove_tree_at(root, "deep");
  CHECK_FALSE(f.exists("deep"));
}

// Issue 44 item 1: `export --force` counts the previous bundle's removal on its progress
// line; no total (that would take a second walk).
TEST_CASE("posix: remove_tree_at counts every entry it removes, and fs::remove_tree routes to it") {
  posix_fixture f;
  f.mkdir("victim/a/b");
  for (int i = 0; i < 40; ++i) f.write("victim/a/f" + std::to_string(i), "x");
  f.write("victim/a/b/deep", "y");
  f.symlink("victim/a/b/link", "../../..");
  auto root = open_root(f);
  std::vector<std::uint64_t> told;
  fs::remove_tree(f.fs, root, "victim", [&](std::uint64_t n) { told.push_back(n); });
  CHECK_FALSE(f.exists("victim"));
  // victim, a, b, 40 files, deep, link: each told once, in order, the last one the whole.
  REQUIRE(told.size() == 45);
  for (std::size_t i = 0; i < told.size(); ++i) CHECK(told[i] == i + 1);
  // A leaf is one entry; an empty callback is the plain removal.
  f.write("plain", "z");
  told.clear();
  f.fs.remove_tree_at(root, "plain", [&](std::uint64_t n) { told.push_back(n); });
  CHECK(told == std::vector<std::uint64_t>{1});
  f.mkdir("quiet/x");
  fs::remove_tree(f.fs, root, "quiet", fs::removal_progress{});
  CHECK_FALSE(f.exists("quiet"));
  // A backend without the counting form removes the tree and tells nothing.
  fs::memory mem;
  auto mroot = mem.open_root("/");
  mem.make_dir_at(mroot, "t", 0755);
  bool called = false;
  fs::remove_tree(mem, mroot, "t", [&](std::uint64_t) { called = true; });
  CHECK_FALSE(mem.stat_at(mroot, "t"));
  CHECK_FALSE(called);
}

TEST_CASE("posix: unlink_at and remove_dir_at") {
  posix_fixture f;
  f.write("file", "x");
  f.mkdir("full/inner");
  f.mkdir("empty");
  auto root = open_root(f);
  f.fs.unlink_at(root, "file");
  CHECK_FALSE(f.exists("file"));
  CHECK(thrown([&] { f.fs.remove_dir_at(root, "full"); }).sys_errno() == ENOTEMPTY);
  CHECK(f.exists("full/inner"));
  f.fs.remove_dir_at(root, "empty");
  CHECK_FALSE(f.exists("empty"));
}

TEST_CASE("posix: rename_at NOREPLACE refuses an existing target and EXCHANGE swaps") {
  posix_fixture f;
  f.mkdir("a");
  f.write("a/one", "1");
  f.mkdir("b");
  f.write("b/two", "2");
  auto root = open_root(f);
  try {
    auto r = f.fs.rename_at(root, "a", root, "b", fs::rename_mode::noreplace);
    if (r == fs::rename_result::unsupported) {
      MESSAGE("renameat2 unsupported here; skipped");
      return;
    }
    FAIL("NOREPLACE replaced an existing directory");
  } catch (const error& e) {
    CHECK(e.sys_errno() == EEXIST);
  }
  CHECK(f.read("a/one") == "1");
  CHECK(f.read("b/two") == "2");

  CHECK(f.fs.rename_at(root, "a", root, "c", fs::rename_mode::noreplace) ==
        fs::rename_result::done);
  CHECK(f.read("c/one") == "1");
  CHECK(f.fs.rename_at(root, "b", root, "c", fs::rename_mode::exchange) == fs::rename_result::done);
  CHECK(f.read("c/two") == "2");
  CHECK(f.read("b/one") == "1");
  f.mkdir("e");
  CHECK(f.fs.rename_at(root, "b", root, "e", fs::rename_mode::replace) == fs::rename_result::done);
  CHECK_FALSE(f.exists("b"));
  CHECK(f.read("e/one") == "1");
  // EXCHANGE needs both names.
  CHECK(thrown([&] {
          f.fs.rename_at(root, "c", root, "absent", fs::rename_mode::exchange);
        }).sys_errno() == ENOENT);
}

TEST_CASE("posix: try_lock is an exclusive flock held until the handle closes") {
  posix_fixture f;
  f.mkdir("locked");
  auto first = f.fs.open_root(f.root_path() + "/locked");
  CHECK(f.fs.try_lock(first));
  {
    auto second = f.fs.open_root(f.root_path() + "/locked");
    CHECK_FALSE(f.fs.try_lock(second));
  }
  { auto gone = std::move(first); }
  auto third = f.fs.open_root(f.root_path() + "/locked");
  CHECK(f.fs.try_lock(third));
}

TEST_CASE("posix: sync_filesystem and sync_dir succeed on an open directory") {
  posix_fixture f;
  auto root = open_root(f);
  f.fs.sync_dir(root);
  f.fs.sync_filesystem(root);
}

TEST_CASE("posix: a name longer than the filesystem allows is errc::limit_exceeded") {
  posix_fixture f;
  auto root = open_root(f);
  std::string longname(300, 'n');
  auto e = thrown([&] { f.fs.stat_at(root, longname); });
  CHECK(e.code() == errc::limit_exceeded);
  CHECK(e.sys_errno() == ENAMETOOLONG);
  CHECK(std::string(e.what()).find("longer than this filesystem allows") != std::string::npos);
  CHECK(thrown([&] { f.fs.make_dir_at(root, longname, 0755); }).code() == errc::limit_exceeded);
}

TEST_CASE("posix: running out of descriptors is errc::limit_exceeded (EMFILE)") {
  posix_fixture f;
  f.mkdir("d");
  auto root = open_root(f);
  struct rlimit old {};
  REQUIRE(::getrlimit(RLIMIT_NOFILE, &old) == 0);
  std::vector<fs::posix::dir> held;
  error caught(errc::io, "none");
  bool got = false;
  {
    struct rlimit low = old;
    low.rlim_cur = 64;
    REQUIRE(::setrlimit(RLIMIT_NOFILE, &low) == 0);
    try {
      for (int i = 0; i < 200; ++i) held.push_back(f.fs.open_dir_at(root, "d"));
    } catch (const error& e) {
      caught = e;
      got = true;
    }
    held.clear();
    REQUIRE(::setrlimit(RLIMIT_NOFILE, &old) == 0);
  }
  REQUIRE(got);
  CHECK(caught.code() == errc::limit_exceeded);
  CHECK(caught.sys_errno() == EMFILE);
  CHECK(std::string(caught.what()).find("too many open files") != std::string::npos);
}

// ---- posix-only behaviour of the algorithms ------------------------------------------

namespace {

fs::copy_tally copy_ws(posix_fixture& f) {
  f.mkdir("stage/workspace");
  auto src = f.fs.open_root(f.root_path() + "/ws");
  auto dst = f.fs.open_root(f.root_path() + "/stage/workspace");
  fs::copy_tally t;
  fs::copy_tree(f.fs, src, dst, clawport::testing::workspace_copy_spec(), t);
  return t;
}

/// chmod 000 does not stop root; such tests say so and stop.
bool permissions_enforced() {
  if (::geteuid() != 0) return true;
  MESSAGE("running as root: mode 000 does not block access, so this check is skipped");
  return false;
}

}  // namespace

TEST_CASE("posix: copy_counts_special_files_it_skips (a real socket)") {
  posix_fixture f;
  f.write("ws/IDENTITY.md", "id");
  f.mkdir("ws/run");
  const std::string path = f.root_path() + "/ws/run/agent.sock";
  int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(s >= 0);
  struct sockaddr_un addr {};
  addr.sun_family = AF_UNIX;
  REQUIRE(path.size() < sizeof(addr.sun_path));
  std::copy(path.begin(), path.end(), addr.sun_path);
  REQUIRE(::bind(s, reinterpret_cast<struct sockaddr*>(&addr), sizeof(addr)) == 0);
  auto t = copy_ws(f);
  ::close(s);
  CHECK(t.files == 1);
  CHECK(t.others_skipped == 1);
  CHECK(t.symlinks_skipped == 0);
  CHECK_FALSE(f.exists("stage/workspace/run/agent.sock"));
}

TEST_CASE("posix: running out of descriptors mid-copy is a clear limit error, not a crash") {
  posix_fixture f;
  std::string deep = "ws";
  for (int i = 0; i < 40; ++i) deep += "/d";
  f.write(deep + "/leaf", "x");
  const auto before = f.snapshot("ws");
  f.mkdir("stage/workspace");
  auto src = f.fs.open_root(f.root_path() + "/ws");
  auto dst = f.fs.open_root(f.root_path() + "/stage/workspace");
  struct rlimit old {};
  REQUIRE(::getrlimit(RLIMIT_NOFILE, &old) == 0);
  struct rlimit low = old;
  low.rlim_cur = 64;  // three descriptors per level: 40 levels do not fit
  REQUIRE(::setrlimit(RLIMIT_NOFILE, &low) == 0);
  bool threw = false;
  try {
    fs::copy_tally t;
    fs::copy_tree(f.fs, src, dst, clawport::testing::workspace_copy_spec(), t);
  } catch (const error& e) {
    threw = true;
    ::setrlimit(RLIMIT_NOFILE, &old);
    CHECK(e.code() == errc::limit_exceeded);
    CHECK(e.sys_errno() == EMFILE);
    CHECK(e.subject().rfind("workspace/d/d", 0) == 0);
    CHECK(std::string(e.what()).find("too many open files") != std::string::npos);
  }
  ::setrlimit(RLIMIT_NOFILE, &old);
  CHECK(threw);
  CHECK(f.snapshot("ws") == before);
}

TEST_CASE("posix: an unreadable file fails the copy (a_failed_export_removes_its_staging...)") {
  if (!permissions_enforced()) return;
  posix_fixture f;
  f.write("ws/IDENTITY.md", "id");
  f.write("ws/locked.md", "secret", 0000);
  try {
    copy_ws(f);
    FAIL("an unreadable file was skipped");
  } catch (const error& e) {
    CHECK(std::string(e.what()).find("failed to open workspace/locked.md") != std::string::npos);
    CHECK(e.sys_errno() == EACCES);
  }
}

TEST_CASE("posix: an_unreadable_workspace_ancestor_fails_the_export_instead_of_publishing") {
  if (!permissions_enforced()) return;
  posix_fixture f;
  f.mkdir("install/agents/researcher/workspace");
  f.chmod("install/agents", 0000);
  try {
    fs::open_anchored_root(f.fs, f.root_path() + "/install", "agents/researcher/workspace",
                           "agents");
    FAIL("an unreadable ancestor was treated as absent");
  } catch (const error& e) {
    CHECK(std::string(e.what()).find("agents") != std::string::npos);
  }
  f.chmod("install/agents", 0755);
}

TEST_CASE("posix: an_unreadable_configured_workspace_parent_fails_the_export") {
  if (!permissions_enforced()) return;
  posix_fixture f;
  f.mkdir("holder/workspace");
  f.chmod("holder", 0000);
  try {
    fs::open_configured_root(f.fs, f.root_path() + "/holder/workspace", "workspace.path");
    FAIL("an unreadable parent was treated as absent");
  } catch (const error& e) {
    const std::string what = e.what();
    CHECK(
        (what.find("holder") != std::string::npos || what.find("workspace") != std::string::npos));
  }
  f.chmod("holder", 0755);
}

TEST_CASE(
    "posix: racing<posix> and faulty<posix&> stage a real symlink swap between classify "
    "and open") {
  posix_fixture f;
  f.write("outside/secret", "host bytes");
  f.write("ws/notes.md", "mine");
  fs::faulty<fs::posix&> faulty(f.fs);
  faulty.before_open([&](fs::posix&, const fs::posix::dir&, std::string_view name) {
    if (name != "notes.md") return;
    f.remove("ws/notes.md");
    f.symlink("ws/notes.md", "../outside/secret");
  });
  f.mkdir("stage/workspace");
  auto src = f.fs.open_root(f.root_path() + "/ws");
  auto dst = f.fs.open_root(f.root_path() + "/stage/workspace");
  fs::copy_tally t;
  try {
    fs::copy_tree(faulty, src, dst, clawport::testing::workspace_copy_spec(), t);
    FAIL("the swapped symlink was followed");
  } catch (const error& e) {
    CHECK(std::string(e.what()).find("failed to open workspace/notes.md") != std::string::npos);
    CHECK(e.sys_errno() == ELOOP);
  }
  CHECK(f.snapshot("stage").count("workspace/notes.md") == 0);
}
