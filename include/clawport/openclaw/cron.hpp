// SPDX-License-Identifier: MIT
// Time as OpenClaw's schemas check it: IANA zone names (the embedded tz list), cron
// expressions and duration strings. Pure functions on text.
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"
#include "../formats/tables/timezones.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

namespace detail {

inline bool ieq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (text::ascii_lower(a[k]) != text::ascii_lower(b[k])) return false;
  }
  return true;
}

}  // namespace detail

/// True for an IANA zone (or link) name of the embedded tz list, compared
/// case-insensitively as Intl.DateTimeFormat does.
inline bool is_timezone(std::string_view tz) {
  for (const char* z : timezone_data::names)
    if (detail::ieq(tz, z)) return true;
  return false;
}

namespace detail {

struct cron_field {
  int lo, hi;
  const char* const* names;  // lower-case names for lo.. (nullptr if none)
  int names_base;
};

inline bool parse_cron_number(std::string_view t, const cron_field& f, int& out) {
  if (t.empty()) return false;
  if (f.names != nullptr && t.size() == 3) {
    for (int k = 0; f.names[k] != nullptr; ++k) {
      if (ieq(t, f.names[k])) {
        out = f.names_base + k;
        return true;
      }
    }
  }
  int v = 0;
  for (const char c : t) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
    if (v > 1000) return false;
  }
  if (v < f.lo || v > f.hi) return false;
  out = v;
  return true;
}

/// Expands one cron field into the set of values it allows; false when malformed.
inline bool expand_cron_field(std::string_view text, const cron_field& f, std::vector<bool>& set) {
  set.assign(static_cast<std::size_t>(f.hi + 1), false);
  std::size_t from = 0;
  for (;;) {
    const std::size_t comma = text.find(',', from);
    std::string_view item =
        text.substr(from, comma == std::string_view::npos ? text.npos : comma - from);
    int step = 1;
    const std::size_t slash = item.find('/');
    if (slash != std::string_view::npos) {
      const std::string_view st = item.substr(slash + 1);
      if (st.empty()) return false;
      step = 0;
      for (const char c : st) {
        if (c < '0' || c > '9') return false;
        step = step * 10 + (c - '0');
        if (step > 1000) return false;
      }
      if (step == 0) return false;
      item = item.substr(0, slash);
    }
    int a = f.lo;
    int b = f.hi;
    if (item == "*" || item == "?") {
      // whole range
    } else {
      const std::size_t dash = item.find('-');
      if (dash != std::string_view::npos) {
        if (!parse_cron_number(item.substr(0, dash), f, a) ||
            !parse_cron_number(item.substr(dash + 1), f, b) || a > b) {
          return false;
        }
      } else {
        if (!parse_cron_number(item, f, a)) return false;
        b = slash != std::string_view::npos ? f.hi : a;
      }
    }
    for (int v = a; v <= b; v += step) set[static_cast<std::size_t>(v)] = true;
    if (comma == std::string_view::npos) break;
    from = comma + 1;
  }
  return true;
}

}  // namespace detail

/// A five-field cron expression that names a time that can occur (minute hour
/// day-of-month month day-of-week; `*`, `?`, lists, ranges, steps, month and weekday
/// names; 7 is Sunday; day-of-month and day-of-week OR-ed when both are restricted), with
/// a known time zone.
inline bool is_valid_cron(std::string_view expr, std::string_view tz) {
  if (!is_timezone(tz)) return false;
  std::vector<std::string_view> fields;
  std::size_t k = 0;
  while (k < expr.size()) {
    while (k < expr.size() && (expr[k] == ' ' || expr[k] == '\t')) ++k;
    if (k >= expr.size()) break;
    const std::size_t from = k;
    while (k < expr.size() && expr[k] != ' ' && expr[k] != '\t') ++k;
    fields.push_back(expr.substr(from, k - from));
  }
  if (fields.size() != 5) return false;
  static const char* const months[] = {"jan", "feb", "mar", "apr", "may", "jun",  "jul",
                                       "aug", "sep", "oct", "nov", "dec", nullptr};
  static const char* const days[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat", nullptr};
  const detail::cron_field spec[5] = {{0, 59, nullptr, 0},
                                      {0, 23, nullptr, 0},
                                      {1, 31, nullptr, 0},
                                      {1, 12, months, 1},
                                      {0, 7, days, 0}};
  std::vector<bool> sets[5];
  for (int f = 0; f < 5; ++f)
    if (!detail::expand_cron_field(fields[static_cast<std::size_t>(f)], spec[f], sets[f]))
      return false;
  const bool dom_star = fields[2] == "*" || fields[2] == "?";
  const bool dow_star = fields[4] == "*" || fields[4] == "?";
  bool any_dow = false;
  for (int d = 0; d <= 7; ++d) any_dow = any_dow || sets[4][static_cast<std::size_t>(d)];
  if (!dow_star && !dom_star && any_dow) return true;  // OR-ed: a weekday always recurs
  if (dom_star) return any_dow || dow_star;
  static const int max_day[13] = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  for (int m = 1; m <= 12; ++m) {
    if (!sets[3][static_cast<std::size_t>(m)]) continue;
    for (int d = 1; d <= max_day[m]; ++d)
      if (sets[2][static_cast<std::size_t>(d)]) return true;
  }
  return false;
}

/// OpenClaw's heartbeat duration: `\d+(\.\d+)?` with unit ms|s|m|h|d (bare = minutes), or
/// a composite like `1h30m`; the result must be a safe integer of milliseconds.
inline bool parse_duration_ms(std::string_view s, double& ms) {
  if (s.empty()) return false;
  double total = 0;
  std::size_t k = 0;
  int parts = 0;
  bool bare = false;
  while (k < s.size()) {
    const std::size_t from = k;
    while (k < s.size() && s[k] >= '0' && s[k] <= '9') ++k;
    if (k == from) return false;
    if (k < s.size() && s[k] == '.') {
      ++k;
      const std::size_t f2 = k;
      while (k < s.size() && s[k] >= '0' && s[k] <= '9') ++k;
      if (k == f2) return false;
    }
    const double n = std::strtod(std::string(s.substr(from, k - from)).c_str(), nullptr);
    double unit = 0;
    if (s.compare(k, 2, "ms") == 0) {
      unit = 1, k += 2;
    } else if (k < s.size() && s[k] == 's') {
      unit = 1000, ++k;
    } else if (k < s.size() && s[k] == 'm') {
      unit = 60000, ++k;
    } else if (k < s.size() && s[k] == 'h') {
      unit = 3600000, ++k;
    } else if (k < s.size() && s[k] == 'd') {
      unit = 86400000, ++k;
    } else if (k == s.size() && parts == 0) {
      unit = 60000, bare = true;
    } else {
      return false;
    }
    total += n * unit;
    ++parts;
  }
  (void)bare;
  if (!std::isfinite(total) || total != std::floor(total) || total > 9007199254740991.0) {
    return false;
  }
  ms = total;
  return true;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
