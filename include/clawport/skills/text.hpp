// SPDX-License-Identifier: MIT
// Small string helpers shared by the skill parsers. They mirror the Rust `str` methods
// upstream uses (`trim`, `lines`, `trim_matches`), so edge cases come out the same.
#pragma once

#include "../core/text.hpp"
#include "../core/utf8.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills::detail {

// Trimming (Rust's `str::trim`) and ASCII case folding are core/text.hpp's (`text::`).

inline bool is_blank(std::string_view s) noexcept { return text::trim(s).empty(); }

inline bool starts_with(std::string_view s, std::string_view p) noexcept {
  return s.size() >= p.size() && s.substr(0, p.size()) == p;
}

inline bool ends_with(std::string_view s, std::string_view p) noexcept {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

inline bool iends_with(std::string_view s, std::string_view suffix) noexcept {
  return s.size() >= suffix.size() &&
         text::iequals_ascii(s.substr(s.size() - suffix.size()), suffix);
}

/// `trim_matches(c)`: strips every leading and trailing `c`.
inline std::string_view strip_char(std::string_view s, char c) noexcept {
  while (!s.empty() && s.front() == c) s.remove_prefix(1);
  while (!s.empty() && s.back() == c) s.remove_suffix(1);
  return s;
}

/// Upstream's quote stripping: all `"` then all `'` at both ends.
inline std::string_view strip_quotes(std::string_view s) noexcept {
  return strip_char(strip_char(s, '"'), '\'');
}

/// Rust `str::lines`: split on `\n`, drop one trailing `\r` per line, no final empty line.
inline std::vector<std::string_view> lines(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    const std::size_t nl = s.find('\n');
    std::string_view line = nl == std::string_view::npos ? s : s.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    if (nl == std::string_view::npos) break;
    s.remove_prefix(nl + 1);
  }
  return out;
}

/// Replaces every `\r\n` with `\n` (a lone `\r` is kept).
inline std::string normalize_crlf(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') continue;
    out.push_back(s[i]);
  }
  return out;
}

/// Leading whitespace characters (each multi-byte space counts once), like Rust's
/// `chars().take_while(char::is_whitespace).count()`.
inline std::size_t indent_of(std::string_view s) noexcept {
  std::size_t count = 0;
  std::size_t n = 0;
  while (!s.empty() && (n = text::space_len(s, 0)) != 0) {
    s.remove_prefix(n);
    ++count;
  }
  return count;
}

/// True when the line starts with a space or a tab (upstream's "indented").
inline bool is_indented(std::string_view line) noexcept {
  return !line.empty() && (line.front() == ' ' || line.front() == '\t');
}

/// Splits at the first `c`; false when `c` is absent.
inline bool split_once(std::string_view s, char c, std::string_view& left,
                       std::string_view& right) {
  const std::size_t at = s.find(c);
  if (at == std::string_view::npos) return false;
  left = s.substr(0, at);
  right = s.substr(at + 1);
  return true;
}

}  // namespace skills::detail

namespace skills {

/// How a message names a skill: `<bundle>/<name>`, or `global/<name>` for the global
/// directory (an empty bundle). A display, never a path (paths are core/paths.hpp's).
inline std::string shown_skill(const std::string& bundle, const std::string& name) {
  return (bundle.empty() ? std::string("global") : bundle) + "/" + name;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
