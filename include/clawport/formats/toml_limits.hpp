// SPDX-License-Identifier: MIT
// Bounds on TOML input, checked on the text before toml++ builds a tree: toml++ (and every
// recursive conversion or destruction of its tree) recurses once per nesting level, and a
// 40 KB dotted key or table header of 20,000 components is 20,000 levels. The scan is
// linear and iterative; it never allocates per level.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace toml_adaptor {

/// The deepest nesting `check_depth` accepts: every component of a table header or dotted
/// key and every inline table or array counts one level.
inline constexpr std::size_t max_depth = CLAWPORT_MAX_TOML_DEPTH;

namespace detail {

/// The refusal every reader words the same way (export, dry run, `skills list`).
inline error too_deep(std::string_view subject, std::size_t line) {
  const std::string s(subject);
  return error(errc::limit_exceeded,
               s + ":" + std::to_string(line) + ": the TOML nests deeper than " +
                   std::to_string(max_depth) +
                   " levels (table header, dotted key, inline table or array components; "
                   "CLAWPORT_MAX_TOML_DEPTH), so it is not read",
               s);
}

/// errc::config_parse at byte `i` of `text` ("subject:line:column: what"), for the syntax
/// errors the scan finds before toml++ may see them.
inline error syntax_error(std::string_view text, std::size_t i, std::string_view subject,
                          std::size_t line, std::string_view what) {
  const std::size_t start = i == 0 ? std::string_view::npos : text.rfind('\n', i - 1);
  const std::size_t column = start == std::string_view::npos ? i + 1 : i - start;
  const std::string s(subject);
  return error(
      errc::config_parse,
      s + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + std::string(what), s);
}

/// A table header's key must start with a bare-key character or a quote. toml++ 3.3 only
/// asserts that (TOML_ASSERT_ASSUME in parse_key): `[:a]`, `[=]` or `[` before a line break
/// abort a debug build and are undefined behaviour under NDEBUG. `i` is just after the opening
/// `[` or `[[`; `]`, a second `[` after `[ ` and the end of the text are left to toml++,
/// which reports them.
inline void check_header_key(std::string_view text, std::size_t i, bool array,
                             std::string_view subject, std::size_t line) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  if (i >= text.size()) return;
  const char c = text[i];
  const bool bare = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
  if (bare || c == '"' || c == '\'' || c == ']' || (c == '[' && !array)) return;
  throw syntax_error(text, i, subject, line,
                     "a table header's key must start with a bare key character or a quote");
}

/// Outside strings and comments TOML is ASCII. toml++ 3.3 asks is_whitespace() of the
/// character after a key or before a value, and its is_non_ascii_horizontal_whitespace
/// reaches __builtin_unreachable for most of U+00A1-U+0499 (`aé = 1`, `[sillΔ]`, `a = é`):
/// undefined behaviour in every build. Refused here instead.
inline void check_ascii(std::string_view text, std::size_t i, std::string_view subject,
                        std::size_t line) {
  if (static_cast<unsigned char>(text[i]) < 0x80) return;
  throw syntax_error(text, i, subject, line,
                     "a character that is not ASCII outside a string or comment (quote the "
                     "key or the value)");
}

/// A quote opens a string only where a key or a value starts. Right after a bare key's or a
/// bare value's own characters it is invalid TOML, but toml++ 3.3 does not stop there: it
/// reads a bare value up to the next value terminator, quotes included, and reaches the
/// same undefined behaviour as check_ascii on a character that is not ASCII inside what this
/// scan would skip as a string (`a = 0"é"`, `a = -"é"`; found by closure_fuzz and
/// skill_frontmatter_fuzz). Refused here instead. `.` separates quoted key components
/// (`a."b"`), so it is bare only in a value.
inline void check_quote_start(std::string_view text, std::size_t i, bool key,
                              std::string_view subject, std::size_t line) {
  if (i == 0) return;
  const char c = text[i - 1];
  const bool bare = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || (!key && (c == '+' || c == '.' || c == ':'));
  if (!bare) return;
  throw syntax_error(text, i, subject, line,
                     key ? "a quote inside a bare key" : "a quote inside a bare value");
}

/// In a multi-line basic string toml++ 3.3 asks is_whitespace() of the character after a
/// backslash and, after a line-ending backslash, of the first character it does not skip:
/// the same undefined behaviour as check_ascii for most code points that are not ASCII
/// (`"""\é"""`, `"""\` + line break + `é"""`; found by skill_toml_fuzz). Only the second
/// is valid TOML; both are refused, with the escape to write instead. `i` is at the
/// backslash; nothing is consumed.
inline void check_after_backslash(std::string_view text, std::size_t i, std::string_view subject,
                                  std::size_t line) {
  const auto non_ascii = [&](std::size_t at) {
    return at < text.size() && static_cast<unsigned char>(text[at]) >= 0x80;
  };
  const auto space = [&](std::size_t at) {
    return at < text.size() && (text[at] == ' ' || text[at] == '\t');
  };
  const auto line_break = [&](std::size_t at) {
    return at < text.size() && (text[at] == '\n' || text[at] == '\r');
  };
  std::size_t k = i + 1;
  if (non_ascii(k)) {
    throw syntax_error(text, k, subject, line,
                       "a backslash before a character that is not ASCII in a multi-line "
                       "string (write the character as \\uXXXX)");
  }
  if (!space(k) && !line_break(k)) return;  // an ordinary escape: \n, \", \u00e9, ...
  while (space(k)) ++k;
  if (non_ascii(k)) {
    throw syntax_error(text, k, subject, line,
                       "a character that is not ASCII after a line-ending backslash");
  }
  while (space(k) || line_break(k)) {
    if (text[k] == '\n') ++line;
    ++k;
  }
  if (non_ascii(k)) {
    throw syntax_error(text, k, subject, line,
                       "a line continued by a line-ending backslash starts with a character "
                       "that is not ASCII, which toml++ 3.3 cannot read (write it as \\uXXXX)");
  }
}

/// A bare value (a number, boolean, date or time) runs, as toml++ 3.3 reads it to classify
/// it, up to the next value terminator: quotes, `=`, `[` and `{` inside it are its own
/// characters, not a string or a nesting (`a = -\x16"é"` reached finding 7's undefined
/// behaviour through a control character). Every character of it must be ASCII. A date
/// followed by `T` must go on with a digit: toml++ only asserts that
/// (`1 = 3989-05-27Tj7:32:00Z`, TOML_ASSERT_ASSUME in parse_time; found by skill_toml_fuzz).
/// Ten characters that may be a date (toml++ counts them without underscores, `-` fourth
/// and seventh) followed by a space and a digit are read on as a date-time, and toml++ then
/// asserts that the digit is not the value's last character (`a = 1979-05-27 0]`,
/// TOML_ASSERT_ASSUME in parse_value's scan; found by skill_toml_fuzz): refused, over-
/// approximating toml++'s test, since such text is never valid TOML. Returns the offset just
/// past the value.
inline std::size_t skip_bare_value(std::string_view text, std::size_t i, std::string_view subject,
                                   std::size_t line) {
  const auto terminator = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ']' || c == '}' ||
           c == '#';
  };
  const auto digit = [&](std::size_t k) {
    return k < text.size() && text[k] >= '0' && text[k] <= '9';
  };
  const std::size_t start = i;
  while (i < text.size() && !terminator(text[i])) check_ascii(text, i++, subject, line);
  // As toml++ tests "could be a date" before reading on over a space: ten characters without
  // the underscores, the fifth and eighth `-`, the first a digit.
  std::size_t counted = 0;
  bool dashes = digit(start);
  for (std::size_t k = start; k < i && dashes; ++k) {
    if (text[k] == '_') continue;
    if ((counted == 4 || counted == 7) && text[k] != '-') dashes = false;
    ++counted;
  }
  if (dashes && counted == 10 && i + 1 < text.size() && text[i] == ' ' && digit(i + 1)) {
    // `1979-05-27 07:32:00`: toml++ reads on over the space when a digit follows it.
    const std::size_t after = i + 2;
    if (after < text.size() &&
        (terminator(text[after]) || text[after] == '\v' || text[after] == '\f')) {
      throw syntax_error(text, after, subject, line,
                         "a date, a space and one digit: a time (hh:mm:ss) must follow the space");
    }
    for (++i; i < text.size() && !terminator(text[i]);) check_ascii(text, i++, subject, line);
    return i;
  }
  const bool date = i - start > 10 && digit(start) && digit(start + 1) && digit(start + 2) &&
                    digit(start + 3) && text[start + 4] == '-' && digit(start + 5) &&
                    digit(start + 6) && text[start + 7] == '-' && digit(start + 8) &&
                    digit(start + 9);
  if (!date) return i;
  const char t = text[start + 10];
  if ((t == 'T' || t == 't') && !digit(start + 11)) {
    throw syntax_error(text, start + 11, subject, line,
                       "a date-time's time must start with a digit");
  }
  return i;
}

/// The state of `check_depth`'s one pass over the text: where it is, the nesting open at
/// that point, and whether a key or a value is being read. Each step reads from `i` and
/// leaves `i` after what it consumed.
struct depth_scan {
  struct frame {
    bool table;        // inline table (keys inside) or array (values only)
    std::size_t base;  // depth of the frame's own level
  };
  std::string_view text;
  std::string_view subject;
  std::vector<frame> stack;     // bounded by max_depth: checked before every push
  std::size_t table_depth = 0;  // depth of the current [table] / [[array]]
  bool key_mode = true;         // reading a key (dots separate components)
  bool at_start = true;         // at the start of a top-level statement
  std::size_t key_parts = 1;    // components of the key being read
  std::size_t line = 1;
  std::size_t i = 0;

  depth_scan(std::string_view t, std::string_view s)
      : text(t),
        subject(s),
        // A UTF-8 byte order mark may open the text (toml++ skips it).
        i(t.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0) {}

  void limit(std::size_t depth) const {
    if (depth > max_depth) throw too_deep(subject, line);
  }
  std::size_t current_base() const { return stack.empty() ? table_depth : stack.back().base; }

  /// Skips a string starting at i (any of the four kinds); leaves i after it.
  void skip_string() {
    const std::size_t n = text.size();
    const char q = text[i];
    const bool triple = i + 2 < n && text[i + 1] == q && text[i + 2] == q;
    i += triple ? 3 : 1;
    while (i < n) {
      const char c = text[i];
      if (c == '\n') {
        ++line;
        if (!triple) return;  // unterminated: toml++ reports it
      }
      if (q == '"' && c == '\\') {
        if (triple) check_after_backslash(text, i, subject, line);
        if (i + 1 < n && text[i + 1] == '\n') ++line;
        i += 2;
        continue;
      }
      if (c == q) {
        if (!triple) {
          ++i;
          return;
        }
        if (i + 2 < n && text[i + 1] == q && text[i + 2] == q) {
          i += 3;
          while (i < n && text[i] == q) ++i;  // up to two extra quotes close the string
          return;
        }
      }
      ++i;
    }
  }

  /// A table header at i: [a.b] or [[a.b]]; an array of tables adds its element's level.
  void table_header() {
    const std::size_t n = text.size();
    const bool array = i + 1 < n && text[i + 1] == '[';
    i += array ? 2 : 1;
    check_header_key(text, i, array, subject, line);
    std::size_t parts = 1;
    while (i < n && text[i] != ']' && text[i] != '\n') {
      if (text[i] == '"' || text[i] == '\'') {
        check_quote_start(text, i, true, subject, line);
        skip_string();
        continue;
      }
      if (text[i] == '.') limit(++parts + (array ? 1 : 0));
      check_ascii(text, i, subject, line);
      ++i;
    }
    table_depth = parts + (array ? 1 : 0);
    limit(table_depth);
    while (i < n && text[i] == ']') ++i;
    at_start = false;
  }

  /// One character `c` (at i) of a key: dots add components, `=` starts the value.
  void key_char(char c) {
    if (c == '.') {
      limit(current_base() + ++key_parts);
    } else if (c == '=') {
      key_mode = false;
    } else if (c == '}' && !stack.empty() && stack.back().table) {
      stack.pop_back();  // `{}`: an empty inline table
      key_mode = false;
    }
    ++i;
  }

  /// One character `c` (at i) where a value is read: a bare value is skipped whole; `{`
  /// and `[` open a level, `}` and `]` close one, `,` in an inline table starts a key.
  void value_char(char c) {
    if (c != '{' && c != '[' && c != '}' && c != ']' && c != ',') {
      i = skip_bare_value(text, i, subject, line);
      return;
    }
    if (c == '{' || c == '[') {
      const bool table = c == '{';
      const std::size_t depth =
          current_base() + (stack.empty() || stack.back().table ? key_parts : 0) + 1;
      limit(depth);
      stack.push_back({table, depth});
      if (table) {
        key_mode = true;
        key_parts = 1;
      }
    } else if (c == '}' || c == ']') {
      // toml++ 3.3 asserts (TOML_ASSERT_ASSUME in parse_value) on a `}` where an array
      // expects a value or its `]` (`a = [}]`, `a = [1, }`; found by verify_fuzz): undefined
      // behaviour under NDEBUG. A `}` never closes an array, so it is refused here.
      if (c == '}' && !stack.empty() && !stack.back().table) {
        throw syntax_error(text, i, subject, line, "a `}` inside an array");
      }
      if (!stack.empty()) stack.pop_back();
    } else if (c == ',' && !stack.empty() && stack.back().table) {
      key_mode = true;
      key_parts = 1;
    }
    ++i;
  }

  void run() {
    const std::size_t n = text.size();
    while (i < n) {
      const char c = text[i];
      if (c == '"' || c == '\'') {
        at_start = false;
        check_quote_start(text, i, key_mode, subject, line);
        skip_string();
        continue;
      }
      if (c == '#') {
        while (i < n && text[i] != '\n') ++i;
        continue;
      }
      if (c == '\n') {
        ++line;
        ++i;
        if (stack.empty()) {
          at_start = true;
          key_mode = true;
          key_parts = 1;
        }
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') {
        ++i;
        continue;
      }
      if (at_start && stack.empty() && c == '[') {
        table_header();
        continue;
      }
      at_start = false;
      check_ascii(text, i, subject, line);
      if (key_mode) {
        key_char(c);
      } else {
        value_char(c);
      }
    }
  }
};

}  // namespace detail

/// Throws errc::limit_exceeded (subject = `subject`) when `text` nests deeper than
/// `max_depth`, and errc::config_parse for text toml++ 3.3 cannot be given safely (a table
/// header key that does not start well, a character that is not ASCII outside strings and
/// comments, a quote right after a bare key or value: detail::check_header_key,
/// detail::check_ascii, detail::check_quote_start). Other syntax is not checked here
/// (toml++ does that next); the scan only has to tell keys from values and skip strings and
/// comments, and it over-approximates rather than under-: a text it accepts never nests deeper than
/// the bound.
inline void check_depth(std::string_view text, std::string_view subject) {
  detail::depth_scan scan(text, subject);
  scan.run();
}

}  // namespace toml_adaptor
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
