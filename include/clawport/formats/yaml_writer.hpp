// SPDX-License-Identifier: MIT
// A block-style YAML writer for JSON data, for the Claw manifest and profile that a
// conversion (convert/) and `claw export` write. Every string that is not a plain word is
// double-quoted with JSON's escapes (valid YAML 1.2), so the text reads back through yaml::parse
// as the same JSON.
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"
#include "json.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace yaml {

namespace yaml_out {

/// A string YAML's Core schema reads back as that same string without quotes.
inline bool plain_safe(const std::string& s) {
  if (s.empty()) return false;
  const char c0 = s[0];
  if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || c0 == '_')) return false;
  for (const char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.' || c == '/';
    if (!ok) return false;
  }
  const std::string low = text::to_lower_ascii(s);
  for (const char* word :
       {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "nan", "inf", ".nan", ".inf"})
    if (low == word) return false;
  return true;
}

inline std::string scalar(const nlohmann::ordered_json& v) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    return plain_safe(s) ? s : json::dump(v, -1);
  }
  if (v.is_object()) return "{}";
  if (v.is_array()) return "[]";
  return json::dump(v, -1);
}

inline bool is_block(const nlohmann::ordered_json& v) {
  return (v.is_object() || v.is_array()) && !v.empty();
}

inline void emit(std::string& out, const nlohmann::ordered_json& v, int indent);

inline void emit_map(std::string& out, const nlohmann::ordered_json& v, int indent,
                     bool first_inline) {
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!(first && first_inline)) out += std::string(static_cast<std::size_t>(indent), ' ');
    first = false;
    out += scalar(nlohmann::ordered_json(it.key())) + ":";
    if (is_block(it.value())) {
      out += "\n";
      emit(out, it.value(), indent + 2);
    } else {
      out += " " + scalar(it.value()) + "\n";
    }
  }
}

inline void emit(std::string& out, const nlohmann::ordered_json& v, int indent) {
  if (v.is_object()) return emit_map(out, v, indent, false);
  for (const auto& item : v) {
    out += std::string(static_cast<std::size_t>(indent), ' ') + "- ";
    if (item.is_object() && !item.empty()) {
      emit_map(out, item, indent + 2, true);
    } else if (item.is_array() && !item.empty()) {
      out += "\n";
      emit(out, item, indent + 2);
    } else {
      out += scalar(item) + "\n";
    }
  }
}

}  // namespace yaml_out

/// `doc` (an object) as block YAML, one key per line, ending in a newline.
inline std::string to_yaml(const nlohmann::ordered_json& doc) {
  std::string out;
  if (doc.is_object() && !doc.empty()) {
    yaml_out::emit(out, doc, 0);
  } else {
    out = yaml_out::scalar(doc) + "\n";
  }
  return out;
}

}  // namespace yaml
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
