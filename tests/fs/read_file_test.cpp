// SPDX-License-Identifier: MIT
// fs::read_file, the one reader of every config, manifest and package file (issue 22 item
// 13): bounded, only regular files, a device or FIFO refused by name before it is opened
// (so /dev/zero cannot exhaust memory and a FIFO cannot hang), symlinks and hard links only
// where the caller accepts them. Real files, with fs::posix.
#include "fixture.hpp"

#include <string>

namespace {

namespace cp = clawport;
namespace fs = clawport::fs;
using fixture = cp::testing::posix_fixture;

cp::error refusal_of(fixture& f, const std::string& path, std::uint64_t max,
                     fs::read_kinds kinds = fs::read_kinds::regular) {
  try {
    (void)fs::read_file(f.fs, path, max, kinds, "the config");
  } catch (const cp::error& e) {
    return e;
  }
  FAIL("read_file read " << path);
  return cp::error(cp::errc::io, "unreachable");
}

}  // namespace

TEST_CASE("read_file reads a regular file whole, up to its limit and not past it") {
  fixture f;
  f.write("a.toml", std::string(100, 'x'));
  CHECK(fs::read_file(f.fs, f.root_path() + "/a.toml", 100) == std::string(100, 'x'));
  const cp::error e = refusal_of(f, f.root_path() + "/a.toml", 99);
  CHECK(e.code() == cp::errc::limit_exceeded);
  CHECK(e.subject() == f.root_path() + "/a.toml");
  CHECK(std::string(e.what()).find("larger than 99 bytes") != std::string::npos);
}

TEST_CASE("read_file refuses a device naming it instead of reading /dev/zero to the end") {
  fixture f;
  const cp::error e = refusal_of(f, "/dev/zero", 4096, fs::read_kinds::follow_symlink);
  CHECK(e.code() == cp::errc::unsupported);
  CHECK(e.subject() == "/dev/zero");
  CHECK(std::string(e.what()).find("the config /dev/zero is not a regular file") !=
        std::string::npos);
}

TEST_CASE("read_file refuses a FIFO without opening it (no writer: it would hang)") {
  fixture f;
  f.fifo("pipe.toml");
  const cp::error e = refusal_of(f, f.root_path() + "/pipe.toml", 4096);
  CHECK(e.code() == cp::errc::unsupported);
  // Through a symlink the caller follows, too.
  f.symlink("link.toml", "pipe.toml");
  CHECK(refusal_of(f, f.root_path() + "/link.toml", 4096, fs::read_kinds::follow_symlink).code() ==
        cp::errc::unsupported);
  auto d = f.fs.open_root(f.root_path());
  CHECK(fs::try_read_file_at(f.fs, d, "pipe.toml", 4096).refusal == fs::read_refusal::not_regular);
}

TEST_CASE("read_file follows a symlink and reads a hard link only where the caller says so") {
  fixture f;
  f.write("real.toml", "x = 1\n");
  f.symlink("link.toml", "real.toml");
  f.write("one.toml", "y = 2\n");
  f.hardlink("one.toml", "two.toml");
  const std::string root = f.root_path();
  CHECK(refusal_of(f, root + "/link.toml", 100).code() == cp::errc::unsafe_path);
  CHECK(fs::read_file(f.fs, root + "/link.toml", 100, fs::read_kinds::follow_symlink) == "x = 1\n");
  const cp::error linked = refusal_of(f, root + "/two.toml", 100);
  CHECK(linked.code() == cp::errc::unsafe_path);
  CHECK(std::string(linked.what()).find("more than one hard link") != std::string::npos);
  CHECK(fs::read_file(f.fs, root + "/two.toml", 100, fs::read_kinds::hard_linked) == "y = 2\n");
  CHECK(refusal_of(f, root + "/absent.toml", 100).code() == cp::errc::not_found);
  CHECK(refusal_of(f, "relative.toml", 100).code() == cp::errc::invalid_argument);
}
