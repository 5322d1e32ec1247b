// SPDX-License-Identifier: MIT
// The one UTF-8 rule of the library: a strict constexpr decoder (no overlongs, surrogates
// or values past U+10FFFF) and what is built on it. Used by the name grammar (which
// classifies code points without a Unicode library), the tree copy (names that are not
// UTF-8 are skipped) and the skills reader (files that are not UTF-8 are refused, as
// Rust's read_to_string does).
#pragma once

#include "config.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace utf8 {

/// One decoded code point; `length` is 0 when the bytes at `pos` are not valid UTF-8.
struct decoded {
  char32_t cp = 0;
  std::size_t length = 0;
};

/// Decodes the code point starting at byte `pos` (strict: no overlongs, no surrogates).
constexpr decoded decode_at(std::string_view s, std::size_t pos) noexcept {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = byte(pos);
  if (b0 < 0x80) return {b0, 1};
  std::size_t n = 0;
  char32_t cp = 0;
  char32_t min = 0;
  if ((b0 & 0xE0) == 0xC0) {
    n = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return {};
  }
  if (pos + n > s.size()) return {};
  for (std::size_t i = 1; i < n; ++i) {
    const unsigned char b = byte(pos + i);
    if ((b & 0xC0) != 0x80) return {};
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {};
  return {cp, n};
}

/// True when the whole string is well-formed UTF-8.
constexpr bool valid(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    const decoded d = decode_at(s, i);
    if (d.length == 0) return false;
    i += d.length;
  }
  return true;
}

/// The last code point of a valid, non-empty string.
constexpr decoded last(std::string_view s) noexcept {
  std::size_t start = s.size() - 1;
  while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
  return decode_at(s, start);
}

/// Unicode White_Space (what Rust's `char::is_whitespace` and `str::trim` use).
constexpr bool is_white_space(char32_t c) noexcept {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

/// Appends the UTF-8 encoding of the scalar value `cp` (the one encoder: the YAML and JSON5
/// escapes and the NFC composer all write through it).
inline void append(std::string& out, char32_t cp) {
  const auto put = [&](unsigned v) { out += static_cast<char>(v); };
  if (cp < 0x80) {
    put(cp);
  } else if (cp < 0x800) {
    put(0xC0 | (cp >> 6));
    put(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    put(0xE0 | (cp >> 12));
    put(0x80 | ((cp >> 6) & 0x3F));
    put(0x80 | (cp & 0x3F));
  } else {
    put(0xF0 | (cp >> 18));
    put(0x80 | ((cp >> 12) & 0x3F));
    put(0x80 | ((cp >> 6) & 0x3F));
    put(0x80 | (cp & 0x3F));
  }
}

/// Unicode general category Cc.
constexpr bool is_control(char32_t c) noexcept { return c <= 0x1F || (c >= 0x7F && c <= 0x9F); }

}  // namespace utf8
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace detail {

/// The same rule under the name the walkers use: `utf8::valid`.
constexpr bool valid_utf8(std::string_view s) noexcept { return utf8::valid(s); }

}  // namespace detail
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
