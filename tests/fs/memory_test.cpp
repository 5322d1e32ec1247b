// SPDX-License-Identifier: MIT
// fs::memory: the Linux semantics it models, errno by errno.
#include "support/test.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

#include "fixture.hpp"

namespace {

using clawport::errc;
using clawport::error;
using clawport::fs::file_kind;
using clawport::fs::memory;
using clawport::fs::rename_mode;
using clawport::fs::rename_result;

// Runs `f`, which must throw clawport::error with `err`; returns the error.
template <class F>
error errno_of(F&& f, int err) {
  try {
    f();
  } catch (const error& e) {
    CHECK(e.sys_errno() == err);
    return e;
  }
  FAIL("expected an error with errno " << err);
  return error(errc::io, "unreachable");
}

std::string read_all(memory& m, memory::file& f) {
  std::string out;
  char buf[3];
  for (std::size_t n; (n = m.read(f, buf, sizeof buf)) != 0;) out.append(buf, n);
  return out;
}

}  // namespace

TEST_CASE("memory: policy model and helpers build a tree") {
  static_assert(clawport::fs::check_policy<memory>());
  memory m;
  m.mkdirs("/a/b/c", 0700);
  m.write_file("/a/f.txt", "hello", 0755);
  m.symlink("/a/l", "f.txt");
  m.mkfifo("/a/p");
  m.hard_link("/a/f.txt", "/a/b/h");
  CHECK(m.snapshot("/a") == std::map<std::string, std::string>{{"b", "d"},
                                                               {"b/c", "d"},
                                                               {"b/h", "f:hello+x"},
                                                               {"f.txt", "f:hello+x"},
                                                               {"l", "l:f.txt"},
                                                               {"p", "o"}});
  CHECK(m.read_file("/a/l") == "hello");
  CHECK(m.read_link("/a/l") == "f.txt");
  CHECK(m.lstat("/a/l")->kind == file_kind::symlink);
  CHECK(m.stat_path("/a/l")->kind == file_kind::regular);
  CHECK(m.lstat("/a/b/c")->mode == 0700);
  CHECK_FALSE(m.lstat("/a/missing"));
  CHECK_FALSE(m.lstat("/a/f.txt/x"));
  CHECK(m.lstat("/a/p")->kind == file_kind::other);
  CHECK(m.remove("/a/b"));
  CHECK_FALSE(m.remove("/a/b"));
  CHECK(m.lstat("/a/f.txt")->nlink == 1);
}

TEST_CASE("memory: open_root follows symlinks and reports ENOENT, ENOTDIR, ELOOP") {
  memory m;
  m.mkdirs("/real/inner");
  m.symlink("/alias", "real");
  m.symlink("/real/up", "../real/inner");
  m.write_file("/real/file", "x");
  m.symlink("/loop1", "loop2");
  m.symlink("/loop2", "loop1");
  auto a = m.open_root("/alias/up");
  auto b = m.open_root("/real/./inner/");
  CHECK(m.stat(a).id == m.stat(b).id);
  CHECK(m.stat(m.open_root("/..")).id == m.stat(m.open_root("/")).id);
  auto e1 = errno_of([&] { m.open_root("/nope"); }, ENOENT);
  CHECK(e1.code() == errc::not_found);
  CHECK(e1.subject() == "/nope");
  CHECK(std::string(e1.what()) == "cannot open /nope: No such file or directory");
  CHECK(errno_of([&] { m.open_root("/real/file"); }, ENOTDIR).code() == errc::io);
  CHECK(errno_of([&] { m.open_root("/real/file/x"); }, ENOTDIR).code() == errc::io);
  CHECK(errno_of([&] { m.open_root("/loop1"); }, ELOOP).code() == errc::limit_exceeded);
  CHECK_THROWS_AS(m.open_root("relative"), error);
  m.settings().max_path_length = 10;
  CHECK(errno_of([&] { m.open_root("/real/inner/x"); }, ENAMETOOLONG).code() ==
        errc::limit_exceeded);
}

TEST_CASE("memory: classify, open and errno like openat(O_NOFOLLOW)") {
  memory m;
  m.mkdirs("/r/d");
  m.write_file("/r/f", "content");
  m.symlink("/r/lf", "f");
  m.symlink("/r/ld", "d");
  m.symlink("/r/dangling", "nowhere");
  m.mkfifo("/r/p");
  auto r = m.open_root("/r");

  CHECK_FALSE(m.stat_at(r, "missing"));
  CHECK(m.stat_at(r, "lf")->kind == file_kind::symlink);
  CHECK(m.stat_at(r, "ld")->kind == file_kind::symlink);
  CHECK(m.stat_at(r, "f")->size == 7);
  CHECK(m.stat_at(r, "p")->kind == file_kind::other);

  SUBCASE("open_file_at refuses a symlink with ELOOP, dangling or not") {
    CHECK(errno_of([&] { m.open_file_at(r, "lf"); }, ELOOP).code() == errc::io);
    errno_of([&] { m.open_file_at(r, "dangling"); }, ELOOP);
    CHECK(errno_of([&] { m.open_file_at(r, "missing"); }, ENOENT).code() == errc::not_found);
  }
  SUBCASE("open_dir_at refuses a symlink with ELOOP and a non-directory with ENOTDIR") {
    // Linux itself says ENOTDIR for the symlink; fs::posix re-classifies it as ELOOP.
    CHECK(errno_of([&] { m.open_dir_at(r, "ld"); }, ELOOP).code() == errc::io);
    errno_of([&] { m.open_dir_at(r, "f"); }, ENOTDIR);
    errno_of([&] { m.open_dir_at(r, "p"); }, ENOTDIR);
    errno_of([&] { m.open_dir_at(r, "missing"); }, ENOENT);
  }
  SUBCASE("open_file_at opens a directory and a FIFO; fstat tells them apart") {
    auto fd = m.open_file_at(r, "d");
    CHECK(m.stat(fd).kind == file_kind::directory);
    char c;
    errno_of([&] { m.read(fd, &c, 1); }, EISDIR);
    auto fp = m.open_file_at(r, "p");
    CHECK(m.stat(fp).kind == file_kind::other);
    CHECK(m.read(fp, &c, 1) == 0);
  }
  SUBCASE("the classified identity is the opened one") {
    auto f = m.open_file_at(r, "f");
    CHECK(m.stat(f).id == m.stat_at(r, "f")->id);
    CHECK(m.stat(f).id.dev == 1);
    CHECK(read_all(m, f) == "content");
    errno_of([&] { m.write_all(f, "x", 1); }, EBADF);
  }
  SUBCASE("names are single components") {
    CHECK(errno_of([&] { m.stat_at(r, "a/b"); }, 0).code() == errc::unsafe_path);
    CHECK(errno_of([&] { m.stat_at(r, ".."); }, 0).code() == errc::unsafe_path);
    CHECK(errno_of([&] { m.open_dir_at(r, "."); }, 0).code() == errc::unsafe_path);
    CHECK(errno_of([&] { m.stat_at(r, ""); }, 0).code() == errc::unsafe_path);
    CHECK(errno_of([&] { m.create_file_at(r, std::string("a\0b", 3), 0644); }, 0).code() ==
          errc::unsafe_path);
  }
}

TEST_CASE("memory: creation through handles, O_EXCL, umask and modes") {
  memory m;
  m.mkdirs("/r");
  m.symlink("/r/dangling", "nowhere");
  auto r = m.open_root("/r");
  m.make_dir_at(r, "d", 0777);
  CHECK(m.stat_at(r, "d")->mode == 0755);  // umask 022
  errno_of([&] { m.make_dir_at(r, "d", 0755); }, EEXIST);
  errno_of([&] { m.make_dir_at(r, "dangling", 0755); }, EEXIST);
  {
    auto f = m.create_file_at(r, "new", 0666);
    CHECK(m.stat(f).mode == 0644);
    m.write_all(f, "abc", 3);
    m.write_all(f, "de", 2);
    m.set_mode(f, 0750);
    errno_of([&] { m.read(f, nullptr, 0); }, EBADF);
  }
  CHECK(m.read_file("/r/new") == "abcde");
  CHECK(m.lstat("/r/new")->mode == 0750);
  errno_of([&] { m.create_file_at(r, "new", 0644); }, EEXIST);
  errno_of([&] { m.create_file_at(r, "dangling", 0644); }, EEXIST);
  CHECK_FALSE(m.exists("/nowhere"));  // O_NOFOLLOW|O_EXCL never creates through a link
  errno_of([&] { m.create_file_at(r, "d", 0644); }, EEXIST);
}

TEST_CASE("memory: copy_data streams all remaining bytes") {
  memory m;
  m.write_file("/src", std::string(100000, 'z') + "end");
  auto root = m.open_root("/");
  auto in = m.open_file_at(root, "src");
  char head[10];
  CHECK(m.read(in, head, 10) == 10);
  auto out = m.create_file_at(root, "dst", 0600);
  CHECK(m.copy_data(in, out) == 99993);
  CHECK(m.copy_data(in, out) == 0);
  CHECK(m.read_file("/dst") == std::string(99990, 'z') + "end");
  errno_of([&] { m.copy_data(out, in); }, EBADF);
}

TEST_CASE("memory: the sized copy_data copies at most the size given (0 = to the end)") {
  static_assert(clawport::fs::detail::has_sized_copy_data<memory>::value);
  static_assert(clawport::fs::detail::has_sized_copy_data<clawport::fs::faulty<memory>>::value);
  memory m;
  m.write_file("/src", "0123456789");
  auto root = m.open_root("/");
  auto in = m.open_file_at(root, "src");
  auto out = m.create_file_at(root, "four", 0600);
  CHECK(m.copy_data(in, out, 4) == 4);
  CHECK(m.read_file("/four") == "0123");
  auto out2 = m.create_file_at(root, "rest", 0600);
  CHECK(m.copy_data(in, out2, 0) == 6);
  CHECK(m.read_file("/rest") == "456789");
  auto in2 = m.open_file_at(root, "src");
  auto out3 = m.create_file_at(root, "shrunk", 0600);
  CHECK(m.copy_data(in2, out3, 100) == 10);
  errno_of([&] { m.copy_data(out, in, 1); }, EBADF);
}

TEST_CASE("memory: unlink, rmdir and recursive removal") {
  memory m;
  m.mkdirs("/r/full/x/y");
  m.mkdirs("/r/empty");
  m.mkdirs("/outside");
  m.write_file("/outside/keep", "k");
  m.write_file("/r/f", "f");
  m.symlink("/r/full/x/escape", "/outside");
  auto r = m.open_root("/r");
  errno_of([&] { m.unlink_at(r, "full"); }, EISDIR);
  errno_of([&] { m.unlink_at(r, "missing"); }, ENOENT);
  errno_of([&] { m.remove_dir_at(r, "f"); }, ENOTDIR);
  errno_of([&] { m.remove_dir_at(r, "full"); }, ENOTEMPTY);
  errno_of([&] { m.remove_dir_at(r, "missing"); }, ENOENT);
  m.remove_dir_at(r, "empty");
  m.unlink_at(r, "f");
  CHECK(m.is_empty(m.open_dir_at(r, "full")) == false);
  m.remove_tree_at(r, "full");  // never follows the symlink out of the tree
  CHECK(m.is_empty(r));
  CHECK(m.read_file("/outside/keep") == "k");
  CHECK(m.lstat("/outside")->kind == file_kind::directory);
  errno_of([&] { m.remove_tree_at(r, "full"); }, ENOENT);
  m.symlink("/r/link", "/outside");
  m.remove_tree_at(r, "link");  // a symlink is unlinked, not followed
  CHECK(m.exists("/outside/keep"));
}

TEST_CASE("memory: link counts of files and directories") {
  memory m;
  m.mkdirs("/r/a/sub1");
  m.mkdirs("/r/a/sub2");
  m.write_file("/r/a/file", "x");
  CHECK(m.lstat("/r/a")->nlink == 4);  // ".", the entry in /r, and two ".."
  m.hard_link("/r/a/file", "/r/a/file2");
  CHECK(m.lstat("/r/a/file")->nlink == 2);
  CHECK(m.lstat("/r/a/file")->id == m.lstat("/r/a/file2")->id);
  auto r = m.open_root("/r/a");
  auto f = m.open_file_at(r, "file");
  m.unlink_at(r, "file");
  m.unlink_at(r, "file2");
  CHECK(m.stat(f).nlink == 0);  // an open, deleted file stays readable
  CHECK(read_all(m, f) == "x");
  errno_of([&] { m.hard_link("/r/a", "/r/alink"); }, EPERM);
}

TEST_CASE("memory: a directory handle follows its inode through rename and unlink") {
  memory m;
  m.mkdirs("/r/d");
  m.write_file("/r/d/inside", "1");
  auto r = m.open_root("/r");
  auto d = m.open_dir_at(r, "d");
  const auto id = m.stat(d).id;
  m.rename("/r/d", "/r/moved");
  m.mkdirs("/r/d");  // a different directory under the old name
  CHECK(m.stat(d).id == id);
  CHECK(m.stat_at(d, "inside"));
  m.make_dir_at(d, "created", 0755);
  CHECK(m.exists("/r/moved/created"));
  CHECK_FALSE(m.exists("/r/d/created"));

  m.remove("/r/moved/inside");
  m.remove("/r/moved/created");
  m.remove_dir_at(r, "moved");
  CHECK(m.stat(d).nlink == 0);
  // A removed directory: lookups fail with ENOENT, reads show it empty.
  errno_of([&] { m.make_dir_at(d, "x", 0755); }, ENOENT);
  errno_of([&] { m.create_file_at(d, "x", 0644); }, ENOENT);
  CHECK_FALSE(m.stat_at(d, "x"));
  CHECK(m.is_empty(d));
}

TEST_CASE("memory: rename_at replace semantics") {
  memory m;
  m.mkdirs("/r/d");
  m.mkdirs("/r/full/x");
  m.write_file("/r/f", "f");
  m.write_file("/r/g", "g");
  m.symlink("/r/lf", "f");
  auto r = m.open_root("/r");
  auto rn = [&](const char* a, const char* b) {
    return m.rename_at(r, a, r, b, rename_mode::replace);
  };
  errno_of([&] { rn("d", "f"); }, ENOTDIR);
  errno_of([&] { rn("f", "d"); }, EISDIR);
  errno_of([&] { rn("lf", "d"); }, EISDIR);
  errno_of([&] { rn("d", "lf"); }, ENOTDIR);
  errno_of([&] { rn("d", "full"); }, ENOTEMPTY);
  errno_of([&] { rn("missing", "z"); }, ENOENT);
  auto full = m.open_dir_at(r, "full");
  auto x = m.open_dir_at(full, "x");
  errno_of([&] { m.rename_at(r, "full", x, "y", rename_mode::replace); }, EINVAL);
  CHECK(errno_of([&] { m.rename_at(x, "..", r, "y", rename_mode::replace); }, 0).code() ==
        errc::unsafe_path);
  CHECK(rn("f", "f") == rename_result::done);
  m.hard_link("/r/g", "/r/g2");
  rn("g", "g2");  // two names of one inode: nothing happens
  CHECK(m.exists("/r/g"));
  CHECK(rn("f", "g") == rename_result::done);
  CHECK(m.read_file("/r/g") == "f");
  CHECK(m.lstat("/r/g2")->nlink == 1);
  m.rename_at(r, "d", full, "x", rename_mode::replace);  // replaces the empty directory
  CHECK(m.lstat("/r/full/x"));
  CHECK_FALSE(m.exists("/r/d"));
  errno_of([&] { m.rename_at(x, "a", r, "b", rename_mode::replace); }, ENOENT);
}

TEST_CASE("memory: RENAME_NOREPLACE and RENAME_EXCHANGE, and the unsupported switch") {
  memory m;
  m.mkdirs("/r/old/content");
  m.mkdirs("/r/new/other");
  m.write_file("/r/file", "f");
  auto r = m.open_root("/r");
  errno_of([&] { m.rename_at(r, "new", r, "old", rename_mode::noreplace); }, EEXIST);
  errno_of([&] { m.rename_at(r, "new", r, "new", rename_mode::noreplace); }, EEXIST);
  errno_of([&] { m.rename_at(r, "new", r, "vacant", rename_mode::exchange); }, ENOENT);
  auto old_id = m.lstat("/r/old")->id;
  auto new_id = m.lstat("/r/new")->id;
  auto old_h = m.open_dir_at(r, "old");
  CHECK(m.rename_at(r, "new", r, "old", rename_mode::exchange) == rename_result::done);
  CHECK(m.lstat("/r/old")->id == new_id);
  CHECK(m.lstat("/r/new")->id == old_id);
  CHECK(m.exists("/r/old/other"));
  CHECK(m.stat_at(old_h, "content"));
  CHECK(m.rename_at(r, "file", r, "old", rename_mode::exchange) == rename_result::done);
  CHECK(m.lstat("/r/file")->kind == file_kind::directory);
  CHECK(m.read_file("/r/old") == "f");
  auto inner = m.open_dir_at(r, "new");
  // renameat2 says EINVAL for a directory exchanged into itself, the errno that also means
  // "flags not supported": the policy reports it as unsupported (fs::posix cannot tell).
  CHECK(m.rename_at(r, "new", inner, "content", rename_mode::exchange) ==
        rename_result::unsupported);
  CHECK(m.rename_at(r, "new", inner, "fresh2", rename_mode::noreplace) ==
        rename_result::unsupported);
  CHECK(m.rename_at(r, "old", r, "fresh", rename_mode::noreplace) == rename_result::done);
  CHECK(m.read_file("/r/fresh") == "f");

  m.settings().rename2_supported = false;
  const auto before = m.snapshot("/r");
  CHECK(m.rename_at(r, "new", r, "file", rename_mode::exchange) == rename_result::unsupported);
  CHECK(m.rename_at(r, "new", r, "x", rename_mode::noreplace) == rename_result::unsupported);
  CHECK(m.snapshot("/r") == before);
  CHECK(m.rename_at(r, "new", r, "x", rename_mode::replace) == rename_result::done);
}

TEST_CASE("memory: permissions like an unprivileged owner") {
  memory m;
  m.mkdirs("/r/locked");
  m.write_file("/r/secret", "s", 0000);
  m.write_file("/r/locked/inside", "i");
  auto r = m.open_root("/r");
  auto locked = m.open_dir_at(r, "locked");
  m.chmod("/r/locked", 0000);
  auto e = errno_of([&] { m.open_file_at(r, "secret"); }, EACCES);
  CHECK(e.code() == errc::io);
  CHECK(e.subject() == "secret");
  errno_of([&] { m.open_dir_at(r, "locked"); }, EACCES);
  errno_of([&] { m.stat_at(locked, "inside"); }, EACCES);
  errno_of([&] { m.open_root("/r/locked"); }, EACCES);
  errno_of([&] { m.remove_tree_at(r, "locked"); }, EACCES);
  m.chmod("/r/locked", 0500);
  errno_of([&] { m.make_dir_at(locked, "x", 0755); }, EACCES);
  errno_of([&] { m.unlink_at(locked, "inside"); }, EACCES);
  errno_of([&] { m.rename_at(locked, "inside", r, "out", rename_mode::replace); }, EACCES);
  CHECK(m.exists("/r/locked/inside"));
  m.settings().enforce_permissions = false;  // root
  auto secret = m.open_file_at(r, "secret");
  CHECK(read_all(m, secret) == "s");
  m.remove_tree_at(r, "locked");
}

TEST_CASE("memory: EMFILE and ENAMETOOLONG limits") {
  memory::options o;
  o.max_open_handles = 2;
  o.max_name_length = 8;
  memory m(o);
  m.mkdirs("/r/d");
  m.write_file("/r/f", "x");
  auto r = m.open_root("/r");
  {
    auto d = m.open_dir_at(r, "d");
    CHECK(m.open_handles() == 2);
    auto e = errno_of([&] { m.open_file_at(r, "f"); }, EMFILE);
    CHECK(e.code() == errc::limit_exceeded);
    errno_of([&] { m.open_dir_at(r, "missing"); }, EMFILE);  // the slot is taken first
    errno_of([&] { m.create_file_at(r, "g", 0644); }, EMFILE);
    CHECK_FALSE(m.exists("/r/g"));
  }
  CHECK(m.open_handles() == 1);
  CHECK(m.open_file_at(r, "f"));
  auto e = errno_of([&] { m.make_dir_at(r, "123456789", 0755); }, ENAMETOOLONG);
  CHECK(e.code() == errc::limit_exceeded);
  errno_of([&] { m.stat_at(r, "123456789"); }, ENAMETOOLONG);
}

TEST_CASE("memory: try_lock is per handle, released on close") {
  memory m;
  m.mkdirs("/r/stage");
  auto r = m.open_root("/r");
  auto a = m.open_dir_at(r, "stage");
  CHECK(m.try_lock(a));
  CHECK(m.try_lock(a));  // the holder may lock again
  {
    auto b = m.open_dir_at(r, "stage");
    CHECK_FALSE(m.try_lock(b));
  }
  memory::dir moved = std::move(a);
  {
    auto b = m.open_dir_at(r, "stage");
    CHECK_FALSE(m.try_lock(b));
  }
  moved = memory::dir();
  auto c = m.open_dir_at(r, "stage");
  CHECK(m.try_lock(c));
  m.sync_filesystem(c);
  m.sync_dir(c);
}

TEST_CASE("memory: for_each_entry is a stable snapshot the callback may change") {
  memory m;
  m.write_file("/r/b", "");
  m.write_file("/r/a", "");
  m.mkdirs("/r/c");
  auto r = m.open_root("/r");
  std::vector<std::string> seen;
  m.for_each_entry(r, [&](std::string_view name) {
    seen.emplace_back(name);
    if (name == "a") m.unlink_at(r, "b");
  });
  CHECK(seen == std::vector<std::string>{"a", "b", "c"});
  CHECK_FALSE(m.exists("/r/b"));
}

TEST_CASE("memory_fixture: the fixture interface") {
  memory_fixture fx;
  fx.mkdir("ws/notes", 0700);
  fx.write("ws/run.sh", "#!/bin/sh\n", 0755);
  fx.write("ws/notes/a.md", "a");
  fx.symlink("ws/link", "../outside");
  fx.hardlink("ws/notes/a.md", "ws/hard");
  fx.fifo("ws/pipe");
  fx.rename("ws/hard", "ws/hard2");
  CHECK(fx.mode("ws/notes") == 0700);
  CHECK(fx.mode("ws/run.sh") == 0755);
  CHECK(fx.read("ws/hard2") == "a");
  CHECK(fx.exists("ws/link"));
  CHECK(fx.snapshot("ws") == std::map<std::string, std::string>{{"hard2", "f:a"},
                                                                {"link", "l:../outside"},
                                                                {"notes", "d"},
                                                                {"notes/a.md", "f:a"},
                                                                {"pipe", "o"},
                                                                {"run.sh", "f:#!/bin/sh\n+x"}});
  fx.remove("ws/notes");
  CHECK_FALSE(fx.exists("ws/notes/a.md"));
  CHECK(fx.snapshot().count("ws/run.sh") == 1);
  auto root = fx.fs.open_root(fx.root_path());
  CHECK(fx.fs.stat_at(root, "ws")->kind == file_kind::directory);
}

// ---- differential: fs::memory against fs::posix on a real directory ---------------------

namespace {

// The observable outcome of one call: errno (0 on success), the error's code and text, and
// what it returned, rendered to text.
struct outcome {
  int err = 0;
  std::string text;
};

std::string describe(const clawport::fs::stat_info& s) {
  std::string out = std::to_string(static_cast<int>(s.kind)) + " mode " + std::to_string(s.mode) +
                    " nlink " + std::to_string(s.nlink);
  if (s.kind != file_kind::directory) out += " size " + std::to_string(s.size);
  return out;
}

template <class F>
outcome attempt(F&& f) {
  outcome o;
  try {
    o.text = f();
  } catch (const error& e) {
    o.err = e.sys_errno() == 0 ? -1 : e.sys_errno();
    o.text = std::string(clawport::to_string(e.code())) + ": " + e.what();
  }
  return o;
}

// One random operation applied the same way to a backend; `dirs` are its open handles.
template <class B>
outcome apply(B& b, std::vector<typename B::dir>& dirs, unsigned op, std::size_t h1,
              const std::string& n1, std::size_t h2, const std::string& n2, unsigned k) {
  auto& d1 = dirs[h1 % dirs.size()];
  auto& d2 = dirs[h2 % dirs.size()];
  switch (op) {
    case 0:
      return attempt([&] {
        auto s = b.stat_at(d1, n1);
        return s ? describe(*s) : std::string("absent");
      });
    case 1:
      return attempt([&] {
        b.make_dir_at(d1, n1, 0755);
        return std::string();
      });
    case 2:
      return attempt([&] {
        auto f = b.create_file_at(d1, n1, 0644);
        const std::string data(k % 5, 'x');
        b.write_all(f, data.data(), data.size());
        b.set_mode(f, k % 2 == 0 ? 0755 : 0600);
        return describe(b.stat(f));
      });
    case 3:
      return attempt([&] {
        b.unlink_at(d1, n1);
        return std::string();
      });
    case 4:
      return attempt([&] {
        b.remove_dir_at(d1, n1);
        return std::string();
      });
    case 5:
      return attempt([&] {
        b.remove_tree_at(d1, n1);
        return std::string();
      });
    case 6:
    case 7:
    case 8:
      return attempt([&] {
        const auto mode = op == 6   ? rename_mode::replace
                          : op == 7 ? rename_mode::noreplace
                                    : rename_mode::exchange;
        return std::string(
            b.rename_at(d1, n1, d2, n2, mode) == rename_result::done ? "done" : "unsupported");
      });
    case 9:
      return attempt([&] {
        auto d = b.open_dir_at(d1, n1);
        std::string s = describe(b.stat(d));
        if (dirs.size() < 6) dirs.push_back(std::move(d));
        return s;
      });
    case 10:
      return attempt([&] {
        auto f = b.open_file_at(d1, n1);
        std::string s = describe(b.stat(f)) + " ";
        char buf[64];
        for (std::size_t n; (n = b.read(f, buf, sizeof buf)) != 0;) s.append(buf, n);
        return s;
      });
    case 11:
      return attempt([&] { return std::string(b.is_empty(d1) ? "empty" : "full"); });
    case 12:
      return attempt([&] {
        std::vector<std::string> names;
        b.for_each_entry(d1, [&](std::string_view n) { names.emplace_back(n); });
        std::sort(names.begin(), names.end());
        std::string s;
        for (const auto& n : names) s += n + ",";
        return s;
      });
    default:
      return attempt([&] { return describe(b.stat(d1)); });
  }
}

}  // namespace

TEST_CASE("memory: agrees with fs::posix on random operation sequences") {
  const char* const names[] = {"a", "b", "c", "l", "p"};
  std::size_t steps = 0;
  for (unsigned seed = 1; seed <= 50; ++seed) {
    posix_fixture px;
    memory_fixture mx;
    px.write("a/f", "hello");
    mx.write("a/f", "hello");
    px.symlink("l", "a");
    mx.symlink("l", "a");
    px.fifo("p");
    mx.fifo("p");
    px.hardlink("a/f", "b");
    mx.hardlink("a/f", "b");
    std::vector<clawport::fs::posix::dir> pd;
    std::vector<memory::dir> md;
    pd.push_back(px.fs.open_root(px.root_path()));
    md.push_back(mx.fs.open_root(mx.root_path()));
    std::uint32_t state = seed * 2654435761u;
    auto next = [&] {
      state ^= state << 13;
      state ^= state >> 17;
      state ^= state << 5;
      return state;
    };
    for (int step = 0; step < 200; ++step, ++steps) {
      const unsigned op = next() % 14;
      const std::size_t h1 = next(), h2 = next();
      const std::string n1 = names[next() % 5], n2 = names[next() % 5];
      const unsigned k = next();
      const outcome p = apply(px.fs, pd, op, h1, n1, h2, n2, k);
      const outcome m = apply(mx.fs, md, op, h1, n1, h2, n2, k);
      CAPTURE(seed);
      CAPTURE(step);
      CAPTURE(op);
      CAPTURE(n1);
      CAPTURE(n2);
      REQUIRE(p.text == m.text);
      REQUIRE(p.err == m.err);
    }
    CHECK(px.snapshot() == mx.snapshot());
  }
  MESSAGE("differential steps compared: " << steps);
}
