// SPDX-License-Identifier: MIT
// fs::faulty: counting, Nth-call failure, the before_open hook and crash mode, over
// fs::memory and (through the fixtures) over fs::posix on a real temporary directory.
#include "support/test.hpp"

#include <cerrno>
#include <stdexcept>
#include <string>
#include <vector>

#include "fixture.hpp"

namespace {

using clawport::errc;
using clawport::error;
using clawport::fs::faulty;
using clawport::fs::file_kind;
using clawport::fs::memory;
using clawport::fs::rename_mode;
using clawport::fs::simulated_crash;

struct faulty_memory {
  faulty<memory> fs;
  const std::string root = "/t";
  faulty_memory() {
    fs.inner().mkdirs("/t/src/sub");
    fs.inner().write_file("/t/src/a", "aaa");
    fs.inner().write_file("/t/src/sub/b", "bb");
  }
  memory& mem() { return fs.inner(); }
};

// A small routine through the policy: copy /t/src/a to /t/dst/a.
template <class Fs>
void copy_one(Fs& fs) {
  auto root = fs.open_root("/t");
  auto src = fs.open_dir_at(root, "src");
  fs.make_dir_at(root, "dst", 0755);
  auto dst = fs.open_dir_at(root, "dst");
  auto in = fs.open_file_at(src, "a");
  auto out = fs.create_file_at(dst, "a", 0644);
  fs.copy_data(in, out);
  fs.set_mode(out, fs.stat(in).mode);
}

}  // namespace

TEST_CASE("faulty: models the Fs policy over any backend") {
  static_assert(clawport::fs::check_policy<faulty<memory>>());
  static_assert(clawport::fs::check_policy<faulty<faulty<memory>>>());
  static_assert(!std::is_base_of<clawport::error, simulated_crash>::value);
  static_assert(!std::is_base_of<std::exception, simulated_crash>::value);
}

TEST_CASE("faulty: counts every operation, in total, per name and in a log") {
  faulty_memory t;
  copy_one(t.fs);
  CHECK(t.fs.count() == 9);
  CHECK(t.fs.count("open_dir_at") == 2);
  CHECK(t.fs.count("copy_data") == 1);
  CHECK(t.fs.count("rename_at") == 0);
  REQUIRE(t.fs.log().size() == 9);
  CHECK(t.fs.log()[0].op == "open_root");
  CHECK(t.fs.log()[0].name == "/t");
  CHECK(t.fs.log()[5].op == "create_file_at");
  CHECK(t.fs.log()[5].name == "a");
  CHECK(t.mem().read_file("/t/dst/a") == "aaa");
  auto root = t.fs.open_root("/t");
  t.fs.rename_at(root, "dst", root, "dst2", rename_mode::replace);
  CHECK(t.fs.log().back().name == "dst -> dst2");
  t.fs.reset_counts();
  CHECK(t.fs.count() == 0);
  CHECK(t.fs.log().empty());
}

TEST_CASE("faulty: fails the Nth operation exactly as the backend would, with no effect") {
  faulty_memory t;
  SUBCASE("the Nth of all operations") {
    t.fs.fail_at(3, ENOSPC);  // make_dir_at
    try {
      copy_one(t.fs);
      FAIL("no failure injected");
    } catch (const error& e) {
      const error expected = memory::make_error("make_dir_at", "dst", ENOSPC);
      CHECK(e.code() == expected.code());
      CHECK(e.code() == errc::io);
      CHECK(e.sys_errno() == ENOSPC);
      CHECK(e.subject() == "dst");
      CHECK(std::string(e.what()) == expected.what());
    }
    CHECK_FALSE(t.mem().exists("/t/dst"));
    CHECK(t.fs.failures() == 1);
    t.fs.reset_counts();
    copy_one(t.fs);  // a fault fires once
    CHECK(t.mem().read_file("/t/dst/a") == "aaa");
  }
  SUBCASE("the Nth call of a named operation") {
    t.fs.fail_at("open_dir_at", 2, EMFILE);
    try {
      copy_one(t.fs);
      FAIL("no failure injected");
    } catch (const error& e) {
      CHECK(e.code() == errc::limit_exceeded);
      CHECK(e.sys_errno() == EMFILE);
      CHECK(e.subject() == "dst");
    }
    CHECK(t.mem().snapshot("/t/dst").empty());
    CHECK(t.fs.count() == 4);
  }
  SUBCASE("EIO on copy_data leaves the destination empty") {
    t.fs.fail_at("copy_data", 1, EIO);
    CHECK_THROWS_AS(copy_one(t.fs), error);
    CHECK(t.mem().read_file("/t/dst/a").empty());
  }
  SUBCASE("a sticky failure repeats") {
    t.fs.fail_from("", 2, EACCES);
    auto root = t.fs.open_root("/t");
    CHECK_THROWS_AS(t.fs.stat_at(root, "src"), error);
    CHECK_THROWS_AS(t.fs.stat_at(root, "src"), error);
    CHECK(t.fs.failures() == 2);
    t.fs.clear_faults();
    CHECK(t.fs.stat_at(root, "src"));
  }
}

TEST_CASE("faulty: before_open runs between classification and open") {
  faulty_memory t;
  std::vector<std::string> seen;
  t.fs.before_open([&](memory& inner, const memory::dir& parent, std::string_view name) {
    seen.emplace_back(name);
    if (name == "a") {
      // Swap the classified file for a symlink, through the parent handle's inode.
      inner.unlink_at(parent, name);
      inner.symlink("/t/src/a", "/etc/passwd");
    }
  });
  auto root = t.fs.open_root("/t");
  auto src = t.fs.open_dir_at(root, "src");
  CHECK(t.fs.stat_at(src, "a")->kind == file_kind::regular);
  try {
    t.fs.open_file_at(src, "a");
    FAIL("opened a symlink");
  } catch (const error& e) {
    CHECK(e.sys_errno() == ELOOP);
  }
  CHECK(seen == std::vector<std::string>{"src", "a"});
}

TEST_CASE("faulty: on_op sees every operation before it runs") {
  faulty_memory t;
  std::vector<std::string> ops;
  t.fs.on_op([&](memory&, std::string_view op, std::string_view) { ops.emplace_back(op); });
  t.fs.fail_at(2, EIO);
  auto root = t.fs.open_root("/t");
  CHECK_THROWS_AS(t.fs.stat_at(root, "src"), error);
  t.fs.is_empty(root);
  CHECK(ops == std::vector<std::string>{"open_root", "is_empty"});
}

TEST_CASE("faulty: a crash stops every later operation, cleanup included") {
  faulty_memory t;
  const auto before = t.mem().snapshot("/t");
  // Cleanup the way library code must write it: catch and swallow in the destructor.
  struct guard {
    faulty<memory>& fs;
    const memory::dir& root;
    ~guard() {
      try {
        fs.remove_tree_at(root, "dst");
      } catch (...) {
      }
    }
  };
  t.fs.crash_after(3);  // open_root, open_dir_at, make_dir_at
  bool caught_as_error = false;
  bool caught_as_std = false;
  try {
    try {
      auto root = t.fs.open_root("/t");
      auto src = t.fs.open_dir_at(root, "src");
      t.fs.make_dir_at(root, "dst", 0755);
      guard g{t.fs, root};
      t.fs.open_dir_at(root, "dst");
      FAIL("no crash");
    } catch (const error&) {
      caught_as_error = true;
    } catch (const std::exception&) {
      caught_as_std = true;
    }
    FAIL("the crash was swallowed");
  } catch (const simulated_crash& c) {
    CHECK(c.op == "open_dir_at");
    CHECK(c.index == 4);
  }
  CHECK_FALSE(caught_as_error);
  CHECK_FALSE(caught_as_std);
  CHECK(t.fs.crashed());
  CHECK(t.fs.crashed_calls() == 2);  // the open and the guard's remove_tree_at
  CHECK(t.fs.count() == 3);
  // The crash point's effects stay: dst was made, and nothing cleaned it up.
  auto after = t.mem().snapshot("/t");
  CHECK(after.count("dst") == 1);
  after.erase("dst");
  CHECK(after == before);
  t.fs.clear_crash();
  CHECK(t.fs.stat_at(t.fs.open_root("/t"), "dst"));
}

TEST_CASE("faulty: remove_tree_at is a walk of counted steps, so it can fail midway") {
  faulty_memory t;
  auto root = t.fs.open_root("/t");
  SUBCASE("complete") {
    t.fs.reset_counts();
    t.fs.remove_tree_at(root, "src");
    CHECK_FALSE(t.mem().exists("/t/src"));
    CHECK(t.fs.count("remove_tree_at") == 1);
    CHECK(t.fs.count("unlink_at") == 2);
    CHECK(t.fs.count("remove_dir_at") == 2);
    CHECK(t.fs.count("open_dir_at") == 2);
  }
  SUBCASE("crashed in the middle") {
    t.fs.crash_after(4);  // remove_tree_at, stat_at src, open_dir_at src, for_each_entry
    CHECK_THROWS_AS(t.fs.remove_tree_at(root, "src"), simulated_crash);
    CHECK(t.mem().snapshot("/t/src").size() == 3);
  }
  SUBCASE("an unlink failing with EIO") {
    t.fs.fail_at("unlink_at", 2, EIO);
    CHECK_THROWS_AS(t.fs.remove_tree_at(root, "src"), error);
    CHECK(t.mem().exists("/t/src"));
  }
  SUBCASE("missing") {
    try {
      t.fs.remove_tree_at(root, "nope");
      FAIL("removed nothing without error");
    } catch (const error& e) {
      CHECK(e.code() == errc::not_found);
    }
  }
  SUBCASE("a directory swapped for a symlink mid-delete is unlinked, not followed") {
    t.mem().mkdirs("/host");
    t.mem().write_file("/host/keep", "k");
    t.fs.before_open([&](memory& inner, const memory::dir&, std::string_view name) {
      if (name == "sub" && inner.lstat("/t/src/sub")->kind == file_kind::directory) {
        inner.rename("/t/src/sub", "/t/aside");
        inner.symlink("/t/src/sub", "/host");
      }
    });
    t.fs.remove_tree_at(root, "src");
    CHECK_FALSE(t.mem().exists("/t/src"));
    CHECK(t.mem().read_file("/host/keep") == "k");
  }
}

// ---- over every backend: a fixture's own backend, decorated by reference --------------

TEST_CASE_TEMPLATE("faulty over a backend: counting, failures, hook and crash", F,
                   CLAWPORT_FS_FIXTURES) {
  F fx;
  fx.write("src/a", "aaa", 0755);
  fx.write("src/sub/b", "bb");
  fx.write("host/secret", "host bytes");
  faulty<typename F::backend&> fs(fx.fs);
  auto root = fs.open_root(fx.root_path());
  auto src = fs.open_dir_at(root, "src");
  CHECK(fs.count() == 2);

  SUBCASE("a failed create leaves nothing behind, as the backend would throw it") {
    fs.fail_at("create_file_at", 1, ENOSPC);
    try {
      fs.create_file_at(src, "new", 0644);
      FAIL("no failure injected");
    } catch (const error& e) {
      CHECK(e.code() == errc::io);
      CHECK(e.sys_errno() == ENOSPC);
      CHECK(e.subject() == "new");
      CHECK(std::string(e.what()) == "cannot create new: No space left on device");
    }
    CHECK_FALSE(fx.exists("src/new"));
  }
  SUBCASE("a file swapped for a symlink between classification and open is refused") {
    fs.before_open(
        [&](typename F::backend&, const typename F::backend::dir&, std::string_view name) {
          if (name != "a") return;
          fx.remove("src/a");
          fx.symlink("src/a", "../host/secret");
        });
    CHECK(fs.stat_at(src, "a")->kind == file_kind::regular);
    try {
      fs.open_file_at(src, "a");
      FAIL("opened the symlink");
    } catch (const error& e) {
      CHECK(e.sys_errno() == ELOOP);
      CHECK(e.subject() == "a");
    }
  }
  SUBCASE("a file renamed over the entry is caught by its identity") {
    const auto classified = fs.stat_at(src, "a")->id;
    fs.before_open(
        [&](typename F::backend&, const typename F::backend::dir&, std::string_view name) {
          if (name == "a") fx.rename("host/secret", "src/a");
        });
    auto f = fs.open_file_at(src, "a");
    CHECK(fs.stat(f).id != classified);
  }
  SUBCASE("a directory replaced by another directory keeps the handle's identity") {
    const auto classified = fs.stat_at(src, "sub")->id;
    fs.before_open(
        [&](typename F::backend&, const typename F::backend::dir&, std::string_view name) {
          if (name != "sub") return;
          fx.rename("src/sub", "moved");
          fx.mkdir("src/sub");
        });
    auto d = fs.open_dir_at(src, "sub");
    CHECK(fs.stat(d).id != classified);
    CHECK(fs.is_empty(d));
  }
  SUBCASE("a crash refuses every later operation and changes nothing") {
    const auto before = fx.snapshot();
    fs.crash_after(0);
    CHECK_THROWS_AS(fs.make_dir_at(root, "x", 0755), simulated_crash);
    CHECK_THROWS_AS(fs.remove_tree_at(root, "src"), simulated_crash);
    CHECK_THROWS_AS(fs.rename_at(root, "src", root, "y", rename_mode::replace), simulated_crash);
    CHECK(fx.snapshot() == before);
    CHECK(fs.crashed_calls() == 3);
  }
  SUBCASE("remove_tree_at through counted steps removes the tree") {
    fs.remove_tree_at(root, "src");
    CHECK_FALSE(fx.exists("src"));
    CHECK(fx.read("host/secret") == "host bytes");
    CHECK(fs.count("unlink_at") == 2);
  }
}

// The errors fs::memory throws for the same failure are the ones fs::posix throws, and
// faulty injects the same ones: same code, text, subject and errno.
TEST_CASE_TEMPLATE("backends agree on the errors of failed calls", F, CLAWPORT_FS_FIXTURES) {
  F fx;
  fx.mkdir("d/full/x");
  fx.write("d/f", "f");
  fx.symlink("d/link", "f");
  typename F::backend& b = fx.fs;
  auto root = b.open_root(fx.root_path());
  auto d = b.open_dir_at(root, "d");
  auto same = [](const char* op, const char* subject, int err, auto&& call) {
    CAPTURE(op);
    try {
      call();
      FAIL("no error");
    } catch (const error& e) {
      const error expected = clawport::fs::sys_error(op, subject, err);
      CHECK(e.code() == expected.code());
      CHECK(e.sys_errno() == err);
      CHECK(e.subject() == expected.subject());
      CHECK(std::string(e.what()) == expected.what());
    }
  };
  same("open_file_at", "missing", ENOENT, [&] { b.open_file_at(d, "missing"); });
  same("open_file_at", "link", ELOOP, [&] { b.open_file_at(d, "link"); });
  same("open_dir_at", "link", ELOOP, [&] { b.open_dir_at(d, "link"); });
  same("open_dir_at", "f", ENOTDIR, [&] { b.open_dir_at(d, "f"); });
  same("open_dir_at", "missing", ENOENT, [&] { b.open_dir_at(d, "missing"); });
  same("create_file_at", "f", EEXIST, [&] { b.create_file_at(d, "f", 0644); });
  same("make_dir_at", "link", EEXIST, [&] { b.make_dir_at(d, "link", 0755); });
  same("make_dir_at", std::string(256, 'n').c_str(), ENAMETOOLONG,
       [&] { b.make_dir_at(d, std::string(256, 'n'), 0755); });
  same("unlink_at", "missing", ENOENT, [&] { b.unlink_at(d, "missing"); });
  same("unlink_at", "full", EISDIR, [&] { b.unlink_at(d, "full"); });
  same("remove_dir_at", "full", ENOTEMPTY, [&] { b.remove_dir_at(d, "full"); });
  same("remove_dir_at", "f", ENOTDIR, [&] { b.remove_dir_at(d, "f"); });
  same("remove_tree_at", "missing", ENOENT, [&] { b.remove_tree_at(d, "missing"); });
  same("rename_at", "missing to z", ENOENT,
       [&] { b.rename_at(d, "missing", d, "z", rename_mode::replace); });
  same("rename_at", "f to full", EISDIR,
       [&] { b.rename_at(d, "f", d, "full", rename_mode::replace); });
  same("rename_at", "full to f", ENOTDIR,
       [&] { b.rename_at(d, "full", d, "f", rename_mode::replace); });
  same("rename_at", "f to link", EEXIST,
       [&] { b.rename_at(d, "f", d, "link", rename_mode::noreplace); });
  same("open_root", (fx.root_path() + "/nope").c_str(), ENOENT,
       [&] { b.open_root(fx.root_path() + "/nope"); });
  CHECK_FALSE(b.stat_at(d, "missing"));
  try {
    b.stat_at(d, "../d");
    FAIL("accepted a path");
  } catch (const error& e) {
    CHECK(e.code() == errc::unsafe_path);
  }
}
