// SPDX-License-Identifier: MIT
// The one staged directory of every family (export, import, claw, skills, convert): a
// directory made beside its destination (the same filesystem) under a registry name
// (publish/names.hpp), made, opened and locked by one protocol before it is trusted (so
// `clawport recover` leaves it alone, and one recover took first is made again), filled by
// the caller, then published by one rename that never replaces (publish/rename.hpp) or
// handed to a Publish policy. Unless published or released, its destructor removes the
// staging tree, and only while the name is still the directory it made.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../fs/modes.hpp"
#include "../fs/policy.hpp"
#include "names.hpp"
#include "rename.hpp"

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

/// The name of an import's staging directory and how messages show it (staged_dir's
/// plan-named form).
struct plan_named {
  std::string_view plan_token;  ///< the plan's token (publish::import_staging_name)
  std::string_view leaf;        ///< the last component of the place it will be published at
  std::string shown_parent;     ///< the install-relative directory it is made in ("" = root)
  std::uint32_t mode = fs::modes::dir;
};

/// The refusal when another run of the same import plan holds `shown` (its staging
/// directory or its intent).
inline error plan_busy(const std::string& shown) {
  return error(
      errc::destination_refused,
      "another import of this plan is running (it holds " + shown + "); nothing was written",
      shown);
}

/// A staging directory `name` inside the open directory `parent` (which must outlive it).
/// Neither copied nor moved: hold it in a std::optional or a std::unique_ptr.
template <class Fs>
class staged_dir {
 public:
  using dir = typename Fs::dir;

  /// The one creation protocol: a staging directory of the family `kind` in `parent`,
  /// `<prefix><token>` (publish/names.hpp) with a fresh random token per attempt, or
  /// `token`; made, opened and locked before it is trusted (fs::make_locked_dir). One that
  /// `recover` removed or locked before our lock, or a random name already taken, is made
  /// again under a fresh name, at most 16 times. An export's is made as
  /// `.zeroclaw-export-new-<token>` and renamed to its staging name once locked (recover
  /// removes an empty, unlocked creation directory, never an export's staging one blind).
  /// A failure to make it is thrown as the Fs policy threw it (an export's with context);
  /// after a failure nothing of it is left.
  staged_dir(Fs& fs, const dir& parent, staging_kind kind, std::string_view token = {},
             std::uint32_t mode = fs::modes::private_dir)
      : fs_(fs), parent_(parent) {
    for (int attempt = 0; !try_make(kind, token, mode, attempt < 16); ++attempt) {
    }
  }
  /// A staging directory named `name` by its caller (an import's: the plan's token and the
  /// leaf), made, opened and locked as above, never retried under another name. A lock
  /// another process holds (or took before ours) is errc::destination_refused naming
  /// `shown` (the name when empty).
  staged_dir(Fs& fs, const dir& parent, std::string name, std::uint32_t mode = fs::modes::dir,
             std::string_view shown = {})
      : fs_(fs), parent_(parent), name_(std::move(name)) {
    make_named(mode, shown.empty() ? name_ : std::string(shown));
  }
  /// An import's staging directory, named by its plan (`import_staging_name(plan_token,
  /// leaf)`), so that a re-run of the plan meets what a killed run left under that name: a
  /// directory nobody holds locked is that leftover and is removed first (`reclaimed()`); one
  /// another run holds locked, or anything but a directory, is errc::destination_refused
  /// naming `shown_parent`/<name>, nothing written. Then made as the named form.
  staged_dir(Fs& fs, const dir& parent, const plan_named& n)
      : fs_(fs), parent_(parent), name_(import_staging_name(n.plan_token, n.leaf)) {
    const std::string shown = paths::join(n.shown_parent, name_);
    const auto busy = [&shown] { return plan_busy(shown); };
    if (const auto st = fs_.stat_at(parent_, name_)) {
      if (st->kind != fs::file_kind::directory)
        throw error(errc::destination_refused,
                    shown + " exists and is not a directory an import made; nothing was written",
                    shown);
      {
        dir old = fs_.open_dir_at(parent_, name_);
        if (!fs_.try_lock(old)) throw busy();
      }
      fs_.remove_tree_at(parent_, name_);
      reclaimed_ = true;
    }
    try {
      make_named(n.mode, shown);
    } catch (const error& e) {
      if (e.code() == errc::destination_refused) throw busy();
      throw;
    }
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

  /// True when a killed run's leftover under the plan's name was removed first (plan_named).
  bool reclaimed() const noexcept { return reclaimed_; }

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
  /// This object's from here on: `name`, opened and locked as `d`.
  void adopt(std::string name, dir d, const fs::file_id& id) {
    id_ = id;
    name_ = std::move(name);
    handle_.emplace(std::move(d));
    made_ = true;
  }

  /// The named forms' protocol: `name_` made, opened and locked, never under another name;
  /// a lock another process holds (or took before ours) is errc::destination_refused.
  void make_named(std::uint32_t mode, const std::string& shown) {
    std::optional<dir> d = fs::make_locked_dir(fs_, parent_, name_, mode);
    if (!d) {
      throw error(errc::destination_refused,
                  "the staging directory " + shown +
                      " is held by another running command; nothing was written",
                  shown);
    }
    fs::file_id id;
    try {
      id = fs_.stat(*d).id;
    } catch (...) {
      drop(d, name_);
      throw;
    }
    adopt(name_, std::move(*d), id);
  }

  /// One attempt of the protocol: true when made; false to try again under a fresh name
  /// (only while `retry`); otherwise thrown.
  bool try_make(staging_kind kind, std::string_view injected, std::uint32_t mode, bool retry) {
    const bool exporting = kind == staging_kind::export_bundle;
    const std::string token = injected.empty() ? random_token() : std::string(injected);
    const std::string staging = exporting ? staging_name(token) : staging_name(kind, token);
    const std::string made = exporting ? creating_name(token) : staging;
    std::optional<dir> d;
    try {
      d = fs::make_locked_dir(fs_, parent_, made, mode);
    } catch (const error& e) {
      if (e.sys_errno() == EEXIST && injected.empty() && retry) return false;
      if (!exporting) throw;
      throw with_context(e, "failed to create the staging directory " + made, made);
    }
    if (!d) {
      if (retry) return false;  // removed or locked by another process (recover) before our lock
      throw error(errc::identity_changed,
                  "the staging directory " + made +
                      " was removed or locked by another process while this " +
                      (exporting ? "export" : "command") + " created it, 16 times; run the " +
                      (exporting ? "export" : "command") + " again",
                  made);
    }
    try {
      // An export's locked, empty creation directory takes the staging name, never replacing.
      const fs::file_id id = fs_.stat(*d).id;
      if (!exporting || rename_noreplace(fs_, parent_, made, parent_, staging)) {
        adopt(staging, std::move(*d), id);
        return true;
      }
      if (!injected.empty() || !retry) {
        throw error(errc::destination_refused,
                    "the staging directory " + staging +
                        " already exists beside the "
                        "destination; run `clawport recover` on it or choose another token",
                    staging);
      }
    } catch (const error& e) {
      drop(d, made);
      if (e.code() == errc::destination_refused || !exporting) throw;
      throw with_context(e, "failed to set up the staging directory " + staging, staging);
    }
    drop(d, made);  // the staging name is taken: another token
    return false;
  }

  /// Closes `d` and removes the empty directory `made` (best effort: an empty one left
  /// behind is `recover`'s).
  void drop(std::optional<dir>& d, const std::string& made) noexcept {
    d.reset();
    try {
      fs_.remove_dir_at(parent_, made);
    } catch (...) {
    }
  }

  Fs& fs_;
  const dir& parent_;
  std::string name_;
  std::optional<dir> handle_;
  fs::file_id id_{};
  bool made_ = false;
  bool reclaimed_ = false;
};

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
