// SPDX-License-Identifier: MIT
// The host environment: everything the tool takes from the machine it runs on, gathered
// once at the edge (the CLI's main, each entry point of the C binding) and passed into the
// library, which never reads the process environment, the working directory or the clock
// itself. `gather_host` is pure: a map of variables, a working directory and a clock
// reading in, the struct out (tests pass a fake map). `gather_process_host` is the one
// function that reads them from the process (`environ`, getcwd, the clock), for the edges
// to call and nothing else.
#pragma once

#include "config.hpp"
#include "paths.hpp"
#include "time.hpp"

#include <unistd.h>

#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

extern "C" char** environ;  // POSIX; not every libc declares it in <unistd.h>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

/// The process environment as `NAME` → value (the edge copies `environ`; tests make one up).
using environment_map = std::map<std::string, std::string>;

/// The variables a child process (a skill's TEST.sh command, git) may see, in this order,
/// copied from the host when set; nothing else is inherited.
inline const std::vector<std::string>& child_env_allow_list() {
  static const std::vector<std::string> names{"PATH",   "HOME",         "TERM", "LANG",
                                              "LC_ALL", "LC_CTYPE",     "USER", "SHELL",
                                              "TMPDIR", "SSH_AUTH_SOCK"};
  return names;
}

/// The PATH a child process gets when the host has none.
inline constexpr const char* child_default_path = "PATH=/usr/local/bin:/usr/bin:/bin";

/// What the tool reads from the machine, once.
struct host_environment {
  /// $HOME verbatim ("" when unset): `~` and the default ZeroClaw and OpenClaw directories.
  std::string home;
  /// The working directory relative paths are taken against ("" when it could not be read).
  std::string cwd;
  std::optional<std::string> zeroclaw_config_dir;     ///< $ZEROCLAW_CONFIG_DIR, when non-empty
  std::optional<std::string> zeroclaw_data_dir;       ///< $ZEROCLAW_DATA_DIR, when non-empty
  std::optional<std::string> openclaw_state_dir;      ///< $OPENCLAW_STATE_DIR, when non-empty
  std::optional<std::string> openclaw_workspace_dir;  ///< $OPENCLAW_WORKSPACE_DIR, non-empty
  std::optional<std::string> openclaw_profile;        ///< $OPENCLAW_PROFILE, when non-empty
  std::optional<std::string> openclaw_home;           ///< $OPENCLAW_HOME, when non-empty
  /// $SOURCE_DATE_EPOCH as set (validated only when `now()` is asked for, so a command
  /// that stamps nothing is not refused for it).
  std::optional<std::string> source_date_epoch;
  /// $SSH_AUTH_SOCK, when non-empty: handed to `ssh-keygen -Y sign` only (a signing key
  /// whose private half is in ssh-agent), never to any other child.
  std::optional<std::string> ssh_auth_sock;
  /// The clock, read once when the environment was gathered.
  timestamp clock;
  /// `NAME=value` for each allowed variable (child_env_allow_list) that is set; PATH is
  /// always there (child_default_path when the host has none).
  std::vector<std::string> child_env;
  /// Where private temporary directories go: $TMPDIR when absolute, else `/tmp`.
  std::string temp_root = "/tmp";
  /// Human output in plain characters (text::marks_for): $NO_COLOR set and not empty, or
  /// $TERM=dumb.
  bool plain_text = false;

  /// The instant to stamp on output: SOURCE_DATE_EPOCH (whole seconds) when set, else the
  /// clock with its nanoseconds. Throws errc::invalid_argument when SOURCE_DATE_EPOCH is
  /// malformed (parse_source_date_epoch).
  timestamp now() const {
    if (source_date_epoch) {
      if (auto t = parse_source_date_epoch(source_date_epoch->c_str())) return *t;
    }
    return clock;
  }

  /// `path` made absolute against the working directory (no normalisation): the Fs policy
  /// opens absolute paths only.
  std::string absolute(const std::string& path) const {
    if (!path.empty() && path.front() == '/') return path;
    return paths::join(cwd.empty() ? std::string("/") : cwd, path);  // unread: the root
  }

  /// $HOME when it is an absolute path (what the export guards), else nullopt.
  std::optional<std::string> absolute_home() const {
    if (!home.empty() && home.front() == '/') return home;
    return std::nullopt;
  }
};

namespace detail {

inline std::optional<std::string> non_empty_var(const environment_map& vars, const char* name) {
  const auto it = vars.find(name);
  if (it == vars.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

}  // namespace detail

/// The environment a child process sees, from the host's variables: the allowed ones that
/// are set (an empty value included), in the allow-list's order, and a PATH always.
inline std::vector<std::string> child_environment(const environment_map& vars) {
  std::vector<std::string> env;
  bool has_path = false;
  for (const std::string& name : child_env_allow_list()) {
    const auto it = vars.find(name);
    if (it == vars.end()) continue;
    env.push_back(name + "=" + it->second);
    has_path = has_path || name == "PATH";
  }
  if (!has_path) env.emplace_back(child_default_path);
  return env;
}

/// Gathers the host environment from the process's variables, its working directory and
/// one clock reading. Pure.
inline host_environment gather_host(const environment_map& vars, std::string cwd, timestamp clock) {
  host_environment h;
  if (const auto it = vars.find("HOME"); it != vars.end()) h.home = it->second;
  h.cwd = std::move(cwd);
  h.zeroclaw_config_dir = detail::non_empty_var(vars, "ZEROCLAW_CONFIG_DIR");
  h.zeroclaw_data_dir = detail::non_empty_var(vars, "ZEROCLAW_DATA_DIR");
  h.openclaw_state_dir = detail::non_empty_var(vars, "OPENCLAW_STATE_DIR");
  h.openclaw_workspace_dir = detail::non_empty_var(vars, "OPENCLAW_WORKSPACE_DIR");
  h.openclaw_profile = detail::non_empty_var(vars, "OPENCLAW_PROFILE");
  h.openclaw_home = detail::non_empty_var(vars, "OPENCLAW_HOME");
  h.source_date_epoch = detail::non_empty_var(vars, "SOURCE_DATE_EPOCH");
  h.ssh_auth_sock = detail::non_empty_var(vars, "SSH_AUTH_SOCK");
  h.clock = clock;
  h.child_env = child_environment(vars);
  const auto tmp = detail::non_empty_var(vars, "TMPDIR");
  if (tmp && tmp->front() == '/') h.temp_root = *tmp;
  const auto term = vars.find("TERM");
  h.plain_text = detail::non_empty_var(vars, "NO_COLOR").has_value() ||
                 (term != vars.end() && term->second == "dumb");
  return h;
}

/// The process's environment; a name set twice keeps its first value, as getenv(3) does.
/// Only an edge calls it (gather_process_host).
inline environment_map process_environment() {
  environment_map vars;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq == nullptr) continue;
    vars.emplace(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
  }
  return vars;
}

/// The process's working directory, or "" when it cannot be read.
inline std::string process_working_directory() {
  char buf[4096];
  return ::getcwd(buf, sizeof buf) != nullptr ? std::string(buf) : std::string();
}

/// The host environment of this process, now: its variables, its working directory and one
/// clock reading. The edges call it once per run (the CLI's main) or per call (each entry
/// point of the C binding); the library is given the result.
inline host_environment gather_process_host() {
  return gather_host(process_environment(), process_working_directory(), clock_now());
}

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
