// SPDX-License-Identifier: MIT
// The edge of the host environment: main reads the process's variables, its working
// directory and the clock here, once, and every command gets the result
// (clawport::host_environment, core/host.hpp). Nothing else in the tool or the library
// reads the environment.
#pragma once

#include <clawport/clawport.hpp>

#include <unistd.h>

#include <cstring>
#include <string>

extern "C" char** environ;

namespace clawport::cli {

/// The process environment; a name set twice keeps its first value, as getenv(3) does.
inline environment_map process_environment() {
  environment_map vars;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq == nullptr) continue;
    vars.emplace(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
  }
  return vars;
}

/// The working directory, or "" when it cannot be read.
inline std::string working_directory() {
  char buf[4096];
  return ::getcwd(buf, sizeof buf) != nullptr ? std::string(buf) : std::string();
}

/// The host environment of this run.
inline host_environment gather_process_host() {
  return gather_host(process_environment(), working_directory(), clock_now());
}

}  // namespace clawport::cli
