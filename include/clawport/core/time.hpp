// SPDX-License-Identifier: MIT
// Timestamps as pure values: RFC 3339 formatting and SOURCE_DATE_EPOCH parsing, plus the
// one place that reads the wall clock (clock_now). The rule "SOURCE_DATE_EPOCH or now" is
// host_environment::now() (core/host.hpp): the edge gathers both once and the library
// takes the instant as a value, so two runs given the same value produce the same bytes.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "error.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

/// A UTC instant: seconds since the Unix epoch plus nanoseconds (0..999'999'999).
struct timestamp {
  std::int64_t seconds = 0;
  std::uint32_t nanoseconds = 0;
  friend bool operator==(const timestamp& a, const timestamp& b) noexcept {
    return a.seconds == b.seconds && a.nanoseconds == b.nanoseconds;
  }
};

/// The instant a system_clock time point names (truncated to nanoseconds).
inline timestamp from_time_point(std::chrono::system_clock::time_point tp) noexcept {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(tp.time_since_epoch());
  std::int64_t secs = ns.count() / 1'000'000'000;
  std::int64_t rem = ns.count() % 1'000'000'000;
  if (rem < 0) rem += 1'000'000'000, secs -= 1;
  return {secs, static_cast<std::uint32_t>(rem)};
}

/// RFC 3339 in UTC the way chrono's `to_rfc3339()` writes it: `+00:00` offset, and 0, 3,
/// 6 or 9 fraction digits (the fewest that are exact). Years outside 0000..9999 throw
/// errc::invalid_argument, since RFC 3339 cannot express them.
inline std::string format_rfc3339(const timestamp& t) {
  if (t.nanoseconds > 999'999'999u)
    throw error(errc::invalid_argument, "timestamp nanoseconds out of range");
  std::int64_t days = t.seconds / 86400;
  std::int64_t sod = t.seconds % 86400;
  if (sod < 0) sod += 86400, days -= 1;
  // civil_from_days (H. Hinnant's algorithm), proleptic Gregorian calendar.
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999)
    throw error(errc::invalid_argument,
                "timestamp year " + std::to_string(year) + " cannot be written in RFC 3339");
  const auto pad = [](std::int64_t v, int width) {
    std::string s = std::to_string(v);
    return std::string(static_cast<std::size_t>(width) - std::min<std::size_t>(s.size(), width),
                       '0') +
           s;
  };
  std::string out = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" +
                    pad(sod / 3600, 2) + ":" + pad(sod / 60 % 60, 2) + ":" + pad(sod % 60, 2);
  if (t.nanoseconds != 0) {
    if (t.nanoseconds % 1'000'000 == 0)
      out += "." + pad(t.nanoseconds / 1'000'000, 3);
    else if (t.nanoseconds % 1'000 == 0)
      out += "." + pad(t.nanoseconds / 1'000, 6);
    else
      out += "." + pad(t.nanoseconds, 9);
  }
  return out + "+00:00";
}

/// `format_rfc3339` in whole seconds (the fraction dropped): the OpenClaw claws ledger's
/// `installedAt`/`updatedAt`, which have always been written without one.
inline std::string format_rfc3339_seconds(timestamp t) {
  t.nanoseconds = 0;
  return format_rfc3339(t);
}

/// Parses the value of SOURCE_DATE_EPOCH (reproducible-builds.org): a decimal count of
/// seconds since the epoch, nothing else. An unset or empty value gives nullopt (use the
/// clock); anything malformed throws errc::invalid_argument rather than being ignored,
/// so a build that asked for reproducibility does not silently lose it.
inline std::optional<timestamp> parse_source_date_epoch(const char* env_value) {
  if (env_value == nullptr || *env_value == '\0') return std::nullopt;
  const std::string_view text(env_value);
  std::int64_t seconds = 0;
  for (const char c : text) {
    if (c < '0' || c > '9')
      throw error(errc::invalid_argument,
                  "SOURCE_DATE_EPOCH must be a decimal number of seconds since 1970-01-01 "
                  "UTC (got \"" +
                      std::string(text) + "\")",
                  "SOURCE_DATE_EPOCH");
    if (seconds > (253402300799 - (c - '0')) / 10)  // 9999-12-31T23:59:59Z
      throw error(errc::invalid_argument,
                  "SOURCE_DATE_EPOCH is past the year 9999 (got \"" + std::string(text) + "\")",
                  "SOURCE_DATE_EPOCH");
    seconds = seconds * 10 + (c - '0');
  }
  return timestamp{seconds, 0};
}

/// The system clock now, to the nanosecond: the one place clawport reads the wall clock.
inline timestamp clock_now() noexcept { return from_time_point(std::chrono::system_clock::now()); }

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
