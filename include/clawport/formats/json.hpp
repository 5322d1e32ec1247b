// SPDX-License-Identifier: MIT
// Writing JSON documents that never fail. nlohmann::json holds strings as bytes and throws
// at `dump()` on one that is not UTF-8 (a file name, a path from the command line); every
// document the library renders goes through `dump` here instead, which replaces each
// ill-formed UTF-8 sequence by U+FFFD (the replacement character), as Rust's
// `to_string_lossy` does, so the text is valid JSON for every parser. Valid UTF-8 passes
// through unchanged; control characters are escaped (`\n`, `\u001b`) as JSON requires.
// Also the one `--json` error document: {"error": {"code", "message", "subject"}}.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace json {

/// `J` as a type that depends on `T`: a function template on `T` that declares its JSON
/// values as `json_for<T>` (or `ordered_json_for<T>`) has them checked and instantiated
/// only where it is called, not in every TU that includes it (issue 48: an alias template
/// alone would not be dependent, hence the struct).
template <class T, class J>
struct deferred_type {
  using type = J;
};
template <class T>
using json_for = typename deferred_type<T, nlohmann::json>::type;
template <class T>
using ordered_json_for = typename deferred_type<T, nlohmann::ordered_json>::type;

/// One member of a struct's JSON object: its wire name and how to read it from the struct
/// (a member pointer, or a function of the struct for a derived value).
template <class Get>
struct field_of {
  const char* name;
  Get get;
};
template <class Get>
constexpr field_of<Get> field(const char* name, Get get) noexcept {
  return {name, get};
}

/// The JSON object of `s`: one member per field, in the order given. The fields are the one
/// description of the struct's JSON form, so `to_json` is a list of names, not of statements.
template <class J, class T, class... Get>
J object_of(const T& s, const field_of<Get>&... fields) {
  J out = J::object();
  ((out[fields.name] = std::invoke(fields.get, s)), ...);
  return out;
}

/// A JSON array of `items`, each rendered by `render` (by default the item's own `to_json`).
template <class J, class Range, class Render>
J array_of(const Range& items, Render render) {
  J out = J::array();
  for (const auto& item : items) out.push_back(render(item));
  return out;
}
template <class J, class Range>
J array_of(const Range& items) {
  return array_of<J>(items, [](const auto& item) { return to_json(item); });
}

/// A text that may be absent, as every document writes it: null when empty, else the string
/// (a subject, a bundle alias, an archive path, a signer).
template <class J = nlohmann::ordered_json>
J text_or_null(const std::string& s) {
  return s.empty() ? J() : J(s);
}

/// `j` as text, like `j.dump(indent)` (indent < 0: one line), except that it never throws
/// on a string that is not UTF-8 (see the file comment).
template <class Json>
std::string dump(const Json& j, int indent = 2) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

/// The `--json` error document of every command: {"error": {"code", "message", "subject"}},
/// `code` the errc wire name, `subject` the path or field (null when there is none).
/// A template (J is always nlohmann::ordered_json): a TU that renders no error document
/// instantiates none of it (issue 48).
template <class J = nlohmann::ordered_json>
J error_document(const error& e) {
  J body;
  body["code"] = std::string(to_string(e.code()));
  body["message"] = std::string(e.what());
  body["subject"] = text_or_null<J>(e.subject());
  J doc;
  doc["error"] = std::move(body);
  return doc;
}

}  // namespace json
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
