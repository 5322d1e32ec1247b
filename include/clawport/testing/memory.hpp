// SPDX-License-Identifier: MIT
// fs::memory: an in-memory filesystem that models the Fs policy the way Linux behaves,
// so every race and every failure can be staged deterministically in a test. Inodes carry
// (dev, ino), link counts and modes; handles refer to inodes, not names, exactly like file
// descriptors; errno values are the ones Linux returns for the same call.
// Part of the opt-in testing module (<clawport/testing.hpp>): not in the umbrella header.
#pragma once

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../fs/policy.hpp"
#include "../fs/sys_error.hpp"
#include "memory_model.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

/// An in-memory filesystem modelling the Fs policy (see docs/library.md, "fs::memory").
///
/// Besides the policy it offers test-building helpers that take absolute paths
/// (`mkdirs`, `write_file`, `symlink`, `hard_link`, `mkfifo`, `rename`, `remove`,
/// `read_file`, `lstat`, `chmod`, `snapshot`). Helpers act with every permission, like a
/// test's setup code; the policy operations check permissions like an unprivileged owner
/// unless `options::enforce_permissions` is false (a process running as root).
class memory {
 public:
  using options = memory_detail::options;

  /// A directory handle: stays bound to its inode when the name is renamed or removed.
  using dir = memory_detail::dir;
  /// A file handle with its own offset; `open_file_at` gives read-only handles,
  /// `create_file_at` write-only ones.
  using file = memory_detail::file;

 private:
  using node = memory_detail::node;
  using node_ptr = memory_detail::node_ptr;
  using state = memory_detail::state;

 public:
  memory() : memory(options{}) {}
  explicit memory(options opts) : st_(std::make_shared<state>()) {
    st_->opts = opts;
    st_->root = make_node(file_kind::directory, 0755);
    st_->root->names = 1;  // the root names itself, so it counts as linked
  }
  memory(memory&&) noexcept = default;
  memory& operator=(memory&&) noexcept = default;
  memory(const memory&) = delete;
  memory& operator=(const memory&) = delete;

  /// The limits and switches; may be changed at any time (e.g. to drop renameat2 support).
  options& settings() noexcept { return st_->opts; }
  const options& settings() const noexcept { return st_->opts; }
  /// Directory and file handles currently open.
  std::size_t open_handles() const noexcept { return st_->open; }

  /// How this backend reports a failed call (used by fs::faulty to inject failures).
  static error make_error(std::string_view op, std::string_view subject, int err) {
    return sys_error(op, subject, err);
  }

  // ---- the Fs policy -------------------------------------------------------------------

  dir open_root(std::string_view abs) {
    static constexpr std::string_view op = "open_root";
    if (abs.empty() || abs.front() != '/') {
      throw error(errc::invalid_argument, "open_root needs an absolute path", std::string(abs));
    }
    if (abs.size() > st_->opts.max_path_length) throw sys_error(op, abs, ENAMETOOLONG);
    reserve_handle(op, abs);
    node_ptr n = resolve(op, abs, true, st_->opts.enforce_permissions);
    if (n->kind != file_kind::directory) throw sys_error(op, abs, ENOTDIR);
    require(n, 4, op, abs);
    return dir(st_, std::move(n));
  }

  std::optional<stat_info> stat_at(const dir& d, std::string_view name) {
    static constexpr std::string_view op = "stat_at";
    check_name(op, name);
    require(d.node_, 1, op, name);
    node_ptr n = find(d.node_, name);
    if (!n) return std::nullopt;
    return info(*n);
  }

  stat_info stat(const dir& d) { return info(*d.node_); }
  stat_info stat(const file& f) { return info(*f.node_); }

  dir open_dir_at(const dir& d, std::string_view name) {
    static constexpr std::string_view op = "open_dir_at";
    node_ptr n = open_at(op, d, name);
    if (n->kind != file_kind::directory) throw sys_error(op, name, ENOTDIR);
    require(n, 4, op, name);
    return dir(st_, std::move(n));
  }

  file open_file_at(const dir& d, std::string_view name) {
    static constexpr std::string_view op = "open_file_at";
    node_ptr n = open_at(op, d, name);
    require(n, 4, op, name);
    // Like O_RDONLY on Linux, a directory or a FIFO opens too; fstat tells them apart.
    return file(st_, std::move(n), true, false);
  }

  template <class F>
  void for_each_entry(const dir& d, F&& f) {
    // A snapshot of the names: the callback may change the directory, as on a real one.
    std::vector<std::string> names;
    names.reserve(d.node_->entries.size());
    for (const auto& e : d.node_->entries) names.push_back(e.first);
    for (const auto& name : names) f(std::string_view(name));
  }

  bool is_empty(const dir& d) { return d.node_->entries.empty(); }

  void make_dir_at(const dir& d, std::string_view name, std::uint32_t mode) {
    static constexpr std::string_view op = "make_dir_at";
    check_name(op, name);
    require(d.node_, 1, op, name);
    if (d.node_->names == 0) throw sys_error(op, name, ENOENT);
    if (find(d.node_, name)) throw sys_error(op, name, EEXIST);
    require(d.node_, 2, op, name);
    link(d.node_, name, make_node(file_kind::directory, mode & ~st_->opts.umask));
  }

  file create_file_at(const dir& d, std::string_view name, std::uint32_t mode) {
    static constexpr std::string_view op = "create_file_at";
    check_name(op, name);
    reserve_handle(op, name);
    require(d.node_, 1, op, name);
    if (d.node_->names == 0) throw sys_error(op, name, ENOENT);
    if (find(d.node_, name)) throw sys_error(op, name, EEXIST);  // O_EXCL, even a dangling link
    require(d.node_, 2, op, name);
    node_ptr n = make_node(file_kind::regular, mode & ~st_->opts.umask);
    link(d.node_, name, n);
    return file(st_, std::move(n), false, true);
  }

  std::uint64_t copy_data(file& from, file& to) {
    static constexpr std::string_view op = "copy_data";
    if (!from.readable_ || !to.writable_) throw sys_error(op, {}, EBADF);
    if (from.node_->kind == file_kind::directory) throw sys_error(op, {}, EISDIR);
    if (from.node_->kind != file_kind::regular) return 0;  // an empty non-blocking FIFO
    const std::string& src = from.node_->data;
    if (from.pos_ >= src.size()) return 0;
    const std::size_t n = src.size() - static_cast<std::size_t>(from.pos_);
    // Copy first: `from` and `to` may be the same inode.
    const std::string chunk = src.substr(static_cast<std::size_t>(from.pos_));
    put(to, chunk.data(), n);
    from.pos_ += n;
    return n;
  }

  /// The sized form (fs::posix's fast path, so the fault sweeps run it too): at most
  /// `size` bytes; `size` 0 copies to the end.
  std::uint64_t copy_data(file& from, file& to, std::uint64_t size) {
    static constexpr std::string_view op = "copy_data";
    if (size == 0) return copy_data(from, to);
    if (!from.readable_ || !to.writable_) throw sys_error(op, {}, EBADF);
    if (from.node_->kind == file_kind::directory) throw sys_error(op, {}, EISDIR);
    if (from.node_->kind != file_kind::regular) return 0;
    const std::string& src = from.node_->data;
    if (from.pos_ >= src.size()) return 0;
    const std::size_t avail = src.size() - static_cast<std::size_t>(from.pos_);
    const std::size_t n = size < avail ? static_cast<std::size_t>(size) : avail;
    const std::string chunk = src.substr(static_cast<std::size_t>(from.pos_), n);
    put(to, chunk.data(), n);
    from.pos_ += n;
    return n;
  }

  std::size_t read(file& f, char* buf, std::size_t n) {
    static constexpr std::string_view op = "read";
    if (!f.readable_) throw sys_error(op, {}, EBADF);
    if (f.node_->kind == file_kind::directory) throw sys_error(op, {}, EISDIR);
    if (f.node_->kind != file_kind::regular) return 0;
    const std::string& src = f.node_->data;
    // n == 0 may come with a null buf: memcpy must not see it (GCC 12 -O2 -Wnonnull, rightly)
    if (n == 0 || f.pos_ >= src.size()) return 0;
    const std::size_t k = std::min(n, src.size() - static_cast<std::size_t>(f.pos_));
    std::memcpy(buf, src.data() + f.pos_, k);
    f.pos_ += k;
    return k;
  }

  void write_all(file& f, const char* data, std::size_t n) {
    if (!f.writable_) throw sys_error("write_all", {}, EBADF);
    put(f, data, n);
  }

  void set_mode(file& f, std::uint32_t mode) { f.node_->mode = mode & 07777; }

  void unlink_at(const dir& d, std::string_view name) {
    static constexpr std::string_view op = "unlink_at";
    check_name(op, name);
    node_ptr n = entry_at(op, d, name);
    if (n->kind == file_kind::directory) throw sys_error(op, name, EISDIR);
    require(d.node_, 2, op, name);
    unlink(d.node_, name);
  }

  void remove_dir_at(const dir& d, std::string_view name) {
    static constexpr std::string_view op = "remove_dir_at";
    check_name(op, name);
    node_ptr n = entry_at(op, d, name);
    if (n->kind != file_kind::directory) throw sys_error(op, name, ENOTDIR);
    if (!n->entries.empty()) throw sys_error(op, name, ENOTEMPTY);
    require(d.node_, 2, op, name);
    unlink(d.node_, name);
  }

  void remove_tree_at(const dir& d, std::string_view name) {
    static constexpr std::string_view op = "remove_tree_at";
    check_name(op, name);
    node_ptr n = entry_at(op, d, name);
    if (n->kind == file_kind::directory) {
      // The posix remover opens each directory (r), looks up and unlinks entries (wx).
      empty_tree(n, name, st_->opts.enforce_permissions);
    }
    require(d.node_, 2, op, name);
    unlink(d.node_, name);
  }

  rename_result rename_at(const dir& from_dir, std::string_view from, const dir& to_dir,
                          std::string_view to, rename_mode mode) {
    if (mode != rename_mode::replace && !st_->opts.rename2_supported) {
      return rename_result::unsupported;  // as renameat2 failing with EINVAL/ENOSYS
    }
    try {
      move_entry(from_dir.node_, from, to_dir.node_, to, mode, st_->opts.enforce_permissions);
    } catch (const error& e) {
      // The policy reads renameat2's EINVAL as "not supported here", as fs::posix must:
      // the kernel gives the same errno for a directory moved into itself.
      if (mode != rename_mode::replace && e.sys_errno() == EINVAL) {
        return rename_result::unsupported;
      }
      throw;
    }
    return rename_result::done;
  }

  void sync_filesystem(const dir&) {}
  void sync_dir(const dir&) {}

  bool try_lock(const dir& d) {
    // flock: per open description; the holder may lock again, anyone else gets EWOULDBLOCK.
    if (d.node_->lock_owner != 0 && d.node_->lock_owner != d.id_) return false;
    d.node_->lock_owner = d.id_;
    return true;
  }

  /// realpath(3) of an absolute path, symlinks followed; nullopt when it does not exist.
  /// Used by the exporter to resolve the destination (docs/library.md, Exporting). Added for the
  /// exporter.
  std::optional<std::string> canonical(std::string_view abs) const {
    std::vector<std::string> todo = split(abs);
    std::vector<std::string> done;
    int links = 0;
    std::size_t i = 0;
    while (i < todo.size()) {
      const std::string c = todo[i++];
      if (c.empty() || c == ".") continue;
      if (c == "..") {
        if (!done.empty()) done.pop_back();
        continue;
      }
      std::string candidate;
      for (const std::string& d : done) candidate += "/" + d;
      candidate += "/" + c;
      const std::optional<stat_info> st = lstat(candidate);
      if (!st) return std::nullopt;
      if (st->kind == file_kind::symlink) {
        if (++links > 40) throw sys_error("canonical", abs, ELOOP);
        const std::string target = read_link(candidate);
        if (!target.empty() && target.front() == '/') done.clear();
        std::vector<std::string> rest = split(target);
        rest.insert(rest.end(), todo.begin() + static_cast<std::ptrdiff_t>(i), todo.end());
        todo = std::move(rest);
        i = 0;
        continue;
      }
      if (i < todo.size() && st->kind != file_kind::directory) return std::nullopt;
      done.push_back(c);
    }
    std::string out;
    for (const std::string& d : done) out += "/" + d;
    return out.empty() ? std::string("/") : out;
  }

  // ---- test-building helpers, by absolute path ----------------------------------------
  // Intermediate symlinks are followed, the last component is not (lstat-like), except in
  // read_file and chmod which act on what the path finally names. Permissions are ignored.

  /// mkdir -p: creates missing directories (the last one with `mode`, exactly).
  void mkdirs(std::string_view path, std::uint32_t mode = 0755) {
    static constexpr std::string_view op = "mkdirs";
    node_ptr cur = st_->root;
    const auto parts = split(path);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string& p = parts[i];
      if (p == ".") continue;
      if (p == "..") {
        cur = parent_of(cur);
        continue;
      }
      node_ptr next = find(cur, p);
      if (next && next->kind == file_kind::symlink) {
        next = resolve_from(op, cur, next->target, true, false, 0);
      }
      if (!next) {
        next = make_node(file_kind::directory, i + 1 == parts.size() ? (mode & 07777) : 0755);
        link(cur, p, next);
      } else if (next->kind != file_kind::directory) {
        throw sys_error(op, path, ENOTDIR);
      }
      cur = next;
    }
  }

  /// Creates or overwrites a regular file (same inode when it exists), creating parents.
  void write_file(std::string_view path, std::string_view content, std::uint32_t mode = 0644) {
    static constexpr std::string_view op = "write_file";
    auto [parent, name] = parent_and_name(op, path, true);
    node_ptr n = find(parent, name);
    if (!n) {
      n = make_node(file_kind::regular, mode & 07777);
      link(parent, name, n);
    } else if (n->kind != file_kind::regular) {
      throw sys_error(op, path, n->kind == file_kind::directory ? EISDIR : EEXIST);
    }
    n->data.assign(content.data(), content.size());
    n->mode = mode & 07777;
  }

  void symlink(std::string_view path, std::string_view target) {
    static constexpr std::string_view op = "symlink";
    auto [parent, name] = parent_and_name(op, path, false);
    if (find(parent, name)) throw sys_error(op, path, EEXIST);
    node_ptr n = make_node(file_kind::symlink, 0777);
    n->target = std::string(target);
    link(parent, name, n);
  }

  /// link(2): `existing` is not followed if it is a symlink; directories are refused.
  void hard_link(std::string_view existing, std::string_view new_path) {
    static constexpr std::string_view op = "hard_link";
    auto [sp, sname] = parent_and_name(op, existing, false);
    node_ptr n = find(sp, sname);
    if (!n) throw sys_error(op, existing, ENOENT);
    if (n->kind == file_kind::directory) throw sys_error(op, existing, EPERM);
    auto [dp, dname] = parent_and_name(op, new_path, false);
    if (find(dp, dname)) throw sys_error(op, new_path, EEXIST);
    link(dp, dname, n);
  }

  /// A FIFO (any special file is `file_kind::other`).
  void mkfifo(std::string_view path, std::uint32_t mode = 0644) {
    static constexpr std::string_view op = "mkfifo";
    auto [parent, name] = parent_and_name(op, path, false);
    if (find(parent, name)) throw sys_error(op, path, EEXIST);
    link(parent, name, make_node(file_kind::other, mode & 07777));
  }

  /// rename(2) with its usual replace semantics.
  void rename(std::string_view from, std::string_view to) {
    static constexpr std::string_view op = "rename";
    auto [fp, fname] = parent_and_name(op, from, false);
    auto [tp, tname] = parent_and_name(op, to, false);
    move_entry(fp, fname, tp, tname, rename_mode::replace, false);
  }

  /// rm -rf without following symlinks; false if nothing was there.
  bool remove(std::string_view path) {
    static constexpr std::string_view op = "remove";
    auto [parent, name] = parent_and_name(op, path, false);
    node_ptr n = find(parent, name);
    if (!n) return false;
    if (n->kind == file_kind::directory) empty_tree(n, name, false);
    unlink(parent, name);
    return true;
  }

  /// Content of the regular file the path names (symlinks followed).
  std::string read_file(std::string_view path) const {
    static constexpr std::string_view op = "read_file";
    node_ptr n = resolve(op, path, true, false);
    if (n->kind == file_kind::directory) throw sys_error(op, path, EISDIR);
    if (n->kind != file_kind::regular) throw sys_error(op, path, EINVAL);
    return n->data;
  }

  std::string read_link(std::string_view path) const {
    static constexpr std::string_view op = "read_link";
    node_ptr n = resolve(op, path, false, false);
    if (n->kind != file_kind::symlink) throw sys_error(op, path, EINVAL);
    return n->target;
  }

  /// lstat: nullopt when nothing is there (or a parent is missing or not a directory).
  std::optional<stat_info> lstat(std::string_view path) const { return stat_path(path, false); }
  /// stat: like lstat but following symlinks.
  std::optional<stat_info> stat_path(std::string_view path, bool follow = true) const {
    try {
      return info(*resolve("stat", path, follow, false));
    } catch (const error& e) {
      if (e.sys_errno() == ENOENT || e.sys_errno() == ENOTDIR) return std::nullopt;
      throw;
    }
  }

  bool exists(std::string_view path) const { return lstat(path).has_value(); }

  /// chmod(2): changes the mode of what the path finally names.
  void chmod(std::string_view path, std::uint32_t mode) {
    resolve("chmod", path, true, false)->mode = mode & 07777;
  }

  /// Every entry below `path` (which is followed), keyed by its path relative to it:
  /// "d" directory, "l:<target>" symlink, "f:<content>" regular file with "+x" appended
  /// when any execute bit is set, "o" anything else. Sorted, so two snapshots compare.
  std::map<std::string, std::string> snapshot(std::string_view path) const {
    std::map<std::string, std::string> out;
    node_ptr n = resolve("snapshot", path, true, false);
    if (n->kind == file_kind::directory) snapshot_into(*n, std::string(), out);
    return out;
  }

 private:
  std::shared_ptr<state> st_;

  node_ptr make_node(file_kind kind, std::uint32_t mode) {
    auto n = std::make_shared<node>();
    n->kind = kind;
    n->ino = st_->next_ino++;
    n->mode = mode & 07777;
    return n;
  }

  stat_info info(const node& n) const {
    stat_info s;
    s.kind = n.kind;
    s.id = file_id{st_->opts.dev, n.ino};
    s.mode = n.mode & 07777;
    if (n.kind == file_kind::directory) {
      // "." and the parent's entry, plus each subdirectory's ".."; 0 once removed.
      std::uint64_t subdirs = 0;
      for (const auto& e : n.entries) subdirs += e.second->kind == file_kind::directory;
      s.nlink = n.names == 0 ? 0 : 2 + subdirs;
    } else {
      s.nlink = n.names;
    }
    s.size = n.kind == file_kind::regular   ? n.data.size()
             : n.kind == file_kind::symlink ? n.target.size()
                                            : 0;
    return s;
  }

  void check_name(std::string_view op, std::string_view name) const {
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos ||
        name.find('\0') != std::string_view::npos) {
      throw error(
          errc::unsafe_path,
          "`" + std::string(name) + "` is not a single path component (no `/`, `.` or `..`)",
          std::string(name));
    }
    if (name.size() > st_->opts.max_name_length) throw sys_error(op, name, ENAMETOOLONG);
  }

  /// What opening `name` below `d` with O_NOFOLLOW finds: a handle reserved, `d` searchable,
  /// the entry present and not a symlink (ELOOP: Linux says ENOTDIR for a symlink under
  /// O_DIRECTORY|O_NOFOLLOW; fs::posix re-classifies it so callers can tell "a symlink"
  /// from "not a directory", and so do we).
  node_ptr open_at(std::string_view op, const dir& d, std::string_view name) {
    check_name(op, name);
    reserve_handle(op, name);
    node_ptr n = entry_at(op, d, name);
    if (n->kind == file_kind::symlink) throw sys_error(op, name, ELOOP);
    return n;
  }

  /// The entry `name` of `d` (searchable), else ENOENT.
  node_ptr entry_at(std::string_view op, const dir& d, std::string_view name) const {
    require(d.node_, 1, op, name);
    node_ptr n = find(d.node_, name);
    if (!n) throw sys_error(op, name, ENOENT);
    return n;
  }

  // Linux takes the descriptor slot before resolving, so EMFILE wins over ENOENT.
  void reserve_handle(std::string_view op, std::string_view name) const {
    if (st_->opts.max_open_handles != 0 && st_->open >= st_->opts.max_open_handles) {
      throw sys_error(op, name, EMFILE);
    }
  }

  // Owner permission bits: 4 read, 2 write, 1 search/execute.
  void require(const node_ptr& n, std::uint32_t bits, std::string_view op,
               std::string_view name) const {
    if (!st_->opts.enforce_permissions) return;
    if (((n->mode >> 6) & bits) != bits) throw sys_error(op, name, EACCES);
  }

  static node_ptr find(const node_ptr& d, std::string_view name) {
    auto it = d->entries.find(name);
    return it == d->entries.end() ? nullptr : it->second;
  }

  node_ptr parent_of(const node_ptr& n) const {
    node_ptr p = n->parent.lock();
    return p ? p : st_->root;  // "/.." is "/"
  }

  static void link(const node_ptr& d, std::string_view name, const node_ptr& n) {
    d->entries.emplace(std::string(name), n);
    ++n->names;
    if (n->kind == file_kind::directory) n->parent = d;
  }

  static void unlink(const node_ptr& d, std::string_view name) {
    auto it = d->entries.find(name);
    node_ptr n = it->second;
    d->entries.erase(it);
    --n->names;
    if (n->kind == file_kind::directory) n->parent.reset();
  }

  void put(file& f, const char* data, std::size_t n) {
    std::string& dst = f.node_->data;
    const auto pos = static_cast<std::size_t>(f.pos_);
    if (dst.size() < pos + n) dst.resize(pos + n);
    if (n != 0) std::memcpy(&dst[pos], data, n);
    f.pos_ += n;
  }

  void empty_tree(const node_ptr& d, std::string_view name, bool perms) {
    if (perms && ((d->mode >> 6) & 7) != 7) throw sys_error("remove_tree_at", name, EACCES);
    std::vector<std::string> names;
    for (const auto& e : d->entries) names.push_back(e.first);
    for (const auto& child : names) {
      node_ptr n = find(d, child);
      if (n->kind == file_kind::directory) empty_tree(n, child, perms);
      unlink(d, child);
    }
  }

  static bool is_self_or_ancestor(const node_ptr& a, node_ptr n) {
    while (n) {
      if (n == a) return true;
      n = n->parent.lock();
    }
    return false;
  }

  void move_entry(const node_ptr& fd, std::string_view from, const node_ptr& td,
                  std::string_view to, rename_mode mode, bool perms) {
    static constexpr std::string_view op = "rename_at";
    check_name(op, from);
    check_name(op, to);
    const std::string both = std::string(from) + " to " + std::string(to);  // as fs::posix
    if (perms) {
      require(fd, 1, op, both);
      require(td, 1, op, both);
    }
    node_ptr s = find(fd, from);
    if (!s) throw sys_error(op, both, ENOENT);
    if (td->names == 0) throw sys_error(op, both, ENOENT);
    node_ptr t = find(td, to);
    if (perms) {
      require(fd, 3, op, both);
      require(td, 3, op, both);
    }
    // The checks in the order Linux's renameat2 makes them.
    if (mode == rename_mode::noreplace && t) throw sys_error(op, both, EEXIST);
    if (mode == rename_mode::exchange && !t) throw sys_error(op, both, ENOENT);
    // The source may not be an ancestor of the target's directory, nor the target an
    // ancestor of the source's (ENOTEMPTY then, or EINVAL for an exchange).
    if (s->kind == file_kind::directory && is_self_or_ancestor(s, td)) {
      throw sys_error(op, both, EINVAL);
    }
    if (t && t->kind == file_kind::directory && is_self_or_ancestor(t, fd)) {
      throw sys_error(op, both, mode == rename_mode::exchange ? EINVAL : ENOTEMPTY);
    }
    if (s == t) return;  // two names of one inode: nothing happens
    if (mode == rename_mode::exchange) {
      if (perms && fd != td) {
        if (s->kind == file_kind::directory) require(s, 2, op, both);
        if (t->kind == file_kind::directory) require(t, 2, op, both);
      }
      fd->entries.find(from)->second = t;
      td->entries.find(to)->second = s;
      if (s->kind == file_kind::directory) s->parent = td;
      if (t->kind == file_kind::directory) t->parent = fd;
      return;
    }
    if (s->kind == file_kind::directory) {
      if (t && t->kind != file_kind::directory) throw sys_error(op, both, ENOTDIR);
      // Moving a directory to another parent rewrites its "..": it must be writable.
      if (perms && fd != td) require(s, 2, op, both);
      if (t && !t->entries.empty()) throw sys_error(op, both, ENOTEMPTY);
    } else if (t && t->kind == file_kind::directory) {
      throw sys_error(op, both, EISDIR);
    }
    if (t) unlink(td, to);
    unlink(fd, from);
    link(td, to, s);
  }

  static std::vector<std::string> split(std::string_view path) {
    std::vector<std::string> parts;
    std::size_t i = 0;
    while (i < path.size()) {
      const std::size_t j = path.find('/', i);
      const std::size_t end = j == std::string_view::npos ? path.size() : j;
      if (end > i) parts.emplace_back(path.substr(i, end - i));
      i = end + 1;
    }
    return parts;
  }

  node_ptr resolve(std::string_view op, std::string_view path, bool follow_last, bool perms) const {
    if (path.empty() || path.front() != '/') throw sys_error(op, path, EINVAL);
    return resolve_from(op, st_->root, path, follow_last, perms, 0);
  }

  // Path resolution like namei: "." and ".." by the tree, symlinks spliced in (relative
  // ones from the directory holding them), at most 40 of them.
  node_ptr resolve_from(std::string_view op, node_ptr cur, std::string_view path, bool follow_last,
                        bool perms, int depth) const {
    if (!path.empty() && path.front() == '/') cur = st_->root;
    const auto parts = split(path);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string& p = parts[i];
      const bool last = i + 1 == parts.size();
      if (cur->kind != file_kind::directory) throw sys_error(op, path, ENOTDIR);
      if (p.size() > st_->opts.max_name_length) throw sys_error(op, path, ENAMETOOLONG);
      if (perms && ((cur->mode >> 6) & 1) == 0) throw sys_error(op, path, EACCES);
      if (p == ".") continue;
      if (p == "..") {
        cur = parent_of(cur);
        continue;
      }
      node_ptr next = find(cur, p);
      if (!next) throw sys_error(op, path, ENOENT);
      if (next->kind == file_kind::symlink && (!last || follow_last)) {
        if (depth >= 40) {
          throw error(errc::limit_exceeded,
                      std::string(op) + " " + std::string(path) + ": " +
                          std::generic_category().message(ELOOP),
                      std::string(path), ELOOP);
        }
        next = resolve_from(op, cur, next->target, true, perms, depth + 1);
      }
      cur = next;
    }
    return cur;
  }

  std::pair<node_ptr, std::string> parent_and_name(std::string_view op, std::string_view path,
                                                   bool create_parents) {
    auto parts = split(path);
    if (path.empty() || path.front() != '/' || parts.empty() || parts.back() == "." ||
        parts.back() == "..") {
      throw sys_error(op, path, EINVAL);
    }
    std::string name = parts.back();
    const std::string parent_path = paths::parent(path);
    if (create_parents) mkdirs(parent_path, 0755);
    node_ptr parent = resolve(op, parent_path, true, false);
    if (parent->kind != file_kind::directory) throw sys_error(op, path, ENOTDIR);
    return {parent, name};
  }

  static void snapshot_into(const node& d, const std::string& prefix,
                            std::map<std::string, std::string>& out) {
    for (const auto& e : d.entries) {
      const std::string rel = paths::join(prefix, e.first);
      const node& n = *e.second;
      switch (n.kind) {
        case file_kind::directory:
          out[rel] = "d";
          snapshot_into(n, rel, out);
          break;
        case file_kind::symlink:
          out[rel] = "l:" + n.target;
          break;
        case file_kind::regular:
          out[rel] = "f:" + n.data + ((n.mode & 0111) != 0 ? "+x" : "");
          break;
        case file_kind::other:
          out[rel] = "o";
          break;
      }
    }
  }
};

static_assert(check_policy<memory>(), "fs::memory must model the Fs policy");

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
