// SPDX-License-Identifier: MIT
// The zod-like strict validator the manifest and profile schemas share: every issue a
// diagnostic with OpenClaw's code, phase and path, in zod 4's words; none stops the others.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "diagnostics.hpp"
#include "grammar.hpp"
#include "value.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

namespace detail {

/// The type zod names in its messages, in the order of nlohmann's `value_t` (binary does
/// not occur in a parsed document; a discarded value is JavaScript's undefined).
inline constexpr const char* type_names[] = {"null",   "object", "array",  "string", "boolean",
                                             "number", "number", "number", "number", "undefined"};

inline std::string type_name(const value& v) {
  return wire_name<value::value_t::discarded>(v.type(), type_names, "number");
}

/// A zod-like strict validator that records every issue as a diagnostic.
class checker {
 public:
  checker(std::vector<diagnostic>& out, errc code) : out_(out), code_(code) {}

  void issue(const std::string& path, const std::string& message) {
    out_.push_back(error_at(code_, phase::schema, path, message));
  }
  /// An issue zod 4 aborts on (a wrong type or shape, an enum or literal miss): the outer
  /// refinements (the manifest's cross-field rules) do not run after one. A failed check or
  /// refinement (`issue`) lets them run.
  void fatal(const std::string& path, const std::string& message) {
    aborted_ = true;
    hard_ = true;
    issue(path, message);
  }
  bool aborted() const { return aborted_; }
  /// A wrong type, enum or literal was recorded: a union branch that fails so is no match
  /// (unknown keys and refinements leave a branch one).
  bool hard() const { return hard_; }
  errc code() const { return code_; }
  /// Takes over the issues (`found`) and the abort of a checker run on one union branch.
  void adopt(const checker& branch, const std::vector<diagnostic>& found) {
    for (const diagnostic& d : found) out_.push_back(d);
    aborted_ = aborted_ || branch.aborted_;
  }
  std::size_t count() const { return out_.size(); }

  /// `ok` (whether `v` has the `expected` type), saying so at `path` when not: the one
  /// wording of a wrong type.
  bool typed(bool ok, const value& v, const std::string& path, const char* expected) {
    if (!ok)
      fatal(path,
            std::string("Invalid input: expected ") + expected + ", received " + type_name(v));
    return ok;
  }
  bool object(const value& v, const std::string& path) {
    return typed(v.is_object(), v, path, "object");
  }
  bool array(const value& v, const std::string& path) {
    return typed(v.is_array(), v, path, "array");
  }
  bool nonempty_array(const value& v, const std::string& path) {
    if (!array(v, path)) return false;
    if (!v.empty()) return true;
    issue(path, "Too small: expected array to have >=1 items");
    return false;
  }
  /// Unknown keys → one issue at the containing object.
  void strict(const value& obj, const std::string& path, std::initializer_list<const char*> keys) {
    std::string unknown;
    std::size_t n = 0;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool known = false;
      for (const char* k : keys) known = known || it.key() == k;
      if (!known) {
        if (n++) unknown += ", ";
        unknown += "\"" + it.key() + "\"";
      }
    }
    if (n == 0) return;
    aborted_ = true;
    issue(path, std::string(n == 1 ? "Unrecognized key: " : "Unrecognized keys: ") + unknown);
  }
  /// A member a schema requires: when absent, JavaScript's undefined, which the member's own
  /// check then names in zod 4's words ("expected string, received undefined", an enum's
  /// options, a literal's value), as upstream reports a missing member.
  static const value& field(const value& obj, const char* key) {
    static const value undefined(value::value_t::discarded);
    const auto it = obj.find(key);
    return it == obj.end() ? undefined : *it;
  }
  bool string(const value& v, const std::string& path) {
    if (!typed(v.is_string(), v, path, "string")) return false;
    if (!is_canonical(v.get_ref<const std::string&>())) {
      issue(path, "Must be a non-empty string without leading or trailing whitespace.");
      return false;
    }
    return true;
  }
  bool any_string(const value& v, const std::string& path) {
    return typed(v.is_string(), v, path, "string");
  }
  bool boolean(const value& v, const std::string& path) {
    return typed(v.is_boolean(), v, path, "boolean");
  }
  bool one_of(const value& v, const std::string& path, std::initializer_list<const char*> opts) {
    std::string list;
    for (const char* o : opts) {
      if (v.is_string() && v.get_ref<const std::string&>() == o) return true;
      list += (list.empty() ? "\"" : "|\"") + std::string(o) + "\"";
    }
    // zod 4's words: one value is `Invalid input: expected "x"`.
    fatal(path, opts.size() == 1 ? "Invalid input: expected " + list
                                 : "Invalid option: expected one of " + list);
    return false;
  }
  bool positive_number(const value& v, const std::string& path) {
    if (!typed(v.is_number(), v, path, "number")) return false;
    if (!(v.get<double>() > 0) || !std::isfinite(v.get<double>())) {
      issue(path, "Too small: expected number to be >0");
      return false;
    }
    return true;
  }
  bool integer(const value& v, const std::string& path, std::int64_t min) {
    if (!typed(v.is_number(), v, path, "number")) return false;
    const double d = v.get<double>();
    if (d != std::floor(d) || !std::isfinite(d)) {
      fatal(path, "Invalid input: expected int, received number");
      return false;
    }
    if (d < static_cast<double>(min)) {
      // zod 4 names the bound as the schema wrote it: `.positive()` (>0) or `.min(n)` (>=n).
      issue(path, min == 1 ? std::string("Too small: expected number to be >0")
                           : "Too small: expected number to be >=" + std::to_string(min));
      return false;
    }
    return true;
  }
  bool literal_one(const value& v, const std::string& path) {
    if (v.is_number() && v.get<double>() == 1.0) return true;
    fatal(path, "Invalid input: expected 1");
    return false;
  }
  bool safe_path(const value& v, const std::string& path) {
    if (!string(v, path)) return false;
    if (is_safe_relative_path(v.get_ref<const std::string&>())) return true;
    issue(path, "Path must be package-relative and must not contain traversal segments.");
    return false;
  }
  bool string_array(const value& v, const std::string& path, bool nonempty) {
    if (!(nonempty ? nonempty_array(v, path) : array(v, path))) return false;
    bool ok = true;
    for (std::size_t k = 0; k < v.size(); ++k) ok = string(v[k], index(path, k)) && ok;
    return ok;
  }

 private:
  std::vector<diagnostic>& out_;
  errc code_;
  bool aborted_ = false;
  bool hard_ = false;
};

inline const value* get(const value& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

inline std::string str(const value& v) {
  return v.is_string() ? v.get<std::string>() : std::string();
}

}  // namespace detail

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
