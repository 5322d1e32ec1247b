// SPDX-License-Identifier: MIT
// The CLI's shared options, each defined once (issue 41 item 17): `--config`, `--state-dir`,
// `--jobs` (an empty value is bad usage, exit 2), and the process umask the copying commands
// read once.
#pragma once

#include <CLI/CLI.hpp>
#include <clawport/clawport.hpp>

#include <cstdint>
#include <string>

#include <sys/stat.h>

namespace clawport::cli {

/// The process umask, for the commands that copy files in (`import`, `skills install`:
/// fs::copied_mode). umask(2) can only be read by setting it, so it is put straight back;
/// a command calls this once, before it starts any thread.
inline std::uint32_t process_umask() {
  const ::mode_t mask = ::umask(0);
  ::umask(mask);
  return static_cast<std::uint32_t>(mask);
}

/// `--jobs N` of the commands that read and copy many files (`export`, `verify`, `import`,
/// `convert`):
/// threads that open, read, hash and write them; the output is the same for every N.
/// Defaults to the CPUs the process may use, at most 8 (fs::default_jobs).
/// `work` says what the threads do (`verify` copies nothing).
inline CLI::Option* add_jobs_option(CLI::App* cmd, unsigned& jobs,
                                    const char* work = "read, hash and copy files") {
  jobs = clawport::fs::default_jobs();
  return cmd
      ->add_option("--jobs", jobs,
                   std::string("threads that ") + work +
                       " (default: the CPUs this process may use, at most 8); the output is "
                       "the same for every value")
      ->check(CLI::Range(1u, 256u));
}

/// A CLI11 check that refuses an empty value (an unset shell variable): bad usage, exit 2,
/// rather than the current directory.
inline CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& value) {
        return value.empty() ? std::string("must not be empty (an unset shell variable?)")
                             : std::string();
      },
      "NONEMPTY", "NONEMPTY");
}

/// `--config F` of every ZeroClaw command, defined once (issue 41 item 17): an empty value
/// is bad usage, never the default config (`skills bundle add` would rewrite it).
inline CLI::Option* add_config_option(CLI::App* cmd, std::string& config,
                                      const char* what = "the install's config.toml") {
  return cmd
      ->add_option("--config", config,
                   std::string(what) +
                       " (default: $ZEROCLAW_CONFIG_DIR/config.toml, else ~/.zeroclaw/config.toml)")
      ->check(non_empty());
}

/// `--state-dir D` of every OpenClaw command, defined once: an empty value is bad usage,
/// never the default state directory.
inline CLI::Option* add_state_dir_option(CLI::App* cmd, std::string& state_dir) {
  return cmd
      ->add_option("--state-dir", state_dir,
                   "the OpenClaw state directory (default: $OPENCLAW_STATE_DIR, else ~/.openclaw)")
      ->check(non_empty());
}

}  // namespace clawport::cli
