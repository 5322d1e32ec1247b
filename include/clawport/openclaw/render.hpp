// SPDX-License-Identifier: MIT
// What `claws inspect` and `claws add --dry-run` print (docs/openclaw.md):
// the JSON documents (schemaVersion, stability, diagnostics) as JSON.stringify(…, null, 2)
// text, and the human form whose diagnostics read `LEVEL code path: message`.
#pragma once

#include "../core/text.hpp"
#include "diagnostics.hpp"
#include "package.hpp"
#include "plan.hpp"
#include "value.hpp"

#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// The banner human output starts with.
inline constexpr const char* experimental_banner =
    "Experimental: Claws contracts may change while RFC 0016 is under review.";

/// `openclaw.clawInspect.v1`: `{schemaVersion, stability, valid:true, source, manifest,
/// openClawProfile?, extensions, diagnostics}`, or `{schemaVersion, stability, valid:false,
/// diagnostics}` when the package does not read.
inline value inspect_document(const claw_package& pkg) {
  value v = document("openclaw.clawInspect.v1");
  v["valid"] = pkg.ok();
  if (pkg.ok()) {
    v["source"] = to_json(pkg.source);
    v["manifest"] = to_json(pkg.model);
    if (pkg.profile) v["openClawProfile"] = to_json(*pkg.profile);
    // The profile's extension requirements (2026.9.6 prints the member always, `[]` too).
    v["extensions"] = pkg.profile ? pkg.profile->extensions : value::array();
  }
  v["diagnostics"] = to_json(pkg.diagnostics);
  return v;
}

/// JSON text of a document, as OpenClaw prints it (two-space JSON.stringify, newline).
inline std::string json_text(const value& doc) { return js_stringify(doc, 2) + "\n"; }

/// Appends the diagnostics as `LEVEL code path: message` lines.
inline void diagnostic_lines(text::terminal_lines& line, const std::vector<diagnostic>& diags,
                             const std::string& indent = "") {
  for (const auto& d : diags) line(indent + human_line(d));
}

/// The lines of a package that did not read: `Claw is invalid:`, then its diagnostics.
inline void invalid_lines(text::terminal_lines& line, const std::vector<diagnostic>& diags) {
  line("Claw is invalid:");
  diagnostic_lines(line, diags, "  ");
}

/// Human form of `inspect`, every line through the one terminal-safe renderer
/// (core/text.hpp): a control character in the agent's name or any manifest string is
/// shown escaped.
inline std::string inspect_text(const claw_package& pkg) {
  text::terminal_lines line;
  line(experimental_banner);
  if (!pkg.ok()) {
    invalid_lines(line, pkg.diagnostics);
    return std::move(line.text);
  }
  const claw_manifest& m = pkg.model;
  line("Claw " + pkg.source.name + "@" + pkg.source.version + " (" + pkg.source.kind +
       ") is valid");
  std::string agent = "  agent:        " + m.agent.id;
  if (m.agent.name) agent += " (" + *m.agent.name + ")";
  line(agent);
  line("  manifest:     " + pkg.source.manifest_path);
  line("  integrity:    " + pkg.source.integrity + " (" + pkg.source.integrity_kind + ", " +
       std::to_string(pkg.source.byte_length) + " bytes)");
  line("  profile:      " + (pkg.profile ? pkg.profile_path : std::string("none (host defaults)")));
  line("  workspace:    " + std::to_string(pkg.sources.size() + (pkg.body ? 1 : 0)) + " file(s)" +
       (pkg.body ? ", SOUL.md from the CLAW.md body" : ""));
  line("  packages:     " + std::to_string(m.packages.size()));
  line("  MCP servers:  " + std::to_string(m.mcp_servers.size()));
  line("  cron jobs:    " + std::to_string(m.cron_jobs.size()));
  diagnostic_lines(line, pkg.diagnostics, "  ");
  return std::move(line.text);
}

/// Human form of an add plan (every line through the one terminal-safe renderer).
inline std::string plan_text(const add_plan& plan) {
  text::terminal_lines line;
  line(experimental_banner);
  line("Plan: add Claw " + plan.claw.name + "@" + plan.claw.version + " as agent " + plan.final_id +
       " (dry run, nothing written)");
  line("  workspace:       " + plan.workspace);
  line("  plan integrity:  " + plan.integrity);
  line("Actions (" + std::to_string(plan.actions.size()) + "):");
  for (const auto& a : plan.actions) {
    std::string l = std::string(a.blocked() ? "  ! " : "    ") + std::string(to_string(a.verb)) +
                    " " + std::string(to_string(a.kind)) + " " + a.id + " -> " + a.target;
    if (a.reason) l += "  [blocked: " + *a.reason + "]";
    if (!a.reason && a.blocked()) l += "  [blocked]";
    line(l);
  }
  if (!plan.capabilities.empty()) {
    line("Capability escalations needing distinct consent (" +
         std::to_string(plan.capabilities.size()) + "):");
    for (const auto& c : plan.capabilities)
      line("  ! " + c.kind + " " + c.id + " (" + c.path + ") " + detail::digest_of(c.effect));
  }
  if (plan.requirements.empty()) {
    line("Readiness: ready");
  } else {
    line("Readiness: not ready until:");
    for (const auto& r : plan.requirements) {
      if (r.kind == "environment")
        line("  environment " + r.name.value_or("") + " for MCP server " + r.mcp_server);
      else
        line("  " + r.kind + " for MCP server " + r.mcp_server);
    }
  }
  for (const auto& n : plan.notices) line("  NOTICE " + n.code + " " + n.path + ": " + n.message);
  if (!plan.blockers.empty()) {
    line("Blocked (" + std::to_string(plan.blockers.size()) + "):");
    diagnostic_lines(line, plan.blockers, "  ");
  }
  diagnostic_lines(line, plan.diagnostics, "  ");
  return std::move(line.text);
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
