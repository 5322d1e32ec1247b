// SPDX-License-Identifier: MIT
// Text rules shared by every module: Rust's `str::trim` (Unicode White_Space), which is
// how ZeroClaw trims every name and path it reads, and the one escape for human-readable
// output (`escape_for_terminal`), so a control character in a config value, a file or a
// skill name can never move the cursor, clear a line or hide text in a report.
#pragma once

#include "utf8.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace text {

/// The pass and fail marks of human output: ✓ and ✗, or `ok` and `FAIL` where the user
/// asked for plain text (host_environment::plain_text: NO_COLOR, TERM=dumb).
struct marks {
  const char* ok = "\u2713";
  const char* fail = "\u2717";
};

inline marks marks_for(bool plain) { return plain ? marks{"ok", "FAIL"} : marks{}; }

/// The emoji that open lines of human reports (export, verify), each with the words that
/// replace it in plain text (NO_COLOR, TERM=dumb): warning, credentials, note, host-local.
inline constexpr std::pair<std::string_view, std::string_view> emoji_markers[] = {
    {"\u26a0\ufe0f  ", "warning: "},
    {"\U0001F511 ", "credentials: "},
    {"\u2139\ufe0f  ", "note: "},
    {"\U0001F3E0 ", "host-local: "},
};

/// `rendered` with every emoji marker of `emoji_markers` in plain words (issue 44 item 3).
inline std::string plain_markers(std::string rendered) {
  for (const auto& [emoji, words] : emoji_markers) {
    for (std::size_t at = rendered.find(emoji); at != std::string::npos;
         at = rendered.find(emoji, at + words.size()))
      rendered.replace(at, emoji.size(), words);
  }
  return rendered;
}

/// `n` and the noun in its number: "1 file", "4 files" (one rule for counted nouns).
inline std::string counted(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

/// Length of the Unicode White_Space character starting at `s[i]`, 0 if none.
/// Rust's `str::trim` trims exactly this set.
inline std::size_t space_len(std::string_view s, std::size_t i) noexcept {
  const auto b = [&](std::size_t k) -> unsigned char {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0;
  };
  const unsigned char c = b(0);
  if (c == ' ' || (c >= 0x09 && c <= 0x0d)) return 1;
  if (c == 0xc2 && (b(1) == 0x85 || b(1) == 0xa0)) return 2;
  if (c == 0xe1 && b(1) == 0x9a && b(2) == 0x80) return 3;  // U+1680
  if (c == 0xe2 && b(1) == 0x80) {
    const unsigned char d = b(2);
    if ((d >= 0x80 && d <= 0x8a) || d == 0xa8 || d == 0xa9 || d == 0xaf) return 3;
  }
  if (c == 0xe2 && b(1) == 0x81 && b(2) == 0x9f) return 3;  // U+205F
  if (c == 0xe3 && b(1) == 0x80 && b(2) == 0x80) return 3;  // U+3000
  return 0;
}

/// Length of the White_Space character that ends `s`, 0 if none.
inline std::size_t space_len_back(std::string_view s) noexcept {
  for (std::size_t n = 1; n <= 3 && n <= s.size(); ++n) {
    if (space_len(s, s.size() - n) == n) return n;
  }
  return 0;
}

inline std::string_view trim_start(std::string_view s) noexcept {
  std::size_t n = 0;
  while (!s.empty() && (n = space_len(s, 0)) != 0) s.remove_prefix(n);
  return s;
}

inline std::string_view trim_end(std::string_view s) noexcept {
  std::size_t n = 0;
  while (!s.empty() && (n = space_len_back(s)) != 0) s.remove_suffix(n);
  return s;
}

/// Rust `str::trim`: strips leading and trailing Unicode White_Space (not just ASCII).
inline std::string_view trim(std::string_view s) noexcept { return trim_end(trim_start(s)); }

/// JavaScript's `String.prototype.trim` (OpenClaw's rule): White_Space without U+0085 (NEL),
/// plus U+FEFF. A byte that is not UTF-8 is never a space. ZeroClaw's (Rust's) is `trim`.
constexpr bool is_js_space(char32_t c) noexcept {
  return (utf8::is_white_space(c) && c != 0x85) || c == 0xFEFF;
}

inline std::string_view js_trim(std::string_view s) noexcept {
  std::size_t from = 0;
  for (utf8::decoded d; from < s.size(); from += d.length) {
    d = utf8::decode_at(s, from);
    if (d.length == 0 || !is_js_space(d.cp)) break;
  }
  std::size_t to = s.size();
  while (to > from) {
    std::size_t start = to - 1;
    while (start > from && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    const utf8::decoded d = utf8::decode_at(s.substr(0, to), start);
    if (d.length != to - start || !is_js_space(d.cp)) break;
    to = start;
  }
  return s.substr(from, to - from);
}

/// ASCII case folding: A-Z to a-z, every other byte (UTF-8 sequences included) as it is. For
/// keywords and file names compared without case (`true`, `MEMORY.md`); JavaScript's
/// Unicode lowercase is `unicode::to_lower` (formats/unicode.hpp).
constexpr char ascii_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

inline std::string to_lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

constexpr bool iequals_ascii(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

/// How `quote_basic` writes what it must escape: JSON.stringify leaves DEL as is and uses
/// lower-case hex; a TOML basic string must escape DEL and toml++ writes upper-case hex.
struct quote_style {
  bool escape_del = false;
  bool upper_hex = false;
};
inline constexpr quote_style json_quote_style{false, false};
inline constexpr quote_style toml_quote_style{true, true};

/// `s` as a double-quoted JSON or TOML basic string (the one escaper of both writers): `"` and
/// `\` backslashed, `\b \f \n \r \t` short, other C0 controls (and DEL where the style asks)
/// as `\u00XX`; every other byte, UTF-8 included, is kept.
inline std::string quote_basic(std::string_view s, quote_style style) {
  const char* hex = style.upper_hex ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || (c == 0x7F && style.escape_del)) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return out;
}

/// Rust's `{:?}` of a string (ZeroClaw's error texts): quoted, with `"`, `\\` and control
/// characters escaped (`\\n`, `\\r`, `\\t`, else `\\u{..}` in lower-case hex).
inline std::string debug_quoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7F) {
      static const char hex[] = "0123456789abcdef";
      out += "\\u{";
      if (u >= 16) out += hex[u >> 4];
      out += hex[u & 15];
      out += '}';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// `s` made safe to print on a terminal, for every human-readable output (reports,
/// `skills list`, `skills audit`); JSON output escapes on its own and does not use this.
/// C0 controls, DEL and bytes that are not UTF-8 become `\xHH`; the C1 controls
/// (U+0080..U+009F) and the bidirectional overrides and isolates (U+202A..U+202E,
/// U+2066..U+2069), which can reorder what a reader sees, become `\u{HHHH}`; a backslash
/// becomes `\\`, so an escaped text is never mistaken for a raw one. Everything else,
/// including non-ASCII letters, is kept.
inline std::string escape_for_terminal(std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  const auto byte = [&](unsigned char c) {
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
  };
  const auto code = [&](std::uint32_t cp) {
    out += "\\u{";
    bool started = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      const unsigned digit = (cp >> shift) & 15U;
      if (digit == 0 && !started && shift > 4) continue;
      started = true;
      out += hex[digit];
    }
    out += '}';
  };
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) {
        byte(c);
      } else if (c == '\\') {
        out += "\\\\";
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    const std::size_t len = (c & 0xe0) == 0xc0   ? 2
                            : (c & 0xf0) == 0xe0 ? 3
                            : (c & 0xf8) == 0xf0 ? 4
                                                 : 0;
    if (len == 0 || i + len > s.size() || !clawport::detail::valid_utf8(s.substr(i, len))) {
      byte(c);
      ++i;
      continue;
    }
    std::uint32_t cp = len == 2 ? (c & 0x1fU) : len == 3 ? (c & 0x0fU) : (c & 0x07U);
    for (std::size_t k = 1; k < len; ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3fU);
    if ((cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
        (cp >= 0x2066 && cp <= 0x2069)) {
      code(cp);
    } else {
      out.append(s.data() + i, len);
    }
    i += len;
  }
  return out;
}

/// `word` as one POSIX shell word (bash, zsh, sh), for a command a person pastes: as is
/// when it holds only safe characters; in single quotes when every byte is shown as is on
/// a terminal and none is a quote; else in the inert `$'...'` form, where a quote, `!`,
/// a control, DEL and every non-ASCII byte are `\xHH` and a backslash is `\\` (issue 41
/// item 1). Every form is printable, so it is shown unescaped; and escaping it again (an
/// error message) only adds backslashes, which never end a quoted word early.
inline std::string shell_word(std::string_view word) {
  const auto plain = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_-./:=@%+,").find(c) != std::string_view::npos;
  };
  bool safe = !word.empty() && word.front() != '=';  // zsh expands a leading `=`
  std::size_t backslashes = 0;
  for (const char c : word) {
    safe = safe && plain(c);
    backslashes += c == '\\' ? 1 : 0;
  }
  if (safe) return std::string(word);
  // Shown as is: escaping changes nothing but the backslashes (each adds one byte).
  const bool shown = escape_for_terminal(word).size() == word.size() + backslashes;
  if (shown && word.find('\'') == std::string_view::npos) return "'" + std::string(word) + "'";
  static const char hex[] = "0123456789abcdef";
  std::string q = "$'";
  for (const char c : word) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '\\') {
      q += "\\\\";
    } else if (b >= 0x20 && b < 0x7f && c != '\'' && c != '!') {
      q += c;
    } else {
      q += "\\x";
      q += hex[b >> 4];
      q += hex[b & 15];
    }
  }
  return q + "'";
}

/// A command line for a person to paste (`clawport secrets set ...`, the `to apply:` line
/// of a plan, `clawport recover ...`), made only by `paste_command`: pasted into bash it
/// runs nothing and gives the command exactly these words. It is printable, so
/// `terminal_lines` shows it as is (escaping it would double the backslashes of `$'...'`).
class command_line {
 public:
  command_line() = default;
  const std::string& str() const noexcept { return text_; }
  bool empty() const noexcept { return text_.empty(); }
  friend bool operator==(const command_line& a, const command_line& b) {
    return a.text_ == b.text_;
  }

 private:
  explicit command_line(std::string t) : text_(std::move(t)) {}
  std::string text_;
  friend command_line paste_command(const std::vector<std::string>& words);
};

/// The one renderer of a command line to paste: each word through `shell_word`. A word
/// holding a NUL cannot be an argument at all; it is cut there, as the shell would.
inline command_line paste_command(const std::vector<std::string>& words) {
  std::string line;
  for (const std::string& w : words) {
    line += (line.empty() ? "" : " ") + shell_word(std::string_view(w.c_str()));
  }
  return command_line(std::move(line));
}

/// The one terminal-safe renderer: every human line built from input (the export report,
/// the import plan, the verify report, `claw inspect`, the Claw plans and results, the
/// CLI's own lines) is appended through it. `line(s)` escapes the whole of `s` with
/// `escape_for_terminal`, a newline inside it included, so no value can erase, repaint or
/// start a line of its own, and ends it with '\n'. `block(s)` is for text whose newlines
/// are structure (a JSON snippet clawport wrote): each of its lines is escaped the same way.
struct terminal_lines {
  std::string text;

  void operator()(std::string_view s) {
    text += escape_for_terminal(s);
    text += '\n';
  }

  /// A line holding a command to paste: `before` and `after` escaped, the command as is.
  void operator()(std::string_view before, const command_line& cmd, std::string_view after = {}) {
    text += escape_for_terminal(before);
    text += cmd.str();
    text += escape_for_terminal(after);
    text += '\n';
  }

  void block(std::string_view s) {
    while (!s.empty()) {
      const std::size_t nl = s.find('\n');
      (*this)(s.substr(0, nl));
      if (nl == std::string_view::npos) break;
      s.remove_prefix(nl + 1);
    }
  }
};

/// `s`, whose newlines are structure, escaped line by line (`terminal_lines::block`).
inline std::string terminal_block(std::string_view s) {
  terminal_lines out;
  out.block(s);
  return std::move(out.text);
}

}  // namespace text
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
