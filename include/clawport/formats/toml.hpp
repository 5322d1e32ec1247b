// SPDX-License-Identifier: MIT
// The one TOML adaptor: every TOML text the library reads (config.toml, SKILL.toml,
// manifest.toml, a rendered closure read back) is parsed here, through toml++, with or
// without exceptions (TOML_EXCEPTIONS=0 is supported), and a syntax error becomes
// clawport::error(errc::config_parse) naming "{subject}:{line}:{column}: {description}".
// Nesting deeper than CLAWPORT_MAX_TOML_DEPTH is refused first (toml_limits.hpp).
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include <toml++/toml.h>

#include "../core/error.hpp"
#include "toml_limits.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace toml_adaptor {

namespace detail {

inline error parse_failure(const toml::parse_error& e, std::string_view subject) {
  const auto& where = e.source().begin;
  std::string s(subject);
  return error(errc::config_parse,
               s + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": " +
                   std::string(e.description()),
               s);
}

}  // namespace detail

/// Parses TOML text into a toml++ table; `subject` names the text in errors and in the
/// nodes' source regions ("config.toml", "SKILL.toml").
inline toml::table parse(std::string_view text, std::string_view subject) {
  check_depth(text, subject);  // before toml++ recurses: errc::limit_exceeded
#if TOML_EXCEPTIONS
  try {
    return toml::parse(text, subject);
  } catch (const toml::parse_error& e) {
    throw detail::parse_failure(e, subject);
  }
#else
  toml::parse_result r = toml::parse(text, subject);
  if (!r) throw detail::parse_failure(r.error(), subject);
  return std::move(r).table();
#endif
}

}  // namespace toml_adaptor
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
