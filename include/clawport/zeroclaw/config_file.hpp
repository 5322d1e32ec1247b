// SPDX-License-Identifier: MIT
// Reading an install's config.toml: the two readers every command uses, so they accept the
// same files and word the same refusals. `read_install_config` serves every command that
// only reads the config (export, `skills list|new|install|remove|test`, `skills bundle
// add`'s first look): a symlinked config.toml (a dotfile manager's link) is followed to its
// file, as ZeroClaw reads it; the install root stays the directory holding the name
// (install_layout.hpp). `read_config_to_replace` serves the commands that then replace it
// (import, `append_to_config`): a symlinked or hard-linked config is refused by
// publish::check_replaceable, the rule of the write. Both read by fs::read_file, the one
// reader: only a regular file below CLAWPORT_MAX_CONFIG_BYTES, /dev/zero, /dev/urandom, a
// FIFO or a directory refused naming it, before anything could block or grow without bound.
#pragma once

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../fs/read_file.hpp"
#include "../publish/replace_file.hpp"
#include "install_layout.hpp"

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

/// read_install_config for a command that works in an existing install (`skills bundle
/// add|remove`): an absent config is the one missing-config refusal, naming the fix.
template <class Fs>
std::string read_existing_install_config(Fs& fs, const std::string& config_path) {
  try {
    return read_install_config(fs, config_path);
  } catch (const error& e) {
    if (e.code() == errc::not_found) throw missing_config_error(config_path);
    throw;
  }
}

/// The config `name` in the opened directory `dir` (shown as `shown`) read to be replaced:
/// nullopt when absent; publish::check_replaceable's refusal (errc::unsafe_path) for a
/// symlink or a second hard link, before anything is read; then fs::read_file_at's
/// refusals (unsupported for a device, FIFO or directory, limit_exceeded past
/// max_config_bytes, identity_changed) and an I/O failure as "failed to read {shown}". The
/// result's `info` is what the replace expects to find.
template <class Fs>
std::optional<fs::read_result> read_config_to_replace(Fs& fs, const typename Fs::dir& dir,
                                                      const std::string& name,
                                                      const std::string& shown) {
  fs::read_result r;
  try {
    const std::optional<fs::stat_info> st = fs.stat_at(dir, name);
    if (!st) return std::nullopt;
    // A link is the writer's own hazard (the rename would replace or split it); anything
    // else that is not a regular file is refused by the read rule, as the readers word it.
    if (st->kind == fs::file_kind::symlink || st->nlink > 1) publish::check_replaceable(*st, shown);
    r = fs::try_read_file_at(fs, dir, name, max_config_bytes);
  } catch (const error& e) {
    if (e.code() != errc::io) throw;
    throw with_context(e, "failed to read " + shown, shown, reason_of(e));
  }
  if (r.refusal != fs::read_refusal::none)
    throw fs::read_refusal_error(r.refusal, shown, max_config_bytes);
  return r;
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
