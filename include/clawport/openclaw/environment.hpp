// SPDX-License-Identifier: MIT
// What OpenClaw's paths resolve against (docs/openclaw.md): the state directory's two
// sources (--state-dir, OPENCLAW_STATE_DIR), the workspace variables, HOME and the working
// directory; and the one rule for the state directory, used by every claw and workspace
// command. Pure: the edge gathers the host environment (core/host.hpp) and calls
// `environment_of`.
#pragma once

#include "../core/config.hpp"
#include "../core/host.hpp"

#include <optional>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// The OpenClaw environment of one command.
struct environment {
  std::optional<std::string> state_dir;      ///< --state-dir (wins over the variable)
  std::optional<std::string> state_dir_env;  ///< OPENCLAW_STATE_DIR
  std::optional<std::string> workspace_dir;  ///< OPENCLAW_WORKSPACE_DIR
  std::optional<std::string> profile;        ///< OPENCLAW_PROFILE
  std::string home;                          ///< the home directory
  std::string cwd;                           ///< for relative paths
};

/// The OpenClaw environment from the host's and the `--state-dir` option (empty: not given).
/// A working directory that could not be read counts as `/`.
inline environment environment_of(const host_environment& host, const std::string& state_dir) {
  environment env;
  if (!state_dir.empty()) env.state_dir = state_dir;
  env.state_dir_env = host.openclaw_state_dir;
  env.workspace_dir = host.openclaw_workspace_dir;
  env.profile = host.openclaw_profile;
  env.home = host.home;
  env.cwd = host.cwd.empty() ? std::string("/") : host.cwd;
  return env;
}

namespace detail {

inline std::string expand_home(const std::string& p, const std::string& home) {
  if (p == "~") return home;
  if (p.rfind("~/", 0) == 0) return home + p.substr(1);
  return p;
}

/// Absolute and lexically normal (`.`, `..`, repeated `/` removed).
inline std::string lexical_absolute(const std::string& p, const std::string& cwd) {
  const std::string abs = !p.empty() && p[0] == '/' ? p : cwd + "/" + p;
  std::vector<std::string> parts;
  std::size_t from = 0;
  while (from <= abs.size()) {
    std::size_t slash = abs.find('/', from);
    if (slash == std::string::npos) slash = abs.size();
    const std::string part = abs.substr(from, slash - from);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    from = slash + 1;
  }
  std::string out;
  for (const auto& part : parts) out += "/" + part;
  return out.empty() ? "/" : out;
}

inline bool set(const std::optional<std::string>& v) { return v && !v->empty(); }

}  // namespace detail

/// A path an operator typed, as OpenClaw takes it: `~` expanded, made absolute against the
/// working directory, lexically normal.
inline std::string operator_path(const std::string& p, const environment& env) {
  return detail::lexical_absolute(detail::expand_home(p, env.home), env.cwd);
}

/// The state directory: --state-dir, else OPENCLAW_STATE_DIR, else `~/.openclaw`.
/// `explicit_dir` says whether it is a non-default one (OpenClaw then puts the default
/// workspace inside it).
inline std::string state_dir_of(const environment& env, bool* explicit_dir = nullptr) {
  std::string dir = env.home + "/.openclaw";
  bool chosen = false;
  if (detail::set(env.state_dir)) {
    dir = operator_path(*env.state_dir, env);
    chosen = true;
  } else if (detail::set(env.state_dir_env)) {
    dir = operator_path(*env.state_dir_env, env);
    chosen = true;
  }
  if (explicit_dir != nullptr) *explicit_dir = chosen && dir != env.home + "/.openclaw";
  return dir;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
