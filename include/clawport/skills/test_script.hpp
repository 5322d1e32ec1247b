// SPDX-License-Identifier: MIT
// A skill's TEST.sh (docs/cli.md, `skills test`): one test per line, `cmd | exit | pattern`.
// Pure: parsing the script, matching a command's output, judging one run and rendering
// the summary take text and return data. Running the commands is skills/test_runner.hpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../core/paths.hpp"
#include "../core/text.hpp"
#include "../formats/regex.hpp"
#include "text.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// The file a skill's tests live in, at the skill's root.
inline constexpr std::string_view test_file_name = "TEST.sh";

/// Output longer than this is cut (at a character boundary) when a failure is shown.
inline constexpr std::size_t test_output_shown_bytes = 200;

/// Only this much of a command's output takes part in the pattern match (regex matching
/// of unbounded output is unbounded work).
inline constexpr std::size_t test_output_matched_bytes = 64 * 1024;

/// One line of TEST.sh.
struct test_case {
  std::string command;
  int expected_exit = 0;
  std::string pattern;   ///< empty matches anything
  std::size_t line = 0;  ///< 1-based line in TEST.sh
};

namespace detail {

/// Rust's `str::parse::<i32>` after trimming: optional sign, decimal digits, in range.
inline std::optional<int> parse_i32(std::string_view s) {
  s = text::trim(s);
  if (s.empty()) return std::nullopt;
  bool negative = false;
  if (s.front() == '+' || s.front() == '-') {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  long long v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
    if (v > 2147483648LL) return std::nullopt;
  }
  if (negative) v = -v;
  if (v > 2147483647LL || v < -2147483648LL) return std::nullopt;
  return static_cast<int>(v);
}

inline std::vector<std::string_view> split_all(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> out;
  while (true) {
    const std::size_t at = s.find(sep);
    if (at == std::string_view::npos) {
      out.push_back(s);
      return out;
    }
    out.push_back(s.substr(0, at));
    s.remove_prefix(at + sep.size());
  }
}

}  // namespace detail

/// Parses one TEST.sh line (upstream `parse_test_line`). Blank lines and `#` comments are
/// not tests. The line is split on ` | ` (so a shell pipe without spaces stays in the
/// command); the pattern is everything after the second separator, rejoined. With fewer
/// than two ` | `, a split on the first two bare `|` is tried. A non-integer exit code,
/// or fewer than three parts, makes the line no test (nullopt).
inline std::optional<test_case> parse_test_line(std::string_view line) {
  const std::string_view t = text::trim(line);
  if (t.empty() || t.front() == '#') return std::nullopt;
  std::vector<std::string_view> parts = detail::split_all(t, " | ");
  test_case c;
  if (parts.size() < 3) {
    const std::size_t a = t.find('|');
    if (a == std::string_view::npos) return std::nullopt;
    const std::size_t b = t.find('|', a + 1);
    if (b == std::string_view::npos) return std::nullopt;
    const auto exit = detail::parse_i32(t.substr(a + 1, b - a - 1));
    if (!exit) return std::nullopt;
    c.command = std::string(text::trim(t.substr(0, a)));
    c.expected_exit = *exit;
    c.pattern = std::string(text::trim(t.substr(b + 1)));
    return c;
  }
  const auto exit = detail::parse_i32(parts[1]);
  if (!exit) return std::nullopt;
  c.command = std::string(text::trim(parts[0]));
  c.expected_exit = *exit;
  std::string pattern;
  for (std::size_t i = 2; i < parts.size(); ++i) {
    if (i > 2) pattern += " | ";
    pattern.append(parts[i].data(), parts[i].size());
  }
  c.pattern = std::string(text::trim(pattern));
  return c;
}

/// Every test of a TEST.sh text, in line order, each with its line number.
inline std::vector<test_case> parse_test_script(std::string_view text) {
  std::vector<test_case> out;
  std::size_t n = 0;
  for (const std::string_view line : detail::lines(text)) {
    ++n;
    if (auto c = parse_test_line(line)) {
      c->line = n;
      out.push_back(std::move(*c));
    }
  }
  return out;
}

/// Upstream `pattern_matches`: an empty pattern matches; otherwise a regex search (Rust's
/// `regex` syntax, run by the linear-time engine of formats/regex.hpp), and when the pattern is
/// not a regex or does not match, a plain substring test. Only the first
/// `test_output_matched_bytes` of `output` are searched.
inline bool pattern_matches(std::string_view output, std::string_view pattern) {
  if (pattern.empty()) return true;
  output = output.substr(0, test_output_matched_bytes);
  if (regex::matches(pattern, output).value_or(false)) return true;
  return output.find(pattern) != std::string_view::npos;
}

/// Upstream `truncate_output`: trimmed; at most `max` bytes cut back to a UTF-8 character
/// boundary with `...` appended when it was longer; newlines become spaces.
inline std::string truncate_output(std::string_view s, std::size_t max = test_output_shown_bytes) {
  const std::string_view t = text::trim(s);
  std::string out;
  std::size_t end = t.size();
  const bool cut = t.size() > max;
  if (cut) {
    end = max;
    while (end > 0 && (static_cast<unsigned char>(t[end]) & 0xc0) == 0x80) --end;
  }
  out.assign(t.data(), end);
  for (char& c : out) {
    if (c == '\n') c = ' ';
  }
  if (cut) out += "...";
  return out;
}

/// How one command ended, as a runner reports it.
struct command_outcome {
  int exit = -1;       ///< exit status; -1 when killed by a signal or never started
  std::string output;  ///< stdout then stderr (as upstream concatenates them)
  bool timed_out = false;
  std::string error;  ///< why it could not be started, if it was not
};

/// A test that did not pass (upstream `TestFailure`).
struct test_failure {
  std::string command;
  std::size_t line = 0;
  int expected_exit = 0;
  int actual_exit = -1;
  std::string expected_pattern;
  std::string actual_output;
  bool timed_out = false;
};

/// The tests of one skill (upstream `SkillTestResult`).
struct skill_test_result {
  std::string skill_name;  ///< the directory name
  std::string directory;   ///< as shown to the user
  std::string bundle;      ///< the bundle it lives in; empty for global or a path
  std::size_t tests_run = 0;
  std::size_t tests_passed = 0;
  std::vector<test_failure> failures;
  bool has_test_file = false;
};

/// Judges one run: nullopt when the exit status and the pattern both match.
inline std::optional<test_failure> judge(const test_case& c, const command_outcome& o) {
  const bool ok = !o.timed_out && o.error.empty() && o.exit == c.expected_exit &&
                  pattern_matches(o.output, c.pattern);
  if (ok) return std::nullopt;
  test_failure f;
  f.command = c.command;
  f.line = c.line;
  f.expected_exit = c.expected_exit;
  f.actual_exit = o.exit;
  f.expected_pattern = c.pattern;
  f.actual_output = o.error.empty() ? o.output : o.error;
  f.timed_out = o.timed_out;
  return f;
}

/// Totals across skills (upstream sums `tests_run` and `tests_passed`).
struct test_totals {
  std::size_t skills = 0;
  std::size_t run = 0;
  std::size_t passed = 0;
  std::size_t failed() const noexcept { return run - passed; }
};

inline test_totals aggregate(const std::vector<skill_test_result>& results) {
  test_totals t;
  t.skills = results.size();
  for (const skill_test_result& r : results) {
    t.run += r.tests_run;
    t.passed += r.tests_passed;
  }
  return t;
}

/// How a result names its skill: the directory name, as upstream prints it; with the
/// bundle (`bundle/name`, `global/name`) when the results come from several bundles, so
/// two skills of one name are told apart (issue 44 item 10).
inline std::string shown_name(const skill_test_result& r, bool several_bundles) {
  return several_bundles ? shown_skill(r.bundle, r.skill_name) : r.skill_name;
}

/// Whether `results` come from more than one bundle (the global directory counting as one).
inline bool from_several_bundles(const std::vector<skill_test_result>& results) {
  for (const skill_test_result& r : results)
    if (r.bundle != results.front().bundle) return true;
  return false;
}

/// The human summary (upstream `print_results`, without colours), with the pass and fail
/// marks `m`.
inline std::string render_test_results(const std::vector<skill_test_result>& results,
                                       const text::marks& m = {}) {
  // Every line through the one terminal-safe renderer: skill names, commands and their
  // output are not the user's (issue 41 item 2).
  text::terminal_lines line;
  if (results.empty()) {
    line("No skills with " + std::string(test_file_name) + " found.");
    return std::move(line.text);
  }
  line("");
  const bool several = from_several_bundles(results);
  for (const skill_test_result& r : results) {
    if (r.tests_run == 0) {
      line("  - " + shown_name(r, several) + " \u2014 no test cases");
      continue;
    }
    line("  " + std::string(r.failures.empty() ? m.ok : m.fail) + " " + shown_name(r, several) +
         " \u2014 " + std::to_string(r.tests_passed) + "/" + std::to_string(r.tests_run) +
         " passed");
    for (const test_failure& f : r.failures) {
      line("    command:  " + f.command);
      // file:line, as compilers print it, so an editor jumps to the failing test.
      if (f.line != 0) {
        const std::string file = r.directory.empty()
                                     ? std::string(test_file_name)
                                     : paths::join(r.directory, std::string(test_file_name));
        line("    at:       " + file + ":" + std::to_string(f.line));
      }
      line("    expected: exit=" + std::to_string(f.expected_exit) +
           ", pattern=" + f.expected_pattern);
      line("    actual:   exit=" + std::to_string(f.actual_exit) +
           (f.timed_out ? " (timed out)" : "") + ", output=" + truncate_output(f.actual_output));
      line("");
    }
  }
  const test_totals t = aggregate(results);
  line("");
  if (t.failed() == 0) {
    line("  " + std::string(m.ok) + " All " + std::to_string(t.run) + " test(s) passed across " +
         std::to_string(t.skills) + " skill(s).");
  } else {
    line("  " + std::string(m.fail) + " " + std::to_string(t.failed()) + " of " +
         std::to_string(t.run) + " test(s) failed across " + std::to_string(t.skills) +
         " skill(s).");
  }
  return std::move(line.text);
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
