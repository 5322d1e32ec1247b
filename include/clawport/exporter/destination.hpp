// SPDX-License-Identifier: MIT
// Destination resolution and the overlap check (docs/library.md, Exporting), done before anything
// is created. `resolve_path` makes a path absolute lexically, canonicalizes its nearest existing
// ancestor through the Fs policy's `canonical` and re-appends the missing components,
// refusing a `..` that reaches through a directory that does not exist yet.
#pragma once

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../fs/policy.hpp"

#include <cerrno>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace exporter_detail {

inline error unresolvable(const std::string& display) {
  return error(errc::unsafe_path,
               display +
                   " reaches through `..` inside a directory that does not exist yet, so what it "
                   "names cannot be checked before the export writes; write the path without `..`",
               display);
}

/// `resolve_path` of docs/library.md, Exporting for an absolute path; `display` names it in the
/// `..` refusal.
template <class Fs>
std::string resolve_path(Fs& fs, std::string_view abs, const std::string& display) {
  static_assert(fs::check_policy<Fs>());  // canonical() is part of the Fs contract
  if (abs.empty() || abs.front() != '/') {
    throw error(errc::invalid_argument, "an absolute path is required: " + std::string(abs),
                std::string(abs));
  }
  const std::vector<std::string> parts = paths::components(abs);
  std::size_t existing = parts.size();
  for (;;) {
    const std::optional<std::string> found =
        fs.canonical(paths::join_components(parts, true, existing));
    if (found) {
      std::string out = *found;
      for (std::size_t i = existing; i < parts.size(); ++i) {
        if (parts[i] == ".") continue;
        if (out.empty() || out.back() != '/') out += '/';
        out += parts[i];
      }
      return out;
    }
    if (existing == 0)
      return paths::join_components(parts, true, parts.size());  // nothing exists: as written
    if (parts[existing - 1] == "..") throw unresolvable(display);
    --existing;
  }
}

/// The destination resolved without following its last component: the parent goes
/// through `resolve_path`, the final name is appended as written, so a symlink named by
/// `--out` stays a symlink that admission refuses (rather than the directory it points
/// at being replaced). A last component `.` or `..` names a real directory: the whole
/// path is resolved then.
template <class Fs>
std::string resolve_destination(Fs& fs, std::string_view abs, const std::string& display) {
  const std::vector<std::string> parts = paths::components(abs);
  if (parts.empty() || parts.back() == "." || parts.back() == "..") {
    return resolve_path(fs, abs, display);
  }
  std::string parent =
      resolve_path(fs, paths::join_components(parts, true, parts.size() - 1), display);
  if (parent.empty() || parent.back() != '/') parent += '/';
  return parent + parts.back();
}

/// `{parent, name}` of a resolved destination; nullopt for "/" (no parent to stage beside).
inline std::optional<std::pair<std::string, std::string>> split_parent(const std::string& path) {
  const std::vector<std::string> parts = paths::components(path);
  if (parts.empty()) return std::nullopt;
  const std::string& name = parts.back();
  if (name == "." || name == "..") return std::nullopt;
  return std::make_pair(paths::join_components(parts, true, parts.size() - 1), name);
}

/// One source tree the destination must not overlap.
struct overlap_source {
  bool workspace = false;  ///< the workspace (else a skill bundle)
  std::string alias;       ///< skill bundle alias
  std::string planned;     ///< the source path as planned (shown in messages)
  std::string resolved;    ///< the source path through resolve_path
};

/// `reject_source_overlap`: containment first, then inside; the workspace before each skill
/// bundle, in plan order.
inline void reject_overlap(const std::string& dest, const std::string& display,
                           const std::vector<overlap_source>& sources) {
  for (const overlap_source& s : sources) {
    const std::string source = s.workspace ? "the agent workspace " + s.planned
                                           : "skill bundle `" + s.alias + "` at " + s.planned;
    if (paths::starts_with(s.resolved, dest)) {
      throw error(errc::overlap,
                  "destination " + display + " contains " + source +
                      " \u2014 exporting there would replace " +
                      (s.workspace ? "the workspace itself" : "the skills the bundle carries"),
                  display);
    }
    if (paths::starts_with(dest, s.resolved)) {
      throw error(
          errc::overlap,
          "destination " + display + " is inside " + source + " \u2014 choose a path outside it",
          display);
    }
  }
}

/// A path the destination must neither be nor contain (the install root, the config
/// file, the user's home directory): publishing there would replace it.
struct protected_path {
  std::string what;      ///< "the install root", "the config file", "your home directory"
  std::string planned;   ///< as the caller named it (shown in messages)
  std::string resolved;  ///< through resolve_path
  std::string why;       ///< what replacing it would destroy
};

/// Refuses a destination that equals or contains one of `paths` (checked in order).
inline void reject_protected(const std::string& dest, const std::string& display,
                             const std::vector<protected_path>& paths) {
  for (const protected_path& p : paths) {
    if (p.resolved.empty() || !paths::starts_with(p.resolved, dest)) continue;
    const bool same = paths::components(p.resolved) == paths::components(dest);
    throw error(errc::overlap,
                "destination " + display + (same ? " is " : " contains ") + p.what + " " +
                    p.planned + " \u2014 exporting there would replace " + p.why +
                    "; choose a path outside it (nothing was written, --force or not)",
                display);
  }
}

}  // namespace exporter_detail
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
