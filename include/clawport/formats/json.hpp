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

#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace json {

/// `j` as text, like `j.dump(indent)` (indent < 0: one line), except that it never throws
/// on a string that is not UTF-8 (see the file comment).
template <class Json>
std::string dump(const Json& j, int indent = 2) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

/// The `--json` error document of every command: {"error": {"code", "message", "subject"}},
/// `code` the errc wire name, `subject` the path or field (null when there is none).
inline nlohmann::ordered_json error_document(const error& e) {
  nlohmann::ordered_json body;
  body["code"] = std::string(to_string(e.code()));
  body["message"] = std::string(e.what());
  body["subject"] =
      e.subject().empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(e.subject());
  nlohmann::ordered_json doc;
  doc["error"] = std::move(body);
  return doc;
}

}  // namespace json
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
