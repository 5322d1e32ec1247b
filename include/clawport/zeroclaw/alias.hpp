// SPDX-License-Identifier: MIT
// ZeroClaw's alias grammar (upstream `helpers::validate_alias_key`, enforced when an alias
// is created or renamed) and the deterministic collision rename an import uses:
// `<alias>_imported`, `<alias>_imported_2`, ... (no hyphens: the grammar forbids them).
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// The longest alias the grammar allows.
inline constexpr std::size_t max_alias_length = 63;

/// Why `key` is not a valid new alias (upstream's message), or nullopt: non-empty, at most
/// 63 characters, only `[a-z0-9_]`, first and last in `[a-z0-9]`, no `__`.
inline std::optional<std::string> alias_problem(std::string_view key) {
  const std::string k(key);
  if (key.empty()) return std::string("alias must not be empty");
  if (key.size() > max_alias_length)
    return "alias '" + k + "' is too long (" + std::to_string(key.size()) +
           " chars); maximum is 63";
  const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  for (char c : key)
    if (!alnum(c) && c != '_')
      return "alias '" + k + "' contains invalid character " + std::string(1, c) +
             "; only lowercase letters, digits, and single underscores are allowed (no "
             "hyphen, no uppercase)";
  if (!alnum(key.front())) return "alias '" + k + "' must start with a lowercase letter or digit";
  if (!alnum(key.back())) return "alias '" + k + "' must end with a lowercase letter or digit";
  if (key.find("__") != std::string_view::npos)
    return "alias '" + k +
           "' must not contain `__`; it is reserved as the env-var grammar's path separator";
  return std::nullopt;
}

/// The first of `<base>_imported`, `<base>_imported_2`, `<base>_imported_3`, ... that
/// `taken` rejects not. `base` is first made grammatical where it can be (lower-cased,
/// other characters and runs of `_` folded to one `_`, trimmed) and shortened so the
/// result fits in 63 characters.
inline std::string imported_alias(std::string_view base,
                                  const std::function<bool(const std::string&)>& taken) {
  std::string clean;
  for (char c : base) {
    char d = text::ascii_lower(c);
    const bool ok = (d >= 'a' && d <= 'z') || (d >= '0' && d <= '9');
    if (!ok) d = '_';
    if (d == '_' && (clean.empty() || clean.back() == '_')) continue;
    clean += d;
  }
  while (!clean.empty() && clean.back() == '_') clean.pop_back();
  if (clean.empty()) clean = "agent";
  for (unsigned n = 1;; ++n) {
    const std::string suffix = n == 1 ? "_imported" : "_imported_" + std::to_string(n);
    std::string stem = clean.substr(0, max_alias_length - suffix.size());
    while (!stem.empty() && stem.back() == '_') stem.pop_back();
    const std::string candidate = stem + suffix;
    if (!taken(candidate)) return candidate;
  }
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
