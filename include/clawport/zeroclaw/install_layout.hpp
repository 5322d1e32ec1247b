// SPDX-License-Identifier: MIT
// The ZeroClaw install layout: where an install keeps its config, what its root is, where an
// agent's workspace is by default, what of a workspace is the runtime's own state (the
// workspace filter), where a skill bundle's directory is, and which of a bundle's skills an
// agent loads (include/exclude). One rule each, used by the export planner, the skills
// reader, the exporter and the importer. Pure: strings in, strings out, no I/O.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../bundle/private_data.hpp"
#include "../core/error.hpp"
#include "../core/host.hpp"
#include "../core/paths.hpp"
#include "../core/text.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// The config file's name in an install (`$ZEROCLAW_CONFIG_DIR/config.toml`, else
/// `~/.zeroclaw/config.toml`; the caller resolves the environment).
inline constexpr std::string_view install_config_name = "config.toml";
/// The directory under the install root that holds every agent's own tree.
inline constexpr std::string_view install_agents_dir = "agents";
/// The directory under the install root that skill bundles must stay inside.
inline constexpr std::string_view install_shared_dir = "shared";
/// The key file that decrypts every `enc2:` value of the install's config.
inline constexpr std::string_view install_secret_key = ".secret_key";

/// The install root: the directory that holds the config file's *name*. A symlinked
/// config.toml (a dotfile manager's link) is followed to read the file, but the install
/// stays where the name is, as ZeroClaw's `config_dir` does. Lexical: "/" for a file at
/// the root, "." for a bare name (where core/paths.hpp `parent` says "").
inline std::string install_root_of(std::string_view config_path) {
  std::string root = paths::parent(config_path);
  return root.empty() ? std::string(".") : root;
}

/// The one refusal of a command that works in an install whose config does not exist
/// (`import`, `skills bundle add`): errc::not_found naming the config and the fix.
inline error missing_config_error(const std::string& config_path) {
  return error(errc::not_found,
               "the config " + config_path +
                   " does not exist; create the install first (a config.toml holding "
                   "`schema_version = 3` is an empty install)",
               config_path);
}

/// The default workspace of agent `alias`, relative to the install root.
inline std::string default_workspace(std::string_view alias) {
  return paths::join(paths::join(install_agents_dir, alias), "workspace");
}

/// Agent `alias`'s workspace directory: `[agents.A.workspace].path` verbatim when set
/// (relative values are taken from the install root), else the default under the root.
inline std::string agent_workspace_dir(std::string_view install_root, std::string_view alias,
                                       const std::optional<std::string>& configured = {}) {
  if (configured) return paths::join(install_root, *configured);
  return paths::join(install_root, default_workspace(alias));
}

/// The workspace filter (docs/library.md, Exporting): the agent's memory and its user's private
/// data stay with the install (bundle::private_workspace_entry, the one rule of both runtimes:
/// the store `memory/`, `MEMORY_SNAPSHOT.md`, `MEMORY.md` and `USER.md` in either case).
/// Anchored at the workspace root.
inline bool workspace_entry_included(std::string_view relative) noexcept {
  if (relative.empty()) return true;
  return !bundle::private_workspace_entry(relative);
}

/// A skill-bundle `directory` value as ZeroClaw reads it: trimmed of Unicode White_Space
/// (Rust `str::trim`), so "shared/skills/rt\u00a0" is "shared/skills/rt".
inline std::string_view skill_directory_value(std::string_view directory) noexcept {
  return text::trim(directory);
}

/// A skill bundle's directory (upstream `resolve_directory`): the trimmed `directory`;
/// unset or blank gives `<install>/shared/skills/<alias>`, absolute is used verbatim,
/// relative is joined to the install root without normalising.
inline std::string skill_bundle_directory(std::string_view install_root, std::string_view alias,
                                          std::optional<std::string_view> directory) {
  const std::string_view dir = directory ? skill_directory_value(*directory) : std::string_view{};
  if (dir.empty()) {
    return paths::join(paths::join(install_root, std::string(install_shared_dir) + "/skills"),
                       alias);
  }
  return paths::join(install_root, dir);
}

/// Which skills of a bundle an agent loads (upstream `SkillBundleConfig::admits_skill`),
/// by the skill's *logical* name (its manifest's name, as the runtime and `skills list`
/// use it; never the directory name). Exact, case-sensitive equality: no globs, no
/// trimming. An empty `include` admits every name; `exclude` always wins over `include`.
struct skill_filter {
  std::vector<std::string> include;
  std::vector<std::string> exclude;

  bool admits_skill(std::string_view name) const {
    if (!include.empty() && !has(include, name)) return false;
    return !has(exclude, name);
  }

  /// Why `admits_skill(name)` is false: "in exclude", "not in include", or "" if admitted.
  std::string_view rejection(std::string_view name) const {
    if (has(exclude, name)) return "in exclude";
    if (!include.empty() && !has(include, name)) return "not in include";
    return "";
  }

 private:
  static bool has(const std::vector<std::string>& list, std::string_view name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  }
};

/// Where ZeroClaw finds config.toml when no path is given: `$ZEROCLAW_CONFIG_DIR/config.toml`,
/// else `~/.zeroclaw/config.toml`.
inline std::string default_config_path(const host_environment& host) {
  if (host.zeroclaw_config_dir) {
    return paths::join(*host.zeroclaw_config_dir, install_config_name);
  }
  return host.home + "/.zeroclaw/" + std::string(install_config_name);
}

/// The config file a command works on: `option` (`--config`; empty: not given, then
/// default_config_path), absolute against the host's working directory (not normalised).
inline std::string config_path_of(const host_environment& host, const std::string& option) {
  return host.absolute(option.empty() ? default_config_path(host) : option);
}

/// ZeroClaw's memory store of an install (one for every agent, rows scoped by agent):
/// `<install>/data/memory/brain.db` (crates/zeroclaw-memory/src/sqlite.rs, on a V3 install).
inline std::string memory_store_path(std::string_view install_root) {
  return paths::join(install_root, "data/memory/brain.db");
}

/// The data directory of an install: `$ZEROCLAW_DATA_DIR` made absolute when set, else
/// empty (`<install>/data`, the skills reader's default).
inline std::string data_dir_of(const host_environment& host) {
  return host.zeroclaw_data_dir ? host.absolute(*host.zeroclaw_data_dir) : std::string();
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
