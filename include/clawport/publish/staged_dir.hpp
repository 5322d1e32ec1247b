// SPDX-License-Identifier: MIT
// The one staged directory: a directory made beside its destination under a registry name
// (publish/names.hpp), opened and locked for as long as the command works in it (so
// `clawport recover` leaves it alone), filled by the caller, then published by one rename
// that never replaces (publish/rename.hpp). Unless published or released, its destructor
// removes the staging tree, and only while the name is still the directory it made.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../fs/modes.hpp"
#include "../fs/policy.hpp"
#include "rename.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

/// A staging directory `name` inside the open directory `parent` (which must outlive it).
/// Neither copied nor moved: hold it in a std::optional or a std::unique_ptr.
template <class Fs>
class staged_dir {
 public:
  using dir = typename Fs::dir;

  /// Makes `name` in `parent` with `mode`, opens it and locks it. A failure to make it is
  /// thrown as the Fs policy threw it; a lock another process holds is
  /// errc::destination_refused naming `shown` (the name when empty). After a failure
  /// nothing of it is left.
  staged_dir(Fs& fs, const dir& parent, std::string name, std::uint32_t mode = fs::modes::dir,
             std::string_view shown = {})
      : fs_(fs), parent_(parent), name_(std::move(name)) {
    fs_.make_dir_at(parent_, name_, mode);
    made_ = true;
    try {
      handle_.emplace(fs_.open_dir_at(parent_, name_));
      id_ = fs_.stat(*handle_).id;
      if (!fs_.try_lock(*handle_)) {
        const std::string s = shown.empty() ? name_ : std::string(shown);
        throw error(errc::destination_refused,
                    "the staging directory " + s +
                        " is held by another running command; nothing was written",
                    s);
      }
    } catch (...) {
      handle_.reset();
      made_ = false;
      try {
        fs_.remove_dir_at(parent_, name_);
      } catch (...) {  // a crash leaves it, empty, for `recover`
      }
      throw;
    }
  }
  /// Takes over the directory `name` in `parent` that the caller made, opened as `handle`
  /// and locked, whose identity is `id` (the exporter names its staging directory only once
  /// it is locked: publish::creating_name). From here on it is as if this object made it.
  staged_dir(Fs& fs, const dir& parent, std::string name, dir handle, const fs::file_id& id)
      : fs_(fs), parent_(parent), name_(std::move(name)), id_(id), made_(true) {
    handle_.emplace(std::move(handle));
  }
  staged_dir(const staged_dir&) = delete;
  staged_dir& operator=(const staged_dir&) = delete;

  /// Removes the staging tree unless it was published or released (best effort: a crash or
  /// a failing disk leaves it for `clawport recover`).
  ~staged_dir() {
    handle_.reset();
    if (!made_) return;
    try {
      const std::optional<fs::stat_info> st = fs_.stat_at(parent_, name_);
      if (st && st->id == id_) fs_.remove_tree_at(parent_, name_);
    } catch (...) {
    }
  }

  /// The open, locked staging directory (to fill).
  const dir& handle() const { return *handle_; }
  /// Its name inside the parent.
  const std::string& name() const noexcept { return name_; }
  /// The identity of the directory made.
  const fs::file_id& id() const noexcept { return id_; }
  /// True while the name still is the directory this object made.
  bool intact() {
    const std::optional<fs::stat_info> st = fs_.stat_at(parent_, name_);
    return st && st->id == id_;
  }

  /// Renames the staging directory to `to` in `to_dir` without replacing anything
  /// (publish::rename_noreplace). False when `to` is taken: nothing changed and the staging
  /// tree is still this object's. On success it is no longer this object's to remove (the
  /// handle stays open, and locked, until close() or destruction).
  bool publish(const dir& to_dir, std::string_view to) {
    if (!rename_noreplace(fs_, parent_, name_, to_dir, to)) return false;
    made_ = false;
    return true;
  }

  /// Renames the entry `entry` of the staging directory to `to` in `to_dir` without
  /// replacing anything; false when `to` is taken. The staging directory stays this
  /// object's (remove() it, or let the destructor).
  bool publish_entry(std::string_view entry, const dir& to_dir, std::string_view to) {
    return rename_noreplace(fs_, *handle_, entry, to_dir, to);
  }

  /// The tree is no longer this object's to remove (e.g. a Publish policy consumed it).
  void release() noexcept { made_ = false; }

  /// Closes the handle (and so the lock).
  void close() noexcept { handle_.reset(); }

  /// Closes the handle and removes the staging tree now, throwing on failure (the
  /// destructor then tries nothing more).
  void remove() {
    handle_.reset();
    if (!made_) return;
    made_ = false;
    fs_.remove_tree_at(parent_, name_);
  }

 private:
  Fs& fs_;
  const dir& parent_;
  std::string name_;
  std::optional<dir> handle_;
  fs::file_id id_{};
  bool made_ = false;
};

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
