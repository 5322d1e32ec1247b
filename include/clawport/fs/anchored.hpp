// SPDX-License-Identifier: MIT
// Opening a source root (a workspace or a skill bundle) so that what is copied is bound
// to what was checked: the walk goes one component at a time through the previous
// handle, refuses a symlink at every step, and compares the classified (dev, ino) with
// the opened handle's. Spec: docs/library.md, Exporting.
#pragma once

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "policy.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

/// How opening a source root came out.
enum class root_status {
  opened,     ///< a real directory, bound to the identity that was classified
  nothing,    ///< absent: only "not found" counts as no source
  symlinked,  ///< the root itself is a symlink
  escaped,    ///< the walk met a symlink or a non-plain component before the root
};

/// The outcome of `open_anchored_root` / `open_configured_root`.
template <class Fs>
struct root_result {
  root_status status = root_status::nothing;
  std::optional<typename Fs::dir> handle;  ///< set iff `opened`
  file_id id;                              ///< identity of `handle`, iff `opened`
  std::string at;                          ///< iff `escaped` or `symlinked`: where

  bool opened() const noexcept { return status == root_status::opened; }
};

namespace detail {

/// The components as Rust's `Path::components` yields them: core/paths.hpp.
inline std::vector<std::string_view> components(std::string_view path) {
  return paths::rust_components(path);
}

inline bool is_plain(std::string_view c) noexcept {
  return !c.empty() && c != "." && c != ".." && c != "/";
}

inline error not_a_directory(const std::string& path) {
  return error(errc::unsafe_path,
               path +
                   " exists but is not a directory; the export refuses to publish a bundle that "
                   "silently lacks the source it names",
               path);
}

inline error root_replaced(const std::string& path) {
  return error(errc::identity_changed,
               path +
                   " was replaced while the export was opening it; the copy carries the tree it "
                   "inspected or nothing at all, so run the export again",
               path);
}

/// Classifies `name` through `parent`, then opens and binds it. Returns nullopt-status
/// results for absence and symlinks; throws for the rest. `walked` names it in messages.
template <class Fs>
root_result<Fs> open_bound(Fs& fs, const typename Fs::dir& parent, std::string_view name,
                           const std::string& walked, bool last) {
  root_result<Fs> r;
  std::optional<stat_info> info;
  try {
    info = fs.stat_at(parent, name);
  } catch (const error& e) {
    throw with_context(e, "failed to inspect " + walked, walked, reason_of(e));
  }
  if (!info) return r;  // nothing
  if (info->kind == file_kind::symlink) {
    r.status = last ? root_status::symlinked : root_status::escaped;
    r.at = walked;
    return r;
  }
  if (info->kind != file_kind::directory) throw not_a_directory(walked);
  std::optional<typename Fs::dir> opened;
  try {
    opened.emplace(fs.open_dir_at(parent, name));
  } catch (const error& e) {
    throw with_context(e, "failed to open " + walked, walked, reason_of(e));
  }
  stat_info now;
  try {
    now = fs.stat(*opened);
  } catch (const error& e) {
    throw with_context(e, "failed to inspect " + walked, walked, reason_of(e));
  }
  if (now.id != info->id) throw root_replaced(walked);
  r.status = root_status::opened;
  r.handle = std::move(opened);
  r.id = now.id;
  return r;
}

}  // namespace detail

/// Opens `install_root/relative` component by component from the install root, which is
/// the only place symlinks are followed (above the install). `relative` must start with
/// `family` ("agents" or "shared"), else the result is `escaped`. A symlink on the last
/// component is `symlinked`, on any earlier one `escaped` (wherever it points, even
/// inside the install). Throws clawport::error for a non-directory (errc::unsafe_path),
/// a root replaced between classification and open (errc::identity_changed) and any
/// failure other than "not found" ("failed to inspect/open {walked}").
template <class Fs>
root_result<Fs> open_anchored_root(Fs& fs, std::string_view install_root, std::string_view relative,
                                   std::string_view family) {
  root_result<Fs> result;
  const std::vector<std::string_view> parts = detail::components(relative);
  if (parts.empty() || parts.front() != family) {
    result.status = root_status::escaped;
    result.at = paths::join(install_root, relative);
    return result;
  }
  std::string walked(install_root);
  std::optional<typename Fs::dir> current;
  try {
    current.emplace(fs.open_root(install_root));
  } catch (const error& e) {
    if (e.code() == errc::not_found) {
      throw with_context(e, "failed to resolve " + walked, walked, reason_of(e));
    }
    throw with_context(e, "failed to open " + walked, walked, reason_of(e));
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    walked = paths::join(walked, parts[i]);
    if (!detail::is_plain(parts[i])) {
      result.status = root_status::escaped;
      result.at = walked;
      return result;
    }
    root_result<Fs> step =
        detail::open_bound(fs, *current, parts[i], walked, i + 1 == parts.size());
    if (!step.opened()) return step;
    if (i + 1 == parts.size()) return step;
    current = std::move(step.handle);
  }
  return result;  // unreachable: parts is never empty here
}

/// Opens a configured `workspace.path`, exempt from the ancestor walk: the parent is
/// resolved following symlinks, the last component is classified, opened without
/// following and bound by identity. `path` must be absolute (make it so at the edge).
/// Throws errc::unsafe_path when the last component is not a plain name; `field` names the
/// setting the path came from in that refusal (`workspace.path`).
template <class Fs>
root_result<Fs> open_configured_root(Fs& fs, std::string_view path, std::string_view field) {
  const std::string shown(path);
  const std::string f(field);
  const std::vector<std::string_view> parts = detail::components(path);
  if (parts.empty() || !detail::is_plain(parts.back())) {
    throw error(errc::unsafe_path,
                "the configured `" + f + "` " + shown +
                    " does not end in a plain directory name, so what is copied cannot be bound "
                    "to what was checked; set `" +
                    f + "` to the resolved directory and try again",
                shown);
  }
  if (parts.front() != "/") {
    throw error(errc::invalid_argument,
                "the configured `" + f + "` " + shown + " must be made absolute before opening",
                shown);
  }
  std::string parent = "/";
  for (std::size_t i = 1; i + 1 < parts.size(); ++i) parent = paths::join(parent, parts[i]);
  root_result<Fs> result;
  std::optional<typename Fs::dir> holder;
  try {
    holder.emplace(fs.open_root(parent));
  } catch (const error& e) {
    if (e.code() == errc::not_found) return result;  // nothing
    throw with_context(e, "failed to resolve " + parent, parent, reason_of(e));
  }
  result = detail::open_bound(fs, *holder, parts.back(), shown, true);
  if (result.status == root_status::symlinked) result.at = shown;
  return result;
}

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
