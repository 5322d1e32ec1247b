// SPDX-License-Identifier: MIT
// publish::staged_swap: upstream's protocol (docs/library.md, The Publish policy). The staged
// bundle already sits beside the destination; publishing is one rename for a vacant destination
// and, for an admitted directory, rename-aside, re-check, rename-in, then delete the retired tree.
// Every failure it reports is rolled back so the destination holds what it held before.
#pragma once

#include "../core/error.hpp"
#include "../fs/policy.hpp"
#include "admission.hpp"
#include "names.hpp"
#include "policy.hpp"

#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

namespace detail {

/// Removes a tree that is no longer needed after a successful publish. Failures make the
/// export untidy, not failed: one retry, then a warning naming what remains.
template <class Fs>
void remove_leftover(Fs& fs, const typename Fs::dir& parent, const std::string& name,
                     outcome& out) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      if (!fs.stat_at(parent, name)) return;
      fs.remove_tree_at(parent, name);
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
    rethrow_as(errc::publish_failed,
               "failed to make the published bundle at " + r.names.path + " durable", e,
               r.names.display);
  }
}

[[noreturn]] inline void restore_failed(const request& r, const error& cause,
                                        const std::string& retired) {
  throw error(errc::publish_failed,
              "failed to publish the bundle to " + r.names.display + " (" + cause.what() +
                  "), and the previous bundle could not be moved back \u2014 it is at " + retired,
              r.names.display, cause.sys_errno());
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
    outcome out;
    out.strategy = std::string(name);
    out.requested = std::string(name);
    const std::string move_failed = "failed to move the staged bundle into " + r.names.path;
    switch (r.adm.kind) {
      case admission_kind::vacant: {
        std::optional<fs::stat_info> now;
        try {
          now = fs.stat_at(parent, r.destination);
        } catch (const error& e) {
          detail::rethrow_as(errc::publish_failed,
                             "failed to inspect destination " + r.names.display, e,
                             r.names.display);
        }
        if (now) throw refusal::appeared(r.names);
        try {
          fs.rename_at(parent, r.staging, parent, r.destination, fs::rename_mode::replace);
        } catch (const error& e) {
          detail::rethrow_as(errc::publish_failed, move_failed, e, r.names.display);
        }
        try {
          detail::sync_parent(fs, parent, r);
        } catch (const error& e) {
          // Withdraw the bundle: the destination was vacant, so it is vacant again.
          try {
            fs.rename_at(parent, r.destination, parent, r.staging, fs::rename_mode::replace);
          } catch (const error&) {
            throw error(errc::publish_failed,
                        std::string(e.what()) + "; the bundle could not be withdrawn",
                        r.names.display, e.sys_errno());
          }
          throw;
        }
        out.guarantee = std::string(guarantee::atomic);
        return out;
      }
      case admission_kind::empty: {
        recheck_admitted(fs, parent, r.destination, r.adm, r.sources, r.names);
        try {
          fs.remove_dir_at(parent, r.destination);
        } catch (const error& e) {
          detail::rethrow_as(errc::publish_failed,
                             "failed to clear the empty destination " + r.names.path, e,
                             r.names.display);
        }
        const auto recreate = [&] {
          try {
            fs.make_dir_at(parent, r.destination, 0755);
          } catch (const error&) {
            // Best effort, as upstream: the directory was empty, nothing is lost.
          }
        };
        try {
          fs.rename_at(parent, r.staging, parent, r.destination, fs::rename_mode::replace);
        } catch (const error& e) {
          recreate();
          detail::rethrow_as(errc::publish_failed, move_failed, e, r.names.display);
        }
        try {
          detail::sync_parent(fs, parent, r);
        } catch (const error& e) {
          try {
            fs.rename_at(parent, r.destination, parent, r.staging, fs::rename_mode::replace);
          } catch (const error&) {
            throw error(errc::publish_failed,
                        std::string(e.what()) + "; the bundle could not be withdrawn",
                        r.names.display, e.sys_errno());
          }
          recreate();
          throw;
        }
        out.guarantee = std::string(guarantee::recoverable);
        return out;
      }
      case admission_kind::forced:
        break;
    }

    recheck_admitted(fs, parent, r.destination, r.adm, r.sources, r.names);
    const std::string retired = retired_name(r.staging);
    bool retired_exists = false;
    try {
      retired_exists = fs.stat_at(parent, retired).has_value();
    } catch (const error& e) {
      detail::rethrow_as(errc::publish_failed, "failed to inspect " + retired, e, r.names.display);
    }
    if (retired_exists) {
      throw error(
          errc::publish_failed,
          "cannot retire the existing bundle: " + retired + " already exists beside the bundle",
          retired);
    }
    try {
      fs.rename_at(parent, r.destination, parent, retired, fs::rename_mode::replace);
    } catch (const error& e) {
      detail::rethrow_as(errc::publish_failed,
                         "failed to move the existing bundle at " + r.names.path + " aside", e,
                         r.names.display);
    }
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
      detail::rethrow_as(errc::publish_failed, "failed to inspect " + retired, e, r.names.display);
    }
    if (!moved || *moved != r.adm.id) {
      const error refused = refusal::changed(r.names);
      move_back(refused);
      throw refused;
    }
    try {
      fs.rename_at(parent, r.staging, parent, r.destination, fs::rename_mode::replace);
    } catch (const error& e) {
      move_back(e);
      detail::rethrow_as(errc::publish_failed, move_failed, e, r.names.display);
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
    detail::remove_leftover(fs, parent, retired, out);
    out.guarantee = std::string(guarantee::recoverable);
    return out;
  }
};

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
