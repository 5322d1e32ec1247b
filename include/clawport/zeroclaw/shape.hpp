// SPDX-License-Identifier: MIT
// Interpreting schema descriptors on one table: type checks, canonical key order, secret
// masking, unknown-key reporting, host-local notes, and pruning against defaults (docs/format.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../core/error.hpp"
#include "document.hpp"
#include "plan.hpp"
#include "schema.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// The sentinel a non-empty secret is masked to before scrubbing (traits::MASKED_SECRET).
inline constexpr std::string_view masked_secret = "***MASKED***";

/// Detail of a dropped unknown key (clawport's reason code `unknown_key`).
inline constexpr std::string_view unknown_key_detail =
    "this key is not part of the config schema clawport knows, so it cannot tell whether it "
    "holds a credential; it is left behind rather than carried unscrubbed. Re-create it on "
    "the target if it is needed";

namespace detail {

/// What shaping records besides the shaped table.
struct shape_sink {
  std::vector<dropped_item>* unknown = nullptr;  ///< unknown keys (nullptr: ignore them)
  std::vector<host_local_note>* notes = nullptr;
  bool mask = true;  ///< replace non-empty secret strings with masked_secret
};

inline std::string string_of(const value* v) {
  return (v != nullptr && v->is_string()) ? v->text : std::string();
}

inline constexpr const char* field_type_names[] = {
    "a string",           "a boolean", "an integer",         "a number", "an array of strings",
    "a table of strings", "a table",   "an array of tables", "a value"};
inline const char* type_name(field_type t) noexcept {
  return wire_name<field_type::any>(t, field_type_names, "a value");
}

inline constexpr const char* value_kind_names[] = {
    "a string", "an integer", "a float", "a boolean", "a date/time", "an array", "a table"};
inline const char* kind_name(const value& v) noexcept {
  return wire_name<value::kind::table>(v.type, value_kind_names, "a value");
}

[[noreturn]] inline void wrong_type(const std::string& path, const char* expected,
                                    const value& found) {
  throw error(errc::config_invalid,
              "`" + path + "` must be " + expected + ", found " + kind_name(found), path);
}

inline const field* find_field(list_view<field> fields, list_view<field> extra,
                               std::string_view key) noexcept {
  for (const field& f : fields)
    if (f.key == key) return &f;
  for (const field& f : extra)
    if (f.key == key) return &f;
  return nullptr;
}

inline bool strings_equal(const value& v, name_list list) {
  if (!v.is_array() || v.items.size() != list.size) return false;
  for (std::size_t i = 0; i < list.size; ++i)
    if (!v.items[i].is_string() || v.items[i].text != list.data[i]) return false;
  return true;
}

/// True when `v` equals the serialized default `d` (never for `absent`).
inline bool equals_default(const value& v, const default_value& d) {
  switch (d.type) {
    case default_value::kind::absent:
    case default_value::kind::table:
      return false;
    case default_value::kind::string:
      return v.is_string() && v.text == d.text;
    case default_value::kind::boolean:
      return v.is_boolean() && v.boolean == d.boolean;
    case default_value::kind::integer:
      return v.type == value::kind::integer && v.integer == d.integer;
    case default_value::kind::number:
      return (v.type == value::kind::floating && v.floating == d.number) ||
             (v.type == value::kind::integer && static_cast<double>(v.integer) == d.number);
    case default_value::kind::strings:
      return strings_equal(v, d.strings);
    case default_value::kind::empty_table:
      return v.is_table() && v.members.empty();
  }
  return false;
}

inline std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

inline std::vector<std::string> string_items(const value* v) {
  std::vector<std::string> out;
  if (v && v->is_array())
    for (const value& item : v->items)
      if (item.is_string()) out.push_back(item.text);
  return out;
}

inline void note_value(const field& f, const value& v, const std::string& path, shape_sink& sink) {
  if (!f.note.present || sink.notes == nullptr) return;
  std::string shown;
  if (!f.note.when_equals.empty()) {
    const bool hit = (v.is_boolean() && v.boolean && f.note.when_equals == "true") ||
                     (v.is_string() && v.text == f.note.when_equals);
    if (!hit) return;
  } else if (v.is_string()) {
    if (v.text.empty()) return;
    shown = v.text;
  } else if (v.is_array()) {
    if (v.items.empty()) return;
    shown = join(string_items(&v), ", ");
  }
  std::string detail(f.note.detail);
  if (!shown.empty()) detail += ": " + shown;
  sink.notes->push_back({f.note.kind, path, detail});
}

inline value shape_table(const value& raw, list_view<field> fields, list_view<field> extra,
                         const std::string& path, shape_sink& sink);

inline void check_choice(const field& f, const value& v, const std::string& path) {
  if (f.choices.empty() || !v.is_string()) return;
  for (const std::string_view c : f.choices)
    if (v.text == c) return;
  std::string allowed;
  for (const std::string_view c : f.choices) {
    if (!allowed.empty()) allowed += ", ";
    allowed += "\"" + std::string(c) + "\"";
  }
  throw error(errc::config_invalid,
              "`" + path + "` must be one of " + allowed + ", found \"" + v.text + "\"", path);
}

inline value mask_string(const value& v, const std::string& path, shape_sink& sink) {
  if (!sink.mask || v.text.empty()) return v;
  if (sink.notes && v.text.rfind("op://", 0) == 0)
    sink.notes->push_back(
        {note_kind::secret_reference, path,
         "the scrubbed value was a 1Password (op://) reference on the source install; the "
         "reference names the source's vault items, so supply the secret on the target "
         "from its own store"});
  value out = value::make_string(std::string(masked_secret));
  out.masked = true;
  return out;
}

/// Each item of the array `v` (at `path`), checked to be `item_type` (a string or a table)
/// and shaped by `shape(item, item_path)`: the one walk of string and table arrays.
template <class Shape>
value shape_items(const value& v, const std::string& path, field_type item_type, Shape shape) {
  value out = value::make_array();
  for (std::size_t i = 0; i < v.items.size(); ++i) {
    const value& item = v.items[i];
    const std::string item_path = path + "[" + std::to_string(i) + "]";
    const bool fits = item_type == field_type::table ? item.is_table() : item.is_string();
    if (!fits) wrong_type(item_path, type_name(item_type), item);
    out.items.push_back(shape(item, item_path));
  }
  return out;
}

/// Checks `v` against `f` and returns its canonical form (masked when secret).
inline value shape_value(const field& f, const value& v, const std::string& path,
                         shape_sink& sink) {
  switch (f.type) {
    case field_type::string:
      if (!v.is_string()) wrong_type(path, type_name(f.type), v);
      check_choice(f, v, path);
      return f.secret ? mask_string(v, path, sink) : v;
    case field_type::boolean:
      if (!v.is_boolean()) wrong_type(path, type_name(f.type), v);
      return v;
    case field_type::integer:
      if (v.type != value::kind::integer) wrong_type(path, type_name(f.type), v);
      return v;
    case field_type::number:
      if (v.type != value::kind::integer && v.type != value::kind::floating)
        wrong_type(path, type_name(f.type), v);
      return v;
    case field_type::string_array:
      if (!v.is_array()) wrong_type(path, type_name(f.type), v);
      return shape_items(v, path, field_type::string, [&](const value& item, const std::string& p) {
        return f.secret ? mask_string(item, p, sink) : item;
      });
    case field_type::string_map: {
      if (!v.is_table()) wrong_type(path, type_name(f.type), v);
      value out = value::make_table();
      for (const member& m : v.members) {
        const std::string item_path = path + "." + m.key;
        if (!m.val.is_string()) wrong_type(item_path, "a string", m.val);
        check_choice(f, m.val, item_path);
        out.members.push_back({m.key, f.secret ? mask_string(m.val, item_path, sink) : m.val});
      }
      return out;
    }
    case field_type::table:
      if (!v.is_table()) wrong_type(path, type_name(f.type), v);
      return shape_table(v, f.children, {}, path, sink);
    case field_type::table_array:
      if (!v.is_array()) wrong_type(path, type_name(f.type), v);
      return shape_items(v, path, field_type::table, [&](const value& item, const std::string& p) {
        return shape_table(item, f.children, {}, p, sink);
      });
    case field_type::any:
      return v;
  }
  return v;
}

/// The member of `raw` that `f` reads: its key, or the first alias spelling present.
inline const member* lookup(const value& raw, const field& f) noexcept {
  for (const member& m : raw.members)
    if (m.key == f.key) return &m;
  for (const std::string_view alias : f.aliases)
    for (const member& m : raw.members)
      if (m.key == alias) return &m;
  return nullptr;
}

inline bool consumed_by(list_view<field> fields, list_view<field> extra, std::string_view key) {
  const auto matches = [&](const field& f) {
    if (f.key == key) return true;
    for (const std::string_view a : f.aliases)
      if (a == key) return true;
    return false;
  };
  for (const field& f : fields)
    if (matches(f)) return true;
  for (const field& f : extra)
    if (matches(f)) return true;
  return false;
}

/// Rebuilds `raw` in schema order: known keys type-checked and masked, unknown keys left
/// out and reported. Fields with a drop rule are copied unchecked: they never travel.
inline value shape_table(const value& raw, list_view<field> fields, list_view<field> extra,
                         const std::string& path, shape_sink& sink) {
  value out = value::make_table();
  const auto take = [&](const field& f) {
    const member* m = lookup(raw, f);
    if (m == nullptr) return;
    const std::string key_path = path + "." + std::string(f.key);
    if (f.rule == field_rule::drop) {
      out.members.push_back({std::string(f.key), m->val});
      return;
    }
    value shaped = shape_value(f, m->val, key_path, sink);
    note_value(f, shaped, key_path, sink);
    out.members.push_back({std::string(f.key), std::move(shaped)});
  };
  for (const field& f : fields) take(f);
  for (const field& f : extra) take(f);
  if (sink.unknown)
    for (const member& m : raw.members)
      if (!consumed_by(fields, extra, m.key))
        sink.unknown->push_back(
            {path + "." + m.key, drop_reason::unknown_key, std::string(unknown_key_detail)});
  return out;
}

/// docs/format.md on one table: removes every key equal to its default; recurses into nested
/// structs and removes those left empty. Keys without a default are kept whole.
inline void prune_table(value& table, list_view<field> fields, list_view<field> extra) {
  for (std::size_t i = 0; i < table.members.size();) {
    member& m = table.members[i];
    const field* f = find_field(fields, extra, m.key);
    bool erase = false;
    if (f != nullptr && m.key != "schema_version") {
      if (f->def.type == default_value::kind::table && m.val.is_table()) {
        prune_table(m.val, f->children, {});
        erase = m.val.members.empty();
      } else {
        erase = equals_default(m.val, f->def);
      }
    }
    if (erase)
      table.members.erase(table.members.begin() + static_cast<std::ptrdiff_t>(i));
    else
      ++i;
  }
}

/// True when `v` (the value of field `f`) carries anything beyond the default.
inline bool occupied(const field& f, const value& v) {
  value probe = value::make_table();
  probe.members.push_back({std::string(f.key), v});
  const field single[] = {f};
  prune_table(probe, single, {});
  return !probe.members.empty();
}

}  // namespace detail

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// docs/format.md: an array element that is a table with a string `name` is addressed by that name,
/// any other element by its decimal index.
inline std::string element_segment(const value& element, std::size_t index) {
  if (element.is_table())
    if (const value* name = element.find("name"))
      if (name->is_string()) return name->text;
  return std::to_string(index);
}

/// Calls `f(path, value)` for every secret field `table` holds (a string, or a map of
/// strings), descending nested tables and arrays of tables (their elements addressed as
/// element_segment names them); `path` is `prefix` followed by the field's schema path. The
/// one walk over secret fields that `secrets list`, `status` and import's credential check
/// share (masking has its own, in shape_value, because it rebuilds the table).
template <class F>
void for_each_secret_field(const value& table, list_view<field> fields, const std::string& prefix,
                           F&& f) {
  if (!table.is_table()) return;
  for (const field& fd : fields) {
    const value* v = table.find(fd.key);
    if (v == nullptr) continue;
    const std::string path = prefix + std::string(fd.key);
    if (fd.secret) {
      f(path, *v);
    } else if (fd.type == field_type::table) {
      for_each_secret_field(*v, fd.children, path + ".", f);
    } else if (fd.type == field_type::table_array && v->is_array()) {
      for (std::size_t i = 0; i < v->items.size(); ++i)
        for_each_secret_field(v->items[i], fd.children,
                              path + "." + element_segment(v->items[i], i) + ".", f);
    }
  }
}

namespace detail {
inline bool find_ciphertext_in(const value& v, const std::string& path, std::string& hit) {
  if (v.is_string()) {
    if (v.text.rfind("enc:", 0) == 0 || v.text.rfind("enc2:", 0) == 0) {
      hit = path;
      return true;
    }
  } else if (v.is_table()) {
    for (const member& m : v.members)
      if (find_ciphertext_in(m.val, path.empty() ? m.key : path + "." + m.key, hit)) return true;
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.items.size(); ++i)
      if (find_ciphertext_in(v.items[i], path + "." + element_segment(v.items[i], i), hit))
        return true;
  }
  return false;
}
}  // namespace detail

/// docs/format.md: the path of the first string (in iteration order) starting with `enc:` or
/// `enc2:` (SecretStore ciphertext), or nullopt.
inline std::optional<std::string> find_ciphertext(const value& tree) {
  std::string hit;
  if (detail::find_ciphertext_in(tree, "", hit)) return hit;
  return std::nullopt;
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
