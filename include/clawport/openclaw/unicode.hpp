// SPDX-License-Identifier: MIT
// Unicode NFC and JavaScript's toLowerCase on UTF-8 strings, for OpenClaw's portable
// collision key (docs/openclaw.md). Tables: openclaw/unicode_data.hpp (generated).
#pragma once

#include "../core/config.hpp"
#include "../core/utf8.hpp"

#include "unicode_data.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw::unicode {

namespace detail {

// The decoder and encoder are core's (core/utf8.hpp); input that is not UTF-8 (the readers
// refuse it before this point) decodes to U+FFFD per byte rather than reading past the end.
inline std::vector<std::uint32_t> decode(std::string_view s) {
  std::vector<std::uint32_t> out;
  out.reserve(s.size());
  for (std::size_t k = 0; k < s.size();) {
    const utf8::decoded d = utf8::decode_at(s, k);
    out.push_back(d.length == 0 ? 0xFFFDu : static_cast<std::uint32_t>(d.cp));
    k += d.length == 0 ? 1 : d.length;
  }
  return out;
}

inline std::string encode(const std::vector<std::uint32_t>& cps) {
  std::string out;
  out.reserve(cps.size());
  for (const std::uint32_t cp : cps) utf8::append(out, cp);
  return out;
}

constexpr std::uint32_t s_base = 0xac00, l_base = 0x1100, v_base = 0x1161, t_base = 0x11a7;
constexpr std::uint32_t l_count = 19, v_count = 21, t_count = 28, n_count = v_count * t_count,
                        s_count = l_count * n_count;

inline std::uint32_t ccc(std::uint32_t cp) {
  const auto* b = std::begin(unicode_data::combining_classes);
  const auto* e = std::end(unicode_data::combining_classes);
  const auto* it =
      std::lower_bound(b, e, cp, [](const auto& row, std::uint32_t v) { return row[0] < v; });
  return it != e && (*it)[0] == cp ? (*it)[1] : 0;
}

inline void decompose(std::uint32_t cp, std::vector<std::uint32_t>& out) {
  if (cp >= s_base && cp < s_base + s_count) {
    const std::uint32_t s = cp - s_base;
    out.push_back(l_base + s / n_count);
    out.push_back(v_base + (s % n_count) / t_count);
    if (s % t_count != 0) out.push_back(t_base + s % t_count);
    return;
  }
  const auto* b = std::begin(unicode_data::decompositions);
  const auto* e = std::end(unicode_data::decompositions);
  const auto* it =
      std::lower_bound(b, e, cp, [](const auto& row, std::uint32_t v) { return row[0] < v; });
  if (it == e || (*it)[0] != cp) {
    out.push_back(cp);
    return;
  }
  decompose((*it)[1], out);
  if ((*it)[2] != 0) decompose((*it)[2], out);
}

inline std::uint32_t compose(std::uint32_t a, std::uint32_t b) {
  if (a >= l_base && a < l_base + l_count && b >= v_base && b < v_base + v_count) {
    return s_base + ((a - l_base) * v_count + (b - v_base)) * t_count;
  }
  if (a >= s_base && a < s_base + s_count && (a - s_base) % t_count == 0 && b > t_base &&
      b < t_base + t_count) {
    return a + (b - t_base);
  }
  const auto* beg = std::begin(unicode_data::compositions);
  const auto* end = std::end(unicode_data::compositions);
  const auto* it = std::lower_bound(
      beg, end, std::pair<std::uint32_t, std::uint32_t>(a, b), [](const auto& row, const auto& v) {
        return row[0] < v.first || (row[0] == v.first && row[1] < v.second);
      });
  return it != end && (*it)[0] == a && (*it)[1] == b ? (*it)[2] : 0;
}

}  // namespace detail

/// Unicode Normalization Form C of well-formed UTF-8.
inline std::string nfc(std::string_view s) {
  bool ascii = true;
  for (const char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) ascii = false;
  if (ascii) return std::string(s);
  std::vector<std::uint32_t> d;
  for (const std::uint32_t cp : detail::decode(s)) detail::decompose(cp, d);
  // Canonical ordering: stable sort of every run of non-starters by combining class.
  for (std::size_t k = 0; k < d.size();) {
    if (detail::ccc(d[k]) == 0) {
      ++k;
      continue;
    }
    std::size_t j = k;
    while (j < d.size() && detail::ccc(d[j]) != 0) ++j;
    std::stable_sort(
        d.begin() + static_cast<std::ptrdiff_t>(k), d.begin() + static_cast<std::ptrdiff_t>(j),
        [](std::uint32_t a, std::uint32_t b) { return detail::ccc(a) < detail::ccc(b); });
    k = j;
  }
  std::vector<std::uint32_t> out;
  out.reserve(d.size());
  std::ptrdiff_t starter = -1;
  std::uint32_t last_cc = 0;
  for (const std::uint32_t c : d) {
    const std::uint32_t cc = detail::ccc(c);
    if (starter >= 0) {
      const bool adjacent = static_cast<std::ptrdiff_t>(out.size()) - 1 == starter;
      if (adjacent || (last_cc != 0 && last_cc < cc)) {
        if (const std::uint32_t comp = detail::compose(out[static_cast<std::size_t>(starter)], c)) {
          out[static_cast<std::size_t>(starter)] = comp;
          continue;
        }
      }
    }
    if (cc == 0) starter = static_cast<std::ptrdiff_t>(out.size());
    last_cc = cc;
    out.push_back(c);
  }
  return detail::encode(out);
}

/// JavaScript's String.prototype.toLowerCase (full mappings; the final-sigma context rule
/// is not applied: a word-final capital sigma lowers to σ).
inline std::string to_lower(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool ascii = true;
  for (const char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) ascii = false;
  if (ascii) {
    for (const char c : s) out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
    return out;
  }
  std::vector<std::uint32_t> cps;
  for (const std::uint32_t cp : detail::decode(s)) {
    const auto* b = std::begin(unicode_data::lowercase);
    const auto* e = std::end(unicode_data::lowercase);
    const auto* it =
        std::lower_bound(b, e, cp, [](const auto& row, std::uint32_t v) { return row[0] < v; });
    if (it == e || (*it)[0] != cp) {
      cps.push_back(cp);
      continue;
    }
    for (int k = 1; k < 4; ++k)
      if ((*it)[k] != 0) cps.push_back((*it)[k]);
  }
  return detail::encode(cps);
}

}  // namespace openclaw::unicode
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
