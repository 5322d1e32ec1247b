// SPDX-License-Identifier: MIT
// The one UTF-8 decoder and encoder (core/utf8.hpp): every length class round-trips, and the
// strict decoder refuses what the encoder never writes; the one JSON/TOML string escaper
// (core/text.hpp) in both of its styles; the one renderer of a command line to paste.
#include "support/test.hpp"

#include "fs/fixture.hpp"

#include <chrono>
#include <string>
#include <vector>

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

TEST_CASE("text: shell_word quotes as is, in single quotes, or in the inert $'...' form") {
  // Issue 41 item 1: a word a person pastes into a shell.
  namespace text = clawport::text;
  CHECK(text::shell_word("providers.models.a.api_key") == "providers.models.a.api_key");
  CHECK(text::shell_word("") == "''");
  CHECK(text::shell_word("a b") == "'a b'");
  CHECK(text::shell_word("$(touch pwned)") == "'$(touch pwned)'");
  CHECK(text::shell_word("a\\b") == "'a\\b'");
  CHECK(text::shell_word("x!y") == "'x!y'");
  CHECK(text::shell_word("=cmd") == "'=cmd'");  // zsh expands a leading `=`
  CHECK(text::shell_word("\xc3\xa9") == "'\xc3\xa9'");
  // A quote, a control, a byte that is not UTF-8, a bidi override: $'...' with \xHH.
  CHECK(text::shell_word("it's") == "$'it\\x27s'");
  CHECK(text::shell_word("\\'") == "$'\\\\\\x27'");
  CHECK(text::shell_word("a\nb\rc\x1b[2K") == "$'a\\x0ab\\x0dc\\x1b[2K'");
  CHECK(text::shell_word("\xff!\x7f") == "$'\\xff\\x21\\x7f'");
  CHECK(text::shell_word("\xe2\x80\xae") == "$'\\xe2\\x80\\xae'");
  CHECK(text::paste_command({"clawport", "secrets", "set", "a'b", "--config", "/x y"}).str() ==
        "clawport secrets set $'a\\x27b' --config '/x y'");
}

TEST_CASE("text: a pasted command line runs nothing and gives back each word, escaped or not") {
  // Issue 41 item 1, in bash itself: each word as the command's argv, nothing run; the line
  // shown through terminal_lines is the line itself; escaped again (inside an error
  // message) it still runs nothing and is still one word per word.
  namespace text = clawport::text;
  namespace proc = clawport::process;
  clawport::testing::posix_fixture f;
  const std::vector<std::string> hostile = {
      "plain",    "",         "a b",  "it's",          "'$(touch pwned)'", "`touch pwned`",
      "a\\b",     "\\'",      "a\nb", "\x1b[2K\rfake", "\xff\xfe",         "\xe2\x80\xae",
      "x!y$HOME", "\xc3\xa9", "=cmd", "a\x7f"};
  const proc::posix_runner runner({"PATH=/usr/bin:/bin", "HOME=/nowhere"});
  const auto argv_of = [&](const std::string& line) {
    proc::request r;
    r.argv = {"/bin/bash", "-c", "f() { printf '%s\\0' \"$@\"; }; f " + line};
    r.cwd = f.root_path();
    r.timeout = std::chrono::milliseconds(20000);
    const proc::outcome o = runner.run(r);
    REQUIRE(o.error.empty());
    CHECK(o.exit == 0);
    std::vector<std::string> words;
    for (std::size_t at = 0; at < o.out.size();) {
      const std::size_t nul = o.out.find('\0', at);
      words.push_back(o.out.substr(at, nul - at));
      at = nul + 1;
    }
    return words;
  };
  for (const std::string& w : hostile) {
    CAPTURE(w);
    const text::command_line line = text::paste_command({w, "end"});
    text::terminal_lines shown;
    shown("", line);
    CHECK(shown.text == line.str() + "\n");
    CHECK(argv_of(line.str()) == std::vector<std::string>{w, "end"});
    CHECK(argv_of(text::escape_for_terminal(line.str())).size() == 2);
    CHECK_FALSE(f.exists("pwned"));
  }
}

// Two trims, each with its runtime's rule. Rust's str::trim (ZeroClaw) as printed by rustc
// 1.x for these inputs: NBSP and NEL trimmed, U+FEFF kept. JavaScript's String.prototype.trim
// (OpenClaw): NEL kept, U+FEFF trimmed.
TEST_CASE("text: trim is Rust's str::trim and js_trim is JavaScript's trim") {
  namespace text = clawport::text;
  CHECK(text::trim("\xc2\xa0x\xc2\xa0") == "x");
  CHECK(text::trim("\xc2\x85x\xc2\x85") == "x");
  CHECK(text::trim("\xef\xbb\xbfx\xef\xbb\xbf") == "\xef\xbb\xbfx\xef\xbb\xbf");
  CHECK(text::trim("\xe3\x80\x80x\xe2\x80\xa8") == "x");
  CHECK(text::trim("\vx\f") == "x");
  CHECK(text::trim("\xc2\xa0").empty());
  CHECK(text::js_trim("\xc2\xa0x\xc2\xa0") == "x");
  CHECK(text::js_trim("\xc2\x85x\xc2\x85") == "\xc2\x85x\xc2\x85");
  CHECK(text::js_trim("\xef\xbb\xbfx\xef\xbb\xbf") == "x");
  CHECK(text::js_trim(" \t\xe3\x80\x80 ").empty());
  CHECK(text::js_trim("\xff x\xa0") == "\xff x\xa0");  // bytes that are not UTF-8 stay
}

TEST_CASE("text: debug_quoted is Rust's {:?} of a string") {
  CHECK(clawport::text::debug_quoted("a\"b\\c\n\r\t\x01\x7f\xc3\xa9") ==
        "\"a\\\"b\\\\c\\n\\r\\t\\u{1}\\u{7f}\xc3\xa9\"");
}
