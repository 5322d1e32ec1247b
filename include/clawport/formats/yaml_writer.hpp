// SPDX-License-Identifier: MIT
// A block-style YAML writer for JSON data, for the Claw manifest and profile that a
// conversion (convert/) and `claw export` write. A string is plain where OpenClaw's writer (the
// `yaml` package) writes it plain, else quoted (valid YAML 1.2), so the text reads back through
// yaml::parse as the same JSON. Not modelled: the `yaml` package folds plain strings longer
// than its 80-column line width and writes multi-line strings as block scalars.
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"
#include "json.hpp"
#include "yaml.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace yaml {

namespace yaml_out {

/// A string the `yaml` package (2.x, OpenClaw's writer) writes plain in block context, and
/// YAML's Core schema reads back as that same string (`stringifyString`'s `plainString`):
/// not empty, no control character or line break, no indicator first (`-`/`?` only before a
/// non-space), no `: `, ` #` or trailing space or `:`, and nothing the Core schema resolves to
/// null, a boolean or a number (`yes` stays plain: YAML 1.2, both readers).
inline bool plain_safe(const std::string& s) {
  if (s.empty()) return false;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return false;
  }
  if (std::string(",[]{}#&*!|>'\"%@` ").find(s[0]) != std::string::npos) return false;
  if ((s[0] == '-' || s[0] == '?') && (s.size() == 1 || s[1] == ' ')) return false;
  if (s.find(": ") != std::string::npos || s.find(" #") != std::string::npos) return false;
  if (s.back() == ' ' || s.back() == ':') return false;
  if (s.rfind("---", 0) == 0 || s.rfind("...", 0) == 0) return false;  // a document marker
  // The reader's own Core-schema resolution (formats/yaml.hpp): only a string stays plain.
  const auto resolved = detail::resolve_plain(s);
  return resolved && resolved->is_string();
}

/// A string that cannot be plain: double-quoted (JSON's escapes), or single-quoted when it
/// holds `"` and no `'`, as the `yaml` package chooses.
inline std::string quoted(const std::string& s) {
  if (s.find('"') != std::string::npos && s.find('\'') == std::string::npos) {
    bool control = false;
    for (const char c : s) control = control || static_cast<unsigned char>(c) < 0x20;
    if (!control) return "'" + s + "'";
  }
  return json::dump(nlohmann::ordered_json(s), -1);
}

inline std::string scalar(const nlohmann::ordered_json& v) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    return plain_safe(s) ? s : quoted(s);
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
