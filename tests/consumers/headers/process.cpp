// SPDX-License-Identifier: MIT
// <clawport/process.hpp> alone: the one process runner runs /bin/sh with only the
// environment given and a file as stdin, and returns stdout and stderr apart.
#include <clawport/process.hpp>

#include <chrono>

int header_process() {
  namespace p = clawport::process;
  p::request r;
  r.argv = {"/bin/sh", "-c", "read line; echo \"$line $GREETING\"; echo err >&2"};
  r.stdin_path = "/dev/null";
  r.timeout = std::chrono::milliseconds(10000);
  const p::outcome o = p::posix_runner({"GREETING=hello"}).run(r);
  return o.error.empty() && o.exit == 0 && o.out == " hello\n" && o.err == "err\n" ? 0 : 1;
}
