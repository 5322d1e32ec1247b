// SPDX-License-Identifier: MIT
// Reading an install's config.toml: the one reader the export and `skills list` share, so
// they accept the same files and word the same refusals. A symlinked config.toml (a dotfile
// manager's link) is followed to its file, as ZeroClaw reads it; the install root stays the
// directory holding the name (install_layout.hpp). Read by fs::read_file, the one reader:
// only a regular file below CLAWPORT_MAX_CONFIG_BYTES, /dev/zero, /dev/urandom, a FIFO or
// a directory refused naming it, before anything could block or grow without bound.
#pragma once

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../fs/read_file.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// The largest config.toml read, in bytes (CLAWPORT_MAX_CONFIG_BYTES).
inline constexpr std::uint64_t max_config_bytes = CLAWPORT_MAX_CONFIG_BYTES;

/// Reads the config file at absolute `config_path` with fs::read_file (the Fs policy must
/// offer `canonical`): a symlink is followed, a second hard link is fine to read. Throws
/// clawport::error with subject = `config_path`: errc::invalid_argument (not absolute),
/// errc::not_found (absent or a dangling link), errc::unsupported (not a regular file once
/// links are followed: a device, FIFO, socket or directory), errc::limit_exceeded (larger
/// than max_config_bytes), errc::identity_changed (replaced while it was read), errc::io.
template <class Fs>
std::string read_install_config(Fs& fs, const std::string& config_path) {
  try {
    return fs::read_file(fs, config_path, max_config_bytes,
                         fs::read_kinds::follow_symlink | fs::read_kinds::hard_linked,
                         "the config");
  } catch (const error& e) {
    if (e.code() != errc::limit_exceeded) throw;
    throw error(e.code(), std::string(e.what()) + " (CLAWPORT_MAX_CONFIG_BYTES)", e.subject());
  }
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
