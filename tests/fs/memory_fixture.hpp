// SPDX-License-Identifier: MIT
// memory_fixture: the same interface as posix_fixture (tests/fs/fixture.hpp), over an
// fs::memory tree, so every behaviour suite runs unchanged on both backends.
#pragma once

#include "support/test.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>

#include <map>
#include <string>

namespace clawport::testing {

struct memory_fixture {
  using backend = clawport::fs::memory;
  backend fs;

  memory_fixture() : fs(options()) { fs.mkdirs(root_path(), 0700); }  // as mkdtemp
  ~memory_fixture() = default;
  memory_fixture(const memory_fixture&) = delete;
  memory_fixture& operator=(const memory_fixture&) = delete;

  std::string root_path() const { return "/tmp/clawport-memory-test"; }
  std::string path(const std::string& rel) const {
    return rel.empty() ? root_path() : root_path() + "/" + rel;
  }

  void mkdir(const std::string& rel, unsigned mode = 0755) { fs.mkdirs(path(rel), mode); }
  void write(const std::string& rel, const std::string& content, unsigned mode = 0644) {
    fs.write_file(path(rel), content, mode);
  }
  // Like posix_fixture, these create the parent directories of the new name.
  void symlink(const std::string& rel, const std::string& target) {
    parent_of(rel);
    fs.symlink(path(rel), target);
  }
  void hardlink(const std::string& existing_rel, const std::string& new_rel) {
    parent_of(new_rel);
    fs.hard_link(path(existing_rel), path(new_rel));
  }
  void fifo(const std::string& rel) {
    parent_of(rel);
    fs.mkfifo(path(rel));
  }
  void rename(const std::string& from_rel, const std::string& to_rel) {
    parent_of(to_rel);
    fs.rename(path(from_rel), path(to_rel));
  }
  void remove(const std::string& rel) { fs.remove(path(rel)); }
  bool exists(const std::string& rel) const { return fs.exists(path(rel)); }
  std::string read(const std::string& rel) const { return fs.read_file(path(rel)); }
  unsigned mode(const std::string& rel) const {
    auto st = fs.lstat(path(rel));
    REQUIRE(st.has_value());
    return st->mode;
  }
  std::map<std::string, std::string> snapshot(const std::string& rel = "") const {
    return fs.snapshot(path(rel));
  }
  /// Permission changes (chmod 000 and back), as posix_fixture offers.
  void chmod(const std::string& rel, unsigned mode) { fs.chmod(path(rel), mode); }

 private:
  // Permissions are checked like for the process running the suite, so a mode-000 case
  // behaves the same here as on the real filesystem (root reads everything).
  static backend::options options() {
    backend::options o;
    o.enforce_permissions = ::geteuid() != 0;
    const ::mode_t mask = ::umask(0);  // the only way to read it; put straight back
    ::umask(mask);
    o.umask = static_cast<std::uint32_t>(mask);
    return o;
  }
  void parent_of(const std::string& rel) {
    const auto slash = rel.rfind('/');
    if (slash != std::string::npos) fs.mkdirs(path(rel.substr(0, slash)));
  }
};

}  // namespace clawport::testing

using clawport::testing::memory_fixture;
