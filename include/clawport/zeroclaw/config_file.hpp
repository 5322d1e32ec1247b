// SPDX-License-Identifier: MIT
// Reading an install's config.toml: the one reader the export and `skills list` share, so
// they accept the same files and word the same refusals. A symlinked config.toml (a dotfile
// manager's link) is followed to its file, as ZeroClaw reads it; the install root stays the
// directory holding the name (install_layout.hpp). Only a regular file below
// CLAWPORT_MAX_CONFIG_BYTES is read: /dev/zero, /dev/urandom, a FIFO or a directory is
// refused naming it, before anything could block or grow without bound.
#pragma once

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../fs/policy.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// The largest config.toml read, in bytes (CLAWPORT_MAX_CONFIG_BYTES).
inline constexpr std::uint64_t max_config_bytes = CLAWPORT_MAX_CONFIG_BYTES;

namespace detail {

inline std::string config_shown(const std::string& path, const std::string& real) {
  return real == path ? path : path + " (a symlink to " + real + ")";
}

}  // namespace detail

/// Reads the config file at absolute `config_path` through the Fs policy (which must offer
/// `canonical`). Throws clawport::error with subject = `config_path`:
/// errc::invalid_argument (not absolute), errc::not_found (absent or a dangling link),
/// errc::unsupported (not a regular file once links are followed: a device, FIFO, socket
/// or directory), errc::limit_exceeded (larger than max_config_bytes),
/// errc::identity_changed (replaced while it was opened), errc::io (a read failed).
template <class Fs>
std::string read_install_config(Fs& fs, const std::string& config_path) {
  if (config_path.empty() || config_path.front() != '/') {
    throw error(errc::invalid_argument,
                "the config path must be an absolute file path: " + config_path, config_path);
  }
  const std::optional<std::string> real = fs.canonical(config_path);
  if (!real) {
    throw error(errc::not_found, "the config " + config_path + " does not exist", config_path,
                ENOENT);
  }
  const std::string shown = detail::config_shown(config_path, *real);
  const std::size_t slash = real->rfind('/');
  const std::string parent = slash == 0 ? std::string("/") : real->substr(0, slash);
  const std::string name = real->substr(slash + 1);
  const auto refuse_kind = [&]() {
    return error(errc::unsupported,
                 "the config " + shown +
                     " is not a regular file (a device, FIFO, socket or directory), so it is "
                     "not read; pass the install's config.toml",
                 config_path);
  };
  const auto too_large = [&]() {
    return error(errc::limit_exceeded,
                 "the config " + shown + " is larger than " + std::to_string(max_config_bytes) +
                     " bytes (CLAWPORT_MAX_CONFIG_BYTES), so it is not read",
                 config_path);
  };
  try {
    auto dir = fs.open_root(parent);
    const std::optional<fs::stat_info> st = fs.stat_at(dir, name);
    if (!st) throw error(errc::not_found, "the config " + shown + " does not exist", config_path);
    if (st->kind != fs::file_kind::regular) throw refuse_kind();
    if (st->size > max_config_bytes) throw too_large();
    auto file = fs.open_file_at(dir, name);
    const fs::stat_info opened = fs.stat(file);
    if (opened.kind != fs::file_kind::regular) throw refuse_kind();
    if (opened.id != st->id) {
      throw error(errc::identity_changed,
                  "the config " + shown + " was replaced while it was opened; run again",
                  config_path);
    }
    std::string text;
    char buf[16384];
    for (;;) {
      const std::size_t n = fs.read(file, buf, sizeof buf);
      if (n == 0) break;
      text.append(buf, n);
      if (text.size() > max_config_bytes) throw too_large();
    }
    return text;
  } catch (const error& e) {
    if (e.subject() == config_path) throw;
    throw error(e.code(), "failed to read the config " + shown + ": " + e.what(), config_path,
                e.sys_errno());
  }
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
