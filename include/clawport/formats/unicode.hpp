// SPDX-License-Identifier: MIT
// Unicode NFC and JavaScript's toLowerCase on UTF-8 strings, for OpenClaw's portable
// collision key, and an approximation of JavaScript's localeCompare (ICU root collation)
// for the plan orders (docs/openclaw.md). Tables: formats/tables/unicode_data.hpp (generated).
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"
#include "../core/utf8.hpp"

#include "tables/unicode_data.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace unicode {

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

/// The row of `table` (rows sorted by their first column, a code point) that starts with
/// `cp`, or nullptr: the one lookup of the generated tables keyed by code point.
template <std::size_t N, std::size_t W>
const std::uint32_t* row_of(const std::uint32_t (&table)[N][W], std::uint32_t cp) {
  const auto* e = std::end(table);
  const auto* it = std::lower_bound(std::begin(table), e, cp,
                                    [](const auto& row, std::uint32_t v) { return row[0] < v; });
  return it != e && (*it)[0] == cp ? *it : nullptr;
}

inline std::uint32_t ccc(std::uint32_t cp) {
  const std::uint32_t* row = row_of(unicode_data::combining_classes, cp);
  return row != nullptr ? row[1] : 0;
}

inline void decompose(std::uint32_t cp, std::vector<std::uint32_t>& out) {
  if (cp >= s_base && cp < s_base + s_count) {
    const std::uint32_t s = cp - s_base;
    out.push_back(l_base + s / n_count);
    out.push_back(v_base + (s % n_count) / t_count);
    if (s % t_count != 0) out.push_back(t_base + s % t_count);
    return;
  }
  const std::uint32_t* row = row_of(unicode_data::decompositions, cp);
  if (row == nullptr) {
    out.push_back(cp);
    return;
  }
  decompose(row[1], out);
  if (row[2] != 0) decompose(row[2], out);
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

/// The code points of `s` in Normalization Form D: full canonical decomposition, then the
/// canonical ordering (a stable sort of every run of non-starters by combining class).
inline std::vector<std::uint32_t> nfd_code_points(std::string_view s) {
  std::vector<std::uint32_t> d;
  for (const std::uint32_t cp : decode(s)) decompose(cp, d);
  for (std::size_t k = 0; k < d.size();) {
    if (ccc(d[k]) == 0) {
      ++k;
      continue;
    }
    std::size_t j = k;
    while (j < d.size() && ccc(d[j]) != 0) ++j;
    std::stable_sort(d.begin() + static_cast<std::ptrdiff_t>(k),
                     d.begin() + static_cast<std::ptrdiff_t>(j),
                     [](std::uint32_t a, std::uint32_t b) { return ccc(a) < ccc(b); });
    k = j;
  }
  return d;
}

}  // namespace detail

/// Unicode Normalization Form C of well-formed UTF-8.
inline std::string nfc(std::string_view s) {
  bool ascii = true;
  for (const char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) ascii = false;
  if (ascii) return std::string(s);
  const std::vector<std::uint32_t> d = detail::nfd_code_points(s);
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
  bool ascii = true;
  for (const char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) ascii = false;
  if (ascii) return text::to_lower_ascii(s);
  std::vector<std::uint32_t> cps;
  for (const std::uint32_t cp : detail::decode(s)) {
    const std::uint32_t* row = detail::row_of(unicode_data::lowercase, cp);
    if (row == nullptr) {
      cps.push_back(cp);
      continue;
    }
    for (int k = 1; k < 4; ++k)
      if (row[k] != 0) cps.push_back(row[k]);
  }
  return detail::encode(cps);
}

// ---------------------------------------------------------------------------------------
// localeCompare (docs/openclaw.md "localeCompare"): an approximation of ICU's root
// collation, the order JavaScript's String.prototype.localeCompare gives without a locale.
// ---------------------------------------------------------------------------------------

namespace detail {

enum : std::uint32_t {
  c_ignorable = 0,
  c_space = 1,
  c_punct = 2,
  c_symbol = 3,
  c_currency = 4,
  c_digit = 5,
  c_mark = 6,
  c_letter = 7
};

/// The collation class of `cp` and the first code point of its run (unicode_data.hpp).
inline std::pair<std::uint32_t, std::uint32_t> collation_class(std::uint32_t cp) {
  const auto* b = std::begin(unicode_data::collation_classes);
  const auto* e = std::end(unicode_data::collation_classes);
  const auto* it =
      std::upper_bound(b, e, cp, [](std::uint32_t v, const auto& row) { return v < row[0]; });
  if (it == b) return {c_letter, 0};
  --it;
  return {(*it)[1], (*it)[0]};
}

/// ICU root's primary order of the spaces, punctuation, symbols and currency signs of ASCII,
/// Latin-1, General Punctuation and Currency Symbols, as {cp, weight} sorted by code point
/// (equal weights: equal at the primary level). Measured from ICU 78 (Node's) by
/// `tests/formats/collation_crosscheck.py --tables`.
inline constexpr std::uint32_t punctuation_weights[][2] = {
    {0x9, 1},      {0xA, 2},      {0xB, 3},      {0xC, 4},      {0xD, 5},      {0x20, 9},
    {0x21, 24},    {0x22, 49},    {0x23, 72},    {0x24, 123},   {0x25, 73},    {0x26, 70},
    {0x27, 46},    {0x28, 52},    {0x29, 53},    {0x2A, 65},    {0x2B, 108},   {0x2C, 20},
    {0x2D, 13},    {0x2E, 33},    {0x2F, 68},    {0x3A, 23},    {0x3B, 21},    {0x3C, 112},
    {0x3D, 113},   {0x3E, 114},   {0x3F, 28},    {0x40, 64},    {0x5B, 54},    {0x5C, 69},
    {0x5D, 55},    {0x5E, 101},   {0x5F, 11},    {0x60, 99},    {0x7B, 56},    {0x7C, 116},
    {0x7D, 57},    {0x7E, 118},   {0x85, 6},     {0xA0, 9},     {0xA1, 27},    {0xA2, 122},
    {0xA3, 124},   {0xA4, 121},   {0xA5, 125},   {0xA6, 117},   {0xA7, 61},    {0xA8, 103},
    {0xA9, 106},   {0xAB, 50},    {0xAC, 115},   {0xAE, 107},   {0xAF, 102},   {0xB0, 105},
    {0xB1, 109},   {0xB4, 100},   {0xB6, 62},    {0xB7, 36},    {0xB8, 104},   {0xBB, 51},
    {0xBF, 31},    {0xD7, 111},   {0xF7, 110},   {0x2000, 9},   {0x2001, 9},   {0x2002, 9},
    {0x2003, 9},   {0x2004, 9},   {0x2005, 9},   {0x2006, 9},   {0x2007, 9},   {0x2008, 9},
    {0x2009, 9},   {0x200A, 9},   {0x2010, 14},  {0x2011, 14},  {0x2012, 15},  {0x2013, 16},
    {0x2014, 17},  {0x2015, 18},  {0x2016, 60},  {0x2017, 12},  {0x2018, 46},  {0x2019, 46},
    {0x201A, 46},  {0x201B, 46},  {0x201C, 49},  {0x201D, 49},  {0x201E, 49},  {0x201F, 49},
    {0x2020, 76},  {0x2021, 77},  {0x2022, 78},  {0x2023, 79},  {0x2024, 33},  {0x2025, 34},
    {0x2026, 35},  {0x2027, 80},  {0x2028, 7},   {0x2029, 8},   {0x202F, 9},   {0x2030, 74},
    {0x2031, 75},  {0x2032, 84},  {0x2033, 85},  {0x2034, 86},  {0x2035, 88},  {0x2036, 89},
    {0x2037, 90},  {0x2038, 91},  {0x2039, 47},  {0x203A, 48},  {0x203B, 92},  {0x203C, 25},
    {0x203D, 32},  {0x203E, 10},  {0x203F, 93},  {0x2040, 95},  {0x2041, 97},  {0x2042, 98},
    {0x2043, 81},  {0x2044, 120}, {0x2045, 58},  {0x2046, 59},  {0x2047, 30},  {0x2048, 29},
    {0x2049, 26},  {0x204A, 71},  {0x204B, 63},  {0x204C, 82},  {0x204D, 83},  {0x204E, 66},
    {0x204F, 22},  {0x2050, 96},  {0x2051, 67},  {0x2052, 119}, {0x2053, 19},  {0x2054, 94},
    {0x2055, 37},  {0x2056, 38},  {0x2057, 87},  {0x2058, 39},  {0x2059, 40},  {0x205A, 41},
    {0x205B, 42},  {0x205C, 43},  {0x205D, 44},  {0x205E, 45},  {0x205F, 9},   {0x20A0, 126},
    {0x20A1, 127}, {0x20A2, 128}, {0x20A3, 129}, {0x20A4, 130}, {0x20A5, 131}, {0x20A6, 132},
    {0x20A9, 133}, {0x20AA, 134}, {0x20AB, 135}, {0x20AC, 136}, {0x20AD, 137}, {0x20AE, 138},
    {0x20AF, 139}, {0x20B0, 140}, {0x20B1, 141}, {0x20B2, 142}, {0x20B3, 143}, {0x20B4, 144},
    {0x20B5, 145}, {0x20B6, 146}, {0x20B7, 147}, {0x20B8, 148}, {0x20B9, 149}, {0x20BA, 150},
    {0x20BB, 151}, {0x20BC, 152}, {0x20BD, 153}, {0x20BE, 154}, {0x20BF, 155}, {0x20C0, 156},
};

/// Secondary weights of the combining diacritics U+0300..U+036F on a base letter, in the
/// order ICU 78's root collation gives them (equal numbers: equal at the secondary level;
/// 0: ignorable). Measured like `punctuation_weights`.
inline constexpr unsigned char diacritic_weights[0x70] = {
    5,  4,  7,  14, 19, 24, 6,  15, 11, 25, 9,  13, 8,  20, 20, 26, 27, 28, 20, 2,  3,  20, 21,
    21, 21, 21, 20, 29, 21, 21, 21, 21, 21, 30, 31, 32, 33, 34, 35, 17, 18, 21, 21, 21, 21, 36,
    37, 21, 38, 39, 1,  21, 40, 23, 22, 22, 16, 41, 21, 21, 21, 20, 20, 20, 5,  4,  10, 2,  12,
    42, 20, 21, 21, 21, 20, 20, 20, 21, 21, 0,  20, 20, 20, 21, 21, 21, 21, 20, 43, 21, 21, 20,
    21, 20, 20, 21, 44, 45, 21, 46, 49, 51, 53, 56, 47, 48, 50, 52, 54, 55, 57, 58,
};
/// Secondary weights (×4 scale, see `mark_weight`) for the letters below that ICU treats
/// as a base letter plus a variant: ð's "eth", and the æ/œ/ß expansions' middle weight.
inline constexpr std::uint32_t eth_weight = 45 * 4 + 1, expansion_weight = 45 * 4 + 2;

/// Latin letters without a canonical decomposition that ICU root orders specially:
/// {cp, base, secondary (×4 scale, 0 none), second base (0 none), tertiary, primary nudge}.
/// A nudge > 0 is a letter of its own right after `base` (ı after i, ŋ after n, …).
struct latin_special {
  std::uint32_t cp;
  char base;
  std::uint32_t secondary;
  char base2;
  std::uint32_t tertiary;
  std::uint32_t nudge;
};
inline constexpr latin_special latin_specials[] = {
    {0xC6, 'a', expansion_weight, 'e', 4, 0},    // Æ
    {0xD0, 'd', eth_weight, 0, 2, 0},            // Ð
    {0xD8, 'o', 16 * 4, 0, 2, 0},                // Ø: o + long solidus
    {0xDE, 'z', 0, 0, 2, 1},                     // Þ after z
    {0xDF, 's', expansion_weight, 's', 3, 0},    // ß = ss
    {0xE6, 'a', expansion_weight, 'e', 3, 0},    // æ = ae
    {0xF0, 'd', eth_weight, 0, 1, 0},            // ð
    {0xF8, 'o', 16 * 4, 0, 1, 0},                // ø
    {0xFE, 'z', 0, 0, 1, 1},                     // þ
    {0x110, 'd', 23 * 4, 0, 2, 0},               // Đ: d + short stroke
    {0x111, 'd', 23 * 4, 0, 1, 0},               // đ
    {0x126, 'h', 23 * 4, 0, 2, 0},               // Ħ
    {0x127, 'h', 23 * 4, 0, 1, 0},               // ħ
    {0x131, 'i', 0, 0, 1, 1},                    // ı after i
    {0x138, 'q', 0, 0, 1, 1},                    // ĸ after q
    {0x141, 'l', 23 * 4, 0, 2, 0},               // Ł
    {0x142, 'l', 23 * 4, 0, 1, 0},               // ł
    {0x14A, 'n', 0, 0, 2, 1},                    // Ŋ after n
    {0x14B, 'n', 0, 0, 1, 1},                    // ŋ
    {0x152, 'o', expansion_weight, 'e', 4, 0},   // Œ
    {0x153, 'o', expansion_weight, 'e', 3, 0},   // œ = oe
    {0x166, 't', 0, 0, 2, 1},                    // Ŧ after t
    {0x167, 't', 0, 0, 1, 1},                    // ŧ
    {0x18F, 'e', 0, 0, 2, 1},                    // Ə after e
    {0x190, 'e', 0, 0, 2, 2},                    // Ɛ after ə
    {0x259, 'e', 0, 0, 1, 1},                    // ə
    {0x25B, 'e', 0, 0, 1, 2},                    // ɛ
    {0x1E9E, 's', expansion_weight, 's', 4, 0},  // ẞ
};

/// One collation element; a zero weight is absent at that level.
struct collation_element {
  std::uint32_t primary, secondary, tertiary;
};

/// Secondary weight of a combining mark (×4 so the specials fit between): the measured
/// table for U+0300..U+036F, then every other mark after them by code point.
inline std::uint32_t mark_weight(std::uint32_t cp) {
  if (cp >= 0x300 && cp < 0x370) return 4u * diacritic_weights[cp - 0x300];
  return 0x1000 + cp;
}

/// The measured primary weight of a space, punctuation mark or symbol (0: not measured).
inline std::uint32_t punctuation_weight(std::uint32_t cp) {
  const std::uint32_t* row = row_of(punctuation_weights, cp);
  return row != nullptr ? row[1] : 0;
}

/// The digit value of a non-decimal digit (superscripts, circled digits), else -1.
inline int digit_value(std::uint32_t cp) {
  const std::uint32_t* row = row_of(unicode_data::digit_values, cp);
  return row != nullptr ? static_cast<int>(row[1]) : -1;
}

constexpr std::uint32_t group_shift = 22;  // primary = class << 22 | rank within the class

inline std::uint32_t latin_primary(char lower, std::uint32_t nudge) {
  return c_letter << group_shift | (static_cast<std::uint32_t>(lower - 'a') * 4 + nudge);
}

inline void collation_elements(std::uint32_t cp, std::vector<collation_element>& out) {
  if (cp < 0x80) {
    const char c = static_cast<char>(cp);
    if (c >= 'a' && c <= 'z') return out.push_back({latin_primary(c, 0), 1, 1});
    if (c >= 'A' && c <= 'Z')
      return out.push_back({latin_primary(static_cast<char>(c + 32), 0), 1, 2});
    if (c >= '0' && c <= '9') {
      return out.push_back({c_digit << group_shift | static_cast<std::uint32_t>(c - '0'), 1, 1});
    }
  }
  if (const std::uint32_t w = punctuation_weight(cp)) {
    // Tab, line feed, vertical tab, form feed, carriage return and NEL are spaces here.
    const std::uint32_t cls = cp < 0x20 || cp == 0x85 ? c_space : collation_class(cp).first;
    return out.push_back({cls << group_shift | w, 1, 1});
  }
  for (const auto& s : latin_specials) {
    if (s.cp != cp) continue;
    out.push_back({latin_primary(s.base, s.nudge), 1, s.tertiary});
    if (s.secondary != 0) out.push_back({0, s.secondary, 1});
    if (s.base2 != 0) out.push_back({latin_primary(s.base2, 0), 1, s.tertiary});
    return;
  }
  const auto cls = collation_class(cp);
  switch (cls.first) {
    case c_ignorable:
      return;
    case c_mark: {
      const std::uint32_t w = mark_weight(cp);
      if (w != 0) out.push_back({0, w, 1});
      return;
    }
    case c_digit:  // the same weights as the ASCII digit of the same value (١ = 1)
      return out.push_back({c_digit << group_shift | (cp - cls.second) % 10, 1, 1});
    case c_letter: {
      if (const int v = digit_value(cp); v >= 0) {  // ², ①: digits, after them at tertiary
        return out.push_back({c_digit << group_shift | static_cast<std::uint32_t>(v), 1, 3});
      }
      const std::string lower = to_lower(detail::encode({cp}));
      const std::vector<std::uint32_t> l = decode(lower);
      const std::uint32_t base = l.size() == 1 ? l[0] : cp;
      return out.push_back({c_letter << group_shift | (0x100 + base), 1, base != cp ? 2u : 1u});
    }
    default:  // other spaces, punctuation, symbols, currency: after the measured ones
      return out.push_back({cls.first << group_shift | (0x1000 + cp), 1, 1});
  }
}

inline std::vector<collation_element> collation_elements(std::string_view s) {
  std::vector<collation_element> out;
  out.reserve(s.size());
  for (const std::uint32_t cp : nfd_code_points(s)) collation_elements(cp, out);
  return out;
}

/// Compares the non-zero weights of one level, in order; a proper prefix sorts first.
template <class Weight>
int compare_level(const std::vector<collation_element>& a, const std::vector<collation_element>& b,
                  Weight weight) {
  std::size_t i = 0, j = 0;
  for (;;) {
    while (i < a.size() && weight(a[i]) == 0) ++i;
    while (j < b.size() && weight(b[j]) == 0) ++j;
    if (i == a.size() || j == b.size()) return (i == a.size() ? 0 : 1) - (j == b.size() ? 0 : 1);
    if (weight(a[i]) != weight(b[j])) return weight(a[i]) < weight(b[j]) ? -1 : 1;
    ++i;
    ++j;
  }
}

}  // namespace detail

/// JavaScript's `a.localeCompare(b)` without a locale (ICU root, tertiary strength), as
/// -1, 0 or 1, approximated: NFD, then the primary level (ICU's groups: spaces,
/// punctuation, symbols, currency, digits, letters; ASCII in ICU's exact order, Latin
/// letters with their diacritics folded, the other scripts by code point), the secondary
/// level (diacritics, in ICU's order for U+0300..U+036F) and the tertiary level (lower
/// case first). Equal strings at all three levels compare 0, as in JavaScript.
inline int locale_compare(std::string_view a, std::string_view b) {
  const auto x = detail::collation_elements(a);
  const auto y = detail::collation_elements(b);
  if (int c = detail::compare_level(x, y, [](const auto& e) { return e.primary; })) return c;
  if (int c = detail::compare_level(x, y, [](const auto& e) { return e.secondary; })) return c;
  return detail::compare_level(x, y, [](const auto& e) { return e.tertiary; });
}

/// `locale_compare(a, b) < 0`: a strict weak order for std::stable_sort, which keeps
/// strings that compare 0 in their input order as JavaScript's stable sort does.
inline bool locale_less(std::string_view a, std::string_view b) { return locale_compare(a, b) < 0; }

}  // namespace unicode
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
