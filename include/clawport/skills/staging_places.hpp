// SPDX-License-Identifier: MIT
// Where the commands stage in a ZeroClaw install: the one list of directories in which a
// staging family of publish/names.hpp can leave something (a replace's temporary beside
// config.toml, an import's trees beside a workspace or a skill bundle, a skills command's
// `.clawport-stage-*` in a bundle's directory, a configured `directory` or the global skills
// directory). `clawport status` scans exactly these; `clawport recover <dir>` clears beside
// any of them (the line status prints for each leftover).
#pragma once

#include "../core/config.hpp"
#include "../zeroclaw/install_layout.hpp"
#include "../zeroclaw/secret_ledger.hpp"
#include "loader.hpp"
#include "locations.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// One directory where commands stage.
struct staging_place {
  std::string path;  ///< absolute, lexically normalised
  /// The files of the directory a command replaces through a temporary beside it (the file
  /// families: `.<file>.tmp-<token>`); empty where no file is replaced.
  std::vector<std::string> files;
};

/// Every place of the install at `where` (config `cfg`, config file `config_name`) where a
/// command stages, each once, in a fixed order: the install root (the config, the
/// required-secrets ledger and `extra_files`, e.g. the key `secrets set` creates);
/// `agents/`; each agent's directory `agents/<alias>/` (`agents` lists those found on disk)
/// and the parent of each configured workspace (an import stages beside the workspace);
/// `shared/` and `shared/skills/` (an import's skill bundles); each configured bundle's
/// directory that lies inside `shared/` (skills install, new, remove); the global skills
/// directory.
inline std::vector<staging_place> staging_places(const skills_config& cfg,
                                                 const install_paths& where,
                                                 const std::string& config_name,
                                                 const std::vector<std::string>& agents,
                                                 const std::vector<std::string>& extra_files = {}) {
  std::vector<staging_place> out;
  const auto add = [&](const std::string& dir, std::vector<std::string> files = {}) {
    const std::string p = paths::normalize(dir);
    for (const staging_place& s : out)
      if (s.path == p) return;
    out.push_back({p, std::move(files)});
  };
  const std::string& root = where.install_root;
  std::vector<std::string> root_files{config_name, std::string(zeroclaw::secret_ledger_name)};
  root_files.insert(root_files.end(), extra_files.begin(), extra_files.end());
  add(root, std::move(root_files));
  const std::string agents_dir = paths::join(root, zeroclaw::install_agents_dir);
  add(agents_dir);
  for (const std::string& a : agents) add(paths::join(agents_dir, a));
  for (const auto& [alias, a] : cfg.agents) {
    (void)a;
    add(paths::parent(agent_workspace_dir(cfg, root, alias)));
  }
  const std::string shared = paths::join(root, zeroclaw::install_shared_dir);
  add(shared);
  add(paths::join(shared, "skills"));
  for (const auto& [alias, b] : cfg.bundles) {
    (void)b;
    const std::string dir = resolve_directory(cfg, root, alias);
    try {
      validate_directory(dir, root);
    } catch (const error&) {
      continue;  // a directory outside shared/ is refused by every skills command
    }
    add(dir);
  }
  add(global_skills_dir(where.data()));
  return out;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
