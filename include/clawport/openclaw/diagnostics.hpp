// SPDX-License-Identifier: MIT
// OpenClaw's diagnostic record `{level, code, phase, path, message}` (docs/openclaw.md)
// and its two renderings: the JSON object and the human line `LEVEL code path: message`.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"

#include "value.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

enum class level { error, warning };
enum class phase { parse, schema, policy, plan, mutation };

constexpr std::string_view to_string(level l) noexcept {
  return l == level::error ? "error" : "warning";
}
inline constexpr std::string_view phase_names[] = {"parse", "schema", "policy", "plan", "mutation"};
constexpr std::string_view to_string(phase p) noexcept {
  return wire_name<phase::mutation>(p, phase_names, "parse");
}

/// One finding. `path` uses OpenClaw's syntax: `$` root, `.key` members, `[n]` indices.
struct diagnostic {
  openclaw::level level = level::error;
  /// From the one vocabulary (core/error.hpp): OpenClaw's and ClawHub's codes are `errc`
  /// values, their wire names `to_string(code)`.
  errc code = errc::invalid_argument;
  openclaw::phase phase = phase::parse;
  std::string path = "$";
  std::string message;
  /// Where in the file, for a YAML problem whose message is upstream's and names no place
  /// (1-based; 0 when the diagnostic has no source position). An extra JSON member.
  std::size_t line = 0;
  std::size_t column = 0;
};

inline diagnostic make_diagnostic(level lv, errc code, phase ph, std::string path,
                                  std::string message) {
  diagnostic d;
  d.level = lv;
  d.code = code;
  d.phase = ph;
  d.path = std::move(path);
  d.message = std::move(message);
  return d;
}
inline diagnostic error_at(errc code, phase ph, std::string path, std::string message) {
  return make_diagnostic(level::error, code, ph, std::move(path), std::move(message));
}
inline diagnostic warning_at(errc code, phase ph, std::string path, std::string message) {
  return make_diagnostic(level::warning, code, ph, std::move(path), std::move(message));
}

/// Whether `d` carries `code`.
inline bool has_code(const diagnostic& d, errc code) { return d.code == code; }

inline bool has_errors(const std::vector<diagnostic>& ds) {
  for (const auto& d : ds)
    if (d.level == level::error) return true;
  return false;
}

/// `{level, code, phase, path, message}` in that order, then `line` and `column` when the
/// diagnostic has a source position.
inline value to_json(const diagnostic& d) {
  value v = value::object();
  v["level"] = std::string(to_string(d.level));
  v["code"] = std::string(to_string(d.code));
  v["phase"] = std::string(to_string(d.phase));
  v["path"] = d.path;
  v["message"] = d.message;
  if (d.line != 0) {
    v["line"] = d.line;
    v["column"] = d.column;
  }
  return v;
}

inline value to_json(const std::vector<diagnostic>& ds) {
  value a = value::array();
  for (const auto& d : ds) a.push_back(to_json(d));
  return a;
}

/// The human line: `ERROR invalid_manifest $.agent: Unrecognized key: "model"`, and
/// ` (line L, column C)` after the message when the diagnostic has a source position.
inline std::string human_line(const diagnostic& d) {
  std::string out = d.level == level::error ? "ERROR " : "WARNING ";
  out += to_string(d.code);
  out += ' ';
  out += d.path;
  out += ": ";
  out += d.message;
  if (d.line != 0)
    out += " (line " + std::to_string(d.line) + ", column " + std::to_string(d.column) + ")";
  return out;
}

/// Path helpers: `member("$.agent", "id")` is `$.agent.id`, `index("$.packages", 0)` is
/// `$.packages[0]`.
inline std::string member(const std::string& path, std::string_view key) {
  return path + "." + std::string(key);
}
inline std::string index(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
