// SPDX-License-Identifier: MIT
// Rendering the bundle's two TOML files (docs/format.md). Both are
// parsed back and compared with what was meant to be written before they are returned;
// config.toml is also validated standing alone, and refused when it does not validate.
#pragma once

#include <string>
#include <string_view>

#include "../bundle/layout.hpp"
#include "../core/error.hpp"
#include "../core/time.hpp"
#include "../core/version.hpp"
#include "../formats/toml_writer.hpp"
#include "api.hpp"
#include "document.hpp"
#include "parse.hpp"
#include "plan.hpp"
#include "schema_v3.hpp"
#include "validate.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// The comment block config.toml starts with (docs/format.md).
inline constexpr std::string_view config_header =
    "# ZeroClaw agent bundle — config closure.\n"
    "#\n"
    "# This is a FRAGMENT, not a complete config.toml. `zeroclaw agents import`\n"
    "# merges it into the target install; it never replaces the target's config.\n"
    "# Empty-string values are credentials that were scrubbed on export and must be\n"
    "# supplied on the target — see `required_secrets` in zeroclaw-agent.toml.\n"
    "#\n"
    "# Scrubbing blanks the fields the schema marks secret. It is not credential\n"
    "# detection: any other value here travels as written, so a token in an MCP\n"
    "# server's `url`, or a credential in its `command` or `args`, is still present.\n";

/// The comment block zeroclaw-agent.toml starts with (docs/format.md).
inline constexpr std::string_view manifest_header =
    "# ZeroClaw agent bundle manifest.\n"
    "#\n"
    "# `required_secrets` lists config paths whose credentials were scrubbed on\n"
    "# export. `risk_flags` lists capabilities the importing operator is being asked\n"
    "# to grant. `dropped` lists configuration that could not travel.\n"
    "#\n"
    "# Scrubbing blanks the fields the schema marks secret in config.toml, and\n"
    "# nothing more. Other config strings travel as written, and `risk_flags` below\n"
    "# repeats stdio server command lines verbatim. The files under workspace/ and\n"
    "# skills/ are copied as-is. None of it is scanned for secrets.\n";

namespace detail {

[[noreturn]] inline void closure_invalid(const std::string& alias, const std::string& error_text,
                                         const std::string& subject) {
  throw error(errc::config_invalid,
              "the closure for agent '" + alias +
                  "' does not validate on a clean install: " + error_text +
                  "\nA bundle has to stand on its own, so this one is not written. Fix the "
                  "reported field in this install's config and export again.",
              subject);
}

}  // namespace detail

template <typename Schema>
std::string render_config_toml(const export_plan& plan) {
  require_schema<Schema>();
  const std::string text =
      std::string(config_header) + toml_writer::write(plan.closure, /*pretty=*/false);
  value reparsed;
  try {
    reparsed = parse_toml(text, "config.toml");
  } catch (const error& e) {
    detail::closure_invalid(plan.root_alias, e.what(), "config.toml");
  }
  if (reparsed != plan.closure)
    detail::closure_invalid(plan.root_alias,
                            "the rendered config.toml does not parse back to the closure that "
                            "was planned (a clawport rendering bug)",
                            "config.toml");
  if (const auto problem = validate_config<Schema>(reparsed))
    detail::closure_invalid(plan.root_alias, problem->display(), problem->path);
  return text;
}

/// The manifest as a document, keys in docs/format.md order.
/// `memory`: the `[memory]` table of a bundle that carries memory (format 2, issue 47), or
/// nullptr: format 1, byte for byte what it was before memory could travel.
inline value manifest_document(const export_plan& plan, const timestamp& exported_at,
                               const value* memory = nullptr) {
  value m = value::make_table();
  m.set("format_version", value::make_integer(memory != nullptr ? bundle::memory_format_version
                                                                : bundle_format_version));
  m.set("root_agent", value::make_string(plan.root_alias));
  value secrets = value::make_array();
  for (const std::string& s : plan.required_secrets) secrets.items.push_back(value::make_string(s));
  m.set("required_secrets", std::move(secrets));
  value skills = value::make_array();
  for (const std::string& s : manifest_skill_bundles(plan))
    skills.items.push_back(value::make_string(s));
  m.set("skill_bundles", std::move(skills));
  value provenance = value::make_table();
  provenance.set("zeroclaw_version", value::make_string(plan.producer_version));
  provenance.set("exported_at", value::make_string(format_rfc3339_seconds(exported_at)));
  m.set("provenance", std::move(provenance));
  value dropped = value::make_array();
  for (const dropped_item& d : plan.dropped) {
    value entry = value::make_table();
    entry.set("path", value::make_string(d.path));
    entry.set("reason", value::make_string(std::string(to_string(d.reason))));
    entry.set("detail", value::make_string(d.detail));
    dropped.items.push_back(std::move(entry));
  }
  m.set("dropped", std::move(dropped));
  value flags = value::make_array();
  for (const risk_flag& f : plan.risk_flags) {
    value entry = value::make_table();
    entry.set("kind", value::make_string(std::string(to_string(f.kind))));
    entry.set("path", value::make_string(f.path));
    entry.set("detail", value::make_string(f.detail));
    flags.items.push_back(std::move(entry));
  }
  m.set("risk_flags", std::move(flags));
  if (memory != nullptr) m.set("memory", *memory);
  return m;
}

namespace detail {
/// The manifest's text, checked to parse back to the document it renders.
inline std::string render_manifest_of(const value& manifest) {
  const std::string text =
      std::string(manifest_header) + toml_writer::write(manifest, /*pretty=*/true);
  if (parse_toml(text, std::string(manifest_file)) != manifest)
    throw error(errc::bundle_invalid,
                "the rendered manifest does not parse back to the manifest that was meant (a "
                "clawport rendering bug)",
                std::string(manifest_file));
  return text;
}
}  // namespace detail

inline std::string render_manifest(const export_plan& plan, const timestamp& exported_at) {
  return detail::render_manifest_of(manifest_document(plan, exported_at));
}

/// The manifest of a bundle that carries memory (format 2), `memory` its `[memory]` table.
inline std::string render_manifest_with_memory(const export_plan& plan,
                                               const timestamp& exported_at, const value& memory) {
  return detail::render_manifest_of(manifest_document(plan, exported_at, &memory));
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
