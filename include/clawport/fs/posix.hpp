// SPDX-License-Identifier: MIT
// fs::posix: the Fs policy on a real POSIX filesystem. Every object is reached through an
// open directory descriptor and one path component, never by re-resolving a path string,
// so a concurrent rename or symlink swap cannot redirect a walk out of its tree.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "policy.hpp"
#include "sys_error.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#if defined(__linux__)
#include <sys/ioctl.h>
#endif
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

namespace detail {

/// Refuses anything that is not exactly one path component: the policy only ever walks
/// one name at a time, and this keeps a hostile name ("../x", "a/b") from escaping even
/// when a caller forgets to check it.
inline void require_component(std::string_view name) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos ||
      name.find('\0') != std::string_view::npos) {
    throw error(errc::unsafe_path,
                "`" + std::string(name) + "` is not a single path component (no `/`, `.` or `..`)",
                std::string(name));
  }
}

/// A path component as a NUL-terminated string without a heap allocation for any name a
/// filesystem accepts (NAME_MAX is 255 on Linux); longer names (which the kernel then
/// refuses with ENAMETOOLONG) use a std::string.
class c_name {
 public:
  explicit c_name(std::string_view name) : size_(name.size()) {
    if (name.size() < sizeof small_) {
      name.copy(small_, name.size());
      small_[name.size()] = '\0';
    } else {
      large_.assign(name.data(), name.size());
    }
  }
  c_name(const c_name&) = delete;
  c_name& operator=(const c_name&) = delete;
  const char* c_str() const noexcept { return size_ < sizeof small_ ? small_ : large_.c_str(); }
  operator std::string_view() const noexcept { return {c_str(), size_}; }

 private:
  std::size_t size_;
  char small_[256];
  std::string large_;
};

inline file_kind kind_of(mode_t mode) noexcept {
  if (S_ISREG(mode)) return file_kind::regular;
  if (S_ISDIR(mode)) return file_kind::directory;
  if (S_ISLNK(mode)) return file_kind::symlink;
  return file_kind::other;
}

inline stat_info to_info(const struct stat& st) noexcept {
  stat_info info;
  info.kind = kind_of(st.st_mode);
  info.id.dev = static_cast<std::uint64_t>(st.st_dev);
  info.id.ino = static_cast<std::uint64_t>(st.st_ino);
  info.mode = static_cast<std::uint32_t>(st.st_mode & 07777);
  info.nlink = static_cast<std::uint64_t>(st.st_nlink);
  info.size = st.st_size > 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  info.uid = static_cast<std::uint32_t>(st.st_uid);
  info.gid = static_cast<std::uint32_t>(st.st_gid);
  return info;
}

/// A move-only owned file descriptor.
class unique_fd {
 public:
  unique_fd() noexcept = default;
  explicit unique_fd(int fd) noexcept : fd_(fd) {}
  unique_fd(unique_fd&& other) noexcept : fd_(other.release()) {}
  unique_fd& operator=(unique_fd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  ~unique_fd() { reset(); }

  int get() const noexcept { return fd_; }
  int release() noexcept {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

/// Owns a DIR stream; closing it closes the descriptor it was made from.
struct dir_stream_closer {
  void operator()(DIR* d) const noexcept { ::closedir(d); }
};
using dir_stream = std::unique_ptr<DIR, dir_stream_closer>;

inline bool is_dot_or_dotdot(const char* n) noexcept {
  return n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'));
}

/// The next entry name of `stream` other than "." and "..", or nullptr at its end; a read
/// error throws, naming `where` (the one readdir loop every directory listing here uses).
inline const struct dirent* next_dirent(DIR* stream, std::string_view where) {
  for (;;) {
    errno = 0;
    const struct dirent* ent = ::readdir(stream);
    if (ent == nullptr) {
      if (errno != 0) throw sys_error("for_each_entry", where, errno);
      return nullptr;
    }
    if (!is_dot_or_dotdot(ent->d_name)) return ent;
  }
}
inline const char* next_entry(DIR* stream, std::string_view where) {
  const struct dirent* ent = next_dirent(stream, where);
  return ent == nullptr ? nullptr : ent->d_name;
}

// renameat2 flags, spelled here so no libc or kernel header is needed.
constexpr unsigned rename_noreplace_flag = 1u;
constexpr unsigned rename_exchange_flag = 2u;
#if defined(__linux__)
// FICLONE = _IOW(0x94, 9, int), spelled here so <linux/fs.h> is not needed.
constexpr unsigned long ficlone_request = 0x40049409ul;
#endif

/// A descriptor handle of the backend `Owner` (`Tag` keeps directory and file handles apart):
/// moved, never copied, closed on destruction; only `Owner` opens one.
template <class Owner, class Tag>
class fd_handle {
 public:
  fd_handle(fd_handle&&) noexcept = default;
  fd_handle& operator=(fd_handle&&) noexcept = default;
  int native_handle() const noexcept { return fd_.get(); }

 private:
  friend Owner;
  explicit fd_handle(int fd) noexcept : fd_(fd) {}
  unique_fd fd_;
};
struct posix_dir_tag;
struct posix_file_tag;

}  // namespace detail

/// The Fs policy on the host filesystem (Linux first; other POSIX systems build, with
/// `rename_result::unsupported` for the renameat2 modes and fsync in place of syncfs).
///
/// Guarantees: entries are classified with fstatat(AT_SYMLINK_NOFOLLOW) through their
/// parent's descriptor and opened with O_NOFOLLOW (plus O_DIRECTORY for directories), so
/// a symlink is never followed below a root; creation uses O_CREAT|O_EXCL; recursive
/// removal descends through descriptors and unlinks symlinks instead of following them
/// (the CVE-2022-21658 fix). Out of scope: bind mounts and other mount changes inside a
/// tree, and /proc magic links reached through a root the caller chose.
class posix {
 public:
  /// Usable from several threads at once (fs/jobs.hpp): every call works on the handles it
  /// is given; the only state, two "offload refused" flags, is atomic.
  static constexpr bool thread_safe = true;

  /// A directory handle: an O_DIRECTORY descriptor, closed on destruction.
  using dir = detail::fd_handle<posix, detail::posix_dir_tag>;
  /// A file handle: a descriptor opened read-only, or write-only when created.
  using file = detail::fd_handle<posix, detail::posix_file_tag>;

  dir open_root(std::string_view abs) {
    std::string path(abs);
    if (path.empty() || path.front() != '/') {
      throw error(errc::invalid_argument, "open_root needs an absolute path, got `" + path + "`",
                  path);
    }
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    // This open follows symlinks: ELOOP is a loop or too deep a chain, a limit (sys_error).
    if (fd < 0) throw sys_error("open_root", path, errno);
    return dir(fd);
  }

  /// realpath(3) of an absolute path (symlinks followed); nullopt when it does not exist
  /// (ENOENT/ENOTDIR). Used only to resolve the destination and compare source paths
  /// (exporter, docs/library.md, Exporting), never to open anything. Added for the exporter.
  std::optional<std::string> canonical(std::string_view abs) {
    std::string path(abs);
    char* resolved = ::realpath(path.c_str(), nullptr);
    if (resolved == nullptr) {
      const int err = errno;
      if (err == ENOENT || err == ENOTDIR) return std::nullopt;
      throw sys_error("canonical", path, err);
    }
    std::string out(resolved);
    std::free(resolved);
    return out;
  }

  std::optional<stat_info> stat_at(const dir& parent, std::string_view name) {
    detail::require_component(name);
    const detail::c_name n(name);
    struct stat st {};
    if (::fstatat(parent.native_handle(), n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT) return std::nullopt;
      throw sys_error("stat_at", n, errno);
    }
    return detail::to_info(st);
  }

  stat_info stat(const dir& d) { return fstat_fd(d.native_handle()); }
  stat_info stat(const file& f) { return fstat_fd(f.native_handle()); }

  dir open_dir_at(const dir& parent, std::string_view name) {
    detail::require_component(name);
    const detail::c_name n(name);
    int fd = ::openat(parent.native_handle(), n.c_str(),
                      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      int err = errno;
      struct stat st {};
      // O_DIRECTORY reports a symlink as ENOTDIR; say which it was.
      if (err == ENOTDIR &&
          ::fstatat(parent.native_handle(), n.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISLNK(st.st_mode)) {
        err = ELOOP;
      }
      throw sys_error("open_dir_at", n, err);
    }
    return dir(fd);
  }

  file open_file_at(const dir& parent, std::string_view name) {
    detail::require_component(name);
    const detail::c_name n(name);
    // O_NONBLOCK keeps a FIFO swapped in after classification from blocking the open;
    // the caller's fstat then sees it is not a regular file.
    // The flag stays set: it changes nothing for a regular file (the only kind any
    // caller reads after its fstat), and `read` clears it on the first EAGAIN, so a
    // caller that does read a FIFO or device still blocks as before. Two fcntl calls
    // fewer per file than clearing it here.
    int fd = ::openat(parent.native_handle(), n.c_str(),
                      O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) throw sys_error("open_file_at", n, errno);
    return file(fd);
  }

  /// Streams the entries of `d` to `f(std::string_view name)` in readdir order through a
  /// fresh description of the same directory ("." of the handle), so the handle's own
  /// offset is untouched and nothing is resolved by path.
  template <class F>
  void for_each_entry(const dir& d, F&& f) {
    detail::dir_stream stream = open_stream(d);
    while (const char* name = detail::next_entry(stream.get(), {})) f(std::string_view(name));
  }

  bool is_empty(const dir& d) {
    detail::dir_stream stream = open_stream(d);
    return detail::next_entry(stream.get(), {}) == nullptr;
  }

  void make_dir_at(const dir& parent, std::string_view name, std::uint32_t mode) {
    detail::require_component(name);
    const detail::c_name n(name);
    if (::mkdirat(parent.native_handle(), n.c_str(), static_cast<mode_t>(mode)) != 0) {
      throw sys_error("make_dir_at", n, errno);
    }
  }

  file create_file_at(const dir& parent, std::string_view name, std::uint32_t mode) {
    detail::require_component(name);
    const detail::c_name n(name);
    int fd = ::openat(parent.native_handle(), n.c_str(),
                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
                      static_cast<mode_t>(mode));
    if (fd < 0) throw sys_error("create_file_at", n, errno);
    return file(fd);
  }

  /// Copies every remaining byte of `from` to `to`: copy_file_range in the kernel when
  /// the filesystems allow it, else a read/write loop with one reused buffer.
  std::uint64_t copy_data(file& from, file& to) { return copy_bytes(from, to, 0, false); }

  /// Optional extension of the Fs policy (fs::detail::has_sized_copy_data): copies the
  /// `size` bytes `stat(from)` reported for a regular file opened at offset 0, without
  /// the trailing call that only confirms the end of the file (a second copy_file_range
  /// or read per file). A file that shrank meanwhile stops at its end; one that grew is
  /// copied up to `size` (the size it had when opened). `size` 0 falls back to reading
  /// to the end (a pseudo-file that reports no size). Tries a FICLONE reflink first
  /// where the filesystem has them (btrfs, XFS, bcachefs, ...), then copy_file_range,
  /// then read/write; an offload the filesystem refuses is not asked for again by this
  /// object.
  std::uint64_t copy_data(file& from, file& to, std::uint64_t size) {
    if (size == 0) return copy_bytes(from, to, 0, false);
#if defined(__linux__)
    if (clone_works_.on()) {
      if (::ioctl(to.native_handle(), detail::ficlone_request, from.native_handle()) == 0) {
        // The clone shares the whole file; move the source's offset as a copy would.
        if (::lseek(from.native_handle(), static_cast<off_t>(size), SEEK_SET) < 0) {
          throw sys_error("copy_data", {}, errno);
        }
        return size;
      }
      const int err = errno;
      if (!offload_unsupported(err) && err != EINTR) throw sys_error("copy_data", {}, err);
      clone_works_.clear();
    }
#endif
    return copy_bytes(from, to, size, true);
  }

  std::size_t read(file& f, char* buf, std::size_t n) {
    for (;;) {
      ssize_t got = ::read(f.native_handle(), buf, n);
      if (got >= 0) return static_cast<std::size_t>(got);
      const int err = errno;
      if (err == EINTR) continue;
      if (err == EAGAIN || err == EWOULDBLOCK) {
        // A FIFO or device opened by open_file_at (O_NONBLOCK): from now on, block as a
        // plain read would.
        const int flags = ::fcntl(f.native_handle(), F_GETFL);
        if (flags >= 0 && (flags & O_NONBLOCK) != 0 &&
            ::fcntl(f.native_handle(), F_SETFL, flags & ~O_NONBLOCK) == 0) {
          continue;
        }
      }
      throw sys_error("read", {}, err);
    }
  }

  void write_all(file& f, const char* data, std::size_t n) {
    while (n > 0) {
      ssize_t put = ::write(f.native_handle(), data, n);
      if (put < 0) {
        if (errno == EINTR) continue;
        throw sys_error("write_all", {}, errno);
      }
      data += put;
      n -= static_cast<std::size_t>(put);
    }
  }

  void set_mode(file& f, std::uint32_t mode) {
    if (::fchmod(f.native_handle(), static_cast<mode_t>(mode & 07777)) != 0) {
      throw sys_error("set_mode", {}, errno);
    }
  }

  /// Optional extension (fs::detail::has_set_owner): fchown.
  void set_owner(file& f, std::uint32_t uid, std::uint32_t gid) {
    if (::fchown(f.native_handle(), static_cast<uid_t>(uid), static_cast<gid_t>(gid)) != 0) {
      throw sys_error("set_owner", {}, errno);
    }
  }
  /// Optional extension (fs::detail::has_set_dir_owner): fchown of a directory handle.
  void set_owner(const dir& d, std::uint32_t uid, std::uint32_t gid) {
    if (::fchown(d.native_handle(), static_cast<uid_t>(uid), static_cast<gid_t>(gid)) != 0) {
      throw sys_error("set_owner", {}, errno);
    }
  }

  void unlink_at(const dir& parent, std::string_view name) {
    detail::require_component(name);
    const detail::c_name n(name);
    if (::unlinkat(parent.native_handle(), n.c_str(), 0) != 0) {
      throw sys_error("unlink_at", n, errno);
    }
  }

  void remove_dir_at(const dir& parent, std::string_view name) {
    detail::require_component(name);
    const detail::c_name n(name);
    if (::unlinkat(parent.native_handle(), n.c_str(), AT_REMOVEDIR) != 0) {
      throw sys_error("remove_dir_at", n, errno);
    }
  }

  /// Removes `name` and everything below it. Each directory is opened with
  /// O_NOFOLLOW|O_DIRECTORY through its parent; an entry that is (or has just become) a
  /// symlink is unlinked, never followed. Entries that vanish meanwhile are not errors.
  /// Uses one descriptor per level and an explicit stack, not C++ recursion.
  void remove_tree_at(const dir& parent, std::string_view name) {
    remove_tree_at(parent, name, removal_progress{});
  }

  /// remove_tree_at, calling `on_removed` (when set) with the count of entries removed so
  /// far after each one: one indirect call per unlink, nothing the syscall would notice.
  void remove_tree_at(const dir& parent, std::string_view name,
                      const removal_progress& on_removed) {
    detail::require_component(name);
    std::string n(name);
    std::uint64_t removed = 0;
    const auto count = [&] {
      ++removed;
      if (on_removed) on_removed(removed);
    };
    if (!remove_leaf_or_open(parent.native_handle(), n, true)) return count();
    struct frame {
      detail::dir_stream stream;  // owns the descriptor of the directory being emptied
      std::string name;           // its name in the parent frame (or the caller's dir)
      int fd() const noexcept { return ::dirfd(stream.get()); }
    };
    std::vector<frame> stack;
    auto push = [&](int parent_fd, const std::string& child) -> bool {
      int fd = ::openat(parent_fd, child.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0) {
        int err = errno;
        if (err == ENOENT && !stack.empty()) return false;
        if (err == ENOTDIR || err == ELOOP) {
          // Swapped for a file or symlink after classification: remove the entry itself.
          if (::unlinkat(parent_fd, child.c_str(), 0) != 0 && errno != ENOENT) {
            throw sys_error("unlink_at", child, errno);
          }
          return false;
        }
        throw sys_error("open_dir_at", child, err);
      }
      detail::unique_fd owned(fd);
      detail::dir_stream stream = stream_of(fd, child);
      owned.release();  // the stream owns it now: one close, not two
      stack.push_back(frame{std::move(stream), child});
      return true;
    };
    push(parent.native_handle(), n);
    while (!stack.empty()) {
      frame& top = stack.back();
      if (const struct dirent* ent = detail::next_dirent(top.stream.get(), top.name)) {
        std::string child(ent->d_name);
        // The type readdir gives saves a stat per entry (what `rm -rf` does too): a
        // non-directory is unlinked at once (unlinkat never follows a link and refuses a
        // directory, so an entry swapped meanwhile falls back to the checked path).
        if (ent->d_type != DT_DIR && ent->d_type != DT_UNKNOWN &&
            (::unlinkat(top.fd(), child.c_str(), 0) == 0 || errno == ENOENT)) {
          count();
          continue;
        }
        if (remove_leaf_or_open(top.fd(), child, false)) {
          push(top.fd(), child);
        } else {
          count();
        }
        continue;
      }
      std::string done = std::move(top.name);
      stack.pop_back();
      int up = stack.empty() ? parent.native_handle() : stack.back().fd();
      if (::unlinkat(up, done.c_str(), AT_REMOVEDIR) != 0 && (errno != ENOENT || stack.empty())) {
        throw sys_error("remove_dir_at", done, errno);
      }
      count();
    }
  }

  rename_result rename_at(const dir& from_dir, std::string_view from, const dir& to_dir,
                          std::string_view to, rename_mode mode) {
    detail::require_component(from);
    detail::require_component(to);
    std::string f(from);
    std::string t(to);
    if (mode == rename_mode::replace) {
      if (::renameat(from_dir.native_handle(), f.c_str(), to_dir.native_handle(), t.c_str()) != 0) {
        throw sys_error("rename_at", f + " to " + t, errno);
      }
      return rename_result::done;
    }
#if defined(__linux__) && defined(SYS_renameat2)
    unsigned flags = mode == rename_mode::noreplace ? detail::rename_noreplace_flag
                                                    : detail::rename_exchange_flag;
    if (::syscall(SYS_renameat2, from_dir.native_handle(), f.c_str(), to_dir.native_handle(),
                  t.c_str(), flags) == 0) {
      return rename_result::done;
    }
    int err = errno;
    if (err == EINVAL || err == ENOSYS || err == EOPNOTSUPP) return rename_result::unsupported;
    throw sys_error("rename_at", f + " to " + t, err);
#else
    return rename_result::unsupported;
#endif
  }

  void sync_filesystem(const dir& d) {
#if defined(__linux__)
    if (::syncfs(d.native_handle()) != 0) throw sys_error("sync_filesystem", {}, errno);
#else
    if (::fsync(d.native_handle()) != 0) throw sys_error("sync_dir", {}, errno);
#endif
  }

  void sync_dir(const dir& d) {
    if (::fsync(d.native_handle()) != 0) throw sys_error("sync_dir", {}, errno);
  }

  bool try_lock(const dir& d) {
    for (;;) {
      if (::flock(d.native_handle(), LOCK_EX | LOCK_NB) == 0) return true;
      if (errno == EWOULDBLOCK) return false;
      if (errno != EINTR) throw sys_error("try_lock", {}, errno);
    }
  }

 private:
  static stat_info fstat_fd(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw sys_error("stat", {}, errno);
    return detail::to_info(st);
  }

  static detail::dir_stream stream_of(int fd, std::string_view what) {
    DIR* d = ::fdopendir(fd);
    if (d == nullptr) throw sys_error("for_each_entry", what, errno);
    return detail::dir_stream(d);
  }

  static detail::dir_stream open_stream(const dir& d) {
    int fd = ::openat(d.native_handle(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) throw sys_error("open_dir_at", ".", errno);
    detail::unique_fd owned(fd);
    detail::dir_stream stream = stream_of(fd, "directory");
    owned.release();  // the stream owns it now
    return stream;
  }

  /// Unlinks `name` in `dirfd` unless it is a directory; returns true for a directory the
  /// caller should descend into. `top` makes a missing name an error.
  static bool remove_leaf_or_open(int dirfd, const std::string& name, bool top) {
    struct stat st {};
    if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT && !top) return false;
      throw top && errno == ENOENT ? sys_error("remove_tree_at", name, ENOENT)
                                   : sys_error("stat_at", name, errno);
    }
    if (S_ISDIR(st.st_mode)) return true;
    if (::unlinkat(dirfd, name.c_str(), 0) != 0 && !(errno == ENOENT && !top)) {
      throw sys_error("unlink_at", name, errno);
    }
    return false;
  }

  /// The copy loop of both copy_data forms: with `sized`, stops once `size` bytes are
  /// copied (or at an earlier end of file) instead of asking once more.
  std::uint64_t copy_bytes(file& from, file& to, std::uint64_t size, bool sized) {
    std::uint64_t total = 0;
    const auto left = [&]() -> std::uint64_t { return sized ? size - total : ~std::uint64_t{0}; };
#if defined(__linux__) && defined(SYS_copy_file_range)
    if (copy_range_works_.on()) {
      while (left() != 0) {
        const std::uint64_t want = left() < (std::uint64_t{1} << 30) ? left() : (1u << 30);
        long n = ::syscall(SYS_copy_file_range, from.native_handle(), nullptr, to.native_handle(),
                           nullptr, static_cast<std::size_t>(want), 0u);
        if (n > 0) {
          total += static_cast<std::uint64_t>(n);
          continue;
        }
        if (n == 0) break;  // end of file, or a pseudo-file that reports none: confirm below
        int err = errno;
        if (err == EINTR) continue;
        if (!offload_unsupported(err)) throw sys_error("copy_data", {}, err);
        // Not offered here (another filesystem, an old kernel, a seccomp filter): the
        // offsets have advanced by what was copied, so the loop below just continues.
        if (err == ENOSYS) copy_range_works_.clear();
        break;
      }
    }
#endif
    if (left() == 0) return total;
    std::vector<char> buffer(CLAWPORT_COPY_BUFFER_SIZE);  // per call: threads copy at once
    for (;;) {
      const std::uint64_t l = left();
      const std::size_t want = l < buffer.size() ? static_cast<std::size_t>(l) : buffer.size();
      if (want == 0) return total;
      std::size_t n = read(from, buffer.data(), want);
      if (n == 0) return total;
      write_all(to, buffer.data(), n);
      total += n;
    }
  }

  static bool offload_unsupported(int err) noexcept {
    // The errnos GNU cp treats as "no offload here, copy normally".
    switch (err) {
      case EXDEV:
      case ENOSYS:
      case EINVAL:
      case EOPNOTSUPP:
#if defined(ENOTSUP) && ENOTSUP != EOPNOTSUPP
      case ENOTSUP:
#endif
      case ENOTTY:
      case EBADF:
      case ETXTBSY:
      case EPERM:
      case EACCES:
        return true;
      default:
        return false;
    }
  }

  /// A flag that starts on and is turned off for good, from any thread; copyable.
  class sticky_flag {
   public:
    sticky_flag() = default;
    sticky_flag(const sticky_flag& o) noexcept : on_(o.on()) {}
    sticky_flag& operator=(const sticky_flag& o) noexcept {
      on_.store(o.on(), std::memory_order_relaxed);
      return *this;
    }
    bool on() const noexcept { return on_.load(std::memory_order_relaxed); }
    void clear() noexcept { on_.store(false, std::memory_order_relaxed); }

   private:
    std::atomic<bool> on_{true};
  };

  sticky_flag copy_range_works_;  // off once the kernel said ENOSYS
  sticky_flag clone_works_;       // off once a FICLONE was refused (tmpfs, ext4, ...)
};

static_assert(check_policy<posix>());

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
