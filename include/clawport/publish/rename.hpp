// SPDX-License-Identifier: MIT
// The one rename that never replaces: RENAME_NOREPLACE where the platform has it; where it
// does not, a probe then a plain rename (which could replace only an empty directory that
// appeared in between: the one window the fallback leaves). Every command that moves a
// staged tree into place, restores a retired bundle or archives a skill calls it.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../fs/policy.hpp"

#include <cerrno>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

/// Renames `from` in `from_dir` to `to` in `to_dir` without replacing anything. Returns
/// false, having changed nothing, when `to` is taken (EEXIST or ENOTEMPTY from the rename,
/// or the probe of the fallback found it); any other failure is thrown as the Fs policy
/// threw it.
template <class Fs>
bool rename_noreplace(Fs& fs, const typename Fs::dir& from_dir, std::string_view from,
                      const typename Fs::dir& to_dir, std::string_view to) {
  const auto taken = [](const error& e) {
    return e.sys_errno() == EEXIST || e.sys_errno() == ENOTEMPTY;
  };
  try {
    if (fs.rename_at(from_dir, from, to_dir, to, fs::rename_mode::noreplace) ==
        fs::rename_result::done)
      return true;
  } catch (const error& e) {
    if (taken(e)) return false;
    throw;
  }
  if (fs.stat_at(to_dir, to)) return false;
  try {
    fs.rename_at(from_dir, from, to_dir, to, fs::rename_mode::replace);
  } catch (const error& e) {
    if (taken(e)) return false;
    throw;
  }
  return true;
}

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
