// SPDX-License-Identifier: MIT
// publish::exchange: renameat2(RENAME_EXCHANGE) swaps the staged bundle with an existing
// destination in one step, and RENAME_NOREPLACE publishes into a vacant one, so at every
// instant the destination holds the complete old or the complete new bundle. Where the
// kernel or filesystem refuses either flag it falls back to staged_swap and says so.
#pragma once

#include "../core/error.hpp"
#include "../fs/modes.hpp"
#include "../fs/policy.hpp"
#include "admission.hpp"
#include "exchange_entry.hpp"
#include "policy.hpp"
#include "staged_swap.hpp"

#include <optional>
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
    outcome out = outcome_of(name, guarantee::atomic);
    // RENAME_NOREPLACE into a vacant name, RENAME_EXCHANGE with an admitted directory.
    const bool done = r.adm.kind == admission_kind::vacant
                          ? detail::publish_vacant(fs, parent, r, fs::rename_mode::noreplace) ==
                                fs::rename_result::done
                          : publish_swapped(fs, parent, r, out);
    if (done) return out;
    // The kernel or filesystem refused the flag: upstream's protocol, and say so.
    request swapping = r;  // what the caller is told names the strategy it asked for
    if (r.published)
      swapping.published = [&r](const outcome& so_far) {
        outcome told = so_far;
        told.requested = std::string(name);
        r.published(told);
      };
    outcome fell_back = staged_swap::publish(fs, parent, swapping);
    fell_back.requested = std::string(name);
    return fell_back;
  }

 private:
  /// RENAME_EXCHANGE with the admitted directory, then the checks through the staging
  /// name (which now holds what the destination held); any failure exchanges back.
  /// False when unsupported (nothing changed).
  template <class Fs>
  static bool publish_swapped(Fs& fs, const typename Fs::dir& parent, const request& r,
                              outcome& out) {
    recheck_admitted(fs, parent, r.destination, r.adm, r.sources, r.names);
    if (detail::cancel_requested(r)) throw detail::cancelled(r);
    bool done = false;
    try {
      done = try_exchange(fs, parent, r.staging, parent, r.destination);
    } catch (const error& e) {
      throw with_context(errc::publish_failed, e, detail::move_failed(r), r.names.display);
    }
    if (!done) return false;
    const auto swap_back = [&](const error& cause) {
      try {
        exchange_back(fs, parent, r.staging, parent, r.destination, r.staging);
      } catch (const error&) {
        detail::restore_failed(r, cause, r.staging);
      }
    };
    std::optional<fs::file_id> swapped;
    try {
      swapped = destination_identity(fs, parent, r.staging);
    } catch (const error& e) {
      swap_back(e);
      throw with_context(errc::publish_failed, e, "failed to inspect " + r.staging,
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
        throw with_context(errc::publish_failed, e,
                           "failed to clear the empty destination " + r.names.path,
                           r.names.display);
      }
    }
    try {
      detail::sync_parent(fs, parent, r);
    } catch (const error& e) {
      if (r.adm.kind == admission_kind::empty) {
        // The old empty directory is gone; put the staged tree back under its own name
        // and an empty directory at the destination.
        detail::withdraw(fs, parent, r, e);
        try {
          fs.make_dir_at(parent, r.destination, fs::modes::dir);
        } catch (const error&) {
          detail::withdraw_failed(r, e);
        }
      } else {
        swap_back(e);
      }
      throw;
    }
    if (r.adm.kind == admission_kind::forced)
      detail::remove_leftover(fs, parent, r, r.staging, out);
    return true;
  }
};

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
