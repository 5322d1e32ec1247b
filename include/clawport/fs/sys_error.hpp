// SPDX-License-Identifier: MIT
// The one errno mapping: how a failed Fs-policy call becomes a clawport::error, keyed by
// the operation. fs::posix throws through it, and so do the test backends (fs::memory,
// fs::faulty), so every backend throws exactly what the real one would for the same errno.
#pragma once

#include <cerrno>
#include <string>
#include <string_view>
#include <system_error>

#include "../core/error.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

namespace detail {

struct op_text {
  std::string_view verb;     // "cannot open directory"
  std::string_view subject;  // used when the operation has no name argument
  bool is_open;              // an open: ENOENT is not_found, ELOOP means a symlink
};

inline op_text text_of(std::string_view op) noexcept {
  if (op == "open_root" || op == "open_file_at") return {"cannot open", {}, true};
  if (op == "open_dir_at") return {"cannot open directory", {}, true};
  if (op == "create_file_at") return {"cannot create", {}, true};
  if (op == "stat_at") return {"cannot inspect", {}, false};
  if (op == "canonical") return {"cannot resolve", {}, false};
  if (op == "stat") return {"cannot inspect", "handle", false};
  if (op == "for_each_entry" || op == "is_empty") return {"cannot read", "directory", false};
  if (op == "make_dir_at") return {"cannot create directory", {}, false};
  if (op == "copy_data") return {"cannot copy", "data", false};
  if (op == "read") return {"cannot read", "file", false};
  if (op == "write_all") return {"cannot write", "file", false};
  if (op == "set_mode") return {"cannot set permissions on", "file", false};
  if (op == "unlink_at" || op == "remove_tree_at") return {"cannot remove", {}, false};
  if (op == "remove_dir_at") return {"cannot remove directory", {}, false};
  if (op == "rename_at") return {"cannot rename", {}, false};
  if (op == "sync_filesystem") return {"cannot sync", "filesystem", false};
  if (op == "sync_dir") return {"cannot sync", "directory", false};
  if (op == "try_lock") return {"cannot lock", "directory", false};
  return {op, {}, false};
}

}  // namespace detail

/// The error an Fs backend throws when policy operation `op` ("open_file_at", ...) on
/// `subject` (its name; "from to to" for rename_at; the path for open_root) fails with
/// `err`. Codes: EMFILE/ENFILE/ENAMETOOLONG are errc::limit_exceeded; ENOENT from an open
/// (or remove_tree_at on a missing name) is errc::not_found; everything else errc::io.
/// `sys_errno()` is `err`, `subject()` the name.
inline error sys_error(std::string_view op, std::string_view subject, int err) {
  const detail::op_text t = detail::text_of(op);
  std::string subj(subject.empty() ? t.subject : subject);
  std::string head = std::string(t.verb) + " " + subj + ": ";
  switch (err) {
    case EMFILE:
      return error(errc::limit_exceeded,
                   head +
                       "too many open files in this process (EMFILE); the tree is too deep "
                       "or the descriptor limit too low (raise it with `ulimit -n`)",
                   std::move(subj), err);
    case ENFILE:
      return error(errc::limit_exceeded,
                   head + "the system-wide table of open files is full (ENFILE)", std::move(subj),
                   err);
    case ENAMETOOLONG:
      return error(errc::limit_exceeded,
                   head + "the name is longer than this filesystem allows (ENAMETOOLONG)",
                   std::move(subj), err);
    case ELOOP:
      if (op == "open_root") {
        return error(errc::limit_exceeded, head + "too many levels of symbolic links (ELOOP)",
                     std::move(subj), err);
      }
      if (t.is_open) {
        return error(errc::io, head + "it is a symbolic link, which is never followed",
                     std::move(subj), err);
      }
      break;
    case ENOENT:
      if (t.is_open || op == "remove_tree_at") {
        return error(errc::not_found, head + errno_text(err), std::move(subj), err);
      }
      break;
    default:
      break;
  }
  return error(errc::io, head + errno_text(err), std::move(subj), err);
}

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
