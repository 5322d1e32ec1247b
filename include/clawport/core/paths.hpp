// SPDX-License-Identifier: MIT
// Lexical path arithmetic on '/'-separated strings (POSIX semantics on every host): the one
// splitter and the one normalization of the library. No filesystem access; nothing here
// resolves a symlink, so a normalized path is for comparison and display, never to open.
//
// The one `..` semantics (docs/architecture.md, "Paths"): `normalize` drops empty and `.`
// components and lets `..` remove the previous plain component; a `..` at the root of an
// absolute path is dropped ("/.." is "/"), and the leading `..` of a relative path is kept
// ("../a" stays "../a"). Where `..` must not be resolved lexically (it may cross a symlink),
// callers refuse it instead (`has_dotdot`), as the export does for skill directories and
// for a destination below a directory that does not exist yet.
#pragma once

#include "config.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace paths {

/// True for a path starting with '/'.
constexpr bool is_absolute(std::string_view p) noexcept { return !p.empty() && p.front() == '/'; }

/// The non-empty '/'-separated segments of `p`, `.` and `..` kept as written:
/// "/a//b/./" gives {"a", "b", "."}; "" and "/" give {}.
// GCC 12 at -O2/-O3 reports a false -Wstringop-overflow ("writing 1 byte into a region of size
// 0") in the std::string built by emplace_back below once this is inlined into
// zeroclaw/validate.hpp: one of the bogus warnings of GCC's meta-bug 88443 ("bogus/missing
// -Wstringop-overflow warnings"). Silenced for GCC 12 and this function only.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
inline std::vector<std::string> components(std::string_view p) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < p.size()) {
    while (i < p.size() && p[i] == '/') ++i;
    std::size_t j = i;
    while (j < p.size() && p[j] != '/') ++j;
    if (j > i) out.emplace_back(p.substr(i, j - i));
    i = j;
  }
  return out;
}
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic pop
#endif

/// The components as Rust's `Path::components` yields them (what ZeroClaw's own checks
/// see): a leading "/" is a component of its own, empty segments vanish, "." is kept only
/// in first position, ".." is kept. Views into `p`.
inline std::vector<std::string_view> rust_components(std::string_view p) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  if (is_absolute(p)) {
    out.emplace_back(p.substr(0, 1));
    i = 1;
  }
  while (i <= p.size()) {
    std::size_t j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    const std::string_view part = p.substr(i, j - i);
    if (!part.empty() && !(part == "." && !out.empty())) out.push_back(part);
    i = j + 1;
  }
  return out;
}

/// '/'-joins `parts`, with a leading '/' when `absolute` ("/" for no parts).
inline std::string join_components(const std::vector<std::string>& parts, bool absolute,
                                   std::size_t count = std::string::npos) {
  if (count > parts.size()) count = parts.size();
  std::string out = absolute ? "/" : "";
  for (std::size_t i = 0; i < count; ++i) {
    if (i) out += '/';
    out += parts[i];
  }
  return out;
}

/// Lexical normalization with the one `..` semantics (see the top of this file):
/// "/a/./b/../c" -> "/a/c"; "/.." -> "/"; "." -> ""; "./shared" -> "shared"; "a/../../b" -> "../b".
inline std::string normalize(std::string_view p) {
  const bool absolute = is_absolute(p);
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
  return join_components(out, absolute);
}

/// The one join of the library, lexical and never normalizing, with Rust's `Path::join`
/// rules (what ZeroClaw itself does with a configured path):
/// - `base/rel`, one '/' added only when `base` does not already end in one:
///   join("a", "b") is "a/b", join("a/", "b") is "a/b", join("/", "b") is "/b";
/// - an absolute `rel` replaces `base`: join("a", "/b") is "/b" (a configured absolute
///   path wins); a caller joining a name that must stay below `base` refuses an absolute
///   one before joining (as openclaw/schema.hpp `safe_path` does for package sources);
/// - an empty `base` is the current directory: join("", "b") is "b", never "/b"; a caller
///   that means the root passes "/" (exporter.hpp `join_path` does);
/// - an empty `rel` gives `base` with a trailing '/': join("a", "") is "a/".
inline std::string join(std::string_view base, std::string_view rel) {
  if (is_absolute(rel) || base.empty()) return std::string(rel);
  std::string out(base);
  if (out.back() != '/') out += '/';
  return out + std::string(rel);
}

/// The last component of `p`, lexically, as written (trailing '/' ignored, `.` and `..`
/// returned as they are): file_name("a/b") is "b", file_name("a/") is "a", file_name("/a")
/// is "a", file_name("a") is "a"; "" and "/" (or "//") have none and give "".
inline std::string file_name(std::string_view p) {
  while (!p.empty() && p.back() == '/') p.remove_suffix(1);
  const std::size_t slash = p.rfind('/');
  return std::string(slash == std::string_view::npos ? p : p.substr(slash + 1));
}

/// `p` without its last component (and without the '/'s before it), lexically:
/// parent("/a/b") is "/a", parent("a/b/") is "a", parent("/a") is "/", parent("a") is ""
/// (the current directory, as `normalize(".")` is ""), parent("a/") is ""; the root is its
/// own parent, parent("/") is "/", and parent("") is "". Nothing is normalized: parent("a/..")
/// is "a". So `join(parent(p), file_name(p))` names `p` again (less a trailing '/') whenever
/// `p` has a file name.
inline std::string parent(std::string_view p) {
  while (p.size() > 1 && p.back() == '/') p.remove_suffix(1);
  const std::size_t slash = p.rfind('/');
  if (slash == std::string_view::npos) return std::string();
  std::size_t end = slash;
  while (end > 0 && p[end - 1] == '/') --end;
  return end == 0 ? std::string("/") : std::string(p.substr(0, end));
}

/// `path` equals `prefix` or lies below it, by whole components (as Rust's
/// `Path::starts_with`); an absolute path never starts a relative one, nor the reverse.
inline bool starts_with(std::string_view path, std::string_view prefix) {
  if (is_absolute(path) != is_absolute(prefix)) return false;
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

}  // namespace paths
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
