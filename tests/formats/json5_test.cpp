// SPDX-License-Identifier: MIT
// The JSON5 reader (formats/json5.hpp): JSON5 into JSON data, what it refuses and where.
#include "support/test.hpp"

#include <string>

TEST_SUITE("formats.json5") {
  TEST_CASE("reads JSON5 into JSON data") {
    const auto r = clawport::json5::parse(
        "// config\n{agents: {entries: {'main': {workspace: \"~/w\",},},}, n: +0x10, f: .5, g: 5.,"
        " s: 'it\\'s', /* c */ m: \"a\\\nb\"}");
    REQUIRE(r.ok());
    CHECK(clawport::json::stable_stringify(r.data) ==
          "{\"agents\":{\"entries\":{\"main\":{\"workspace\":\"~/"
          "w\"}}},\"f\":0.5,\"g\":5,\"m\":\"ab\",\"n\":16,"
          "\"s\":\"it's\"}");
  }

  TEST_CASE("refuses what JSON5 or JSON data does not allow") {
    for (const char* bad : {"{a: 1, a: 2}", "{a: Infinity}", "{a: NaN}", "{a: 01}", "{a: 1",
                            "[1,,2]", "{a: 'x\ny'}", "{a: \"\\1\"}", "{} x", "{a: /* open"}) {
      INFO(bad);
      CHECK_FALSE(clawport::json5::parse(bad).ok());
    }
    const auto r = clawport::json5::parse("{\n  a: 1,\n  a: 2\n}");
    CHECK(r.line == 3);
    CHECK(r.column == 3);
  }

  TEST_CASE("refusals of the whole text name the first offending byte (found by json5_fuzz)") {
    const auto not_utf8 = clawport::json5::parse("{\n  a: 'caf\xc3',\n}");
    REQUIRE_FALSE(not_utf8.ok());
    CHECK(*not_utf8.error == "the text is not valid UTF-8");
    CHECK(not_utf8.line == 2);
    CHECK(not_utf8.column == 10);
    clawport::json5::options small;
    small.max_bytes = 8;
    const auto too_large = clawport::json5::parse("{a: 1,\n b: 2}", small);
    REQUIRE_FALSE(too_large.ok());
    CHECK(too_large.line == 2);
    CHECK(too_large.column == 2);
  }
}
