// SPDX-License-Identifier: MIT
// The one tree walk (fs/walk.hpp) on fs::memory: its order, its paths, what it never
// follows, its hooks, and its depth rule, which fails loudly naming the directory.
#include "support/test.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using clawport::errc;
using clawport::error;
namespace fs = clawport::fs;

/// Records every hook the walk calls, as "kind:rel".
struct recorder : fs::walk_visitor {
  explicit recorder(fs::memory& m) : mem(m) {}
  fs::memory& mem;
  std::vector<std::string> seen;
  std::string skip;  ///< a name `admit` refuses

  bool admit(std::string_view name, const std::string& rel) {
    if (name != skip) return true;
    seen.push_back("skip:" + rel);
    return false;
  }
  bool visit(const fs::memory::dir&, std::string_view, const std::string& rel,
             const fs::stat_info& st) {
    const char* kind = st.kind == fs::file_kind::directory ? "dir:"
                       : st.kind == fs::file_kind::symlink ? "link:"
                                                           : "file:";
    seen.push_back(kind + rel);
    return true;  // descend into every directory
  }
  std::optional<fs::memory::dir> enter(const fs::memory::dir& parent, std::string_view name,
                                       const std::string&, const fs::stat_info&) {
    return mem.open_dir_at(parent, name);
  }
  void leave(const std::string& rel) { seen.push_back("leave:" + rel); }
};

/// A chain of `levels` directories "d/d/.../d" below /root, with a file in the last one.
void chain(fs::memory& m, int levels) {
  std::string p = "/root";
  for (int i = 0; i < levels; ++i) p += "/d";
  m.mkdirs(p);
  m.write_file(p + "/f", "x");
}

}  // namespace

TEST_CASE("walk: each directory's names in byte order, depth first, links never followed") {
  fs::memory m;
  m.mkdirs("/root/b/inner");
  m.mkdirs("/elsewhere");
  m.write_file("/elsewhere/secret", "s");
  m.write_file("/root/b/inner/z", "z");
  m.write_file("/root/b/a", "a");
  m.write_file("/root/a", "a");
  m.write_file("/root/C", "c");
  m.symlink("/root/link", "/elsewhere");
  recorder v(m);
  auto root = m.open_root("/root");
  fs::walk(m, root, v);
  CHECK(v.seen == std::vector<std::string>{"file:C", "file:a", "dir:b", "file:b/a", "dir:b/inner",
                                           "file:b/inner/z", "leave:b/inner", "leave:b",
                                           "link:link"});
}

TEST_CASE("walk: a prefix starts every path; an entry admit refuses is never classified") {
  fs::memory m;
  m.mkdirs("/root/skip");
  m.write_file("/root/skip/hidden", "h");
  m.write_file("/root/kept", "k");
  recorder v(m);
  v.skip = "skip";
  auto root = m.open_root("/root");
  fs::walk(m, root, v, {}, "ws");
  CHECK(v.seen == std::vector<std::string>{"file:ws/kept", "skip:ws/skip"});
}

TEST_CASE("walk: a tree max_depth deep is walked whole; one level more fails naming it") {
  fs::walk_options opt;
  opt.max_depth = 3;
  {
    fs::memory m;
    chain(m, 3);
    recorder v(m);
    auto root = m.open_root("/root");
    fs::walk(m, root, v, opt);
    CHECK(v.seen.size() == 7);  // three directories, the file, three leaves
    CHECK(v.seen[3] == "file:d/d/d/f");
  }
  fs::memory m;
  chain(m, 4);
  recorder v(m);
  auto root = m.open_root("/root");
  try {
    fs::walk(m, root, v, opt);
    FAIL("a tree deeper than max_depth was walked");
  } catch (const error& e) {
    CHECK(e.code() == errc::limit_exceeded);
    CHECK(e.subject() == "d/d/d/d");
    CHECK(std::string(e.what()) ==
          "failed to walk d/d/d/d: the tree is nested deeper than 3 directories "
          "(CLAWPORT_MAX_TREE_DEPTH)");
  }
  // The too-deep directory was classified, never opened: nothing below it was visited.
  CHECK(v.seen == std::vector<std::string>{"dir:d", "dir:d/d", "dir:d/d/d", "dir:d/d/d/d"});
}

TEST_CASE("walk: the depth limit is the same whether entries are sorted or streamed") {
  fs::walk_options opt;
  opt.max_depth = 2;
  opt.sorted = false;
  fs::memory m;
  chain(m, 3);
  recorder v(m);
  auto root = m.open_root("/root");
  CHECK_THROWS_WITH_AS(fs::walk(m, root, v, opt),
                       "failed to walk d/d/d: the tree is nested deeper than 2 directories "
                       "(CLAWPORT_MAX_TREE_DEPTH)",
                       error);
}

TEST_CASE("walk: a sorted walk keeps at most max_listed names of a directory") {
  fs::walk_options opt;
  opt.max_listed = 2;
  fs::memory m;
  m.mkdirs("/root");
  for (const char* n : {"a", "b", "c", "d"}) m.write_file(std::string("/root/") + n, n);
  recorder v(m);
  auto root = m.open_root("/root");
  fs::walk(m, root, v, opt);
  CHECK(v.seen.size() == 2);
}

TEST_CASE("walk: a copy past its spec's depth fails naming the bundle path") {
  // The copy: errc::limit_exceeded naming the bundle path of the directory too deep.
  fs::memory m;
  chain(m, 3);
  m.mkdirs("/out");
  auto src = m.open_root("/root");
  auto dst = m.open_root("/out");
  fs::copy_spec spec("workspace");
  spec.max_depth = 2;
  fs::copy_tally t;
  CHECK_THROWS_WITH_AS(fs::copy_tree(m, src, dst, spec, t),
                       "failed to copy workspace/d/d/d: the tree is nested deeper than 2 "
                       "directories (CLAWPORT_MAX_TREE_DEPTH)",
                       error);
  spec.max_depth = 3;
  fs::memory m2;
  chain(m2, 3);
  m2.mkdirs("/out");
  auto src2 = m2.open_root("/root");
  auto dst2 = m2.open_root("/out");
  fs::copy_tree(m2, src2, dst2, spec, t);
  CHECK(m2.read_file("/out/d/d/d/f") == "x");
}

TEST_CASE("walk: a sorted walk visits files in path order when a sibling extends a directory") {
  // Byte order of names alone would visit a/x before a.txt; path order ('.' < '/') is the
  // other way, and it is the order a digest list is written and read in.
  fs::memory m;
  m.mkdirs("/root/a/b");
  m.mkdirs("/root/a.d");
  m.write_file("/root/a/x", "x");
  m.write_file("/root/a/b/y", "y");
  m.write_file("/root/a/b.txt", "t");
  m.write_file("/root/a.d/z", "z");
  m.write_file("/root/a.txt", "t");
  m.write_file("/root/a0", "0");
  recorder v(m);
  auto root = m.open_root("/root");
  fs::walk(m, root, v);
  std::vector<std::string> files;
  for (const std::string& s : v.seen)
    if (s.rfind("file:", 0) == 0) files.push_back(s.substr(5));
  CHECK(files == std::vector<std::string>{"a.d/z", "a.txt", "a/b.txt", "a/b/y", "a/x", "a0"});
  CHECK(std::is_sorted(files.begin(), files.end()));
}
