// SPDX-License-Identifier: MIT
// publish::exchange: renameat2(RENAME_EXCHANGE) swaps the staged bundle with an existing
// destination in one step, and RENAME_NOREPLACE publishes into a vacant one, so at every
// instant the destination holds the complete old or the complete new bundle. Where the
// kernel or filesystem refuses either flag it falls back to staged_swap and says so.
#pragma once

#include "../core/error.hpp"
#include "../fs/policy.hpp"
#include "admission.hpp"
#include "policy.hpp"
#include "staged_swap.hpp"

#include <cerrno>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

struct exchange {
  static constexpr std::string_view name = "exchange";
  static constexpr bool writes = true;

  template <class Fs>
  static outcome publish(Fs& fs, const typename Fs::dir& parent, const request& r) {
    fs::check_policy<Fs>();
    const std::string move_failed = "failed to move the staged bundle into " + r.names.path;
    const auto fall_back = [&] {
      outcome out = staged_swap::publish(fs, parent, r);
      out.requested = std::string(name);
      return out;
    };
    outcome out;
    out.strategy = std::string(name);
    out.requested = std::string(name);
    out.guarantee = std::string(guarantee::atomic);

    if (r.adm.kind == admission_kind::vacant) {
      std::optional<fs::stat_info> now;
      try {
        now = fs.stat_at(parent, r.destination);
      } catch (const error& e) {
        detail::rethrow_as(errc::publish_failed, "failed to inspect destination " + r.names.display,
                           e, r.names.display);
      }
      if (now) throw refusal::appeared(r.names);
      fs::rename_result done = fs::rename_result::done;
      try {
        done = fs.rename_at(parent, r.staging, parent, r.destination, fs::rename_mode::noreplace);
      } catch (const error& e) {
        // NOREPLACE turns the appeared-after-the-probe race into a clean refusal.
        if (e.sys_errno() == EEXIST) throw refusal::appeared(r.names);
        detail::rethrow_as(errc::publish_failed, move_failed, e, r.names.display);
      }
      if (done == fs::rename_result::unsupported) return fall_back();
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
        throw;
      }
      return out;
    }

    recheck_admitted(fs, parent, r.destination, r.adm, r.sources, r.names);
    fs::rename_result done = fs::rename_result::done;
    try {
      done = fs.rename_at(parent, r.staging, parent, r.destination, fs::rename_mode::exchange);
    } catch (const error& e) {
      detail::rethrow_as(errc::publish_failed, move_failed, e, r.names.display);
    }
    if (done == fs::rename_result::unsupported) return fall_back();
    // From here the staging name holds what the destination held. Any failure exchanges
    // back, which restores both names in one step.
    const auto swap_back = [&](const error& cause) {
      try {
        fs.rename_at(parent, r.staging, parent, r.destination, fs::rename_mode::exchange);
      } catch (const error&) {
        throw error(errc::publish_failed,
                    "failed to publish the bundle to " + r.names.display + " (" + cause.what() +
                        "), and the previous bundle could not be moved back \u2014 it is at " +
                        r.staging,
                    r.names.display, cause.sys_errno());
      }
    };
    std::optional<fs::file_id> swapped;
    try {
      swapped = destination_identity(fs, parent, r.staging);
    } catch (const error& e) {
      swap_back(e);
      detail::rethrow_as(errc::publish_failed, "failed to inspect " + r.staging, e,
                         r.names.display);
    }
    if (!swapped || *swapped != r.adm.id) {
      const error refused = refusal::changed(r.names);
      swap_back(refused);
      throw refused;
    }
    if (r.adm.kind == admission_kind::empty) {
      // The admitted directory must still be empty: rmdir refuses if it gained entries.
      try {
        fs.remove_dir_at(parent, r.staging);
      } catch (const error& e) {
        swap_back(e);
        detail::rethrow_as(errc::publish_failed,
                           "failed to clear the empty destination " + r.names.path, e,
                           r.names.display);
      }
    }
    try {
      detail::sync_parent(fs, parent, r);
    } catch (const error& e) {
      if (r.adm.kind == admission_kind::empty) {
        // The old empty directory is gone; put the staged tree back under its own name
        // and an empty directory at the destination.
        try {
          fs.rename_at(parent, r.destination, parent, r.staging, fs::rename_mode::replace);
          fs.make_dir_at(parent, r.destination, 0755);
        } catch (const error&) {
          throw error(errc::publish_failed,
                      std::string(e.what()) + "; the bundle could not be withdrawn",
                      r.names.display, e.sys_errno());
        }
      } else {
        swap_back(e);
      }
      throw;
    }
    if (r.adm.kind == admission_kind::forced) detail::remove_leftover(fs, parent, r.staging, out);
    return out;
  }
};

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
