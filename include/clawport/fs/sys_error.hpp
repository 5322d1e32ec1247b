// SPDX-License-Identifier: MIT
// How an Fs backend turns a failed system call into clawport::error, in one place so the
// fault-injecting decorator can throw exactly what a backend would.
#pragma once

#include <cerrno>
#include <string>
#include <string_view>
#include <system_error>

#include "../core/error.hpp"

namespace clawport::fs {

/// The errc an Fs backend reports for an errno: `not_found` for ENOENT,
/// `limit_exceeded` for descriptor and name-length limits, `io` for everything else.
inline errc errc_for_errno(int err) noexcept {
  switch (err) {
    case ENOENT:
      return errc::not_found;
    case EMFILE:
    case ENFILE:
    case ENAMETOOLONG:
      return errc::limit_exceeded;
    default:
      return errc::io;
  }
}

/// The error an Fs backend throws when operation `op` on `subject` (the one name it was
/// given, or the path for open_root) fails with `err`: "open_file_at notes.md: Too many
/// levels of symbolic links", subject "notes.md", sys_errno ELOOP.
inline error sys_error(std::string_view op, std::string_view subject, int err) {
  std::string message(op);
  if (!subject.empty()) {
    message += ' ';
    message += subject;
  }
  message += ": ";
  message += std::generic_category().message(err);
  return error(errc_for_errno(err), message, std::string(subject), err);
}

}  // namespace clawport::fs
