// SPDX-License-Identifier: MIT
// What OpenClaw's paths resolve against (docs/openclaw.md): the state directory's two
// sources (--state-dir, OPENCLAW_STATE_DIR), the workspace variables, the home directory
// (OPENCLAW_HOME, else HOME) and the working directory; the one rule for the state
// directory and the one rule for an agent's workspace (`agent_workspace`), used by every
// claw and workspace command. Pure: the edge gathers the host environment (core/host.hpp)
// and calls `environment_of`.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/host.hpp"
#include "../core/paths.hpp"
#include "../core/text.hpp"
#include "grammar.hpp"
#include "value.hpp"

#include <optional>
#include <string>
#include <string_view>
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
  std::string home;  ///< OpenClaw's home, absolute: OPENCLAW_HOME, else HOME; empty: none
  std::string cwd;   ///< for relative paths
};

namespace detail {

/// `home`, refused when there is none: a path under `~` would otherwise be one under `/`
/// (`/.openclaw`). Upstream falls back to the passwd entry (HOME unset) or the working
/// directory (HOME empty); the host environment cannot tell the two apart.
inline const std::string& require_home(const std::string& home) {
  if (home.empty()) {
    throw error(errc::invalid_argument,
                "HOME is empty or not set, so OpenClaw's home directory (~) is unknown; set HOME "
                "or OPENCLAW_HOME to a directory, or give --state-dir.",
                "HOME");
  }
  return home;
}

inline std::string expand_home(const std::string& p, const std::string& home) {
  if (p == "~") return require_home(home);
  if (p.rfind("~/", 0) == 0) return require_home(home) + p.substr(1);
  return p;
}

/// A home variable as upstream's normalizeHomeDirValue reads it: trimmed; "undefined" and
/// "null" are none.
inline std::string home_value(std::string_view v) {
  v = text::js_trim(v);
  return v == "undefined" || v == "null" ? std::string() : std::string(v);
}

/// Absolute and lexically normal (`.`, `..`, repeated `/` removed).
inline std::string lexical_absolute(const std::string& p, const std::string& cwd) {
  const std::string abs = paths::join(cwd, p);
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

/// The OpenClaw environment from the host's and the `--state-dir` option (empty: not given).
/// A working directory that could not be read counts as `/`. OPENCLAW_HOME replaces HOME
/// for everything OpenClaw puts under `~` (its own `~` is HOME's); a relative HOME or
/// OPENCLAW_HOME is taken from the working directory (node's path.resolve), as upstream's
/// resolveEffectiveHomeDir does. No home (HOME empty or unset) is refused where one is needed.
inline environment environment_of(const host_environment& host, const std::string& state_dir) {
  environment env;
  if (!state_dir.empty()) env.state_dir = state_dir;
  env.state_dir_env = host.openclaw_state_dir;
  env.workspace_dir = host.openclaw_workspace_dir;
  env.profile = host.openclaw_profile;
  env.cwd = host.cwd.empty() ? std::string("/") : host.cwd;
  const std::string os_home = detail::home_value(host.home);
  std::string h = host.openclaw_home ? detail::home_value(*host.openclaw_home) : std::string();
  if (h.empty()) {
    h = os_home;
  } else if (h == "~" || h.rfind("~/", 0) == 0) {
    h = os_home.empty() ? std::string() : os_home + h.substr(1);
  }
  if (!h.empty()) env.home = detail::lexical_absolute(h, env.cwd);
  return env;
}

/// A path an operator typed, as OpenClaw takes it: `~` expanded, made absolute against the
/// working directory, lexically normal.
inline std::string operator_path(const std::string& p, const environment& env) {
  return detail::lexical_absolute(detail::expand_home(p, env.home), env.cwd);
}

/// The state directory: --state-dir, else OPENCLAW_STATE_DIR, else `~/.openclaw`.
/// `explicit_dir` says whether it is a non-default one (OpenClaw then puts the default
/// workspace inside it).
inline std::string state_dir_of(const environment& env, bool* explicit_dir = nullptr) {
  bool chosen = false;
  std::string dir;
  if (detail::set(env.state_dir)) {
    dir = operator_path(*env.state_dir, env);
    chosen = true;
  } else if (detail::set(env.state_dir_env)) {
    dir = operator_path(*env.state_dir_env, env);
    chosen = true;
  } else {
    dir = detail::require_home(env.home) + "/.openclaw";
  }
  if (explicit_dir != nullptr)
    *explicit_dir = chosen && (env.home.empty() || dir != env.home + "/.openclaw");
  return dir;
}

// ---------------------------------------------------------------------------------------
// Agents and their workspaces (upstream src/agents/agent-scope.ts, resolveAgentWorkspaceDir)
// ---------------------------------------------------------------------------------------

/// One agent configured in openclaw.json. Upstream's roster is `agents.entries` (in key
/// order) when that member is there, else the legacy `agents.list[n]` (objects with a
/// string `id`); never both (agent-roster.ts, readAgentRosterProperty).
struct configured_agent {
  std::string id;
  const value* entry = nullptr;  ///< into the config it was read from
  std::string where;             ///< `agents.entries.<id>` or `agents.list[<n>]`
};

inline std::vector<configured_agent> configured_agents(const value& config) {
  std::vector<configured_agent> out;
  if (!config.is_object() || !config.contains("agents") || !config["agents"].is_object())
    return out;
  const value& agents = config["agents"];
  if (agents.contains("entries")) {
    if (agents["entries"].is_object())
      for (auto it = agents["entries"].begin(); it != agents["entries"].end(); ++it)
        if (it.value().is_object())
          out.push_back({it.key(), &it.value(), "agents.entries." + it.key()});
    return out;
  }
  if (agents.contains("list") && agents["list"].is_array()) {
    std::size_t n = 0;
    for (const value& e : agents["list"]) {
      if (e.is_object() && e.contains("id") && e["id"].is_string())
        out.push_back({e["id"].get<std::string>(), &e, "agents.list[" + std::to_string(n) + "]"});
      ++n;
    }
  }
  return out;
}

namespace detail {

inline bool explicit_ownership(const value& config) {
  return config.is_object() && config.contains("agents") && config["agents"].is_object() &&
         config["agents"].contains("ownership") && config["agents"]["ownership"] == "explicit";
}

inline std::vector<std::string> marked_default(const std::vector<configured_agent>& agents) {
  std::vector<std::string> out;
  for (const auto& a : agents)
    if (a.entry->contains("default") && (*a.entry)["default"] == true) out.push_back(a.id);
  return out;
}

}  // namespace detail

/// Why OpenClaw refuses the roster of `config` (its config schema, zod-schema.ts
/// AgentsSchema), as `<field>: <upstream's message>`; none when it loads. Every command
/// that reads openclaw.json refuses such a config (upstream: "OpenClaw config is invalid").
inline std::optional<std::string> roster_problem(const value& config) {
  if (!config.is_object() || !config.contains("agents") || !config["agents"].is_object())
    return std::nullopt;
  const value& agents = config["agents"];
  if (agents.contains("entries") && agents.contains("list"))
    return std::string("agents: Unrecognized key: \"list\"");
  const std::vector<configured_agent> roster = configured_agents(config);
  const std::size_t marked = detail::marked_default(roster).size();
  const bool explicit_owner = detail::explicit_ownership(config);
  if (marked > 1)
    return "agents.entries: agents.entries must contain at most one default=true entry (found " +
           std::to_string(marked) + ")";
  if (explicit_owner && marked > 0)
    return std::string(
        "agents.ownership: agents.ownership=explicit cannot be combined with a legacy "
        "default=true marker");
  if (roster.size() > 1 && marked == 0 && !explicit_owner)
    return std::string(
        "agents.ownership: multi-agent rosters require agents.ownership=\"explicit\" or one "
        "legacy default=true marker; add agents.ownership=\"explicit\" or run openclaw doctor");
  return std::nullopt;
}

/// The agent that owns the default workspace (agent-roster.ts, tryResolveDefaultAgentId):
/// without `agents.ownership: "explicit"` the one entry marked `default: true`; else the
/// sole configured agent; the implicit `main` when none is configured; none when several
/// are and no marker decides (an explicit roster has no default agent).
inline std::optional<std::string> default_agent_id(const value& config) {
  const std::vector<configured_agent> agents = configured_agents(config);
  if (!detail::explicit_ownership(config)) {
    const std::vector<std::string> marked = detail::marked_default(agents);
    if (marked.size() == 1) return marked.front();
  }
  if (agents.empty()) return std::string("main");
  if (agents.size() == 1) return agents.front().id;
  return std::nullopt;
}

/// An agent id an operator typed (`--agent-id`): OpenClaw's agent-id shape, so it can
/// never name a path outside the state directory. Throws errc::invalid_argument naming
/// the option.
inline void check_agent_id_option(const std::string& id) {
  if (!is_agent_id(id))
    throw error(errc::invalid_argument,
                "--agent-id " + id +
                    ": an agent id must match ^[a-z][a-z0-9_-]{0,63}$ (lowercase letters, "
                    "digits, `_` and `-`, starting with a letter)",
                "--agent-id");
}

/// Where an agent's workspace is and the rule that decided.
struct workspace_resolution {
  std::string path;  ///< absolute, lexically normal (not canonicalised on disk)
  std::string rule;
};

namespace detail {

/// A non-blank string member, trimmed as JavaScript's trim() does.
inline std::optional<std::string> trimmed_string(const value* v, const char* key) {
  if (v == nullptr || !v->is_object() || !v->contains(key) || !(*v)[key].is_string())
    return std::nullopt;
  const std::string s = std::string(text::js_trim((*v)[key].get<std::string>()));
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace detail

namespace detail {

/// OPENCLAW_PROFILE as upstream's workspace-default-path.ts takes it: trimmed; blank or
/// `default` (any case) is no profile; a name outside ^[a-z0-9][a-z0-9_-]{0,63}$ (any case)
/// is refused, as upstream's resolveProfileStateDir refuses it.
inline std::optional<std::string> profile_of(const environment& env) {
  if (!env.profile) return std::nullopt;
  const std::string p(text::js_trim(*env.profile));
  if (p.empty() || text::iequals_ascii(p, "default")) return std::nullopt;
  bool ok = p.size() <= 64;
  for (std::size_t i = 0; ok && i < p.size(); ++i) {
    const char c = p[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    ok = alnum || (i > 0 && (c == '_' || c == '-'));
  }
  if (!ok)
    throw error(errc::invalid_argument,
                "OPENCLAW_PROFILE " + *env.profile +
                    ": Invalid profile name (use letters, numbers, \"_\", \"-\" only)",
                "OPENCLAW_PROFILE");
  return p;
}

}  // namespace detail

/// The one workspace rule of every claw and workspace command (agent-scope-config.ts,
/// resolveAgentWorkspaceDir): the agent's own `workspace`; for the default agent
/// (`default_agent_id`) `agents.defaults.workspace`, else OPENCLAW_WORKSPACE_DIR, else
/// `<state-dir>/workspace` when a state directory is given, else
/// `~/.openclaw-<profile>/workspace` (OPENCLAW_PROFILE; the state directory stays
/// `~/.openclaw`), else `~/.openclaw/workspace`; for any other agent (every agent of an
/// explicit roster of several) `<agents.defaults.workspace>/<id>`, else
/// `<state-dir>/workspace-<id>`.
inline workspace_resolution agent_workspace(const value& config, const environment& env,
                                            const std::string& id) {
  for (const auto& a : configured_agents(config))
    if (a.id == id)
      if (auto own = detail::trimmed_string(a.entry, "workspace"))
        return {operator_path(*own, env), a.where + ".workspace"};
  const value* agents =
      config.is_object() && config.contains("agents") ? &config["agents"] : nullptr;
  const value* defaults = agents && agents->is_object() && agents->contains("defaults")
                              ? &(*agents)["defaults"]
                              : nullptr;
  const std::optional<std::string> shared = detail::trimmed_string(defaults, "workspace");
  const std::string state_dir = state_dir_of(env);
  // Any state directory given, the default one named too (workspace-default-path.ts).
  const bool explicit_state = detail::set(env.state_dir) || detail::set(env.state_dir_env);
  if (id != default_agent_id(config)) {
    if (shared)
      return {operator_path(paths::join(*shared, id), env), "agents.defaults.workspace/<agentId>"};
    return {state_dir + "/workspace-" + id, "per-agent default <state-dir>/workspace-<agentId>"};
  }
  if (shared) return {operator_path(*shared, env), "agents.defaults.workspace"};
  if (detail::set(env.workspace_dir))
    return {operator_path(*env.workspace_dir, env), "OPENCLAW_WORKSPACE_DIR"};
  if (explicit_state)
    return {state_dir + "/workspace", "OPENCLAW_STATE_DIR (<state-dir>/workspace)"};
  if (const auto profile = detail::profile_of(env))
    return {detail::require_home(env.home) + "/.openclaw-" + *profile + "/workspace",
            "OPENCLAW_PROFILE (~/.openclaw-<profile>/workspace)"};
  return {detail::require_home(env.home) + "/.openclaw/workspace",
          "default (~/.openclaw/workspace)"};
}

/// Where `claw add` puts a new agent's workspace unless --workspace says:
/// `<state-dir>/workspace-<id>`, whatever the roster (an id that collides with a
/// configured agent does not take that agent's workspace) and whatever
/// `agents.defaults.workspace` says. Upstream 2026.9.6 uses `$HOME/.openclaw/workspace-<id>`
/// whatever the state directory; with the default one the two agree (docs/openclaw.md).
inline std::string new_agent_workspace(const environment& env, const std::string& id) {
  return state_dir_of(env) + "/workspace-" + id;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
