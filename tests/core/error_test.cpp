// SPDX-License-Identifier: MIT
#include "support/test.hpp"

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

TEST_CASE("version string matches the version macros") {
  const std::string expected = std::to_string(CLAWPORT_VERSION_MAJOR) + "." +
                               std::to_string(CLAWPORT_VERSION_MINOR) + "." +
                               std::to_string(CLAWPORT_VERSION_PATCH);
  CHECK(clawport::version_string == expected);
  CHECK(clawport::bundle_format_version == 1);
}
