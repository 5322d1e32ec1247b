// SPDX-License-Identifier: MIT
// RFC 3339 formatting (chrono's to_rfc3339 shape) and SOURCE_DATE_EPOCH parsing.
#include "support/test.hpp"

#include <chrono>
#include <cstdlib>
#include <string>

using clawport::format_rfc3339;
using clawport::parse_source_date_epoch;
using clawport::timestamp;

TEST_CASE("time: RFC 3339 UTC with a +00:00 offset and 0/3/6/9 fraction digits") {
  CHECK(format_rfc3339({0, 0}) == "1970-01-01T00:00:00+00:00");
  CHECK(format_rfc3339({1786408000, 0}) == "2026-08-11T00:26:40+00:00");
  CHECK(format_rfc3339({1786493040, 123456789}) == "2026-08-12T00:04:00.123456789+00:00");
  CHECK(format_rfc3339({1786493040, 120000000}) == "2026-08-12T00:04:00.120+00:00");
  CHECK(format_rfc3339({1786493040, 123456000}) == "2026-08-12T00:04:00.123456+00:00");
  CHECK(format_rfc3339({951782400, 0}) == "2000-02-29T00:00:00+00:00");  // leap day
  CHECK(format_rfc3339({253402300799, 0}) == "9999-12-31T23:59:59+00:00");
  CHECK(format_rfc3339({-1, 0}) == "1969-12-31T23:59:59+00:00");
  CHECK_THROWS_AS(format_rfc3339({253402300800, 0}), clawport::error);
  CHECK_THROWS_AS(format_rfc3339({0, 1000000000u}), clawport::error);
}

TEST_CASE("time: from_time_point keeps nanoseconds and floors negative instants") {
  using namespace std::chrono;
  const auto tp = system_clock::time_point(
      duration_cast<system_clock::duration>(seconds(1786493040) + milliseconds(5)));
  CHECK(clawport::from_time_point(tp) == timestamp{1786493040, 5000000});
}

TEST_CASE("time: SOURCE_DATE_EPOCH is a plain decimal count of seconds") {
  CHECK_FALSE(parse_source_date_epoch(nullptr).has_value());
  CHECK_FALSE(parse_source_date_epoch("").has_value());
  CHECK(*parse_source_date_epoch("0") == timestamp{0, 0});
  CHECK(*parse_source_date_epoch("1786408000") == timestamp{1786408000, 0});
  for (const char* bad : {"-1", "12a", " 1", "1.5", "1e9", "99999999999999999999999"}) {
    try {
      (void)parse_source_date_epoch(bad);
      FAIL("accepted ", bad);
    } catch (const clawport::error& e) {
      CHECK(e.code() == clawport::errc::invalid_argument);
      CHECK(e.subject() == "SOURCE_DATE_EPOCH");
    }
  }
}

TEST_CASE("time: format_rfc3339_seconds drops the fraction (the claws ledger's times)") {
  CHECK(clawport::format_rfc3339_seconds({1700000000, 123456789}) == "2023-11-14T22:13:20+00:00");
  CHECK(clawport::format_rfc3339({1700000000, 123456789}) == "2023-11-14T22:13:20.123456789+00:00");
}
