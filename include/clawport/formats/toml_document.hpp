// SPDX-License-Identifier: MIT
// An insertion-ordered TOML document (no runtime's: ZeroClaw's configs and bundles use it). toml++
// keeps tables sorted by key; the bundle's files are written in schema order, so the closure is
// held in this small model and toml++ is used only to parse (the source config and the round-trip
// re-parse).
#pragma once

#include "../core/config.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace toml_doc {

struct member;

/// One TOML value. Dates and times are kept as their TOML text (`kind::datetime`).
struct value {
  enum class kind { string, integer, floating, boolean, datetime, array, table };

  kind type = kind::table;
  std::string text;  ///< string contents, or the literal of a datetime
  std::int64_t integer = 0;
  double floating = 0;
  bool boolean = false;
  /// Set only by the schema's secret masking (shape.hpp): this string is a secret field's
  /// value, which the scrubber blanks and lists in required_secrets. The scrubber reads
  /// this mark, never the text, so a non-secret value that reads `***MASKED***` travels.
  bool masked = false;
  std::vector<value> items;     ///< array elements
  std::vector<member> members;  ///< table members, in insertion order

  static inline value make_string(std::string s);
  static inline value make_integer(std::int64_t i);
  static inline value make_floating(double f);
  static inline value make_boolean(bool b);
  static inline value make_array(std::vector<value> items = {});
  static inline value make_table();

  bool is_table() const noexcept { return type == kind::table; }
  bool is_array() const noexcept { return type == kind::array; }
  bool is_string() const noexcept { return type == kind::string; }
  bool is_boolean() const noexcept { return type == kind::boolean; }

  /// The member `key` of a table, or nullptr.
  inline const value* find(std::string_view key) const noexcept;
  inline value* find(std::string_view key) noexcept;
  /// Sets `key` (replacing in place, or appending) and returns the stored value.
  inline value& set(std::string key, value v);
  /// Removes `key`; true when it was there.
  inline bool erase(std::string_view key);
  /// The member `key`, created as an empty table when absent.
  inline value& child_table(const std::string& key);

  friend inline bool operator==(const value& a, const value& b);
  friend bool operator!=(const value& a, const value& b) { return !(a == b); }
};

struct member {
  std::string key;
  value val;
};

inline value value::make_string(std::string s) {
  value v;
  v.type = kind::string;
  v.text = std::move(s);
  return v;
}
inline value value::make_integer(std::int64_t i) {
  value v;
  v.type = kind::integer;
  v.integer = i;
  return v;
}
inline value value::make_floating(double f) {
  value v;
  v.type = kind::floating;
  v.floating = f;
  return v;
}
inline value value::make_boolean(bool b) {
  value v;
  v.type = kind::boolean;
  v.boolean = b;
  return v;
}
inline value value::make_array(std::vector<value> items) {
  value v;
  v.type = kind::array;
  v.items = std::move(items);
  return v;
}
inline value value::make_table() { return value{}; }

inline const value* value::find(std::string_view key) const noexcept {
  for (const member& m : members)
    if (m.key == key) return &m.val;
  return nullptr;
}
inline value* value::find(std::string_view key) noexcept {
  for (member& m : members)
    if (m.key == key) return &m.val;
  return nullptr;
}
inline value& value::set(std::string key, value v) {
  if (value* existing = find(key)) {
    *existing = std::move(v);
    return *existing;
  }
  members.push_back(member{std::move(key), std::move(v)});
  return members.back().val;
}
inline bool value::erase(std::string_view key) {
  for (auto it = members.begin(); it != members.end(); ++it) {
    if (it->key == key) {
      members.erase(it);
      return true;
    }
  }
  return false;
}
inline value& value::child_table(const std::string& key) {
  if (value* existing = find(key)) return *existing;
  return set(key, make_table());
}

/// A reader's lookup: the table at `keys` below `root`, each step a table, or nullptr when
/// any is absent or not a table (closure.hpp, validate).
inline const value* find_table(const value* root, std::initializer_list<std::string_view> keys) {
  const value* v = root;
  for (const std::string_view k : keys) {
    if (v == nullptr || !v->is_table()) return nullptr;
    v = v->find(k);
  }
  return (v != nullptr && v->is_table()) ? v : nullptr;
}

/// A reader's: the value at the dotted path `dotted` below `root` (tables only); nullptr
/// when there is none.
inline const value* find_path(const value& root, std::string_view dotted) {
  const value* cur = &root;
  std::size_t start = 0;
  while (cur != nullptr && start <= dotted.size()) {
    const std::size_t dot = dotted.find('.', start);
    const std::string_view key =
        dotted.substr(start, dot == std::string_view::npos ? dotted.npos : dot - start);
    if (!cur->is_table()) return nullptr;
    cur = cur->find(key);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return cur;
}

/// A writer's: the table at the dotted path `dotted` below `root`, each table made when
/// absent (`child_table`), as an import adds its entries (`providers.models`).
inline value& make_table_path(value& root, std::string_view dotted) {
  value* cur = &root;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = dotted.find('.', start);
    const std::string key(
        dotted.substr(start, dot == std::string_view::npos ? dotted.npos : dot - start));
    cur = &cur->child_table(key);
    if (dot == std::string_view::npos) return *cur;
    start = dot + 1;
  }
}

/// Structural equality; table member order does not matter (toml++ re-sorts on re-parse).
inline bool operator==(const value& a, const value& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case value::kind::string:
    case value::kind::datetime:
      return a.text == b.text;
    case value::kind::integer:
      return a.integer == b.integer;
    case value::kind::floating:
      return a.floating == b.floating || (a.floating != a.floating && b.floating != b.floating);
    case value::kind::boolean:
      return a.boolean == b.boolean;
    case value::kind::array:
      return a.items == b.items;
    case value::kind::table:
      if (a.members.size() != b.members.size()) return false;
      for (const member& m : a.members) {
        const value* other = b.find(m.key);
        if (other == nullptr || !(m.val == *other)) return false;
      }
      return true;
  }
  return false;
}

}  // namespace toml_doc
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
