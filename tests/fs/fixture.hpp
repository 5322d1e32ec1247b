// SPDX-License-Identifier: MIT
// Backend fixtures: every behaviour suite in tests/fs/ is a TEST_CASE_TEMPLATE over
// CLAWPORT_FS_FIXTURES, so the same layouts and expectations run on each backend.
//
// A fixture F provides:
//   using backend = ...;  backend fs;      the instance the algorithms use
//   F(); ~F();                             a fresh empty root, removed afterwards
//   std::string root_path() const;         absolute path to pass to fs.open_root
//   mkdir / write / symlink / hardlink / fifo / rename / remove / exists / read / mode /
//   snapshot                               set-up and inspection by root-relative path
// snapshot(rel) maps every entry below rel, by relative path, to "d" (directory),
// "l:<target>" (symlink), "f:<content>" (file, with "+x" appended if any exec bit is set)
// or "o" (anything else).
// Backends are expected to behave like Linux where the suites probe limits: a single
// name longer than 255 bytes fails with ENAMETOOLONG (errc::limit_exceeded).
#pragma once

#include "support/test.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace clawport::testing {

/// The workspace copy's spec as the exporter builds it: root `workspace`, filtered by the
/// install layout's workspace filter (§7.5).
inline fs::copy_spec workspace_copy_spec() {
  return fs::copy_spec{"workspace", zeroclaw::workspace_entry_included};
}

/// A fresh directory on the host filesystem per test, driven with plain POSIX calls (the
/// set-up is deliberately independent of the code under test).
struct posix_fixture {
  using backend = clawport::fs::posix;
  backend fs;

  posix_fixture() {
    const char* tmp = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/clawport-fs-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) fail("mkdtemp", tmpl);
    char* real = ::realpath(buf.data(), nullptr);
    if (real == nullptr) fail("realpath", buf.data());
    root_ = real;
    std::free(real);
  }
  ~posix_fixture() {
    // Restore search/read permission a test may have removed, then delete.
    unlock(root_);
    remove_all(root_);
  }
  posix_fixture(const posix_fixture&) = delete;
  posix_fixture& operator=(const posix_fixture&) = delete;

  std::string root_path() const { return root_; }

  void mkdir(const std::string& rel, unsigned mode = 0755) {
    std::string path = root_;
    std::stringstream parts(rel);
    std::string part;
    while (std::getline(parts, part, '/')) {
      if (part.empty()) continue;
      path += "/" + part;
      struct stat st {};
      if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
      if (::mkdir(path.c_str(), 0755) != 0) fail("mkdir", path);
    }
    if (::chmod(path.c_str(), mode) != 0) fail("chmod", path);
  }

  void write(const std::string& rel, const std::string& content, unsigned mode = 0644) {
    parent_of(rel);
    std::string path = abs(rel);
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
    if (fd < 0) fail("open", path);
    std::size_t done = 0;
    while (done < content.size()) {
      ssize_t n = ::write(fd, content.data() + done, content.size() - done);
      if (n <= 0) {
        ::close(fd);
        fail("write", path);
      }
      done += static_cast<std::size_t>(n);
    }
    ::fchmod(fd, mode);
    ::close(fd);
  }

  void symlink(const std::string& rel, const std::string& target) {
    parent_of(rel);
    if (::symlink(target.c_str(), abs(rel).c_str()) != 0) fail("symlink", rel);
  }

  void hardlink(const std::string& existing_rel, const std::string& new_rel) {
    parent_of(new_rel);
    if (::link(abs(existing_rel).c_str(), abs(new_rel).c_str()) != 0) fail("link", new_rel);
  }

  void fifo(const std::string& rel) {
    parent_of(rel);
    if (::mkfifo(abs(rel).c_str(), 0644) != 0) fail("mkfifo", rel);
  }

  void rename(const std::string& from_rel, const std::string& to_rel) {
    parent_of(to_rel);
    if (::rename(abs(from_rel).c_str(), abs(to_rel).c_str()) != 0) fail("rename", from_rel);
  }

  void remove(const std::string& rel) { remove_all(abs(rel)); }

  bool exists(const std::string& rel) const {
    struct stat st {};
    return ::lstat(abs(rel).c_str(), &st) == 0;
  }

  std::string read(const std::string& rel) const {
    std::ifstream in(abs(rel), std::ios::binary);
    if (!in) throw std::runtime_error("fixture: cannot read " + rel);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }

  unsigned mode(const std::string& rel) const {
    struct stat st {};
    if (::lstat(abs(rel).c_str(), &st) != 0) fail("lstat", rel);
    return static_cast<unsigned>(st.st_mode & 07777);
  }

  std::map<std::string, std::string> snapshot(const std::string& rel = "") const {
    std::map<std::string, std::string> out;
    walk(rel.empty() ? root_ : abs(rel), "", out);
    return out;
  }

  /// Permission changes for posix-only tests (chmod 000 and back).
  void chmod(const std::string& rel, unsigned mode) {
    if (::chmod(abs(rel).c_str(), mode) != 0) fail("chmod", rel);
  }

 private:
  std::string root_;

  std::string abs(const std::string& rel) const { return rel.empty() ? root_ : root_ + "/" + rel; }

  void parent_of(const std::string& rel) {
    auto slash = rel.rfind('/');
    if (slash != std::string::npos) mkdir(rel.substr(0, slash));
  }

  [[noreturn]] static void fail(const char* what, const std::string& path) {
    throw std::runtime_error(std::string("fixture: ") + what + " " + path + ": " +
                             std::generic_category().message(errno));
  }

  void walk(const std::string& dir, const std::string& prefix,
            std::map<std::string, std::string>& out) const {
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return;
    std::vector<std::string> names;
    while (struct dirent* e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    ::closedir(d);
    for (const std::string& n : names) {
      std::string path = dir + "/" + n;
      std::string key = prefix.empty() ? n : prefix + "/" + n;
      struct stat st {};
      if (::lstat(path.c_str(), &st) != 0) continue;
      if (S_ISDIR(st.st_mode)) {
        out[key] = "d";
        walk(path, key, out);
      } else if (S_ISLNK(st.st_mode)) {
        std::vector<char> buf(4096);
        ssize_t n2 = ::readlink(path.c_str(), buf.data(), buf.size());
        out[key] = "l:" + std::string(buf.data(), n2 > 0 ? static_cast<std::size_t>(n2) : 0);
      } else if (S_ISREG(st.st_mode)) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream content;
        content << in.rdbuf();
        out[key] = "f:" + content.str() + ((st.st_mode & 0111) != 0 ? "+x" : "");
      } else {
        out[key] = "o";
      }
    }
  }

  static void unlock(const std::string& dir) {
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return;
    ::chmod(dir.c_str(), 0700);
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return;
    std::vector<std::string> names;
    while (struct dirent* e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    ::closedir(d);
    for (const std::string& n : names) unlock(dir + "/" + n);
  }

  static void remove_all(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
      DIR* d = ::opendir(path.c_str());
      if (d != nullptr) {
        std::vector<std::string> names;
        while (struct dirent* e = ::readdir(d)) {
          std::string n = e->d_name;
          if (n != "." && n != "..") names.push_back(n);
        }
        ::closedir(d);
        for (const std::string& n : names) remove_all(path + "/" + n);
      }
      ::rmdir(path.c_str());
    } else {
      ::unlink(path.c_str());
    }
  }
};

}  // namespace clawport::testing

using clawport::testing::posix_fixture;

#include "memory_fixture.hpp"

#define CLAWPORT_FS_FIXTURES posix_fixture, memory_fixture
