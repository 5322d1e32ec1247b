// SPDX-License-Identifier: MIT
// The one process runner (process/runner.hpp): stdin from a file or /dev/null, stdout and
// stderr captured apart, a session of its own, and a stdin file that cannot be opened.
#include "support/test.hpp"

#include "fs/fixture.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>

TEST_CASE("process::posix_runner: stdin from a file, stdout and stderr apart, a session") {
  namespace proc = clawport::process;
  clawport::testing::posix_fixture f;
  f.write("input", "line one\n");
  const proc::posix_runner runner({"PATH=/usr/bin:/bin", "GREETING=hi"});
  proc::request r;
  r.timeout = std::chrono::milliseconds(20000);

  SUBCASE("stdin is the file asked for; the streams are captured apart") {
    r.argv = {"/bin/sh", "-c", "read -r l; echo \"$l $GREETING\"; echo oops >&2; exit 3"};
    r.stdin_path = f.root_path() + "/input";
    const proc::outcome o = runner.run(r);
    CHECK(o.error.empty());
    CHECK(o.exit == 3);
    CHECK(o.out == "line one hi\n");
    CHECK(o.err == "oops\n");
  }
  SUBCASE("without a stdin file it reads /dev/null; an empty cwd is the caller's") {
    r.argv = {"/bin/sh", "-c", "if read -r l; then echo got; else echo eof; fi; pwd"};
    char here[4096];
    REQUIRE(::getcwd(here, sizeof here) != nullptr);
    const proc::outcome o = runner.run(r);
    CHECK(o.out == "eof\n" + std::string(here) + "\n");
  }
#if defined(__linux__)
  SUBCASE("new_session: the command leads a session of its own (no terminal to prompt on)") {
    // /proc/<pid>/stat: pid (comm) state ppid pgrp session ...
    r.argv = {"/bin/sh", "-c", "read -r pid comm st pp pg sid rest < /proc/$$/stat; echo $sid $$"};
    r.new_session = true;
    const proc::outcome o = runner.run(r);
    REQUIRE(o.exit == 0);
    const std::string sid = o.out.substr(0, o.out.find(' '));
    CHECK(o.out == sid + " " + sid + "\n");
    r.new_session = false;
    const proc::outcome same = runner.run(r);
    const std::string caller = same.out.substr(0, same.out.find(' '));
    CHECK(same.out != caller + " " + caller + "\n");
  }
#endif
  SUBCASE("a stdin file that cannot be opened: nothing runs, the error names it") {
    r.argv = {"/bin/sh", "-c", "touch ran"};
    r.cwd = f.root_path();
    r.stdin_path = f.root_path() + "/missing";
    const proc::outcome o = runner.run(r);
    CHECK(o.exit == -1);
    CHECK(o.error_number == ENOENT);
    CHECK(o.error.find(f.root_path() + "/missing") != std::string::npos);
    CHECK_FALSE(f.exists("ran"));
  }
}
