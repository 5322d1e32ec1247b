// SPDX-License-Identifier: MIT
// The one "swap the new tree in, the old one aside": renameat2(RENAME_EXCHANGE) where the
// kernel and filesystem have it (one step: the place holds the old tree or the new one,
// never neither); otherwise two no-replace renames (the old tree aside, the new one in),
// the first undone when the second fails. Every replace of a published directory calls it
// (publish::exchange, a skill's upgrade) and undoes it with exchange_back.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../fs/policy.hpp"
#include "rename.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

/// One RENAME_EXCHANGE of `a` in `a_dir` with `b` in `b_dir`. False, having changed
/// nothing, when the kernel or filesystem refuses the flag; any failure is thrown as the Fs
/// policy threw it.
template <class Fs>
bool try_exchange(Fs& fs, const typename Fs::dir& a_dir, std::string_view a,
                  const typename Fs::dir& b_dir, std::string_view b) {
  return fs.rename_at(a_dir, a, b_dir, b, fs::rename_mode::exchange) == fs::rename_result::done;
}

/// Builds the error thrown when the old tree could not be put back after `cause` (the
/// caller says where it is).
using stranded_error = std::function<error(const error& cause)>;

/// Puts the new tree `new_name` of `new_dir` at `dest` in `dest_dir` and the tree that was
/// there into `new_dir`: returns its entry there (`new_name` after an exchange,
/// `aside_name`, which must be free, after the two renames). A failure leaves both where
/// they were and is thrown as it came (a taken `aside_name` or a `dest` that reappeared
/// between the renames is errc::destination_refused naming it); when the fallback's
/// second rename failed and the old tree could not be put back, `stranded(cause)` is thrown.
template <class Fs>
std::string exchange_entry(Fs& fs, const typename Fs::dir& new_dir, std::string_view new_name,
                           const typename Fs::dir& dest_dir, std::string_view dest,
                           std::string_view aside_name, const stranded_error& stranded) {
  if (try_exchange(fs, new_dir, new_name, dest_dir, dest)) return std::string(new_name);
  if (!rename_noreplace(fs, dest_dir, dest, new_dir, aside_name)) {
    throw error(errc::destination_refused,
                std::string(aside_name) + " already exists; nothing was moved",
                std::string(aside_name));
  }
  try {
    if (!rename_noreplace(fs, new_dir, new_name, dest_dir, dest)) {
      throw error(errc::destination_refused,
                  std::string(dest) + " appeared while it was being replaced; nothing was moved",
                  std::string(dest));
    }
  } catch (const error& e) {
    bool back = false;
    try {
      back = rename_noreplace(fs, new_dir, aside_name, dest_dir, dest);
    } catch (const error&) {
    }
    if (!back) throw stranded(e);
    throw;
  }
  return std::string(aside_name);
}

/// Undoes exchange_entry: the old tree (`old_entry` of `new_dir`, as it returned) back at
/// `dest`, the new one back at `new_name`. Throws when it could not (the caller says where
/// each tree is).
template <class Fs>
void exchange_back(Fs& fs, const typename Fs::dir& new_dir, std::string_view new_name,
                   const typename Fs::dir& dest_dir, std::string_view dest,
                   std::string_view old_entry) {
  if (old_entry == new_name) {
    if (!try_exchange(fs, new_dir, new_name, dest_dir, dest))
      throw error(errc::io, "the exchange back was refused", std::string(dest));
    return;
  }
  if (!rename_noreplace(fs, dest_dir, dest, new_dir, new_name) ||
      !rename_noreplace(fs, new_dir, old_entry, dest_dir, dest)) {
    throw error(errc::io, "a name was taken", std::string(dest));
  }
}

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
