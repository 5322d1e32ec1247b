// SPDX-License-Identifier: MIT
// The one create-only write of a whole file (issue 43 item 2): O_EXCL through the Fs policy,
// never through a link, a half-written file removed. Durability is the caller's (one
// syncfs of the tree it stages, as every staged publish does).
#pragma once

#include "../core/error.hpp"
#include "policy.hpp"

#include <cstdint>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

/// Creates `name` in `dir` (create-only: an existing name, a symlink included, is EEXIST)
/// holding `bytes`, of `mode` less the umask, and returns it still open (a caller giving it
/// an owner or an exact mode does so through the handle). When the write fails the file is
/// removed and the backend's error thrown as it was.
template <class Fs>
typename Fs::file write_new_file(Fs& fs, const typename Fs::dir& dir, std::string_view name,
                                 std::string_view bytes, std::uint32_t mode) {
  typename Fs::file f = fs.create_file_at(dir, name, mode);
  try {
    fs.write_all(f, bytes.data(), bytes.size());
  } catch (const error&) {
    try {
      fs.unlink_at(dir, name);
    } catch (const error&) {
      // left for the caller's cleanup of the tree it stages
    }
    throw;
  }
  return f;
}

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
