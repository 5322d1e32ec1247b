// SPDX-License-Identifier: MIT
#include "support/test.hpp"

#include <set>
#include <string_view>

TEST_CASE("error carries code, message, subject and errno") {
  const clawport::error e(clawport::errc::unsafe_path, "refusing to follow a symlink at \"a/b\"",
                          "a/b", 40);
  CHECK(e.code() == clawport::errc::unsafe_path);
  CHECK(std::string(e.what()) == "refusing to follow a symlink at \"a/b\"");
  CHECK(e.subject() == "a/b");
  CHECK(e.sys_errno() == 40);
}

TEST_CASE("error code wire names are stable") {
  using clawport::errc;
  CHECK(clawport::to_string(errc::invalid_argument) == "invalid_argument");
  CHECK(clawport::to_string(errc::io) == "io");
  CHECK(clawport::to_string(errc::unsafe_path) == "unsafe_path");
  CHECK(clawport::to_string(errc::dangling_reference) == "dangling_reference");
  CHECK(clawport::to_string(errc::ciphertext) == "ciphertext");
  CHECK(clawport::to_string(errc::unsupported) == "unsupported");
}

TEST_CASE("every code's wire name round-trips and is unique") {
  using clawport::errc;
  std::set<std::string_view> seen;
  for (std::size_t k = 0;; ++k) {
    const auto code = static_cast<errc>(k);
    const std::string_view name = clawport::to_string(code);
    if (name == "unknown") break;
    CHECK(seen.insert(name).second);
    REQUIRE(clawport::errc_from_string(name).has_value());
    CHECK(*clawport::errc_from_string(name) == code);
  }
  CHECK(seen.size() > 100);
  CHECK_FALSE(clawport::errc_from_string("no_such_code").has_value());
  CHECK_FALSE(clawport::errc_from_string("unknown").has_value());
}

TEST_CASE("OpenClaw's codes are in the one vocabulary with upstream's wire names") {
  using clawport::errc;
  CHECK(clawport::to_string(errc::read_failed) == "read_failed");
  CHECK(clawport::to_string(errc::invalid_openclaw_profile) == "invalid_openclaw_profile");
  CHECK(clawport::to_string(errc::deprecated_openclaw_profile_pointer) ==
        "deprecated_openclaw_profile_pointer");
  CHECK(clawport::to_string(errc::workspace_sources_too_large) == "workspace_sources_too_large");
  CHECK(clawport::to_string(errc::export_write_failed) == "export_write_failed");
  CHECK(clawport::to_string(errc::plan_integrity_mismatch) == "plan_integrity_mismatch");
  CHECK(clawport::to_string(errc::claw_v1_invalid_manifest_shape) ==
        "claw_v1_invalid_manifest_shape");
  // The first twenty-one keep their numbers (codes are only ever appended).
  CHECK(static_cast<int>(errc::cancelled) == 20);
}

TEST_CASE("the one context wrapper: \"{context}: {reason}\" keeping errno and subject") {
  using clawport::errc;
  const clawport::error cause(errc::io, "open(\"x\") failed: Permission denied", "x", 13);
  const clawport::error same = clawport::with_context(cause, "failed to open base", "base");
  CHECK(same.code() == errc::io);
  CHECK(std::string(same.what()) == "failed to open base: open(\"x\") failed: Permission denied");
  CHECK(same.subject() == "base");
  CHECK(same.sys_errno() == 13);
  const clawport::error recoded =
      clawport::with_context(errc::publish_failed, cause, "failed to inspect destination d", "d");
  CHECK(recoded.code() == errc::publish_failed);
  CHECK(std::string(recoded.what()) ==
        "failed to inspect destination d: open(\"x\") failed: Permission denied");
  // reason_of words the reason from errno (a backend's framing dropped); the rest is kept.
  try {
    throw clawport::with_context(cause, "failed to open workspace/notes.md", "workspace/notes.md",
                                 clawport::reason_of(cause));
  } catch (const clawport::error& e) {
    CHECK(std::string(e.what()) == "failed to open workspace/notes.md: Permission denied");
    CHECK(e.code() == errc::io);
    CHECK(e.sys_errno() == 13);
    CHECK(e.subject() == "workspace/notes.md");
  }
}

TEST_CASE("version string matches the version macros") {
  const std::string expected = std::to_string(CLAWPORT_VERSION_MAJOR) + "." +
                               std::to_string(CLAWPORT_VERSION_MINOR) + "." +
                               std::to_string(CLAWPORT_VERSION_PATCH);
  CHECK(clawport::version_string == expected);
  CHECK(clawport::bundle_format_version == 1);
}
