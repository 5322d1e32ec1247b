// SPDX-License-Identifier: MIT
// The identifier grammars of Claw manifests (docs/openclaw.md), JavaScript's
// String.prototype.trim, the safe relative path and the portable collision key.
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"

#include "../formats/unicode.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

namespace detail {
inline bool lower_alnum(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
inline bool digit(char c) noexcept { return c >= '0' && c <= '9'; }
inline bool alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool js_space(std::uint32_t cp) noexcept {
  return cp == 0x09 || cp == 0x0a || cp == 0x0b || cp == 0x0c || cp == 0x0d || cp == 0x20 ||
         cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000 || cp == 0xfeff;
}
}  // namespace detail

/// JavaScript's String.prototype.trim on UTF-8 (ASCII whitespace, NBSP, U+1680,
/// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF).
inline std::string_view js_trim(std::string_view s) {
  const auto cps = unicode::detail::decode(s);
  std::size_t b = 0;
  std::size_t e = cps.size();
  while (b < e && detail::js_space(cps[b])) ++b;
  while (e > b && detail::js_space(cps[e - 1])) --e;
  // Map code-point bounds back to bytes.
  std::size_t from = s.size();
  std::size_t to = s.size();
  std::size_t k = 0;
  for (std::size_t i = 0; i < cps.size(); ++i) {
    if (i == b) from = k;
    if (i == e) {
      to = k;
      break;
    }
    const auto c = static_cast<unsigned char>(s[k]);
    k += c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
  }
  if (b == cps.size()) return s.substr(s.size(), 0);
  return s.substr(from, to - from);
}

/// A canonical non-empty string: at least one character and equal to its own trim().
inline bool is_canonical(std::string_view s) { return !s.empty() && js_trim(s).size() == s.size(); }

/// `^[a-z][a-z0-9_-]{0,63}$` (agent, MCP server and cron ids).
inline bool is_agent_id(std::string_view s) noexcept {
  if (s.empty() || s.size() > 64 || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  for (const char c : s)
    if (!detail::lower_alnum(c) && c != '_' && c != '-') return false;
  return true;
}

/// `^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$` (ClawHub package names).
inline bool is_package_name(std::string_view s) noexcept {
  auto part = [](std::string_view p) {
    if (p.empty() || !detail::lower_alnum(p[0])) return false;
    for (const char c : p)
      if (!detail::lower_alnum(c) && c != '.' && c != '_' && c != '-') return false;
    return true;
  };
  if (!s.empty() && s[0] == '@') {
    const std::size_t slash = s.find('/');
    if (slash == std::string_view::npos) return false;
    return part(s.substr(1, slash - 1)) && part(s.substr(slash + 1));
  }
  return part(s);
}

/// Exact SemVer 2.0.0 (Appendix A).
inline bool is_semver(std::string_view s) noexcept {
  std::size_t k = 0;
  auto number = [&]() {
    const std::size_t from = k;
    while (k < s.size() && detail::digit(s[k])) ++k;
    if (k == from) return false;
    return !(s[from] == '0' && k - from > 1);
  };
  auto ident_char = [](char c) { return detail::digit(c) || detail::alpha(c) || c == '-'; };
  for (int part = 0; part < 3; ++part) {
    if (!number()) return false;
    if (part < 2) {
      if (k >= s.size() || s[k] != '.') return false;
      ++k;
    }
  }
  if (k < s.size() && s[k] == '-') {
    ++k;
    for (;;) {
      const std::size_t from = k;
      bool numeric = true;
      while (k < s.size() && ident_char(s[k])) {
        if (!detail::digit(s[k])) numeric = false;
        ++k;
      }
      if (k == from) return false;
      if (numeric && s[from] == '0' && k - from > 1) return false;
      if (k < s.size() && s[k] == '.') {
        ++k;
        continue;
      }
      break;
    }
  }
  if (k < s.size() && s[k] == '+') {
    ++k;
    for (;;) {
      const std::size_t from = k;
      while (k < s.size() && ident_char(s[k])) ++k;
      if (k == from) return false;
      if (k < s.size() && s[k] == '.') {
        ++k;
        continue;
      }
      break;
    }
  }
  return k == s.size();
}

/// `^[A-Za-z_][A-Za-z0-9_]*$`
inline bool is_env_key(std::string_view s) noexcept {
  if (s.empty() || !(detail::alpha(s[0]) || s[0] == '_')) return false;
  for (const char c : s)
    if (!detail::alpha(c) && !detail::digit(c) && c != '_') return false;
  return true;
}

/// `^\$\{[A-Z_][A-Z0-9_]*\}$`; sets `name` to the variable.
inline bool is_env_reference(std::string_view s, std::string* name = nullptr) {
  if (s.size() < 4 || s[0] != '$' || s[1] != '{' || s.back() != '}') return false;
  const std::string_view v = s.substr(2, s.size() - 3);
  if (v.empty() || !((v[0] >= 'A' && v[0] <= 'Z') || v[0] == '_')) return false;
  for (const char c : v)
    if (!((c >= 'A' && c <= 'Z') || detail::digit(c) || c == '_')) return false;
  if (name != nullptr) *name = std::string(v);
  return true;
}

/// OpenClaw's `isSafeClawRelativePath`.
inline bool is_safe_relative_path(std::string_view raw) {
  std::string p(raw);
  for (char& c : p)
    if (c == '\\') c = '/';
  if (p.empty() || p[0] == '/') return false;
  if (p.size() >= 3 && detail::alpha(p[0]) && p[1] == ':' && p[2] == '/') return false;
  std::size_t from = 0;
  for (;;) {
    const std::size_t slash = p.find('/', from);
    const std::string seg =
        p.substr(from, slash == std::string::npos ? std::string::npos : slash - from);
    if (seg.empty() || seg == "." || seg == "..") return false;
    for (const char c : seg) {
      const auto u = static_cast<unsigned char>(c);
      if (u <= 31 || c == '<' || c == '>' || c == ':' || c == '"' || c == '|' || c == '?' ||
          c == '*') {
        return false;
      }
    }
    if (seg.back() == '.' || seg.back() == ' ') return false;
    const std::string low = text::to_lower_ascii(seg);
    const std::string stem = low.substr(0, low.find('.'));
    if (stem == "con" || stem == "prn" || stem == "aux" || stem == "nul" ||
        (stem.size() == 4 && (stem.compare(0, 3, "com") == 0 || stem.compare(0, 3, "lpt") == 0) &&
         stem[3] >= '1' && stem[3] <= '9')) {
      return false;
    }
    if (slash == std::string::npos) break;
    from = slash + 1;
  }
  return true;
}

/// `\` → `/`.
inline std::string forward_slashes(std::string_view p) {
  std::string out(p);
  for (char& c : out)
    if (c == '\\') c = '/';
  return out;
}

/// The portable collision key: `lowercase(NFC(p with \ → /))`.
inline std::string portable_key(std::string_view p) {
  return unicode::to_lower(unicode::nfc(forward_slashes(p)));
}

/// Two keys conflict when equal or when one is a `/`-ancestor of the other.
inline bool keys_conflict(std::string_view a, std::string_view b) {
  if (a == b) return true;
  const std::string_view shorter = a.size() < b.size() ? a : b;
  const std::string_view longer = a.size() < b.size() ? b : a;
  return longer.size() > shorter.size() && longer.compare(0, shorter.size(), shorter) == 0 &&
         longer[shorter.size()] == '/';
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
