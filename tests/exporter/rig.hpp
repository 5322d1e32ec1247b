// SPDX-License-Identifier: MIT
// Export test rigs: the same set-up interface on fs::memory and on the real filesystem,
// each driving the exporter through fs::faulty<B> so races (before_open), faults and
// crashes can be staged on either backend.
#pragma once

#include "../fs/fixture.hpp"
#include "support/test.hpp"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace clawport::testing {

/// fs::memory behind fs::faulty; set-up acts on the inner tree (as a test's setup would).
struct memory_rig {
  using backend = fs::faulty<fs::memory>;
  static constexpr bool on_posix = false;
  backend faulty{options()};

  memory_rig() { m().mkdirs(root_path(), 0755); }
  backend& fsys() { return faulty; }
  fs::memory& m() { return faulty.inner(); }
  const fs::memory& m() const { return faulty.inner(); }
  std::string root_path() const { return "/tmp/clawport-export-test"; }
  std::string path(const std::string& rel) const {
    return rel.empty() ? root_path() : root_path() + "/" + rel;
  }
  void mkdir(const std::string& rel, unsigned mode = 0755) { m().mkdirs(path(rel), mode); }
  void write(const std::string& rel, const std::string& content, unsigned mode = 0644) {
    m().write_file(path(rel), content, mode);
  }
  void symlink(const std::string& rel, const std::string& target) {
    m().symlink(path(rel), target);
  }
  void hardlink(const std::string& existing, const std::string& rel) {
    m().hard_link(path(existing), path(rel));
  }
  void fifo(const std::string& rel) { m().mkfifo(path(rel)); }
  void rename(const std::string& from, const std::string& to) { m().rename(path(from), path(to)); }
  void remove(const std::string& rel) { m().remove(path(rel)); }
  bool exists(const std::string& rel) const { return m().exists(path(rel)); }
  std::string read(const std::string& rel) const { return m().read_file(path(rel)); }
  unsigned mode(const std::string& rel) const { return m().lstat(path(rel))->mode; }
  std::map<std::string, std::string> snapshot(const std::string& rel = "") const {
    return m().snapshot(path(rel));
  }
  void chmod(const std::string& rel, unsigned mode) { m().chmod(path(rel), mode); }
  fs::file_id id_of(const std::string& rel) const { return m().lstat(path(rel))->id; }

 private:
  static fs::memory::options options() {
    fs::memory::options o;
    o.enforce_permissions = ::geteuid() != 0;  // as the process running the suite
    return o;
  }
};

/// The real filesystem (a fresh temporary directory) behind fs::faulty<fs::posix>.
struct posix_rig : posix_fixture {
  using backend = fs::faulty<fs::posix>;
  static constexpr bool on_posix = true;
  backend faulty;
  backend& fsys() { return faulty; }
  std::string path(const std::string& rel) const {
    return rel.empty() ? root_path() : root_path() + "/" + rel;
  }
  fs::file_id id_of(const std::string& rel) const {
    struct stat st {};
    REQUIRE(::lstat(path(rel).c_str(), &st) == 0);
    return fs::file_id{static_cast<std::uint64_t>(st.st_dev),
                       static_cast<std::uint64_t>(st.st_ino)};
  }
};

/// The names directly inside `rel`, sorted ({} when it is absent).
template <class Rig>
std::vector<std::string> children(const Rig& r, const std::string& rel) {
  std::vector<std::string> out;
  if (!r.exists(rel)) return out;
  for (const auto& entry : r.snapshot(rel)) {
    if (entry.first.find('/') == std::string::npos) out.push_back(entry.first);
  }
  return out;
}

}  // namespace clawport::testing
