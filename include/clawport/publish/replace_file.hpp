// SPDX-License-Identifier: MIT
// The one atomic replace of a file the tool edits in place: a ZeroClaw `config.toml`,
// OpenClaw's `openclaw.json`, clawport's ledgers. The new bytes go to a temporary beside the
// file (`.<name>.tmp-<token>`, create-only), which gets the file's permission bits and
// owner, is flushed, and is renamed over the name; then the directory is flushed. A failure
// at any step removes the temporary and leaves the file as it was.
// Only a file that one rename can replace whole is replaced: a symlink (the rename would
// replace the link with a file) and a file with more than one hard link (the rename would
// split it: the other names keep the old bytes) are refused, naming the path, before
// anything is written.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../fs/modes.hpp"
#include "../fs/policy.hpp"
#include "../fs/sys_error.hpp"
#include "../fs/write_new_file.hpp"
#include "names.hpp"

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

/// How `replace_file` treats the file it replaces.
struct replace_options {
  /// Permission bits of a file that does not exist yet (the umask applies). An existing
  /// file keeps its own (without setuid, setgid or sticky).
  std::uint32_t new_mode = fs::modes::file;
  /// The file as the caller read it: replacing is refused (errc::identity_changed) when the
  /// name no longer holds that object at that size, or holds nothing.
  std::optional<fs::stat_info> expect;
  /// Non-empty: first keep `previous` as a new file of this name beside the file
  /// (`-2`, `-3`, ... appended while the name is taken); put back under the name when the
  /// replace cannot be made durable.
  std::string backup;
  std::string_view previous;
  /// A file that does not exist yet is given this owner (the install's config's: a root
  /// run must not leave a root-owned file in a user's install), where the backend can.
  std::optional<fs::stat_info> new_owner;
};

/// What `replace_file` did.
struct replace_result {
  bool created = false;  ///< there was no file of that name
  std::string backup;    ///< the backup's name in the directory (empty: none)
};

/// Refuses (errc::unsafe_path, subject `shown`) a file that one rename cannot replace
/// whole: a symlink, anything not a regular file, a regular file with more than one hard
/// link. The one rule for every edit in place (`replace_file` applies it).
inline void check_replaceable(const fs::stat_info& st, const std::string& shown) {
  if (st.kind == fs::file_kind::symlink) {
    throw error(errc::unsafe_path,
                shown +
                    " is a symlink; replacing it through a temporary file would replace the "
                    "link with a file, so edit the file it points to",
                shown);
  }
  if (st.kind != fs::file_kind::regular) {
    throw error(errc::unsafe_path, shown + " is not a regular file", shown);
  }
  if (st.nlink > 1) {
    throw error(errc::unsafe_path,
                shown + " has " + std::to_string(st.nlink) +
                    " hard links; replacing it through a temporary file would split it (the "
                    "other names would keep the old bytes), so it was not changed: give it one "
                    "name (copy it over itself with `cp --remove-destination`) or edit it by hand",
                shown);
  }
}

namespace detail {

/// Writes `bytes` as the new file `name` (create-only, owner `owner`'s): of `mode` exactly,
/// or with `umasked`, `mode` less the process umask (a file that is new to the install).
template <class Fs>
void write_new_file(Fs& fs, const typename Fs::dir& dir, const std::string& name,
                    std::string_view bytes, std::uint32_t mode, const fs::stat_info* owner,
                    const std::string& shown, bool umasked = false) {
  auto f = fs::write_new_file(fs, dir, name, bytes,
                              owner != nullptr && !umasked ? mode & fs::modes::owner_bits : mode);
  if (owner == nullptr) return;
  if constexpr (fs::detail::has_set_owner<Fs>::value) {
    const fs::stat_info mine = fs.stat(f);
    if (mine.uid != owner->uid || mine.gid != owner->gid) {
      try {
        fs.set_owner(f, owner->uid, owner->gid);
      } catch (const error& e) {
        throw error(errc::unsafe_path,
                    shown + " belongs to another user or group (" + std::to_string(owner->uid) +
                        ":" + std::to_string(owner->gid) +
                        ") that this user cannot give a new file, and what clawport writes "
                        "there must stay theirs; run as its owner: " +
                        reason_of(e),
                    shown, e.sys_errno());
      }
    }
  }
  if (!umasked) fs.set_mode(f, mode);
}

template <class Fs>
std::string write_backup(Fs& fs, const typename Fs::dir& dir, const replace_options& o,
                         std::uint32_t mode, const fs::stat_info* owner, const std::string& shown) {
  std::string name = o.backup;
  for (int n = 2;; ++n) {
    try {
      write_new_file(fs, dir, name, o.previous, mode, owner, shown);
      return name;
    } catch (const error& e) {
      if (e.sys_errno() == EEXIST && n < 1000) {
        name = o.backup + "-" + std::to_string(n);
        continue;
      }
      try {
        if (e.sys_errno() != EEXIST && fs.stat_at(dir, name)) fs.unlink_at(dir, name);
      } catch (const error&) {
      }
      if (e.code() == errc::unsafe_path) throw;
      throw with_context(e, "failed to write the backup " + name + " of " + shown, shown,
                         reason_of(e));
    }
  }
}

}  // namespace detail

/// Creates `name` in `dir` (create-only) holding `bytes`, of mode `mode` exactly, owned as
/// `owner` is (the install's config: `shown` names it), or errc::unsafe_path when this user
/// cannot give that owner a file. The one rule of a new file in a user's install (a key,
/// a ledger), as replace_file keeps the owner of what it replaces.
template <class Fs>
void create_owned_file(Fs& fs, const typename Fs::dir& dir, const std::string& name,
                       std::string_view bytes, std::uint32_t mode, const fs::stat_info& owner,
                       const std::string& shown) {
  detail::write_new_file(fs, dir, name, bytes, mode, &owner, shown);
}

/// Replaces (or creates) `name` in the opened directory `dir` with `bytes`, atomically, as
/// the file comment says. `shown` names the file in messages (its path). Throws
/// clawport::error: errc::unsafe_path (`check_replaceable`, or an owner this user cannot
/// keep), errc::identity_changed (`o.expect` no longer holds), the backend's code for an
/// I/O failure ("failed to write {shown}: …"). On any throw the file holds what it held.
template <class Fs>
replace_result replace_file(Fs& fs, const typename Fs::dir& dir, const std::string& name,
                            std::string_view bytes, const std::string& shown,
                            const replace_options& o = {}) {
  static_assert(fs::check_policy<Fs>());
  replace_result out;
  std::optional<fs::stat_info> st;
  try {
    st = fs.stat_at(dir, name);
  } catch (const error& e) {
    throw with_context(e, "failed to inspect " + shown, shown, reason_of(e));
  }
  const auto changed = [&] {
    return error(errc::identity_changed,
                 shown +
                     " changed while clawport was writing it; nothing was written, so run "
                     "the command again",
                 shown);
  };
  if (st) check_replaceable(*st, shown);
  if (o.expect && (!st || st->id != o.expect->id || st->size != o.expect->size)) throw changed();
  out.created = !st;
  const std::uint32_t mode = st ? st->mode & fs::modes::permission_bits : o.new_mode;
  const fs::stat_info* owner = st ? &*st : o.new_owner ? &*o.new_owner : nullptr;
  if (!o.backup.empty()) out.backup = detail::write_backup(fs, dir, o, mode, owner, shown);

  const std::string tmp = temp_file_name(staging_kind::replace, name, random_token());
  const auto discard = [&] {
    try {
      if (fs.stat_at(dir, tmp)) fs.unlink_at(dir, tmp);
    } catch (...) {
    }
    try {
      if (!out.backup.empty()) fs.unlink_at(dir, out.backup);
    } catch (...) {
    }
  };
  try {
    detail::write_new_file(fs, dir, tmp, bytes, mode, owner, shown, !st && owner != nullptr);
    fs.sync_filesystem(dir);
    const auto now = fs.stat_at(dir, name);
    if (st ? (!now || now->id != st->id || now->size != st->size) : now.has_value())
      throw changed();
    fs.rename_at(dir, tmp, dir, name, fs::rename_mode::replace);
  } catch (const error& e) {
    discard();
    if (e.code() == errc::identity_changed || e.code() == errc::unsafe_path) throw;
    throw with_context(e, "failed to write " + shown, shown, reason_of(e));
  }
  try {
    fs.sync_dir(dir);
  } catch (const error& e) {
    // Not durable: put the previous bytes back under the name (the backup is a copy).
    if (out.backup.empty())
      throw with_context(e, "failed to make " + shown + " durable", shown, reason_of(e));
    try {
      fs.rename_at(dir, out.backup, dir, name, fs::rename_mode::replace);
    } catch (const error&) {
      throw with_context(e, "wrote " + shown + " but could not make it durable", shown,
                         reason_of(e));
    }
    throw with_context(e, "failed to make " + shown + " durable; it was restored", shown,
                       reason_of(e));
  }
  return out;
}

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
