// SPDX-License-Identifier: MIT
// The YAML reader's vocabulary and lexical layer (yaml.hpp reads the structure on top of
// it): what a read returns and why it refuses, Core-schema resolution of a plain scalar,
// and the scanner: positions and errors, white space and comments, quoted scalars.
#pragma once

#include "../core/error.hpp"
#include "../core/utf8.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace yaml {

/// Why a document was refused.
enum class issue_kind {
  syntax,              ///< not well-formed YAML (or a construct this subset does not read)
  duplicate_key,       ///< the same key twice in one mapping
  multiple_documents,  ///< more than one document in the stream
  too_deep,            ///< nesting deeper than `options::max_depth`
  too_large,           ///< more bytes than `options::max_bytes`
  alias,               ///< `*name`
  anchor,              ///< `&name`
  tag,                 ///< `!tag`, `!!str`, `!<...>`
  merge_key,           ///< a plain `<<` key
  complex_key,         ///< `? key`, or a collection used as a key
  non_string_key,      ///< a key that resolves to null, a boolean or a number
  non_finite,          ///< `.inf`, `-.inf`, `.nan` or a float that overflows
};

/// The plural noun OpenClaw's message uses for each kind that is an unsupported feature
/// ("uses anchors"), empty for the kinds that are not: the one list of those features.
inline constexpr std::string_view feature_names[] = {"",
                                                     "",
                                                     "",
                                                     "",
                                                     "",
                                                     "aliases",
                                                     "anchors",
                                                     "explicit tags",
                                                     "merge keys",
                                                     "complex keys",
                                                     "non-string mapping keys",
                                                     "non-finite numbers"};

/// True for the kinds OpenClaw reports as an unsupported YAML feature (as opposed to a
/// document that does not parse).
constexpr bool is_unsupported_feature(issue_kind k) noexcept {
  return !wire_name<issue_kind::non_finite>(k, feature_names, "").empty();
}

/// The plural noun of an unsupported feature; "unsupported syntax" for any other kind.
constexpr std::string_view feature_name(issue_kind k) noexcept {
  return is_unsupported_feature(k) ? wire_name<issue_kind::non_finite>(k, feature_names, "")
                                   : "unsupported syntax";
}

/// The first problem found: its kind, where (1-based line and column, counted in bytes
/// including the optional BOM) and what, in words.
struct failure {
  issue_kind kind = issue_kind::syntax;
  std::size_t line = 1;
  std::size_t column = 1;
  std::string message;

  /// `message` with its position, lines shifted by `line_offset` (the frontmatter of a
  /// CLAW.md starts on the file's second line): "duplicate key "a" at line 3, column 1".
  std::string where(std::size_t line_offset = 0) const {
    return message + " at line " + std::to_string(line + line_offset) + ", column " +
           std::to_string(column);
  }
};

/// Bounds of one read.
struct options {
  std::size_t max_bytes = 1024 * 1024;  ///< input size, BOM included
  std::size_t max_depth = 64;           ///< nested collections
};

/// Either `value` (the document as JSON data; null for an empty document) or `error`.
struct result {
  nlohmann::ordered_json value;
  std::optional<failure> error;
  bool ok() const noexcept { return !error.has_value(); }
};

namespace detail {

struct stop {
  failure f;
};

inline bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
inline bool is_hex(char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
inline bool all_of(std::string_view s, std::size_t from, bool (*pred)(char)) {
  if (from >= s.size()) return false;
  for (std::size_t k = from; k < s.size(); ++k)
    if (!pred(s[k])) return false;
  return true;
}

/// `^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$`
inline bool core_float(std::string_view s) {
  std::size_t k = 0;
  if (k < s.size() && (s[k] == '-' || s[k] == '+')) ++k;
  std::size_t int_digits = 0;
  while (k < s.size() && is_digit(s[k])) ++k, ++int_digits;
  if (k < s.size() && s[k] == '.') {
    ++k;
    std::size_t frac = 0;
    while (k < s.size() && is_digit(s[k])) ++k, ++frac;
    if (int_digits == 0 && frac == 0) return false;
  } else if (int_digits == 0) {
    return false;
  }
  if (k < s.size() && (s[k] == 'e' || s[k] == 'E')) {
    ++k;
    if (k < s.size() && (s[k] == '-' || s[k] == '+')) ++k;
    std::size_t exp = 0;
    while (k < s.size() && is_digit(s[k])) ++k, ++exp;
    if (exp == 0) return false;
  }
  return k == s.size();
}

/// A JS Number as JSON data: integral values within ±2^53 become integers (so they print
/// as JavaScript prints them), everything else stays a double.
inline nlohmann::ordered_json number_value(double d) {
  if (std::floor(d) == d && std::fabs(d) <= 9007199254740992.0) {
    return nlohmann::ordered_json(static_cast<std::int64_t>(d));
  }
  return nlohmann::ordered_json(d);
}

/// Core-schema resolution of a plain scalar. Returns nullopt for a non-finite number.
inline std::optional<nlohmann::ordered_json> resolve_plain(const std::string& s) {
  using json = nlohmann::ordered_json;
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return json(nullptr);
  if (s == "true" || s == "True" || s == "TRUE") return json(true);
  if (s == "false" || s == "False" || s == "FALSE") return json(false);
  const std::string_view v(s);
  if (v.size() > 2 && v[0] == '0' && v[1] == 'o' &&
      all_of(v, 2, [](char c) { return c >= '0' && c <= '7'; })) {
    return number_value(static_cast<double>(std::strtoull(s.c_str() + 2, nullptr, 8)));
  }
  if (v.size() > 2 && v[0] == '0' && v[1] == 'x' && all_of(v, 2, is_hex)) {
    return number_value(static_cast<double>(std::strtoull(s.c_str() + 2, nullptr, 16)));
  }
  {
    std::size_t k = (v[0] == '-' || v[0] == '+') ? 1 : 0;
    if (all_of(v, k, is_digit)) return number_value(std::strtod(s.c_str(), nullptr));
  }
  if (core_float(v)) {
    const double d = std::strtod(s.c_str(), nullptr);
    if (!std::isfinite(d)) return std::nullopt;
    return number_value(d);
  }
  {
    std::string_view w = v;
    if (!w.empty() && (w[0] == '-' || w[0] == '+')) w.remove_prefix(1);
    if (w == ".inf" || w == ".Inf" || w == ".INF") return std::nullopt;
    if (v == ".nan" || v == ".NaN" || v == ".NAN") return std::nullopt;
  }
  return json(s);
}

/// The lexical layer of the reader: the text, where it is, how deep, and what reads
/// no structure (white space, comments, quoted scalars). `parser` (yaml.hpp) derives.
class scanner {
 public:
  using json = nlohmann::ordered_json;

  scanner(std::string text, std::size_t bom, const options& opt)
      : s_(std::move(text)), n_(s_.size()), bom_(bom), opt_(opt) {}

 protected:
  std::string s_;
  std::size_t n_;
  std::size_t bom_;
  options opt_;
  std::size_t i_ = 0;
  std::size_t depth_ = 0;

  struct depth_guard {
    scanner& p;
    depth_guard(scanner& pp, std::size_t at) : p(pp) {
      if (++p.depth_ > p.opt_.max_depth) {
        p.fail(
            issue_kind::too_deep, at,
            "collections are nested deeper than " + std::to_string(p.opt_.max_depth) + " levels");
      }
    }
    ~depth_guard() { --p.depth_; }
  };

  // ---- positions and errors ----
  std::size_t line_start(std::size_t at) const {
    std::size_t k = at > n_ ? n_ : at;
    while (k > 0 && s_[k - 1] != '\n') --k;
    return k;
  }
  int col(std::size_t at) const { return static_cast<int>(at - line_start(at)); }

  [[noreturn]] void fail(issue_kind kind, std::size_t at, const std::string& what) const {
    failure f;
    f.kind = kind;
    std::size_t line = 1;
    const std::size_t end = at > n_ ? n_ : at;
    for (std::size_t k = 0; k < end; ++k)
      if (s_[k] == '\n') ++line;
    f.line = line;
    f.column = end - line_start(end) + 1 + (line == 1 ? bom_ : 0);
    f.message = what;
    throw stop{std::move(f)};
  }

  // ---- character classes ----
  bool blank_at(std::size_t at) const {
    return at >= n_ || s_[at] == ' ' || s_[at] == '\t' || s_[at] == '\n';
  }
  static bool flow_indicator(char c) noexcept {
    return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
  }
  bool at_marker(std::string_view m) const {
    return col(i_) == 0 && s_.compare(i_, 3, m.data(), 3) == 0 && blank_at(i_ + 3);
  }
  void skip_inline() {
    while (i_ < n_ && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }
  void skip_comment() {
    if (i_ < n_ && s_[i_] == '#')
      while (i_ < n_ && s_[i_] != '\n') ++i_;
  }

  /// Moves to the next character that is neither whitespace, a comment nor a line break.
  /// Refuses a tab in the indentation of a content line. False at the end of input.
  bool skip_to_content() {
    for (;;) {
      const bool at_line_start = i_ == line_start(i_);
      if (at_line_start) {
        while (i_ < n_ && s_[i_] == ' ') ++i_;
        const std::size_t tab = i_;
        skip_inline();
        if (i_ < n_ && s_[i_] != '\n' && s_[i_] != '#' && tab != i_) {
          fail(issue_kind::syntax, tab, "a tab character cannot indent YAML content");
        }
      } else {
        const std::size_t before = i_;
        skip_inline();
        if (i_ < n_ && s_[i_] == '#' && i_ == before && before > 0 && s_[before - 1] != ' ' &&
            s_[before - 1] != '\t') {
          fail(issue_kind::syntax, i_, "a comment must be separated from content by whitespace");
        }
      }
      skip_comment();
      if (i_ >= n_) return false;
      if (s_[i_] == '\n') {
        ++i_;
        continue;
      }
      return true;
    }
  }

  /// After a value on a line: only whitespace and a comment may follow.
  void end_of_line(const char* what) {
    skip_inline();
    if (i_ < n_ && s_[i_] == '#') {
      if (i_ == 0 || (s_[i_ - 1] != ' ' && s_[i_ - 1] != '\t')) {
        fail(issue_kind::syntax, i_, "a comment must follow whitespace");
      }
      skip_comment();
    }
    if (i_ < n_ && s_[i_] != '\n') fail(issue_kind::syntax, i_, std::string("unexpected ") + what);
  }

  void refuse_node_property(std::size_t at) const {
    const char c = s_[at];
    if (c == '&') fail(issue_kind::anchor, at, "anchors are not JSON data");
    if (c == '*') fail(issue_kind::alias, at, "aliases are not JSON data");
    if (c == '!') fail(issue_kind::tag, at, "explicit tags are not JSON data");
  }

  void refuse_plain_start(std::size_t at, bool flow) const {
    const char c = s_[at];
    if (c == '@' || c == '`') {
      fail(issue_kind::syntax, at,
           std::string("`") + c + "` is reserved and cannot start a scalar");
    }
    if (c == '%') fail(issue_kind::syntax, at, "`%` cannot start a plain scalar");
    if (c == '|' || c == '>') {
      fail(issue_kind::syntax, at, "a block scalar is not allowed here");
    }
    if (c == ']' || c == '}' || c == ',') {
      fail(issue_kind::syntax, at, std::string("unexpected `") + c + "`");
    }
    if ((c == '-' || c == '?' || c == ':') &&
        (blank_at(at + 1) || (flow && flow_indicator(s_[at + 1])))) {
      fail(issue_kind::syntax, at, std::string("unexpected `") + c + "`");
    }
  }

  // ---- quoted scalars ----

  /// A quoted scalar's text as it is read: the white space before a raw line break is
  /// dropped when the break folds, so where its last run started is kept.
  struct quoted_text {
    std::string out;
    std::size_t trim_to = std::string::npos;
    /// A character as written (not an escape).
    void add(char c) {
      if (c == ' ' || c == '\t') {
        if (trim_to == std::string::npos) trim_to = out.size();
      } else {
        trim_to = std::string::npos;
      }
      out += c;
    }
    /// An escaped character: kept even when white space ends the line.
    void keep() { trim_to = std::string::npos; }
  };

  /// At a raw line break in a quoted scalar: the white space before it dropped, then folded.
  void break_quoted_line(quoted_text& q, std::size_t at) {
    if (q.trim_to != std::string::npos) q.out.resize(q.trim_to);
    fold_break(q.out, at);
    q.keep();
  }

  std::string single_quoted() {
    const std::size_t at = i_;
    ++i_;
    quoted_text q;
    for (;;) {
      if (i_ >= n_) fail(issue_kind::syntax, at, "unterminated single-quoted scalar");
      const char c = s_[i_];
      if (c == '\'') {
        if (i_ + 1 < n_ && s_[i_ + 1] == '\'') {
          q.out += '\'';
          q.keep();
          i_ += 2;
          continue;
        }
        ++i_;
        return std::move(q.out);
      }
      if (c == '\n') {
        break_quoted_line(q, at);
        continue;
      }
      q.add(c);
      ++i_;
    }
  }

  /// At a raw line break inside a quoted scalar: folds it and the following empty lines.
  void fold_break(std::string& out, std::size_t at) {
    std::size_t empties = 0;
    for (;;) {
      ++i_;  // past '\n'
      if (col(i_) == 0 && i_ + 3 <= n_ &&
          (s_.compare(i_, 3, "---") == 0 || s_.compare(i_, 3, "...") == 0) && blank_at(i_ + 3)) {
        fail(issue_kind::syntax, at, "a document marker inside a quoted scalar");
      }
      skip_inline();
      if (i_ < n_ && s_[i_] == '\n') {
        ++empties;
        continue;
      }
      break;
    }
    if (empties == 0) {
      out += ' ';
    } else {
      out.append(empties, '\n');
    }
  }

  std::uint32_t hex_escape(std::size_t digits, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < digits; ++k) {
      if (i_ >= n_ || !is_hex(s_[i_])) fail(issue_kind::syntax, at, "a malformed hex escape");
      const char h = s_[i_++];
      v = v * 16 + static_cast<std::uint32_t>(
                       is_digit(h) ? h - '0' : (h >= 'a' ? h - 'a' + 10 : h - 'A' + 10));
    }
    return v;
  }

  std::string double_quoted() {
    const std::size_t at = i_;
    ++i_;
    quoted_text q;
    for (;;) {
      if (i_ >= n_) fail(issue_kind::syntax, at, "unterminated double-quoted scalar");
      const char c = s_[i_];
      if (c == '"') {
        ++i_;
        return std::move(q.out);
      }
      if (c == '\n') {
        break_quoted_line(q, at);
        continue;
      }
      if (c != '\\') {
        q.add(c);
        ++i_;
        continue;
      }
      q.keep();
      const std::size_t esc = i_;
      ++i_;
      if (i_ >= n_) fail(issue_kind::syntax, at, "unterminated double-quoted scalar");
      append_escape(q.out, esc);
    }
  }

  /// The escapes that stand for one ASCII character: sets `to` and returns true.
  static bool single_char_escape(char e, char& to) {
    switch (e) {
      case '0':
        to = '\0';
        return true;
      case 'a':
        to = '\a';
        return true;
      case 'b':
        to = '\b';
        return true;
      case 't':
      case '\t':
        to = '\t';
        return true;
      case 'n':
        to = '\n';
        return true;
      case 'v':
        to = '\v';
        return true;
      case 'f':
        to = '\f';
        return true;
      case 'r':
        to = '\r';
        return true;
      case 'e':
        to = '\x1b';
        return true;
      case ' ':
        to = ' ';
        return true;
      case '"':
        to = '"';
        return true;
      case '/':
        to = '/';
        return true;
      case '\\':
        to = '\\';
        return true;
      default:
        return false;
    }
  }

  /// Appends what the escape whose character is at i_ stands for (`esc` is its backslash,
  /// for messages) and consumes it: named characters, \x, \u (a UTF-16 pair joined) and
  /// \U code points, or an escaped line break.
  void append_escape(std::string& out, std::size_t esc) {
    const char e = s_[i_++];
    char simple = 0;
    if (single_char_escape(e, simple)) {
      out += simple;
      return;
    }
    switch (e) {
      case 'N':
        utf8::append(out, 0x85);
        break;
      case '_':
        utf8::append(out, 0xa0);
        break;
      case 'L':
        utf8::append(out, 0x2028);
        break;
      case 'P':
        utf8::append(out, 0x2029);
        break;
      case 'x':
        utf8::append(out, hex_escape(2, esc));
        break;
      case 'U': {
        const std::uint32_t cp = hex_escape(8, esc);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
          fail(issue_kind::syntax, esc, "an escape names no Unicode scalar value");
        }
        utf8::append(out, cp);
        break;
      }
      case 'u': {
        std::uint32_t cp = hex_escape(4, esc);
        if (cp >= 0xd800 && cp <= 0xdbff && i_ + 1 < n_ && s_[i_] == '\\' && s_[i_ + 1] == 'u') {
          const std::size_t save = i_;
          i_ += 2;
          const std::uint32_t lo = hex_escape(4, esc);
          if (lo >= 0xdc00 && lo <= 0xdfff) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          } else {
            i_ = save;
          }
        }
        if (cp >= 0xd800 && cp <= 0xdfff) {
          fail(issue_kind::syntax, esc, "a lone UTF-16 surrogate has no UTF-8 form");
        }
        utf8::append(out, cp);
        break;
      }
      case '\n': {
        // An escaped line break: joined without a space.
        skip_inline();
        while (i_ < n_ && s_[i_] == '\n') {
          out += '\n';
          ++i_;
          skip_inline();
        }
        break;
      }
      default:
        fail(issue_kind::syntax, esc, std::string("unknown escape `\\") + e + "`");
    }
  }
};

}  // namespace detail

}  // namespace yaml
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
