// SPDX-License-Identifier: MIT
// The one descent down a relative path through directory handles (issue 43 item 1): each
// component classified, then opened without following and bound to what was classified.
// A symlink, a non-directory or a component that is not a plain name (`..`, `.`, empty, an
// absolute path) stops it; `create` makes what is missing. Every hand-written copy of this
// loop went (tools/check_rules.py `descent` fails a new one outside fs/).
#pragma once

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "modes.hpp"
#include "policy.hpp"

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

/// Why a descent stopped (none: it reached the directory).
enum class path_refusal {
  none,
  not_relative,   ///< absolute, or an empty, `.`, `..` or NUL-holding component
  missing,        ///< a component does not exist (and `create` was not asked)
  symlink,        ///< a component is a symbolic link: never followed
  not_directory,  ///< a component exists and is not a directory
  changed,        ///< a component was replaced between classification and open
};

/// The directory a descent reached, or why it stopped. `dir` is empty for an empty path
/// (the root itself: `get(root)`), and whenever `refusal` is not `none`.
template <class Fs>
struct path_result {
  path_refusal refusal = path_refusal::none;
  std::optional<typename Fs::dir> dir;
  std::string at;  ///< the relative path walked up to (and with) the component refused

  bool ok() const noexcept { return refusal == path_refusal::none; }
  /// The directory reached: the opened one, else `root` (an empty path).
  const typename Fs::dir& get(const typename Fs::dir& root) const { return dir ? *dir : root; }
};

/// Called with the relative path of each directory a `create` descent made, as soon as it
/// is made (before it is opened: a caller journalling it for removal loses none).
struct ignore_made {
  void operator()(const std::string&) const noexcept {}
};

/// The components of `rel`, or nullopt when it is absolute or one of them is not a plain
/// name (empty, `.`, `..`, holding NUL). "" has none.
inline std::optional<std::vector<std::string>> relative_components(std::string_view rel) {
  std::vector<std::string> out;
  if (rel.empty()) return out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t slash = rel.find('/', from);
    std::string_view part = rel.substr(from, slash == rel.npos ? rel.npos : slash - from);
    if (part.empty() || part == "." || part == ".." || part.find('\0') != part.npos)
      return std::nullopt;
    out.emplace_back(part);
    if (slash == rel.npos) return out;
    from = slash + 1;
  }
}

/// `paths::join(shown, at)`: how a path below the root is named to the person.
inline std::string shown_path(const std::string& shown, const std::string& at) {
  return shown.empty() ? at : paths::join(shown, at);
}

/// Descends `rel` below `root` (see the file comment); with `create`, a missing directory
/// is made (`mode`, less the umask; EEXIST from a racing creator is fine) and `made` called
/// with its relative path. Refusals are returned; a backend failure is thrown as
/// "failed to create|inspect|open {shown}/{at}: {reason}", its code and errno kept.
template <class Fs, class Made = ignore_made>
path_result<Fs> try_open_path(Fs& fs, const typename Fs::dir& root, std::string_view rel,
                              bool create = false, const std::string& shown = {}, Made&& made = {},
                              std::uint32_t mode = modes::dir) {
  path_result<Fs> r;
  const std::optional<std::vector<std::string>> parts = relative_components(rel);
  if (!parts) {
    r.refusal = path_refusal::not_relative;
    r.at = std::string(rel);
    return r;
  }
  const char* doing = "inspect";
  try {
    for (const std::string& part : *parts) {
      r.at += (r.at.empty() ? "" : "/") + part;
      const typename Fs::dir& here = r.get(root);
      doing = "inspect";
      std::optional<stat_info> st = fs.stat_at(here, part);
      if (!st && create) {
        doing = "create";
        try {
          fs.make_dir_at(here, part, mode);
          made(r.at);
        } catch (const error& e) {
          if (e.sys_errno() != EEXIST) throw;
        }
        st = fs.stat_at(here, part);
      }
      r.refusal = !st                                ? path_refusal::missing
                  : st->kind == file_kind::symlink   ? path_refusal::symlink
                  : st->kind != file_kind::directory ? path_refusal::not_directory
                                                     : path_refusal::none;
      if (r.refusal != path_refusal::none) break;
      doing = "open";
      typename Fs::dir next = fs.open_dir_at(here, part);
      if (fs.stat(next).id != st->id) {
        r.refusal = path_refusal::changed;
        break;
      }
      r.dir.emplace(std::move(next));
    }
  } catch (const error& e) {
    const std::string at = shown_path(shown, r.at);
    throw with_context(e, std::string("failed to ") + doing + " " + at, at);
  }
  if (!r.ok()) r.dir.reset();
  return r;
}

/// The refusal `r` as a clawport::error naming `paths::join(shown, r.at)` (`shown`: how the
/// root is named to the person; empty names the relative path alone).
template <class Fs>
error path_error(const path_result<Fs>& r, const std::string& shown = {}) {
  const std::string at = shown_path(shown, r.at);
  switch (r.refusal) {
    case path_refusal::not_relative:
      return error(errc::unsafe_path,
                   at + " is not a relative path of plain names (no `..`, `.` or empty "
                        "component); nothing was opened through it",
                   at);
    case path_refusal::missing:
      return error(errc::not_found, at + " does not exist", at, ENOENT);
    case path_refusal::symlink:
      return error(errc::unsafe_path,
                   at + " is a symbolic link; clawport never opens a path through one", at, ELOOP);
    case path_refusal::not_directory:
      return error(errc::unsafe_path, at + " exists and is not a directory", at, ENOTDIR);
    case path_refusal::changed:
      return error(errc::identity_changed, at + " was replaced while it was being opened", at);
    case path_refusal::none:
      break;
  }
  return error(errc::io, "opened " + at, at);
}

/// `try_open_path`, throwing its refusal (`path_error`, naming the path under `shown`).
template <class Fs, class Made = ignore_made>
path_result<Fs> open_path(Fs& fs, const typename Fs::dir& root, std::string_view rel,
                          bool create = false, const std::string& shown = {}, Made&& made = {},
                          std::uint32_t mode = modes::dir) {
  path_result<Fs> r = try_open_path(fs, root, rel, create, shown, std::forward<Made>(made), mode);
  if (!r.ok()) throw path_error(r, shown);
  return r;
}

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
