// SPDX-License-Identifier: MIT
// The pure text steps of reading a Claw package (docs/openclaw.md): the CLAW.md envelope,
// YAML to JSON data with OpenClaw's codes, package.json's identity and the profile pointer
// check. No file access: package.hpp reads the bytes and calls these.
#pragma once

#include "../core/text.hpp"
#include "../core/utf8.hpp"
#include "../formats/yaml.hpp"
#include "diagnostics.hpp"
#include "grammar.hpp"
#include "limits.hpp"
#include "schema.hpp"
#include "value.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {
// ---------------------------------------------------------------------------------------
// Pure text steps
// ---------------------------------------------------------------------------------------

/// The CLAW.md envelope split into its parts.
struct envelope {
  bool found = false;       ///< the frontmatter regex matched
  std::string frontmatter;  ///< the YAML between the delimiters
  std::string body;         ///< every byte after the closing delimiter line
};

/// Matches `^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)` after stripping one UTF-8 BOM.
inline envelope split_envelope(std::string_view bytes) {
  envelope e;
  if (bytes.size() >= 3 && bytes.compare(0, 3, "\xEF\xBB\xBF") == 0) bytes.remove_prefix(3);
  std::size_t open = 0;
  if (bytes.compare(0, 4, "---\n") == 0) {
    open = 4;
  } else if (bytes.compare(0, 5, "---\r\n") == 0) {
    open = 5;
  } else {
    return e;
  }
  for (std::size_t j = open; j < bytes.size(); ++j) {
    if (bytes[j] != '\n' || bytes.compare(j + 1, 3, "---") != 0) continue;
    const std::size_t after = j + 4;
    std::size_t body_at = 0;
    if (after == bytes.size()) {
      body_at = after;
    } else if (bytes[after] == '\n') {
      body_at = after + 1;
    } else if (bytes.compare(after, 2, "\r\n") == 0) {
      body_at = after + 2;
    } else {
      continue;
    }
    std::size_t fm_end = j;
    if (fm_end > open && bytes[fm_end - 1] == '\r') --fm_end;
    e.found = true;
    e.frontmatter = std::string(bytes.substr(open, fm_end - open));
    e.body = std::string(bytes.substr(body_at));
    return e;
  }
  return e;
}

/// How one YAML document is named in its diagnostics.
struct yaml_document {
  std::string what;         ///< in messages: "CLAW.md frontmatter", "profiles/openclaw.yml"
  errc parse_code;          ///< a document that does not parse
  errc feature_code;        ///< an unsupported feature
  std::string label;        ///< upstream's wording ("OpenClaw profile YAML"); empty: clawport's
  std::size_t line_offset;  ///< lines before the document in its file
};

/// YAML text → JSON data with OpenClaw's codes, every problem at `$`. With a `label` an
/// unsupported feature gets upstream's exact message ("<what> uses anchors; <label> must map
/// directly to JSON data.") and its line and column as the diagnostic's source position;
/// without one the position is in the message.
inline std::optional<value> yaml_to_json(std::string_view text, const yaml_document& doc,
                                         std::size_t max_bytes, std::size_t max_depth,
                                         std::vector<diagnostic>& out) {
  yaml::options opt;
  opt.max_bytes = max_bytes;
  opt.max_depth = max_depth;
  yaml::result r = yaml::parse(text, opt);
  if (r.ok()) return std::move(r.value);
  const yaml::failure& f = *r.error;
  if (!yaml::is_unsupported_feature(f.kind)) {
    out.push_back(error_at(doc.parse_code, phase::parse, "$",
                           "Could not parse " + doc.what + ": " + f.where(doc.line_offset) + "."));
    return std::nullopt;
  }
  const std::string feature(yaml::feature_name(f.kind));
  const std::string line = std::to_string(f.line + doc.line_offset);
  if (doc.label.empty()) {
    out.push_back(error_at(doc.feature_code, phase::parse, "$",
                           doc.what + " uses " + feature + " (line " + line + ", column " +
                               std::to_string(f.column) +
                               "); Claw YAML must map directly to JSON data."));
    return std::nullopt;
  }
  diagnostic d = error_at(
      doc.feature_code, phase::parse, "$",
      doc.what + " uses " + feature + "; " + doc.label + " must map directly to JSON data.");
  d.line = f.line + doc.line_offset;
  d.column = f.column;
  out.push_back(std::move(d));
  return std::nullopt;
}

/// Identity from package.json.
struct package_metadata {
  std::string name;
  std::string version;
  std::string claw;  ///< `openclaw.claw`, package-relative
};

/// Parses and checks package.json text. Diagnostics: `invalid_json`,
/// `invalid_package_metadata`, `manifest_escapes_package` (absolute `openclaw.claw`).
inline std::optional<package_metadata> parse_package_json(std::string_view text,
                                                          std::vector<diagnostic>& out) {
  value j = value::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) {
    out.push_back(
        error_at(errc::invalid_json, phase::parse, "$", "package.json is not valid JSON."));
    return std::nullopt;
  }
  const auto bad = [&]() {
    out.push_back(error_at(errc::invalid_package_metadata, phase::parse, "$",
                           "package.json must declare non-empty name, version, and openclaw.claw "
                           "fields."));
    return std::nullopt;
  };
  if (!j.is_object()) return bad();
  const value* name = detail::get(j, "name");
  const value* version = detail::get(j, "version");
  const value* oc = detail::get(j, "openclaw");
  const value* claw = oc != nullptr ? detail::get(*oc, "claw") : nullptr;
  if (name == nullptr || !name->is_string() || !is_package_name(name->get<std::string>()) ||
      version == nullptr || !version->is_string() || !is_semver(version->get<std::string>()) ||
      claw == nullptr || !claw->is_string() || text::js_trim(claw->get<std::string>()).empty()) {
    return bad();
  }
  package_metadata m{name->get<std::string>(), version->get<std::string>(),
                     claw->get<std::string>()};
  if (!m.claw.empty() &&
      (m.claw[0] == '/' || m.claw[0] == '\\' || (m.claw.size() > 1 && m.claw[1] == ':'))) {
    out.push_back(error_at(errc::manifest_escapes_package, phase::parse, "$",
                           "openclaw.claw must be package-relative."));  // upstream's words
    return std::nullopt;
  }
  return m;
}

/// The `metadata["openclaw.config"]` pointer check. Empty when valid.
inline bool valid_profile_pointer(const std::string& p) {
  if (p.find('\\') != std::string::npos || !is_safe_relative_path(p)) return false;
  const std::string low = text::to_lower_ascii(p);
  return (low.size() > 4 && low.compare(low.size() - 4, 4, ".yml") == 0) ||
         (low.size() > 5 && low.compare(low.size() - 5, 5, ".yaml") == 0);
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
