// SPDX-License-Identifier: MIT
// The one UTF-8 decoder and encoder (core/utf8.hpp): every length class round-trips, and the
// strict decoder refuses what the encoder never writes; the one JSON/TOML string escaper
// (core/text.hpp) in both of its styles.
#include "support/test.hpp"

#include <string>

namespace utf8 = clawport::utf8;

TEST_CASE("utf8: append writes each length class and decode_at reads it back") {
  for (const char32_t cp : {U'\0', U'A', U'\x7f', U'\x80', U'\xe9', U'\x7ff', U'\x800', U'\xffff',
                            U'\U00010000', U'\U0001F600', U'\U0010FFFF'}) {
    std::string s;
    utf8::append(s, cp);
    const std::size_t want = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    CHECK(s.size() == want);
    const utf8::decoded d = utf8::decode_at(s, 0);
    CHECK(d.length == want);
    CHECK(d.cp == cp);
    CHECK(utf8::valid(s));
  }
  std::string nbsp;
  utf8::append(nbsp, 0xA0);
  CHECK(nbsp == "\xc2\xa0");
}

TEST_CASE("utf8: overlongs, surrogates and values past U+10FFFF are not UTF-8") {
  CHECK_FALSE(utf8::valid("\xc0\x80"));          // overlong NUL
  CHECK_FALSE(utf8::valid("\xe0\x80\xaf"));      // overlong '/'
  CHECK_FALSE(utf8::valid("\xed\xa0\x80"));      // U+D800
  CHECK_FALSE(utf8::valid("\xf4\x90\x80\x80"));  // U+110000
  CHECK_FALSE(utf8::valid("\xe2\x82"));          // truncated
  CHECK(utf8::decode_at("\xff", 0).length == 0);
}

TEST_CASE("text: quote_basic escapes as JSON.stringify and as a TOML basic string") {
  namespace text = clawport::text;
  const std::string in = std::string("a\"b\\c\b\f\n\r\t") + '\x01' + '\x1f' + '\x7f' + "\xc3\xa9";
  CHECK(text::quote_basic(in, text::json_quote_style) ==
        "\"a\\\"b\\\\c\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\xc3\xa9\"");
  CHECK(text::quote_basic(in, text::toml_quote_style) ==
        "\"a\\\"b\\\\c\\b\\f\\n\\r\\t\\u0001\\u001F\\u007F\xc3\xa9\"");
  CHECK(text::quote_basic("", text::json_quote_style) == "\"\"");
}
