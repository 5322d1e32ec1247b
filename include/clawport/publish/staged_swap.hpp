// SPDX-License-Identifier: MIT
// publish::staged_swap: upstream's protocol (docs/library.md, The Publish policy). The staged
// bundle already sits beside the destination; publishing is one rename for a vacant destination
// and, for an admitted directory, rename-aside, re-check, rename-in, then delete the retired tree.
// Every failure it reports is rolled back so the destination holds what it held before.
#pragma once

#include "../core/error.hpp"
#include "../fs/modes.hpp"
#include "../fs/policy.hpp"
#include "admission.hpp"
#include "names.hpp"
#include "policy.hpp"

#include <cerrno>
#include <optional>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

namespace detail {

/// Removes a tree that is no longer needed after a successful publish, once the caller was
/// told the bundle is published (`request::published`). Failures make the export untidy,
/// not failed: one retry, then a warning naming what remains.
template <class Fs>
void remove_leftover(Fs& fs, const typename Fs::dir& parent, const request& r,
                     const std::string& name, outcome& out) {
  if (r.published) r.published(out);
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      if (!fs.stat_at(parent, name)) return;
      fs::remove_tree(fs, parent, name, r.removing);
      return;
    } catch (const error& e) {
      if (attempt == 1) {
        out.warnings.push_back("the previous bundle could not be removed (" +
                               std::string(e.what()) + "); it remains beside the bundle as " +
                               name + " and can be deleted");
      }
    }
  }
}

/// fsync of the parent after the publishing rename, so a power loss after success never
/// shows the old name state. Throws the wrapped cause; callers roll back.
template <class Fs>
void sync_parent(Fs& fs, const typename Fs::dir& parent, const request& r) {
  if (!r.sync) return;
  try {
    fs.sync_dir(parent);
  } catch (const error& e) {
    throw with_context(errc::publish_failed, e,
                       "failed to make the published bundle at " + r.names.path + " durable",
                       r.names.display);
  }
}

/// The rollback texts, one place for both strategies. `withdraw_failed`: the new bundle
/// was published into a vacant (or emptied) destination and could not be taken back.
[[noreturn]] inline void withdraw_failed(const request& r, const error& cause) {
  throw error(errc::publish_failed,
              std::string(cause.what()) + "; the bundle could not be withdrawn", r.names.display,
              cause.sys_errno());
}

/// `restore_failed`: the previous bundle was moved aside (to `aside`) and could not be
/// moved back.
[[noreturn]] inline void restore_failed(const request& r, const error& cause,
                                        const std::string& aside) {
  throw error(errc::publish_failed,
              "failed to publish the bundle to " + r.names.display + " (" + cause.what() +
                  "), and the previous bundle could not be moved back \u2014 it is at " + aside,
              r.names.display, cause.sys_errno());
}

/// The cancellation refusal: everything publishing did was undone.
inline error cancelled(const request& r) {
  return error(errc::cancelled,
               "publishing to " + r.names.display +
                   " was interrupted; the destination holds what it held before",
               r.names.display);
}

/// True when the caller asked to stop.
inline bool cancel_requested(const request& r) { return r.cancelled && r.cancelled(); }

/// A vacant destination must still be vacant when publishing starts.
template <class Fs>
void refuse_if_appeared(Fs& fs, const typename Fs::dir& parent, const request& r) {
  std::optional<fs::stat_info> now;
  try {
    now = fs.stat_at(parent, r.destination);
  } catch (const error& e) {
    throw with_context(errc::publish_failed, e, "failed to inspect destination " + r.names.display,
                       r.names.display);
  }
  if (now) throw refusal::appeared(r.names);
}

/// Takes the just-published bundle back to its staging name (the exporter removes it).
template <class Fs>
void withdraw(Fs& fs, const typename Fs::dir& parent, const request& r, const error& cause) {
  try {
    fs.rename_at(parent, r.destination, parent, r.staging, fs::rename_mode::replace);
  } catch (const error&) {
    withdraw_failed(r, cause);
  }
}

inline std::string move_failed(const request& r) {
  return "failed to move the staged bundle into " + r.names.path;
}

/// Publishing into a vacant destination, for both strategies: it must still be vacant, one
/// rename under `mode`, then the flush (a failed flush withdraws the bundle, leaving the
/// destination vacant again). `unsupported` when the kernel or filesystem refused `mode`
/// (nothing changed). Under `noreplace` a name that appeared after the probe is the clean
/// `appeared` refusal.
template <class Fs>
fs::rename_result publish_vacant(Fs& fs, const typename Fs::dir& parent, const request& r,
                                 fs::rename_mode mode) {
  refuse_if_appeared(fs, parent, r);
  if (cancel_requested(r)) throw cancelled(r);
  fs::rename_result done = fs::rename_result::done;
  try {
    done = fs.rename_at(parent, r.staging, parent, r.destination, mode);
  } catch (const error& e) {
    if (mode == fs::rename_mode::noreplace && e.sys_errno() == EEXIST)
      throw refusal::appeared(r.names);
    throw with_context(errc::publish_failed, e, move_failed(r), r.names.display);
  }
  if (done == fs::rename_result::unsupported) return done;
  try {
    sync_parent(fs, parent, r);
  } catch (const error& e) {
    withdraw(fs, parent, r, e);
    throw;
  }
  return done;
}

}  // namespace detail

/// The upstream publish protocol with its documented crash window (guarantee
/// `recoverable` when a directory is replaced).
struct staged_swap {
  static constexpr std::string_view name = "swap";
  static constexpr bool writes = true;

  template <class Fs>
  static outcome publish(Fs& fs, const typename Fs::dir& parent, const request& r) {
    fs::check_policy<Fs>();
    outcome out = outcome_of(name);
    switch (r.adm.kind) {
      case admission_kind::vacant:
        detail::publish_vacant(fs, parent, r, fs::rename_mode::replace);
        out.guarantee = std::string(guarantee::atomic);
        return out;
      case admission_kind::empty:
        publish_empty(fs, parent, r);
        break;
      case admission_kind::forced:
        out.guarantee = std::string(guarantee::recoverable);  // told before the removal
        publish_forced(fs, parent, r, out);
        break;
    }
    out.guarantee = std::string(guarantee::recoverable);
    return out;
  }

 private:
  /// rmdir of the admitted empty directory (refused if it gained entries), then the rename;
  /// every rollback recreates the empty directory (best effort, as upstream: nothing in it
  /// can be lost).
  template <class Fs>
  static void publish_empty(Fs& fs, const typename Fs::dir& parent, const request& r) {
    recheck_admitted(fs, parent, r.destination, r.adm, r.sources, r.names);
    if (detail::cancel_requested(r)) throw detail::cancelled(r);
    try {
      fs.remove_dir_at(parent, r.destination);
    } catch (const error& e) {
      throw with_context(errc::publish_failed, e,
                         "failed to clear the empty destination " + r.names.path, r.names.display);
    }
    const auto recreate = [&] {
      try {
        fs.make_dir_at(parent, r.destination, fs::modes::dir);
      } catch (const error&) {
        // Best effort: the directory was empty, nothing is lost.
      }
    };
    if (detail::cancel_requested(r)) {
      recreate();
      throw detail::cancelled(r);
    }
    try {
      fs.rename_at(parent, r.staging, parent, r.destination, fs::rename_mode::replace);
    } catch (const error& e) {
      recreate();
      throw with_context(errc::publish_failed, e, detail::move_failed(r), r.names.display);
    }
    try {
      detail::sync_parent(fs, parent, r);
    } catch (const error& e) {
      detail::withdraw(fs, parent, r, e);
      recreate();
      throw;
    }
  }

  /// Rename the admitted bundle aside, prove the retired tree is the admitted one, rename
  /// the staged one in, flush, delete the retired tree. Any failure (or cancellation)
  /// before the rename-in moves the previous bundle back.
  template <class Fs>
  static void publish_forced(Fs& fs, const typename Fs::dir& parent, const request& r,
                             outcome& out) {
    recheck_admitted(fs, parent, r.destination, r.adm, r.sources, r.names);
    const std::string retired = retired_name(r.staging);
    retire(fs, parent, r, retired);
    const auto move_back = [&](const error& cause) {
      try {
        fs.rename_at(parent, retired, parent, r.destination, fs::rename_mode::replace);
      } catch (const error&) {
        detail::restore_failed(r, cause, retired);
      }
    };
    // Re-check through the retired name: the tree about to be deleted must be the
    // admitted one, proven twice.
    std::optional<fs::file_id> moved;
    try {
      moved = destination_identity(fs, parent, retired);
    } catch (const error& e) {
      move_back(e);
      throw with_context(errc::publish_failed, e, "failed to inspect " + retired, r.names.display);
    }
    if (!moved || *moved != r.adm.id) {
      const error refused = refusal::changed(r.names);
      move_back(refused);
      throw refused;
    }
    if (detail::cancel_requested(r)) {
      const error stop = detail::cancelled(r);
      move_back(stop);
      throw stop;
    }
    try {
      fs.rename_at(parent, r.staging, parent, r.destination, fs::rename_mode::replace);
    } catch (const error& e) {
      move_back(e);
      throw with_context(errc::publish_failed, e, detail::move_failed(r), r.names.display);
    }
    try {
      detail::sync_parent(fs, parent, r);
    } catch (const error& e) {
      // Roll back both renames: the staged tree returns to its name (the exporter removes
      // it) and the previous bundle to the destination.
      try {
        fs.rename_at(parent, r.destination, parent, r.staging, fs::rename_mode::replace);
      } catch (const error&) {
        detail::restore_failed(r, e, retired);
      }
      move_back(e);
      throw;
    }
    detail::remove_leftover(fs, parent, r, retired, out);
  }

  /// The first rename: the admitted bundle moves to `retired` (which must be free).
  template <class Fs>
  static void retire(Fs& fs, const typename Fs::dir& parent, const request& r,
                     const std::string& retired) {
    bool retired_exists = false;
    try {
      retired_exists = fs.stat_at(parent, retired).has_value();
    } catch (const error& e) {
      throw with_context(errc::publish_failed, e, "failed to inspect " + retired, r.names.display);
    }
    if (retired_exists) {
      throw error(
          errc::publish_failed,
          "cannot retire the existing bundle: " + retired + " already exists beside the bundle",
          retired);
    }
    if (detail::cancel_requested(r)) throw detail::cancelled(r);
    try {
      fs.rename_at(parent, r.destination, parent, retired, fs::rename_mode::replace);
    } catch (const error& e) {
      throw with_context(errc::publish_failed, e,
                         "failed to move the existing bundle at " + r.names.path + " aside",
                         r.names.display);
    }
  }
};

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
