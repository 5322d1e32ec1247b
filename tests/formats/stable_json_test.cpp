// SPDX-License-Identifier: MIT
// stableStringify and JavaScript's number and string layout (formats/stable_json.hpp): the
// planIntegrity vectors 1 and 2 of openclaw-claws.md §5.5 (vector 3, the add plan, is
// tests/openclaw/schema_test.cpp's), number layout and UTF-16 key order; and the counterpart
// of upstream's `packages/normalization-core/src/stable-stringify.test.ts` (openclaw/openclaw
// at 60a54f0b), in our own words, for the values JSON data can hold.
#include "support/test.hpp"

#include <cmath>
#include <limits>
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

// Not ported from stable-stringify.test.ts, as clawport's stableStringify takes JSON data
// (nlohmann values), not arbitrary JavaScript objects: circular references, Date, RegExp,
// Set, Map, Uint8Array, Error and BigInt members, getters, the optional `normalizeString`
// hook and the streaming `writeStableStringify` twin. Lone UTF-16 surrogates cannot occur in
// the UTF-8 strings clawport holds, so the surrogate cases and the `\ud800` of the hashing
// case are left out too.
TEST_SUITE("stable-stringify.test.ts") {
  TEST_CASE("preserves parsed JSON values and sorts keys recursively") {
    const value v = value::parse(R"({"items":[3,null,{"z":false,"a":1.5}],"enabled":true})");
    CHECK(clawport::json::stable_stringify(v) ==
          R"({"enabled":true,"items":[3,null,{"a":1.5,"z":false}]})");
    // Valid non-ASCII text passes through unescaped (the "valid" member of upstream's
    // normalization case).
    CHECK(clawport::json::stable_stringify(value::parse(R"({"valid":"emoji \ud83d\ude48 ok"})")) ==
          "{\"valid\":\"emoji \xF0\x9F\x99\x88 ok\"}");
  }

  TEST_CASE("serializes cache-trace edge types deterministically (the JSON-expressible ones)") {
    value v = value::object();
    v["undef"] = clawport::json::undefined_value();
    v["nil"] = nullptr;
    v["nan"] = std::numeric_limits<double>::quiet_NaN();
    v["infinity"] = std::numeric_limits<double>::infinity();
    v["finite"] = 1;
    CHECK(clawport::json::stable_stringify(v) ==
          R"({"finite":1,"infinity":"Infinity","nan":"NaN","nil":null,"undef":undefined})");
  }

  TEST_CASE("counts complete Unicode text with 1 and 20000 repetitions") {
    const std::string unit =
        "\xF0\x9F\xA6\x9E\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E";  // 🦞日本語
    for (const std::size_t count : {std::size_t{1}, std::size_t{20000}}) {
      std::string text;
      for (std::size_t k = 0; k < count; ++k) text += unit;
      value v = value::object();
      v["z"] = value::array({text, clawport::json::undefined_value()});
      v["a"] = text;
      const std::string quoted = "\"" + text + "\"";
      const std::string expected = "{\"a\":" + quoted + ",\"z\":[" + quoted + ",undefined]}";
      const std::string out = clawport::json::stable_stringify(v);
      CHECK(out == expected);
      CHECK(out.size() == 26 * count + 27);  // the byte weight: UTF-8 bytes, not code units
    }
  }
}
