// SPDX-License-Identifier: MIT
// A strict, bounded JSON5 reader into JSON data, for OpenClaw's `openclaw.json` (the state
// directory's config, read for destination resolution, docs/openclaw.md). JSON5
// adds to JSON: comments, trailing commas, identifier and single-quoted keys,
// single-quoted strings, escaped line breaks, hex numbers, leading/trailing decimal points,
// an explicit `+`, and Infinity/NaN (read, then refused: they have no JSON equivalent).
// Duplicate keys are refused, as is anything past `max_depth` or `max_bytes`.
#pragma once

#include "../core/utf8.hpp"
#include "stable_json.hpp"
#include "yaml.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace json5 {

/// The document type: JSON data as OpenClaw handles it (formats/stable_json.hpp).
using json::value;

struct options {
  std::size_t max_bytes = 16 * 1024 * 1024;
  std::size_t max_depth = 128;
};

/// Either `value` or `error` (1-based line and column, and what).
struct result {
  value data;
  std::optional<std::string> error;
  std::size_t line = 0;
  std::size_t column = 0;
  bool ok() const noexcept { return !error.has_value(); }
};

namespace detail {

struct stop {
  std::size_t at;
  std::string what;
};

class reader {
 public:
  reader(std::string_view s, const options& o) : s_(s), opt_(o) {}

  value document() {
    skip();
    value v = node(0);
    skip();
    if (i_ < s_.size()) fail("unexpected content after the value");
    return v;
  }

  std::size_t pos() const { return i_; }

 private:
  std::string_view s_;
  options opt_;
  std::size_t i_ = 0;

  [[noreturn]] void fail(const std::string& what) const { throw stop{i_, what}; }

  void skip() {
    for (;;) {
      if (i_ >= s_.size()) return;
      const char c = s_[i_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
        ++i_;
      } else if (s_.compare(i_, 3, "\xC2\xA0") == 0 || s_.compare(i_, 3, "\xEF\xBB\xBF") == 0) {
        i_ += s_[i_] == '\xC2' ? 2 : 3;
      } else if (s_.compare(i_, 2, "//") == 0) {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (s_.compare(i_, 2, "/*") == 0) {
        const std::size_t end = s_.find("*/", i_ + 2);
        if (end == std::string_view::npos) fail("unterminated comment");
        i_ = end + 2;
      } else {
        return;
      }
    }
  }

  static bool ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
           static_cast<unsigned char>(c) >= 0x80;
  }
  static bool ident_part(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

  value node(std::size_t depth) {
    if (depth > opt_.max_depth) fail("nested deeper than " + std::to_string(opt_.max_depth));
    if (i_ >= s_.size()) fail("unexpected end of input");
    const char c = s_[i_];
    if (c == '{') return object(depth + 1);
    if (c == '[') return array(depth + 1);
    if (c == '"' || c == '\'') return value(string());
    if (s_.compare(i_, 4, "true") == 0 && !ident_part_at(i_ + 4)) return i_ += 4, value(true);
    if (s_.compare(i_, 5, "false") == 0 && !ident_part_at(i_ + 5)) return i_ += 5, value(false);
    if (s_.compare(i_, 4, "null") == 0 && !ident_part_at(i_ + 4)) return i_ += 4, value(nullptr);
    return number();
  }

  bool ident_part_at(std::size_t k) const { return k < s_.size() && ident_part(s_[k]); }

  value number() {
    const std::size_t from = i_;
    bool neg = false;
    if (s_[i_] == '+' || s_[i_] == '-') neg = s_[i_++] == '-';
    if (s_.compare(i_, 8, "Infinity") == 0 || s_.compare(i_, 3, "NaN") == 0) {
      i_ = from;
      fail("Infinity and NaN have no JSON equivalent");
    }
    if (s_.compare(i_, 2, "0x") == 0 || s_.compare(i_, 2, "0X") == 0) {
      i_ += 2;
      const std::size_t h = i_;
      while (i_ < s_.size() && yaml::detail::is_hex(s_[i_])) ++i_;
      if (i_ == h) fail("a malformed hex number");
      const double v = static_cast<double>(
          std::strtoull(std::string(s_.substr(h, i_ - h)).c_str(), nullptr, 16));
      return yaml::detail::number_value(neg ? -v : v);
    }
    const std::size_t digits_from = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    const std::size_t int_len = i_ - digits_from;
    if (int_len > 1 && s_[digits_from] == '0') fail("a number with a leading zero");
    std::size_t frac = 0;
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      const std::size_t f = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      frac = i_ - f;
    }
    if (int_len == 0 && frac == 0) {
      i_ = from;
      fail("unexpected character");
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      const std::size_t e = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      if (i_ == e) fail("a malformed exponent");
    }
    if (ident_part_at(i_)) fail("unexpected character after a number");
    std::string text(s_.substr(from, i_ - from));
    if (!text.empty() && text[0] == '+') text.erase(0, 1);
    const double d = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(d)) fail("a number out of range");
    return yaml::detail::number_value(d);
  }

  std::uint32_t hex(std::size_t n) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < n; ++k) {
      if (i_ >= s_.size() || !yaml::detail::is_hex(s_[i_])) fail("a malformed escape");
      const char h = s_[i_++];
      v = v * 16 + static_cast<std::uint32_t>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    return v;
  }

  std::string string() {
    const char q = s_[i_++];
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      const char c = s_[i_++];
      if (c == q) return out;
      if (c == '\n' || c == '\r') fail("a raw line break in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated string");
      const char e = s_[i_++];
      switch (e) {
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'v':
          out += '\v';
          break;
        case '0':
          if (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9')
            fail("octal escapes are not allowed");
          out += '\0';
          break;
        case 'x':
          utf8::append(out, hex(2));
          break;
        case 'u': {
          std::uint32_t cp = hex(4);
          if (cp >= 0xd800 && cp <= 0xdbff && s_.compare(i_, 2, "\\u") == 0) {
            i_ += 2;
            const std::uint32_t lo = hex(4);
            if (lo < 0xdc00 || lo > 0xdfff) fail("a lone UTF-16 surrogate");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          } else if (cp >= 0xd800 && cp <= 0xdfff) {
            fail("a lone UTF-16 surrogate");
          }
          utf8::append(out, cp);
          break;
        }
        case '\r':
          if (i_ < s_.size() && s_[i_] == '\n') ++i_;
          break;
        case '\n':
          break;
        default:
          if (e >= '1' && e <= '9') fail("octal escapes are not allowed");
          out += e;  // \' \" \\ \/ and any other character stand for themselves
      }
    }
  }

  std::string key() {
    if (s_[i_] == '"' || s_[i_] == '\'') return string();
    if (!ident_start(s_[i_])) fail("expected a key");
    const std::size_t from = i_;
    while (i_ < s_.size() && ident_part(s_[i_])) ++i_;
    return std::string(s_.substr(from, i_ - from));
  }

  /// The members of an object or the items of an array, after the opening bracket up to
  /// `close`: each read by `item`, separated by commas, a trailing comma allowed.
  template <class Item>
  void sequence(char close, const char* what, Item item) {
    ++i_;
    for (;;) {
      skip();
      if (i_ >= s_.size()) fail(std::string("unterminated ") + what);
      if (s_[i_] == close) {
        ++i_;
        return;
      }
      item();
      skip();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ >= s_.size() || s_[i_] != close) fail(std::string("expected `,` or `") + close + "`");
    }
  }

  value object(std::size_t depth) {
    value obj = value::object();
    sequence('}', "object", [&] {
      const std::size_t at = i_;
      std::string k = key();
      skip();
      if (i_ >= s_.size() || s_[i_] != ':') fail("expected `:` after a key");
      ++i_;
      skip();
      value v = node(depth);
      if (obj.contains(k)) {
        i_ = at;
        fail("duplicate key \"" + k + "\"");
      }
      obj[std::move(k)] = std::move(v);
    });
    return obj;
  }

  value array(std::size_t depth) {
    value arr = value::array();
    sequence(']', "array", [&] { arr.push_back(node(depth)); });
    return arr;
  }
};

}  // namespace detail

namespace detail {

/// Sets the 1-based line and column of byte `at` (columns count bytes).
inline void locate(result& r, std::string_view text, std::size_t at) {
  r.line = 1;
  std::size_t line_start = 0;
  for (std::size_t k = 0; k < at && k < text.size(); ++k)
    if (text[k] == '\n') ++r.line, line_start = k + 1;
  r.column = at - line_start + 1;
}

/// Offset of the first byte that does not start a well-formed UTF-8 character, or npos.
inline std::size_t first_invalid_utf8(std::string_view text) {
  for (std::size_t k = 0; k < text.size();) {
    const auto d = utf8::decode_at(text, k);
    if (d.length == 0) return k;
    k += d.length;
  }
  return std::string_view::npos;
}

}  // namespace detail

/// Reads one JSON5 text. Never throws for bad input. Every refusal carries a position: the
/// first byte past `max_bytes`, the first byte that is not UTF-8, or where the reader stopped.
inline result parse(std::string_view text, const options& opt = {}) {
  result r;
  if (text.size() > opt.max_bytes) {
    r.error = "the text is larger than " + std::to_string(opt.max_bytes) + " bytes";
    detail::locate(r, text, opt.max_bytes);
    return r;
  }
  if (const std::size_t bad = detail::first_invalid_utf8(text); bad != std::string_view::npos) {
    r.error = "the text is not valid UTF-8";
    detail::locate(r, text, bad);
    return r;
  }
  try {
    detail::reader rd(text, opt);
    r.data = rd.document();
  } catch (const detail::stop& s) {
    r.error = s.what;
    detail::locate(r, text, s.at);
    r.data = nullptr;
  }
  return r;
}

}  // namespace json5
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
