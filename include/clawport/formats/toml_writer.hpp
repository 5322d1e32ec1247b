// SPDX-License-Identifier: MIT
// Writes the ordered document model as TOML: plain values first, then `[tables]` and
// `[[arrays of tables]]` with dotted headers, keys in insertion order; then the
// `ensure_blank_line_before_sections` pass of docs/format.md.
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "toml_document.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace toml_writer {

using toml_doc::member;
using toml_doc::value;

inline bool bare_key(std::string_view key) noexcept {
  if (key.empty()) return false;
  for (const char c : key)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '-'))
      return false;
  return true;
}

inline std::string quote(std::string_view s) {
  return text::quote_basic(s, text::toml_quote_style);
}

inline std::string key(std::string_view k) { return bare_key(k) ? std::string(k) : quote(k); }

inline std::string floating(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, d);
  std::string out(buf, res.ptr);
  if (out.find_first_of(".eEn") == std::string::npos) out += ".0";
  return out;
}

/// True for a non-empty array whose elements are all tables (written as [[...]]).
inline bool is_table_array(const value& v) {
  if (!v.is_array() || v.items.empty()) return false;
  for (const value& item : v.items)
    if (!item.is_table()) return false;
  return true;
}

inline std::string inline_value(const value& v);

inline std::string inline_array(const value& v, bool pretty) {
  if (v.items.empty()) return "[]";
  std::vector<std::string> parts;
  std::size_t width = 0;
  for (const value& item : v.items) {
    parts.push_back(inline_value(item));
    width += parts.back().size() + 2;
  }
  if (!pretty && width <= 80) {
    std::string out = "[";
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
    return out + "]";
  }
  std::string out = "[\n";
  for (const std::string& p : parts) out += "    " + p + ",\n";
  return out + "]";
}

inline std::string inline_value(const value& v) {
  switch (v.type) {
    case value::kind::string:
      return quote(v.text);
    case value::kind::integer:
      return std::to_string(v.integer);
    case value::kind::floating:
      return floating(v.floating);
    case value::kind::boolean:
      return v.boolean ? "true" : "false";
    case value::kind::datetime:
      return v.text;
    case value::kind::array:
      return inline_array(v, false);
    case value::kind::table: {
      if (v.members.empty()) return "{}";
      std::string out = "{ ";
      for (std::size_t i = 0; i < v.members.size(); ++i)
        out += (i ? ", " : "") + key(v.members[i].key) + " = " + inline_value(v.members[i].val);
      return out + " }";
    }
  }
  return {};
}

inline bool is_section(const value& v) { return v.is_table() || is_table_array(v); }

inline void write_body(const value& table, const std::string& prefix, bool pretty,
                       std::string& out);

inline void write_table(const value& table, const std::string& path, bool pretty,
                        std::string& out) {
  bool has_plain = false;
  for (const member& m : table.members)
    if (!is_section(m.val)) has_plain = true;
  if (has_plain || table.members.empty()) out += "[" + path + "]\n";
  write_body(table, path, pretty, out);
}

inline void write_body(const value& table, const std::string& prefix, bool pretty,
                       std::string& out) {
  for (const member& m : table.members)
    if (!is_section(m.val))
      out += key(m.key) + " = " +
             (m.val.is_array() ? inline_array(m.val, pretty) : inline_value(m.val)) + "\n";
  for (const member& m : table.members) {
    if (!is_section(m.val)) continue;
    const std::string path = prefix.empty() ? key(m.key) : prefix + "." + key(m.key);
    if (m.val.is_table()) {
      write_table(m.val, path, pretty, out);
    } else {
      for (const value& element : m.val.items) {
        out += "[[" + path + "]]\n";
        write_body(element, path, pretty, out);
      }
    }
  }
}

/// `ensure_blank_line_before_sections`: a line starting with '[' that follows a non-blank
/// line gets an empty line before it; the start counts as blank; lines end with '\n'.
inline std::string blank_line_before_sections(std::string_view text) {
  std::string out;
  bool previous_blank = true;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.front() == '[' && !previous_blank) out += '\n';
    out.append(line.data(), line.size());
    out += '\n';
    previous_blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
    start = end + 1;
  }
  return out;
}

/// The document as TOML text. `pretty` writes every non-empty array one item per line.
inline std::string write(const value& document, bool pretty) {
  std::string out;
  write_body(document, "", pretty, out);
  return blank_line_before_sections(out);
}

}  // namespace toml_writer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
