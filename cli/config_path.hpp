// SPDX-License-Identifier: MIT
// Where the CLI finds config.toml when --config is not given, the way ZeroClaw does:
// $ZEROCLAW_CONFIG_DIR/config.toml, else ~/.zeroclaw/config.toml. The install root is the
// directory that holds the config file.
#pragma once

#include <unistd.h>
#include <clawport/clawport.hpp>

#include <cstdlib>
#include <string>

namespace clawport::cli {

/// The default `--config`.
inline std::string default_config_path() {
  const char* dir = std::getenv("ZEROCLAW_CONFIG_DIR");
  if (dir != nullptr && *dir != '\0') return std::string(dir) + "/config.toml";
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr ? home : "") + "/.zeroclaw/config.toml";
}

/// `path` made absolute against the working directory (no normalisation, no I/O beyond
/// getcwd): the library's Fs policy opens absolute paths only.
inline std::string absolute_path(const std::string& path) {
  if (!path.empty() && path.front() == '/') return path;
  std::string cwd;
  char buf[4096];
  if (::getcwd(buf, sizeof buf) != nullptr) cwd = buf;
  return cwd + "/" + path;
}

/// The install root: the directory holding config.toml.
inline std::string install_root_of(const std::string& config_path) {
  const std::string abs = absolute_path(config_path);
  return clawport::paths::parent(abs);
}

}  // namespace clawport::cli
