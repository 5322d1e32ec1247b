// SPDX-License-Identifier: MIT
// fs::memory's model (memory.hpp is the filesystem over it): its options, the inode, the
// shared state of one filesystem, and the directory and file handles, which refer to an
// inode, not a name, like file descriptors. Part of the opt-in testing module.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "../core/config.hpp"
#include "../fs/policy.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

class memory;

namespace memory_detail {

/// fs::memory::options (its documentation is there).
struct options {
  std::size_t max_open_handles = 0;    ///< open dir+file handles before EMFILE; 0 = no limit
  std::size_t max_name_length = 255;   ///< longest component before ENAMETOOLONG (NAME_MAX)
  std::size_t max_path_length = 4095;  ///< longest open_root path before ENAMETOOLONG
  bool rename2_supported = true;       ///< false: noreplace/exchange report `unsupported`
  bool enforce_permissions = true;     ///< check owner rwx bits (false models root)
  std::uint32_t umask = 022;  ///< applied to make_dir_at/create_file_at modes, as the kernel does
  std::uint64_t dev = 1;      ///< the device number of every inode
};

struct node {
  file_kind kind = file_kind::regular;
  std::uint64_t ino = 0;
  std::uint32_t mode = 0;
  std::uint64_t names = 0;  // directory entries naming this inode (0 or 1 for directories)
  std::string data;         // regular file content
  std::string target;       // symlink target
  std::map<std::string, std::shared_ptr<node>, std::less<>> entries;  // directories
  std::weak_ptr<node> parent;  // directories: the directory holding its name
  // handle id holding the flock, 0 = none; atomic, as a handle may close on another thread
  // (fs::faulty serializes every call, not the closing of handles)
  std::atomic<std::uint64_t> lock_owner{0};
};
using node_ptr = std::shared_ptr<node>;

struct state {
  options opts;
  node_ptr root;
  std::uint64_t next_ino = 2;
  std::uint64_t next_handle = 1;
  std::atomic<std::size_t> open{0};  // closed from any thread (as lock_owner)
};

// Shared by every handle of one filesystem so closing a handle updates the open count.
class handle_base {
 public:
  handle_base() = default;
  handle_base(const handle_base&) = delete;
  handle_base& operator=(const handle_base&) = delete;
  handle_base(handle_base&& o) noexcept
      : st_(std::move(o.st_)), node_(std::move(o.node_)), id_(o.id_) {
    o.id_ = 0;
  }
  handle_base& operator=(handle_base&& o) noexcept {
    if (this != &o) {
      close();
      st_ = std::move(o.st_);
      node_ = std::move(o.node_);
      id_ = o.id_;
      o.id_ = 0;
    }
    return *this;
  }
  ~handle_base() { close(); }
  explicit operator bool() const noexcept { return node_ != nullptr; }

 protected:
  friend class fs::memory;
  handle_base(std::shared_ptr<state> st, node_ptr n)
      : st_(std::move(st)), node_(std::move(n)), id_(st_->next_handle++) {
    ++st_->open;
  }
  void close() noexcept {
    if (!node_) return;
    std::uint64_t mine = id_;  // flock dies with the descriptor
    node_->lock_owner.compare_exchange_strong(mine, 0);
    --st_->open;
    node_.reset();
    st_.reset();
    id_ = 0;
  }
  std::shared_ptr<state> st_;
  node_ptr node_;
  std::uint64_t id_ = 0;
};

/// A directory handle: stays bound to its inode when the name is renamed or removed.
class dir : public handle_base {
 public:
  dir() = default;

 private:
  friend class fs::memory;
  using handle_base::handle_base;
};

/// A file handle with its own offset; `open_file_at` gives read-only handles,
/// `create_file_at` write-only ones.
class file : public handle_base {
 public:
  file() = default;
  file(file&&) noexcept = default;
  file& operator=(file&&) noexcept = default;

 private:
  friend class fs::memory;
  file(std::shared_ptr<state> st, node_ptr n, bool readable, bool writable)
      : handle_base(std::move(st), std::move(n)), readable_(readable), writable_(writable) {}
  bool readable_ = false;
  bool writable_ = false;
  std::uint64_t pos_ = 0;
};

}  // namespace memory_detail
}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
