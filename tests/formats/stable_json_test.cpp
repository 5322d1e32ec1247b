// SPDX-License-Identifier: MIT
// stableStringify and JavaScript's number and string layout (formats/stable_json.hpp): the
// planIntegrity vectors 1 and 2 of openclaw-claws.md §5.5 (vector 3, the add plan, is
// tests/openclaw/schema_test.cpp's), number layout and UTF-16 key order.
#include "support/test.hpp"

#include <cmath>
#include <string>

namespace {
using value = nlohmann::ordered_json;
}  // namespace

TEST_SUITE("formats.stable_json") {
  TEST_CASE("planIntegrity vector 1: key order, numbers and string escapes") {
    const value v = value::parse(R"({"b":1,"a":[true,null,"x"],"c":{"z":"é\u0001\"","y":1.5}})");
    CHECK(clawport::json::stable_stringify(v) ==
          "{\"a\":[true,null,\"x\"],\"b\":1,\"c\":{\"y\":1.5,\"z\":\"é\\u0001\\\"\"}}");
    CHECK(clawport::digest::sha256_prefixed(clawport::json::stable_stringify(v)) ==
          "sha256:2f796e7a66657d869aa0350a70a0de45668fe4d0df131851663e423842dc07b4");
  }

  TEST_CASE("planIntegrity vector 2: a present-but-undefined member") {
    value v = value::object();
    v["id"] = "skill:demo";
    v["digest"] = clawport::json::undefined_value();
    CHECK(clawport::json::stable_stringify(v) == "{\"digest\":undefined,\"id\":\"skill:demo\"}");
    CHECK(clawport::digest::sha256_prefixed(clawport::json::stable_stringify(v)) ==
          "sha256:f0464234178a240fa765338631f4f4cf888dda64c05977006e4167e2dce9912c");
    // JSON.stringify drops it.
    CHECK(clawport::json::js_stringify(v, 0).find("digest") == std::string::npos);
  }

  TEST_CASE("JavaScript number layout and UTF-16 key order") {
    CHECK(clawport::json::js_number(1.5) == "1.5");
    CHECK(clawport::json::js_number(1e21) == "1e+21");
    CHECK(clawport::json::js_number(1e20) == "100000000000000000000");
    CHECK(clawport::json::js_number(1e-7) == "1e-7");
    CHECK(clawport::json::js_number(0.000001) == "0.000001");
    CHECK(clawport::json::js_number(-0.0) == "0");
    CHECK(clawport::json::js_number(123.456) == "123.456");
    CHECK(clawport::json::js_number(0.1 + 0.2) == "0.30000000000000004");
    CHECK(clawport::json::stable_stringify(value(std::nan(""))) == "\"NaN\"");
    // U+FF21 (BMP, above the surrogates) sorts after U+1F600 (a surrogate pair) in UTF-16.
    value o = value::object();
    o["\xEF\xBC\xA1"] = 1;
    o["\xF0\x9F\x98\x80"] = 2;
    o["b"] = 3;
    o["B"] = 4;
    CHECK(clawport::json::stable_stringify(o) ==
          "{\"B\":4,\"b\":3,\"\xF0\x9F\x98\x80\":2,\"\xEF\xBC\xA1\":1}");
    CHECK(clawport::json::js_string("\t\x1f\x7f\xE2\x80\xA8") == "\"\\t\\u001f\x7f\xE2\x80\xA8\"");
  }
}
