// SPDX-License-Identifier: MIT
// The one lexical path arithmetic (core/paths.hpp): `join`, `parent` and `file_name` on every
// edge the library meets ("", "/", "a", "a/", "/a", repeated and trailing '/'), and the
// identity that makes them one rule: join(parent(p), file_name(p)) names p again.
#include "support/test.hpp"

#include <string>

namespace paths = clawport::paths;

TEST_CASE("paths::join: one '/' between, an absolute part wins, an empty base is here") {
  CHECK(paths::join("a", "b") == "a/b");
  CHECK(paths::join("a/", "b") == "a/b");
  CHECK(paths::join("/", "b") == "/b");
  CHECK(paths::join("/a", "b/c") == "/a/b/c");
  // An absolute second part replaces the base (Rust's Path::join), never "a//b".
  CHECK(paths::join("a", "/b") == "/b");
  CHECK(paths::join("/root", "/etc/x") == "/etc/x");
  // An empty base is the current directory: "b", not "/b".
  CHECK(paths::join("", "b") == "b");
  CHECK(paths::join("", "/b") == "/b");
  // An empty part keeps the base, with a trailing '/'.
  CHECK(paths::join("a", "") == "a/");
  CHECK(paths::join("", "") == "");
  // Never normalizes.
  CHECK(paths::join("a/.", "../b") == "a/./../b");
}

TEST_CASE("paths::file_name: the last component as written, none for \"\" and \"/\"") {
  CHECK(paths::file_name("") == "");
  CHECK(paths::file_name("/") == "");
  CHECK(paths::file_name("//") == "");
  CHECK(paths::file_name("a") == "a");
  CHECK(paths::file_name("a/") == "a");
  CHECK(paths::file_name("a//") == "a");
  CHECK(paths::file_name("/a") == "a");
  CHECK(paths::file_name("/a/b.toml") == "b.toml");
  CHECK(paths::file_name("a//b") == "b");
  CHECK(paths::file_name("a/.") == ".");
  CHECK(paths::file_name("a/..") == "..");
}

TEST_CASE("paths::parent: the path less its last component; the root is its own parent") {
  CHECK(paths::parent("") == "");
  CHECK(paths::parent("/") == "/");
  CHECK(paths::parent("//") == "/");
  CHECK(paths::parent("a") == "");
  CHECK(paths::parent("a/") == "");
  CHECK(paths::parent("/a") == "/");
  CHECK(paths::parent("/a/") == "/");
  CHECK(paths::parent("//a") == "/");
  CHECK(paths::parent("/a/b") == "/a");
  CHECK(paths::parent("/a/b/") == "/a");
  CHECK(paths::parent("a/b") == "a");
  CHECK(paths::parent("a//b") == "a");
  CHECK(paths::parent("a/b/c.toml") == "a/b");
  // Lexical: ".." is a component like any other.
  CHECK(paths::parent("a/..") == "a");
}

TEST_CASE("paths: join(parent(p), file_name(p)) names p again") {
  for (const char* p : {"a", "/a", "a/b", "/a/b/c", "a/b/", "/a/b/"}) {
    const std::string s(p);
    const std::string want = s.size() > 1 && s.back() == '/' ? s.substr(0, s.size() - 1) : s;
    CHECK(paths::join(paths::parent(p), paths::file_name(p)) == want);
  }
}
