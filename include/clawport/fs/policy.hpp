// SPDX-License-Identifier: MIT
// The Fs policy: the only way the library touches a filesystem. Everything goes through
// directory handles and single path components, so a racing writer cannot redirect a
// walk out of the tree it was asked to read. fs::posix and fs::memory model it.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

/// Identity of a filesystem object: the (device, inode) pair.
struct file_id {
  std::uint64_t dev = 0;
  std::uint64_t ino = 0;
  friend bool operator==(const file_id& a, const file_id& b) noexcept {
    return a.dev == b.dev && a.ino == b.ino;
  }
  friend bool operator!=(const file_id& a, const file_id& b) noexcept { return !(a == b); }
};

/// What an entry is, as classified without following symlinks.
enum class file_kind {
  regular,
  directory,
  symlink,
  other,  ///< socket, FIFO, character or block device
};

/// Metadata of one object (lstat-like when taken through a parent, fstat-like on a handle).
struct stat_info {
  file_kind kind = file_kind::other;
  file_id id;
  std::uint32_t mode = 0;   ///< permission bits (07777)
  std::uint64_t nlink = 1;  ///< hard-link count
  std::uint64_t size = 0;   ///< bytes, for regular files
  std::uint32_t uid = 0;    ///< owner (0 where the backend models none)
  std::uint32_t gid = 0;    ///< group
};

/// How `publish_rename` should treat an existing target name.
enum class rename_mode {
  replace,    ///< plain renameat(2): replaces an empty directory or a file
  noreplace,  ///< renameat2(RENAME_NOREPLACE): fail with EEXIST if the target exists
  exchange,   ///< renameat2(RENAME_EXCHANGE): atomically swap two existing names
};

/// Result of `rename_at` with a mode the platform may not support.
enum class rename_result { done, unsupported };

// ---------------------------------------------------------------------------------------
// The requirements. A backend `B` is a class whose instances carry any state (the memory
// tree, injected faults); algorithms take `B&`. Handles are move-only RAII values.
// Every function that fails throws clawport::error with errc::io (or errc::not_found,
// errc::limit_exceeded for EMFILE/ENAMETOOLONG/ELOOP-deep), `sys_errno()` set, and
// `subject()` = the name it was given; callers re-throw with bundle-relative context.
// `name` arguments are always ONE path component (no '/'), never "." or "..".
//
//   typename B::dir                        move-only directory handle
//   typename B::file                       move-only file handle
//   dir  open_root(std::string_view abs)   open an absolute directory path, following
//                                          symlinks (used only for the install root and
//                                          the destination's parent, as upstream does)
//   std::optional<std::string> canonical(std::string_view abs)
//                                          realpath(3); nullopt when the path does not
//                                          exist (resolves the destination, compares
//                                          source paths; never used to open anything)
//   std::optional<stat_info> stat_at(const dir&, name)
//                                          fstatat(AT_SYMLINK_NOFOLLOW); nullopt iff ENOENT
//   stat_info stat(const dir&) / stat(const file&)      fstat on the handle
//   dir  open_dir_at(const dir&, name)     openat(O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC)
//   file open_file_at(const dir&, name)    openat(O_RDONLY|O_NOFOLLOW|O_CLOEXEC)
//   template <class F> void for_each_entry(const dir&, F&& f)
//                                          calls f(std::string_view name) per entry,
//                                          streaming, "." and ".." excluded
//   bool is_empty(const dir&)              no entries besides "." and ".."
//   void make_dir_at(const dir&, name, std::uint32_t mode)        mkdirat
//   file create_file_at(const dir&, name, std::uint32_t mode)
//                                          openat(O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW)
//   std::uint64_t copy_data(file& from, file& to)
//                                          all bytes; copy_file_range fast path then
//                                          read/write fallback; returns bytes copied
//   (optional) std::uint64_t copy_data(file& from, file& to, std::uint64_t size)
//                                          the `size` bytes stat(from) gave, no call to
//                                          confirm the end (detail::has_sized_copy_data)
//   std::size_t read(file&, char* buf, std::size_t n)         0 at end of file
//   void write_all(file&, const char* data, std::size_t n)
//   void set_mode(file&, std::uint32_t mode)                  fchmod
//   void unlink_at(const dir&, name)       unlinkat(0)
//   void remove_dir_at(const dir&, name)   unlinkat(AT_REMOVEDIR): empty directories only
//   void remove_tree_at(const dir&, name)  recursive delete through handles, never
//                                          following a symlink (CVE-2022-21658 safe)
//   (optional) void remove_tree_at(const dir&, name, const removal_progress&)
//                                          the same, counting the entries removed so far
//                                          (fs::remove_tree; detail::has_counted_remove_tree_at)
//   rename_result rename_at(const dir& from_dir, name, const dir& to_dir, name, rename_mode)
//                                          `unsupported` only for noreplace/exchange when
//                                          the kernel or filesystem refuses (EINVAL/ENOSYS)
//   void sync_filesystem(const dir&)       syncfs(2) of the filesystem holding dir
//   void sync_dir(const dir&)              fsync(2) of the directory itself
//   bool try_lock(const dir&)              non-blocking exclusive flock; held until the
//                                          handle is closed; false if another holds it
// ---------------------------------------------------------------------------------------

namespace detail {

#define CLAWPORT_FS_REQUIRES(trait, expr) \
  template <class B, class = void>        \
  struct trait : std::false_type {};      \
  template <class B>                      \
  struct trait<B, std::void_t<decltype(expr)>> : std::true_type {};

template <class T>
T& lval();

/// Stands in for the caller's callback when checking `for_each_entry`.
struct entry_sink {
  void operator()(std::string_view) const {}
};

CLAWPORT_FS_REQUIRES(has_dir, std::declval<typename B::dir>())
CLAWPORT_FS_REQUIRES(has_file, std::declval<typename B::file>())
CLAWPORT_FS_REQUIRES(has_open_root, lval<B>().open_root(std::string_view{}))
CLAWPORT_FS_REQUIRES(has_canonical,
                     std::optional<std::string>{lval<B>().canonical(std::string_view{})})
CLAWPORT_FS_REQUIRES(has_stat_at,
                     std::optional<stat_info>{
                         lval<B>().stat_at(lval<const typename B::dir>(), std::string_view{})})
CLAWPORT_FS_REQUIRES(has_stat_dir, stat_info{lval<B>().stat(lval<const typename B::dir>())})
CLAWPORT_FS_REQUIRES(has_stat_file, stat_info{lval<B>().stat(lval<const typename B::file>())})
CLAWPORT_FS_REQUIRES(has_open_dir_at,
                     lval<B>().open_dir_at(lval<const typename B::dir>(), std::string_view{}))
CLAWPORT_FS_REQUIRES(has_open_file_at,
                     lval<B>().open_file_at(lval<const typename B::dir>(), std::string_view{}))
CLAWPORT_FS_REQUIRES(has_for_each_entry,
                     lval<B>().for_each_entry(lval<const typename B::dir>(), entry_sink{}))
CLAWPORT_FS_REQUIRES(has_is_empty, bool{lval<B>().is_empty(lval<const typename B::dir>())})
CLAWPORT_FS_REQUIRES(has_make_dir_at,
                     lval<B>().make_dir_at(lval<const typename B::dir>(), std::string_view{}, 0u))
CLAWPORT_FS_REQUIRES(has_create_file_at, lval<B>().create_file_at(lval<const typename B::dir>(),
                                                                  std::string_view{}, 0u))
CLAWPORT_FS_REQUIRES(has_copy_data, std::uint64_t{lval<B>().copy_data(lval<typename B::file>(),
                                                                      lval<typename B::file>())})
// Optional: `copy_data(from, to, size)` copies the `size` bytes stat(from) reported and
// stops there, without the call that only confirms the end of the file (fs::posix has it;
// copying_sink uses it when present, else copy_data(from, to)).
CLAWPORT_FS_REQUIRES(has_sized_copy_data,
                     std::uint64_t{lval<B>().copy_data(lval<typename B::file>(),
                                                       lval<typename B::file>(), std::uint64_t{})})
CLAWPORT_FS_REQUIRES(has_read,
                     std::size_t{lval<B>().read(lval<typename B::file>(),
                                                static_cast<char*>(nullptr), std::size_t{})})
CLAWPORT_FS_REQUIRES(has_write_all,
                     lval<B>().write_all(lval<typename B::file>(),
                                         static_cast<const char*>(nullptr), std::size_t{}))
CLAWPORT_FS_REQUIRES(has_set_mode, lval<B>().set_mode(lval<typename B::file>(), 0u))
CLAWPORT_FS_REQUIRES(has_unlink_at,
                     lval<B>().unlink_at(lval<const typename B::dir>(), std::string_view{}))
CLAWPORT_FS_REQUIRES(has_remove_dir_at,
                     lval<B>().remove_dir_at(lval<const typename B::dir>(), std::string_view{}))
CLAWPORT_FS_REQUIRES(has_remove_tree_at,
                     lval<B>().remove_tree_at(lval<const typename B::dir>(), std::string_view{}))
CLAWPORT_FS_REQUIRES(has_rename_at,
                     rename_result{lval<B>().rename_at(lval<const typename B::dir>(),
                                                       std::string_view{},
                                                       lval<const typename B::dir>(),
                                                       std::string_view{}, rename_mode{})})
CLAWPORT_FS_REQUIRES(has_sync_filesystem, lval<B>().sync_filesystem(lval<const typename B::dir>()))
CLAWPORT_FS_REQUIRES(has_sync_dir, lval<B>().sync_dir(lval<const typename B::dir>()))
// Optional: `set_owner(file&, uid, gid)` (fchown), so replacing a file keeps its owner
// (publish::replace_file uses it when present and the owner differs).
CLAWPORT_FS_REQUIRES(has_set_owner, lval<B>().set_owner(lval<typename B::file>(), 0u, 0u))
// Optional: `set_owner(const dir&, uid, gid)`, so a tree made in a user's install is theirs
// (fs::give_tree).
CLAWPORT_FS_REQUIRES(has_set_dir_owner, lval<B>().set_owner(lval<const typename B::dir>(), 0u, 0u))
CLAWPORT_FS_REQUIRES(has_try_lock, bool{lval<B>().try_lock(lval<const typename B::dir>())})
// Optional: `std::optional<dir> make_locked_dir_at(const dir&, name, mode)`, fs::make_locked_dir
// as one step of the backend (testing::faulty: no op hook strikes inside it).
CLAWPORT_FS_REQUIRES(has_make_locked_dir_at,
                     std::optional<typename B::dir>{
                         lval<B>().make_locked_dir_at(lval<const typename B::dir>(),
                                                      std::string_view{}, std::uint32_t{})})

// Optional: `remove_tree_at(const dir&, name, const removal_progress&)`, the removal
// reporting the entries removed so far (fs::remove_tree uses it when present).
CLAWPORT_FS_REQUIRES(has_counted_remove_tree_at,
                     lval<B>().remove_tree_at(lval<const typename B::dir>(), std::string_view{},
                                              lval<const std::function<void(std::uint64_t)>>()))

#undef CLAWPORT_FS_REQUIRES

}  // namespace detail

/// Called while a tree is removed with the number of entries (files, links, directories)
/// removed so far; no total is known without a second walk, so none is given.
using removal_progress = std::function<void(std::uint64_t removed)>;

/// Checks at compile time that `B` models the Fs policy, naming the first missing
/// requirement. Use as `static_assert(fs::check_policy<B>());` or let the algorithms do it.
template <class B>
constexpr bool check_policy() {
  static_assert(detail::has_dir<B>::value, "Fs policy: missing move-only handle type `dir`");
  static_assert(detail::has_file<B>::value, "Fs policy: missing move-only handle type `file`");
  static_assert(detail::has_open_root<B>::value, "Fs policy: missing `dir open_root(string_view)`");
  static_assert(detail::has_canonical<B>::value,
                "Fs policy: missing `optional<string> canonical(string_view abs)` (realpath; "
                "nullopt when the path does not exist)");
  static_assert(detail::has_stat_at<B>::value,
                "Fs policy: missing `optional<stat_info> stat_at(const dir&, string_view)`");
  static_assert(detail::has_stat_dir<B>::value, "Fs policy: missing `stat_info stat(const dir&)`");
  static_assert(detail::has_stat_file<B>::value,
                "Fs policy: missing `stat_info stat(const file&)`");
  static_assert(detail::has_open_dir_at<B>::value,
                "Fs policy: missing `dir open_dir_at(const dir&, string_view)`");
  static_assert(detail::has_open_file_at<B>::value,
                "Fs policy: missing `file open_file_at(const dir&, string_view)`");
  static_assert(detail::has_for_each_entry<B>::value,
                "Fs policy: missing `for_each_entry(const dir&, F)` calling F(string_view)");
  static_assert(detail::has_is_empty<B>::value, "Fs policy: missing `bool is_empty(const dir&)`");
  static_assert(detail::has_make_dir_at<B>::value,
                "Fs policy: missing `make_dir_at(const dir&, string_view, uint32_t mode)`");
  static_assert(detail::has_create_file_at<B>::value,
                "Fs policy: missing `file create_file_at(const dir&, string_view, uint32_t)`");
  static_assert(detail::has_copy_data<B>::value,
                "Fs policy: missing `uint64_t copy_data(file& from, file& to)`");
  static_assert(detail::has_read<B>::value,
                "Fs policy: missing `size_t read(file&, char*, size_t)`");
  static_assert(detail::has_write_all<B>::value,
                "Fs policy: missing `write_all(file&, const char*, size_t)`");
  static_assert(detail::has_set_mode<B>::value, "Fs policy: missing `set_mode(file&, uint32_t)`");
  static_assert(detail::has_unlink_at<B>::value,
                "Fs policy: missing `unlink_at(const dir&, string_view)`");
  static_assert(detail::has_remove_dir_at<B>::value,
                "Fs policy: missing `remove_dir_at(const dir&, string_view)`");
  static_assert(detail::has_remove_tree_at<B>::value,
                "Fs policy: missing `remove_tree_at(const dir&, string_view)`");
  static_assert(detail::has_rename_at<B>::value,
                "Fs policy: missing `rename_result rename_at(const dir&, string_view, const "
                "dir&, string_view, rename_mode)`");
  static_assert(detail::has_sync_filesystem<B>::value,
                "Fs policy: missing `sync_filesystem(const dir&)`");
  static_assert(detail::has_sync_dir<B>::value, "Fs policy: missing `sync_dir(const dir&)`");
  static_assert(detail::has_try_lock<B>::value, "Fs policy: missing `bool try_lock(const dir&)`");
  return true;
}

/// Locks the directory `name` that the caller just made in `parent`: its handle, or nullopt
/// when, before the lock was taken, another process removed it, locked it or put another
/// object under the name (`recover` removing a directory it took for a dead export's). Any
/// other failure (EMFILE, ...) removes the still empty directory and is thrown.
template <class B>
std::optional<typename B::dir> lock_made_dir(B& fs, const typename B::dir& parent,
                                             std::string_view name) {
  std::optional<typename B::dir> d;
  try {
    try {
      d.emplace(fs.open_dir_at(parent, name));
    } catch (const error& e) {
      if (e.code() == errc::not_found || e.sys_errno() == ENOENT) return std::nullopt;
      throw;
    }
    if (!fs.try_lock(*d)) return std::nullopt;
    // Locked: still the directory under `name`? (It may have been removed before the lock.)
    const std::optional<stat_info> now = fs.stat_at(parent, name);
    if (!now || now->id != fs.stat(*d).id) return std::nullopt;
  } catch (const error&) {
    d.reset();
    try {
      fs.remove_dir_at(parent, name);
    } catch (const error&) {  // left empty and unlocked: `recover` removes it
    }
    throw;
  }
  return d;
}

/// mkdir `name` (mode `mode`, EEXIST thrown like any failure), then open and lock it:
/// nullopt as lock_made_dir says. Between the mkdir and the lock the directory is empty
/// and unlocked, which `recover` may take for a dead creator's; the caller then retries
/// under a fresh name. A backend may do this as one step (`make_locked_dir_at`).
template <class B>
std::optional<typename B::dir> make_locked_dir(B& fs, const typename B::dir& parent,
                                               std::string_view name, std::uint32_t mode) {
  if constexpr (detail::has_make_locked_dir_at<B>::value) {
    return fs.make_locked_dir_at(parent, name, mode);
  } else {
    fs.make_dir_at(parent, name, mode);
    return lock_made_dir(fs, parent, name);
  }
}

/// remove_tree_at, counting through `on_removed` where the backend can (fs::posix); a
/// backend without the counting form removes the tree and reports nothing.
template <class B>
void remove_tree(B& fs, const typename B::dir& parent, std::string_view name,
                 const removal_progress& on_removed) {
  if constexpr (detail::has_counted_remove_tree_at<B>::value) {
    if (on_removed) return fs.remove_tree_at(parent, name, on_removed);
  }
  fs.remove_tree_at(parent, name);
}

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
