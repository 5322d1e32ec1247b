// SPDX-License-Identifier: MIT
// libFuzzer target for the TEST.sh line parser and the output pattern match: the input as a
// TEST.sh text, its first line as one line, and each parsed test's pattern matched against
// the rest of the input. Properties: every test of the script is a line parse_test_line
// parses alike, with its 1-based line number, a trimmed command that is not empty and not a
// comment; the pattern match never throws, accepts every regex match and every substring,
// and an empty pattern always matches; the shown
// output is at most the cut plus `...` and holds no newline.
#include <clawport/skills.hpp>

#include "common.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace sk = clawport::skills;
  using clawport_fuzz::check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto [line, rest] = clawport_fuzz::first_line(text);

  const auto one = sk::parse_test_line(line);
  const auto all = sk::parse_test_script(text);
  if (one) {
    check(!all.empty() && all.front().line == 1, "the first line's test is the script's first");
    check(all.front().command == one->command && all.front().pattern == one->pattern &&
              all.front().expected_exit == one->expected_exit,
          "the script parses its first line as the line parser does");
  }
  std::size_t last = 0;
  for (const sk::test_case& c : all) {
    check(c.line > last, "tests come in line order");
    last = c.line;
    check(c.command.empty() || c.command.front() != '#', "a comment is no test");
    // The pattern is matched as the runner does, against the whole rest of the input: the
    // engine is linear-time and never recurses while matching (docs/security.md, finding 6).
    const bool matched = sk::pattern_matches(rest, c.pattern);
    if (const auto compiled = clawport::regex::compile(c.pattern))
      check(matched || !clawport::regex::search(*compiled, rest), "a regex match is a match");
    check(matched || rest.find(c.pattern) == std::string_view::npos, "a substring matches");
  }
  check(sk::pattern_matches(rest, ""), "an empty pattern matches");
  const std::string shown = sk::truncate_output(rest);
  check(shown.size() <= sk::test_output_shown_bytes + 3, "the shown output is cut");
  check(shown.find('\n') == std::string::npos, "the shown output is one line");
  return 0;
}
