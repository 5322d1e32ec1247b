// SPDX-License-Identifier: MIT
// The linear-time regex engine (formats/regex.hpp; its one user is TEST.sh): checked against
// std::regex on random patterns and against Rust's documented syntax, and bounded.
#include "support/test.hpp"

#include <random>
#include <regex>
#include <string>

namespace {

// A random pattern of the syntax that Rust's regex and ECMAScript agree on.
std::string random_pattern(std::mt19937& rng, int depth) {
  switch (rng() % (depth > 3 ? 4u : 9u)) {
    case 0:
      return "a";
    case 1:
      return "b";
    case 2:
      return ".";
    case 3:
      return "[ab]";
    case 4:
      return random_pattern(rng, depth + 1) + random_pattern(rng, depth + 1);
    case 5:
      return "(" + random_pattern(rng, depth + 1) + "|" + random_pattern(rng, depth + 1) + ")";
    case 6: {
      static const char* const quantifiers[] = {"*", "+", "?", "{2}", "{1,2}", "{0,}", "*?"};
      return "(" + random_pattern(rng, depth + 1) + ")" + quantifiers[rng() % 7];
    }
    case 7:
      return "[^a]";
    default:
      return rng() % 2 ? "^" : "$";
  }
}

}  // namespace

TEST_CASE("regex: the same matches as std::regex on 4,000 random patterns over short texts") {
  std::mt19937 rng(20261201);
  int compared = 0;
  for (int t = 0; t < 4000; ++t) {
    const std::string pattern = random_pattern(rng, 0);
    const std::regex oracle(pattern, std::regex::ECMAScript);
    const auto compiled = clawport::regex::compile(pattern);
    REQUIRE_MESSAGE(compiled.has_value(), pattern);
    for (int j = 0; j < 8; ++j) {
      std::string text;
      for (unsigned i = 0, n = rng() % 8; i < n; ++i) text += "abc"[rng() % 3];
      INFO("/", pattern, "/ on '", text, "'");
      CHECK(clawport::regex::search(*compiled, text) == std::regex_search(text, oracle));
      ++compared;
    }
  }
  CHECK(compared == 32000);
}

TEST_CASE("regex: Rust's syntax: escapes, classes, flags, anchors, groups") {
  struct row {
    const char* pattern;
    const char* text;
    bool match;
  };
  const row rows[] = {
      {R"(\bfoo\b)", "a foo b", true},
      {R"(\bfoo\b)", "afoob", false},
      {R"(\Boo)", "foo", true},
      {"(?i)HELLO", "say hello", true},
      {"(?i:H)ello", "hello", true},
      {"(?i)h(?-i)ELLO", "Hello", false},
      {"^ok$", "ok\n", false},
      {"(?m)^ok$", "x\nok\ny", true},
      {R"(\d{3}-\d{4})", "call 555-1234", true},
      {"[[:upper:]]+", "abc", false},
      {"[[:^digit:]]", "123", false},
      {R"(caf\x{e9})", "caf\xc3\xa9", true},
      {R"(\u00e9)", "\xc3\xa9", true},
      {"\xc3\xa9+$", "\xc3\xa9\xc3\xa9", true},
      {"^.$", "\xc3\xa9", true},
      {"x*", "", true},
      {"(?s).", "\n", true},
      {".", "\n", false},
      {R"([^\n])", "\n", false},
      {R"(\Aab\z)", "ab", true},
      {"(?P<name>a)b", "ab", true},
      {"(?<name>a)b", "ab", true},
      {"a|", "zz", true},
      {R"(\.\*)", "a.*", true},
      {"[a-c]{2,}", "xbcx", true},
      {R"([\w-]+@)", "a-b@", true},
      {R"(\S+\s\S+)", "ab  cd", false},
      {"[]a]", "]", true},
      {"(a*)*b", "aaab", true},
      {"a{0}b", "b", true},
      {"a**b", "b", true},
      {"x{2}{3}", "xxxxx", false},
  };
  for (const auto& r : rows) {
    INFO("/", r.pattern, "/ on '", r.text, "'");
    const auto m = clawport::regex::matches(r.pattern, r.text);
    REQUIRE(m.has_value());
    CHECK(*m == r.match);
  }
}

TEST_CASE("regex: what Rust refuses is not a regex (the caller falls back to a substring)") {
  for (const char* p :
       {"(?=a)", "(?!a)", "(?<=a)", R"(\1)", "a{2,1}", R"(\p{L})", "[a-z&&b]", "[[a]]", "(?x)a",
        "(", ")", "[a", "*a", "a{", "a{,2}", R"(\q)", R"(\x{110000})", R"(\x{d800})", "(?P<>a)"}) {
    INFO(p);
    CHECK_FALSE(clawport::regex::compile(p).has_value());
  }
}

TEST_CASE(
    "regex: bounded: deep nesting and huge programs are refused; 64 KiB texts never recurse") {
  std::string deep;
  for (std::size_t i = 0; i < clawport::regex::max_nesting + 1; ++i) deep += "(";
  deep += "a";
  for (std::size_t i = 0; i < clawport::regex::max_nesting + 1; ++i) deep += ")";
  CHECK_FALSE(clawport::regex::compile(deep).has_value());
  CHECK(clawport::regex::compile(deep.substr(1, deep.size() - 2)).has_value());
  CHECK_FALSE(clawport::regex::compile("a{1025}").has_value());
  CHECK_FALSE(clawport::regex::compile("((a{32}){32}){32}").has_value());
  CHECK(clawport::regex::compile("(((){1000}){1000}){1000}").has_value());  // empty: no work
  // Stacked quantifiers are levels too (test_script_fuzz: `^o` and 48 `*` took 2^48 steps).
  CHECK(clawport::regex::compile("o" + std::string(clawport::regex::max_nesting, '*')).has_value());
  CHECK_FALSE(clawport::regex::compile("o" + std::string(clawport::regex::max_nesting + 1, '*'))
                  .has_value());
  CHECK(*clawport::regex::matches("^o" + std::string(48, '*') + "k", "ook"));
  // libstdc++'s std::regex overflows its stack on these (one frame per character).
  const std::string big(64 * 1024, 'a');
  CHECK_FALSE(*clawport::regex::matches(".*x", big));
  CHECK_FALSE(*clawport::regex::matches("(a|a)*b", big));
  CHECK(*clawport::regex::matches("(a|b)*$", big));
}
