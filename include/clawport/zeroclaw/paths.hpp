// SPDX-License-Identifier: MIT
// Lexical path arithmetic on '/'-separated strings (POSIX semantics on every host), for
// the skill-directory rules of §7.1. No filesystem access.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawport::zeroclaw::paths {

inline std::vector<std::string> components(std::string_view p) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= p.size()) {
    const std::size_t slash = p.find('/', start);
    const std::size_t end = slash == std::string_view::npos ? p.size() : slash;
    if (end > start) out.emplace_back(p.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

/// Lexical normalization: drops empty and `.` components, lets `..` remove the previous
/// plain component (at the root it is dropped; leading `..` of a relative path stays).
/// "/a/./b/../c" -> "/a/c"; "." -> ""; "./shared" -> "shared".
inline std::string normalize(std::string_view p) {
  const bool absolute = !p.empty() && p.front() == '/';
  std::vector<std::string> out;
  for (std::string& c : components(p)) {
    if (c == ".") continue;
    if (c == "..") {
      if (!out.empty() && out.back() != "..") {
        out.pop_back();
        continue;
      }
      if (absolute) continue;
    }
    out.push_back(std::move(c));
  }
  std::string joined = absolute ? "/" : "";
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (i) joined += '/';
    joined += out[i];
  }
  return joined;
}

/// `base/rel`, or `rel` when it is absolute.
inline std::string join(std::string_view base, std::string_view rel) {
  if (!rel.empty() && rel.front() == '/') return std::string(rel);
  if (base.empty()) return std::string(rel);
  std::string out(base);
  if (out.back() != '/') out += '/';
  return out + std::string(rel);
}

/// Component-wise prefix test on normalized paths (absolute never starts a relative one).
inline bool starts_with(std::string_view path, std::string_view prefix) {
  const bool pa = !path.empty() && path.front() == '/';
  const bool pb = !prefix.empty() && prefix.front() == '/';
  if (pa != pb) return false;
  const auto a = components(path);
  const auto b = components(prefix);
  if (b.size() > a.size()) return false;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

/// `path` with the component prefix `prefix` removed, '/'-joined; nullopt if not a prefix.
inline std::optional<std::string> strip_prefix(std::string_view path, std::string_view prefix) {
  if (!starts_with(path, prefix)) return std::nullopt;
  const auto a = components(path);
  const auto b = components(prefix);
  std::string out;
  for (std::size_t i = b.size(); i < a.size(); ++i) {
    if (!out.empty()) out += '/';
    out += a[i];
  }
  return out;
}

/// True when any component is `..`.
inline bool has_dotdot(std::string_view p) {
  for (const std::string& c : components(p))
    if (c == "..") return true;
  return false;
}

}  // namespace clawport::zeroclaw::paths
