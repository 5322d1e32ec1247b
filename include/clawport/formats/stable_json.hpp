// SPDX-License-Identifier: MIT
// OpenClaw's JSON text, byte for byte: `stableStringify` (the canonical serializer under
// planIntegrity and every capability digest, docs/openclaw.md) and the
// `JSON.stringify(value, null, 2)` its CLI prints. JavaScript's rules are reproduced:
// Number#toString for numbers, UTF-16 code-unit order for keys, JSON.stringify escapes, and
// the present-but-undefined member (modelled as nlohmann's `discarded` value).
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace json {

/// JSON data as OpenClaw handles it: insertion-ordered objects.
using value = nlohmann::ordered_json;

/// JavaScript's `undefined` as a value that can sit in an object or array: kept by
/// stableStringify (`{"digest":undefined}`), dropped by JSON.stringify.
inline value undefined_value() { return value(value::value_t::discarded); }
inline bool is_undefined(const value& v) noexcept { return v.is_discarded(); }

namespace detail {

inline std::uint32_t next_code_point(std::string_view s, std::size_t& k) {
  const auto c = static_cast<unsigned char>(s[k]);
  std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
  if (k + len > s.size()) len = s.size() - k;
  std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1f) : len == 3 ? (c & 0x0f) : (c & 0x07);
  for (std::size_t j = 1; j < len; ++j)
    cp = (cp << 6) | (static_cast<unsigned char>(s[k + j]) & 0x3f);
  k += len;
  return cp;
}

inline std::u16string utf16(std::string_view s) {
  std::u16string out;
  out.reserve(s.size());
  for (std::size_t k = 0; k < s.size();) {
    const std::uint32_t cp = next_code_point(s, k);
    if (cp >= 0x10000) {
      out += static_cast<char16_t>(0xd800 + ((cp - 0x10000) >> 10));
      out += static_cast<char16_t>(0xdc00 + ((cp - 0x10000) & 0x3ff));
    } else {
      out += static_cast<char16_t>(cp);
    }
  }
  return out;
}

}  // namespace detail

/// JavaScript's default sort order for strings: UTF-16 code units.
inline bool utf16_less(std::string_view a, std::string_view b) {
  return detail::utf16(a) < detail::utf16(b);
}

/// JSON.stringify of a string (well-formed UTF-8 in, UTF-8 out).
inline std::string js_string(std::string_view s) {
  return text::quote_basic(s, text::json_quote_style);
}

/// Number#toString of a finite double (shortest round-trip digits, JavaScript's layout:
/// plain up to 1e21, exponent form `1e+21` / `1e-7` outside [1e-6, 1e21)).
inline std::string js_number(double d) {
  if (d == 0) return "0";  // also -0
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  std::string out;
  if (sci[0] == '-') {
    out += '-';
    sci.erase(0, 1);
  }
  const std::size_t e_at = sci.find('e');
  std::string digits;
  for (std::size_t k = 0; k < e_at; ++k)
    if (sci[k] != '.') digits += sci[k];
  const int exp10 = std::atoi(sci.c_str() + e_at + 1);
  const int k = static_cast<int>(digits.size());
  const int n = exp10 + 1;
  if (k <= n && n <= 21) {
    out += digits;
    out.append(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<std::size_t>(n));
    out += '.';
    out += digits.substr(static_cast<std::size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-n), '0');
    out += digits;
  } else {
    const int e = n - 1;
    out += digits[0];
    if (k > 1) {
      out += '.';
      out += digits.substr(1);
    }
    out += 'e';
    out += e < 0 ? '-' : '+';
    out += std::to_string(e < 0 ? -e : e);
  }
  return out;
}

namespace detail {

inline std::string number_text(const value& v, bool stable) {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned()) {
      const auto u = v.get<std::uint64_t>();
      if (u <= 9007199254740992ull) return std::to_string(u);
      return js_number(static_cast<double>(u));
    }
    const auto i = v.get<std::int64_t>();
    if (i <= 9007199254740992ll && i >= -9007199254740992ll) return std::to_string(i);
    return js_number(static_cast<double>(i));
  }
  const double d = v.get<double>();
  if (!std::isfinite(d)) {
    if (!stable) return "null";
    return std::isnan(d) ? "\"NaN\"" : d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  }
  return js_number(d);
}

inline std::vector<const std::string*> sorted_keys(const value& obj) {
  std::vector<std::pair<std::u16string, const std::string*>> keys;
  for (auto it = obj.begin(); it != obj.end(); ++it) keys.emplace_back(utf16(it.key()), &it.key());
  std::sort(keys.begin(), keys.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const std::string*> out;
  out.reserve(keys.size());
  for (auto& k : keys) out.push_back(k.second);
  return out;
}

inline void stable(const value& v, std::string& out) {
  switch (v.type()) {
    case value::value_t::discarded:
      out += "undefined";
      return;
    case value::value_t::null:
      out += "null";
      return;
    case value::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      return;
    case value::value_t::string:
      out += js_string(v.get_ref<const std::string&>());
      return;
    case value::value_t::number_integer:
    case value::value_t::number_unsigned:
    case value::value_t::number_float:
      out += number_text(v, true);
      return;
    case value::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v) {
        if (!first) out += ',';
        first = false;
        stable(e, out);
      }
      out += ']';
      return;
    }
    case value::value_t::object: {
      out += '{';
      bool first = true;
      for (const std::string* k : sorted_keys(v)) {
        if (!first) out += ',';
        first = false;
        out += js_string(*k);
        out += ':';
        stable(v.at(*k), out);
      }
      out += '}';
      return;
    }
    case value::value_t::binary:
      out += "null";
      return;
  }
}

inline void pretty(const value& v, std::string& out, int indent, int level) {
  const auto pad = [&](int l) {
    if (indent <= 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * l), ' ');
  };
  switch (v.type()) {
    case value::value_t::array: {
      if (v.empty()) {
        out += "[]";
        return;
      }
      out += '[';
      bool first = true;
      for (const auto& e : v) {
        if (!first) out += ',';
        first = false;
        pad(level + 1);
        if (is_undefined(e)) {
          out += "null";
        } else {
          pretty(e, out, indent, level + 1);
        }
      }
      pad(level);
      out += ']';
      return;
    }
    case value::value_t::object: {
      bool first = true;
      out += '{';
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (is_undefined(it.value())) continue;
        if (!first) out += ',';
        first = false;
        pad(level + 1);
        out += js_string(it.key());
        out += indent > 0 ? ": " : ":";
        pretty(it.value(), out, indent, level + 1);
      }
      if (first) {
        out += '}';
        return;
      }
      pad(level);
      out += '}';
      return;
    }
    case value::value_t::discarded:
      out += "null";
      return;
    case value::value_t::number_integer:
    case value::value_t::number_unsigned:
    case value::value_t::number_float:
      out += number_text(v, false);
      return;
    default:
      stable(v, out);
      return;
  }
}

}  // namespace detail

/// OpenClaw's `stableStringify`: keys sorted by UTF-16 code units, no whitespace,
/// `undefined` kept as a bare token, non-finite numbers as quoted strings.
inline std::string stable_stringify(const value& v) {
  std::string out;
  detail::stable(v, out);
  return out;
}

/// `JSON.stringify(v, null, indent)`: insertion order, undefined members dropped
/// (undefined array elements print as null), non-finite numbers as null.
inline std::string js_stringify(const value& v, int indent = 2) {
  std::string out;
  detail::pretty(v, out, indent, 0);
  return out;
}

}  // namespace json
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
