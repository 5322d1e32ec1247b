// SPDX-License-Identifier: MIT
// An install as the skills commands (`skills list|new|install|remove|test`) open it:
// the config file the host environment and `--config` name, its `[skills]` and bundle
// tables, the install root and the data directory. One function, called by each command.
#pragma once

#include "../core/config.hpp"
#include "../core/host.hpp"
#include "../zeroclaw/config_file.hpp"
#include "../zeroclaw/install_layout.hpp"
#include "loader.hpp"
#include "locations.hpp"

#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// Where an install's skills live, from its config path and the host (ZEROCLAW_DATA_DIR).
inline install_paths install_paths_of(const host_environment& host,
                                      const std::string& config_path) {
  return install_paths{zeroclaw::install_root_of(config_path), zeroclaw::data_dir_of(host)};
}

/// The config, the install root and the data directory of one install.
struct install_context {
  std::string config_path;  ///< absolute
  skills_config cfg;
  install_paths where;
};

/// Reads the install's config: `config_option` (`--config`, empty when not given) resolved
/// by zeroclaw::config_path_of, the file read by zeroclaw::read_install_config (the reader
/// the export shares: a symlinked config is followed to its file, the install root stays
/// the directory holding the name).
template <class Fs>
install_context load_install(Fs& fs, const host_environment& host,
                             const std::string& config_option) {
  install_context c;
  c.config_path = zeroclaw::config_path_of(host, config_option);
  c.cfg = parse_skills_config(zeroclaw::read_install_config(fs, c.config_path), c.config_path);
  c.where = install_paths_of(host, c.config_path);
  return c;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
