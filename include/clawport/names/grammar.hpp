// SPDX-License-Identifier: MIT
// The portable name grammar (docs/format.md) as small rule types composed at
// compile time. A rule is a type with
//   static constexpr std::optional<std::string_view> check(std::string_view name);
// returning the refusal reason (a phrase completing "the name ...") or nullopt.
// `grammar<Rules...>` runs them in order and reports the first reason; `with<>` and
// `without<>` derive new grammar types, so a consumer's policy is checked by the compiler.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <type_traits>

#include "../core/utf8.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace names {

namespace rules {

/// 1. "is empty".
struct not_empty {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    if (name.empty()) return std::string_view("is empty");
    return std::nullopt;
  }
};

/// Refuses bytes that are not UTF-8. Names read from TOML always are, so adding it to the
/// default grammar changes no docs/format.md outcome; it keeps the code-point rules well-defined.
struct valid_utf8 {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    if (!utf8::valid(name)) return std::string_view("is not valid UTF-8");
    return std::nullopt;
  }
};

/// 2. Leading or trailing Unicode White_Space (space, tab, NBSP, ...).
struct no_edge_whitespace {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    if (name.empty() || !utf8::valid(name)) return std::nullopt;
    if (utf8::is_white_space(utf8::decode_at(name, 0).cp) ||
        utf8::is_white_space(utf8::last(name).cp))
      return std::string_view("has leading or trailing whitespace");
    return std::nullopt;
  }
};

/// 3. Exactly "." or "..".
struct not_dot_or_dotdot {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    if (name == "." || name == "..")
      return std::string_view("names a relative directory rather than an entry");
    return std::nullopt;
  }
};

/// 4. '/' or '\'.
struct no_separators {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    for (char c : name)
      if (c == '/' || c == '\\') return std::string_view("contains a directory separator");
    return std::nullopt;
  }
};

/// 5. Any of : < > " | ? *
struct no_reserved_chars {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    for (char c : name)
      if (c == ':' || c == '<' || c == '>' || c == '"' || c == '|' || c == '?' || c == '*')
        return std::string_view("contains a character Windows does not allow in a filename");
    return std::nullopt;
  }
};

/// 6. A Unicode control character (category Cc: U+0000-001F, U+007F-009F).
struct no_control_chars {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    for (std::size_t i = 0; i < name.size();) {
      const utf8::decoded d = utf8::decode_at(name, i);
      if (d.length == 0) return std::nullopt;  // valid_utf8's business
      if (utf8::is_control(d.cp)) return std::string_view("contains a control character");
      i += d.length;
    }
    return std::nullopt;
  }
};

/// 7. Ends with '.'. (A trailing space is refused by no_edge_whitespace.)
struct no_trailing_dot {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    if (!name.empty() && name.back() == '.')
      return std::string_view("ends in a dot, which Windows strips to a different name");
    return std::nullopt;
  }
};

/// 8. CON PRN AUX NUL COM0-9 LPT0-9 as the stem before the FIRST '.', ASCII case-folded.
/// So `nul.json` and `com1.tar.gz` are refused; `com10`, `conf.d`, `my.con` are not.
struct no_windows_device_names {
  static constexpr char upper(char c) noexcept {
    return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  }
  static constexpr bool stem_is(std::string_view stem, std::string_view word) noexcept {
    if (stem.size() != word.size()) return false;
    for (std::size_t i = 0; i < stem.size(); ++i)
      if (upper(stem[i]) != word[i]) return false;
    return true;
  }
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    const std::string_view stem = name.substr(0, name.find('.'));
    bool device = stem_is(stem, "CON") || stem_is(stem, "PRN") || stem_is(stem, "AUX") ||
                  stem_is(stem, "NUL");
    if (!device && stem.size() == 4 && stem[3] >= '0' && stem[3] <= '9')
      device = stem_is(stem.substr(0, 3), "COM") || stem_is(stem.substr(0, 3), "LPT");
    if (device) return std::string_view("is a Windows device name");
    return std::nullopt;
  }
};

// ---- extra rules a consumer can add; none is part of names::portable ----

/// At most N bytes.
template <std::size_t N>
struct max_length {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    if (name.size() > N) return std::string_view("is longer than the length limit");
    return std::nullopt;
  }
};

/// Only ASCII bytes.
struct ascii_only {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    for (char c : name)
      if (static_cast<unsigned char>(c) >= 0x80)
        return std::string_view("contains a character outside ASCII");
    return std::nullopt;
  }
};

/// No ASCII upper-case letters (case-insensitive filesystems fold them).
struct lowercase_only {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    for (char c : name)
      if (c >= 'A' && c <= 'Z') return std::string_view("contains an upper-case letter");
    return std::nullopt;
  }
};

}  // namespace rules

namespace detail {

template <typename T, typename... List>
inline constexpr bool contains_v = (std::is_same_v<T, List> || ...);

template <typename Rule, typename = void>
struct is_rule : std::false_type {};
template <typename Rule>
struct is_rule<Rule,
               std::enable_if_t<std::is_convertible_v<decltype(Rule::check(std::string_view{})),
                                                      std::optional<std::string_view>>>>
    : std::true_type {};

template <typename... Drop>
struct rule_list {};

// Rebuilds Acc from the remaining rules, skipping those listed in Drop.
template <typename Acc, typename DropList, typename... Rest>
struct without_rules {
  using type = Acc;
};
template <template <typename...> class G, typename... Acc, typename... Drop, typename First,
          typename... Rest>
struct without_rules<G<Acc...>, rule_list<Drop...>, First, Rest...> {
  using type = typename std::conditional_t<
      contains_v<First, Drop...>, without_rules<G<Acc...>, rule_list<Drop...>, Rest...>,
      without_rules<G<Acc..., First>, rule_list<Drop...>, Rest...>>::type;
};

}  // namespace detail

/// Runs `Rules` in order; the first refusal's reason wins. A Names policy.
template <typename... Rules>
struct grammar {
  static_assert((detail::is_rule<Rules>::value && ...),
                "clawport::names::grammar: every rule must provide "
                "`static constexpr std::optional<std::string_view> check(std::string_view)`");

  /// Why `name` cannot be one path component on every supported target, or nullopt.
  static constexpr std::optional<std::string_view> unportable_reason(
      std::string_view name) noexcept {
    std::optional<std::string_view> reason;
    ((reason = reason ? reason : Rules::check(name)), ...);
    return reason;
  }

  /// True when every rule accepts `name`.
  static constexpr bool accepts(std::string_view name) noexcept {
    return !unportable_reason(name).has_value();
  }

  /// This grammar with `More` rules appended (checked after the existing ones).
  template <typename... More>
  using with = grammar<Rules..., More...>;

  /// This grammar without the rule types `Drop`.
  template <typename... Drop>
  using without =
      typename detail::without_rules<grammar<>, detail::rule_list<Drop...>, Rules...>::type;

  /// True when `Rule` is one of this grammar's rules.
  template <typename Rule>
  static constexpr bool has = detail::contains_v<Rule, Rules...>;
};

/// The default grammar: docs/format.md, in its order, with its reasons.
using portable =
    grammar<rules::not_empty, rules::valid_utf8, rules::no_edge_whitespace,
            rules::not_dot_or_dotdot, rules::no_separators, rules::no_reserved_chars,
            rules::no_control_chars, rules::no_trailing_dot, rules::no_windows_device_names>;

/// Whether `N` is a Names policy: it provides
///   static std::optional<std::string_view> unportable_reason(std::string_view);
template <typename N, typename = void>
struct is_names_policy : std::false_type {};
template <typename N>
struct is_names_policy<
    N, std::enable_if_t<std::is_convertible_v<decltype(N::unportable_reason(std::string_view{})),
                                              std::optional<std::string_view>>>> : std::true_type {
};
template <typename N>
inline constexpr bool is_names_policy_v = is_names_policy<N>::value;

/// Compile-time check with a message that names what is missing.
template <typename N>
constexpr void require_names_policy() noexcept {
  static_assert(is_names_policy_v<N>,
                "clawport: a Names policy must provide `static "
                "std::optional<std::string_view> unportable_reason(std::string_view name)` "
                "returning the refusal reason, or nullopt for a portable name");
}

/// The public predicate of docs/format.md: true when `name` is one portable path component.
template <typename Names = portable>
constexpr bool is_safe_path_component(std::string_view name) noexcept {
  require_names_policy<Names>();
  return !Names::unportable_reason(name).has_value();
}

}  // namespace names
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
