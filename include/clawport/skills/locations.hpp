// SPDX-License-Identifier: MIT
// Where skills live (docs/library.md, Skills): the skill part of config.toml, bundle
// directory resolution, the lexical `validate_directory` contract and directory
// uniqueness, agent workspaces and the global directory. Pure: no filesystem access.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../zeroclaw/install_layout.hpp"
#include "filter.hpp"
#include "manifest.hpp"
#include "text.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// `[skill_bundles.<alias>]`.
struct skill_bundle_config {
  std::optional<std::string> directory;  ///< as written; see `resolve_directory`
  bundle_filter filter;
};

/// The skill-related part of `[agents.<alias>]`.
struct agent_skills_config {
  std::vector<std::string> skill_bundles;     ///< in list order (it is the precedence)
  std::optional<std::string> workspace_path;  ///< `[agents.A.workspace].path`, verbatim
};

/// Everything in config.toml that decides which skills an agent loads.
struct skills_config {
  std::map<std::string, skill_bundle_config> bundles;
  std::map<std::string, agent_skills_config> agents;
  bool allow_scripts = false;  ///< `[skills] allow_scripts`
};

/// Reads the skill-related tables of a config.toml. Throws `errc::config_parse` on a
/// syntax error and `errc::config_invalid` (subject = the field) on a wrong type.
inline skills_config parse_skills_config(std::string_view config_text,
                                         const std::string& subject = "config.toml") {
  const toml::table root = detail::parse_toml(config_text, subject);
  skills_config cfg;
  const auto bad = [](const std::string& field, const char* want) {
    return error(errc::config_invalid, field + " must be " + want, field);
  };
  const auto strings = [&](const toml::node& n, const std::string& field) {
    std::vector<std::string> out;
    const toml::array* a = n.as_array();
    if (!a) throw bad(field, "an array of strings");
    for (const toml::node& e : *a) {
      if (!e.is_string()) throw bad(field, "an array of strings");
      out.push_back(e.as_string()->get());
    }
    return out;
  };
  const auto text = [&](const toml::table& t, const char* key,
                        const std::string& field) -> std::optional<std::string> {
    const toml::node* n = t.get(key);
    if (!n) return std::nullopt;
    if (!n->is_string()) throw bad(field, "a string");
    return n->as_string()->get();
  };
  // Each `[<name>.<alias>]` table, handed to `read` with its alias and its field path.
  const auto each_aliased = [&](const std::string& name, const auto& read) {
    const toml::node* n = root.get(name);
    if (!n) return;
    const toml::table* t = n->as_table();
    if (!t) throw bad(name, "a table");
    for (const auto& [k, v] : *t) {
      const std::string alias(k.str());
      const std::string field = name + "." + alias;
      const toml::table* at = v.as_table();
      if (!at) throw bad(field, "a table");
      read(alias, field, *at);
    }
  };
  each_aliased("skill_bundles",
               [&](const std::string& alias, const std::string& field, const toml::table& t) {
                 skill_bundle_config b;
                 b.directory = text(t, "directory", field + ".directory");
                 if (const toml::node* i = t.get("include"))
                   b.filter.include = strings(*i, field + ".include");
                 if (const toml::node* e = t.get("exclude"))
                   b.filter.exclude = strings(*e, field + ".exclude");
                 cfg.bundles.emplace(alias, std::move(b));
               });
  each_aliased("agents",
               [&](const std::string& alias, const std::string& field, const toml::table& t) {
                 agent_skills_config a;
                 if (const toml::node* sb = t.get("skill_bundles"))
                   a.skill_bundles = strings(*sb, field + ".skill_bundles");
                 if (const toml::node* ws = t.get("workspace")) {
                   const toml::table* wt = ws->as_table();
                   if (!wt) throw bad(field + ".workspace", "a table");
                   a.workspace_path = text(*wt, "path", field + ".workspace.path");
                 }
                 cfg.agents.emplace(alias, std::move(a));
               });
  if (const toml::node* n = root.get("skills")) {
    if (const toml::table* t = n->as_table()) {
      if (const toml::node* as = t->get("allow_scripts")) {
        if (!as->is_boolean()) throw bad("skills.allow_scripts", "a boolean");
        cfg.allow_scripts = as->as_boolean()->get();
      }
    }
  }
  return cfg;
}

/// The bundle's directory (upstream `resolve_directory`): the install layout's
/// `zeroclaw::skill_bundle_directory` (the exporter uses the same rule). Throws
/// `errc::not_found` when the alias is not configured.
inline std::string resolve_directory(const skills_config& cfg, std::string_view install_root,
                                     std::string_view alias) {
  const auto it = cfg.bundles.find(std::string(alias));
  if (it == cfg.bundles.end()) {
    throw error(errc::not_found, "skill bundle '" + std::string(alias) + "' is not configured",
                "skill_bundles." + std::string(alias));
  }
  std::optional<std::string_view> dir;
  if (it->second.directory) dir = *it->second.directory;
  return zeroclaw::skill_bundle_directory(install_root, alias, dir);
}

/// Upstream's `validate_directory`: the lexically normalised `path` must lie in
/// `<install>/shared` (equality included). Throws `errc::unsafe_path` with upstream's text.
inline void validate_directory(std::string_view path, std::string_view install_root,
                               const std::string& subject = {}) {
  const std::string shared = paths::normalize(paths::join(install_root, "shared"));
  const std::string norm = paths::normalize(path);
  if (!paths::starts_with(norm, shared)) {
    throw error(errc::unsafe_path,
                "skill-bundle directory '" + norm + "' escapes the shared workspace at '" + shared +
                    "'; bundles must stay inside `<install>/shared/`",
                subject);
  }
}

/// Upstream's `validate_uniqueness`, in alias order: two bundles may not resolve to the
/// same normalised directory (nesting is allowed). Throws `errc::config_invalid`.
inline void validate_uniqueness(const skills_config& cfg, std::string_view install_root) {
  std::map<std::string, std::string> owner;
  for (const auto& [alias, b] : cfg.bundles) {
    (void)b;
    const std::string dir = paths::normalize(resolve_directory(cfg, install_root, alias));
    const auto [it, fresh] = owner.emplace(dir, alias);
    if (!fresh) {
      throw error(errc::config_invalid,
                  "skill-bundles '" + it->second + "' and '" + alias +
                      "' both resolve to directory '" + dir +
                      "'; each bundle must own a unique directory",
                  "skill_bundles");
    }
  }
}

/// An agent's workspace (the install layout's `zeroclaw::agent_workspace_dir`):
/// `[agents.A.workspace].path` if set (a relative one from the install root, as the
/// exporter reads it), else `<install>/agents/A/workspace` (the agent need not be
/// configured).
inline std::string agent_workspace_dir(const skills_config& cfg, std::string_view install_root,
                                       std::string_view alias) {
  const auto it = cfg.agents.find(std::string(alias));
  if (it != cfg.agents.end()) {
    return zeroclaw::agent_workspace_dir(install_root, alias, it->second.workspace_path);
  }
  return zeroclaw::agent_workspace_dir(install_root, alias);
}

/// The global skills directory `<data>/skills`; agents never load it.
inline std::string global_skills_dir(std::string_view data_dir) {
  return paths::join(data_dir, "skills");
}

/// The one check of a skill directory's name given on a command line (`skills remove`,
/// `restore`, `install`, `test`): one path component, so it can never reach outside the
/// skills directory: not empty, `.` or `..`, no `/` or `\`, no `..` inside. errc::invalid_argument
/// "Invalid skill name: <name>", followed by `hint` when given.
inline void check_skill_dir_name(const std::string& name, const std::string& hint = {}) {
  if (name.empty() || name == "." || name.find("..") != std::string::npos ||
      name.find('/') != std::string::npos || name.find('\\') != std::string::npos)
    throw error(errc::invalid_argument,
                "Invalid skill name: " + name + (hint.empty() ? std::string() : " " + hint), name);
}

/// The one lookup of skill `name` among `count` places (`skills remove`, `skills test`):
/// `holds(i)` says whether place i holds it, `bundle_of(i)` names place i's bundle ("" for
/// the global directory), `looked_in` says which places were searched. Returns the one
/// place; none is errc::not_found ("Skill not found"), several errc::invalid_argument
/// naming them.
template <class Holds, class BundleOf>
std::size_t find_one_skill(const std::string& name, std::size_t count, Holds holds,
                           BundleOf bundle_of, const std::string& looked_in) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < count; ++i)
    if (holds(i)) found.push_back(i);
  if (found.empty())
    throw error(errc::not_found, "Skill not found: " + name + " (" + looked_in + ")", name);
  if (found.size() == 1) return found.front();
  std::string list;
  for (const std::size_t i : found) {
    const std::string b = bundle_of(i);
    list += (list.empty() ? "" : ", ") + (b.empty() ? std::string("global") : "bundle " + b);
  }
  throw error(
      errc::invalid_argument,
      "skill '" + name + "' exists in several locations (" + list + "); pass --bundle to choose",
      name);
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
