// SPDX-License-Identifier: MIT
// The skills commands' Runner policy: `skills test` runs TEST.sh commands and
// `skills install` runs the system's git through one call,
//
//   command_outcome run(const std::vector<std::string>& argv, const std::string& cwd,
//                       std::chrono::milliseconds timeout)
//
// (tests give fakes). `posix_runner` models it with the library's one process runner,
// `process::posix_runner` (process/runner.hpp: own process group, stdin /dev/null, only
// the environment given, a hard timeout on the command and all it started); the output
// is stdout then stderr, as upstream concatenates.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "../process/runner.hpp"
#include "test_script.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// The environment a test command or git gets: `NAME=value` strings, nothing else.
using process_env = process::environment;

/// The Runner policy over process::posix_runner.
class posix_runner {
 public:
  explicit posix_runner(process_env env) : runner_(std::move(env)) {}

  const process_env& env() const noexcept { return runner_.env(); }

  /// Runs `argv` in `cwd` (argv[0] is looked up in the environment's PATH when it has no '/').
  command_outcome run(const std::vector<std::string>& argv, const std::string& cwd,
                      std::chrono::milliseconds timeout) const {
    process::request r;
    r.argv = argv;
    r.cwd = cwd;
    r.timeout = timeout;
    process::outcome o = runner_.run(r);
    command_outcome out;
    out.exit = o.exit;
    out.output = std::move(o.out) + o.err;
    out.timed_out = o.timed_out;
    out.error = std::move(o.error);
    return out;
  }

 private:
  process::posix_runner runner_;
};

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
