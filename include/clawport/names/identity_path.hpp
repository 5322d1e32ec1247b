// SPDX-License-Identifier: MIT
// `portable_identity_path` (docs/format.md): keeps an `identity.aieos_path` only
// when it names a file inside the carried workspace by a path every target resolves the
// same way, and rewrites it with '/' separators.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "grammar.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace names {

/// Outcome of `portable_identity_path`: `path` when kept, else `refusal` (the drop detail).
struct identity_path_result {
  std::optional<std::string> path;
  std::string refusal;
};

/// docs/format.md on the raw (untrimmed) value. `included(relative)` is the workspace filter of
/// docs/library.md, Exporting (zeroclaw::workspace_entry_included); it is a parameter so names/
/// stays free of ZeroClaw's workspace layout. Host-absolute means a leading '/' (POSIX semantics on
/// every host, so a `C:\...` value fails the grammar step, as upstream does on Unix).
template <typename Names = portable, typename Included>
identity_path_result portable_identity_path(std::string_view raw, const Included& included) {
  require_names_policy<Names>();
  const auto refuse = [](std::string text) { return identity_path_result{std::nullopt, text}; };
  if (raw.empty()) return refuse("the AIEOS identity document path is empty");
  if (raw.front() == '/')
    return refuse(
        "the AIEOS identity document is referenced by a source-host absolute path; point the "
        "imported agent at a path inside its own workspace");
  std::vector<std::string_view> kept;
  for (std::size_t start = 0;;) {
    const std::size_t slash = raw.find('/', start);
    const std::string_view segment =
        raw.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (segment == "..")
      return refuse(
          "the AIEOS identity document path contains a `..` segment; name the file by its "
          "plain path from the workspace root");
    if (segment != ".") {
      if (const auto reason = Names::unportable_reason(segment))
        return refuse("the AIEOS identity document path has a component that " +
                      std::string(*reason) + " (`" + std::string(segment) +
                      "`); a bundle is opened on hosts other than this one, so it can carry "
                      "only names every supported target can materialize");
      kept.push_back(segment);
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  // resolve_under("workspace", raw): with no `..` and no empty segment left, the lexical
  // normalization is the list of kept names, which cannot leave the workspace.
  std::string relative;
  for (const std::string_view part : kept) {
    if (!relative.empty()) relative += '/';
    relative += part;
  }
  if (relative.empty()) return refuse("the AIEOS identity document path is empty");
  if (!included(std::string_view(relative)))
    return refuse(
        "the AIEOS identity document sits in the part of the workspace this bundle does not "
        "carry, so the reference would dangle on the target");
  return identity_path_result{relative, {}};
}

}  // namespace names
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
