// SPDX-License-Identifier: MIT
// Re-throwing a backend error with the caller's context ("failed to open
// workspace/notes.md: ...") while keeping its code and errno.
#pragma once

#include "../core/error.hpp"

#include <cerrno>
#include <string>
#include <string_view>
#include <system_error>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs::detail {

/// The text of an errno value (thread-safe, unlike strerror).
inline std::string errno_text(int err) { return std::generic_category().message(err); }

/// Why a backend call failed, without the backend's own framing: the errno text for
/// plain I/O errors, a plain statement for a refused symlink, and the backend's full
/// message for limits (which explain what to raise).
inline std::string reason(const error& e) {
  if (e.code() == errc::limit_exceeded) return e.what();
  if (e.sys_errno() == ELOOP) return "it is a symbolic link, which is never followed";
  if (e.sys_errno() != 0) return errno_text(e.sys_errno());
  return e.what();
}

/// Throws `e` again as "{context}: {reason}" about `subject`, same code and errno.
[[noreturn]] inline void rethrow(const error& e, const std::string& context,
                                 const std::string& subject) {
  throw with_context(e.code(), e, context, subject, reason(e));
}

}  // namespace fs::detail
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
