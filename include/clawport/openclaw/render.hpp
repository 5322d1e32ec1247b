// SPDX-License-Identifier: MIT
// What `claws inspect` and `claws add --dry-run` print (docs/openclaw.md):
// the JSON documents (schemaVersion, stability, diagnostics) as JSON.stringify(…, null, 2)
// text, and the human form whose diagnostics read `LEVEL code path: message`.
#pragma once

#include "diagnostics.hpp"
#include "package.hpp"
#include "plan.hpp"
#include "stable_json.hpp"

#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// The banner human output starts with.
inline constexpr const char* experimental_banner =
    "Experimental: Claws contracts may change while RFC 0016 is under review.";

/// `openclaw.clawInspect.v1`: `{schemaVersion, stability, valid:true, source, manifest,
/// openClawProfile?, diagnostics}`, or `{schemaVersion, stability, valid:false,
/// diagnostics}` when the package does not read.
inline value inspect_document(const claw_package& pkg) {
  value v = value::object();
  v["schemaVersion"] = "openclaw.clawInspect.v1";
  v["stability"] = "experimental";
  v["valid"] = pkg.ok();
  if (pkg.ok()) {
    v["source"] = to_json(pkg.source);
    v["manifest"] = pkg.manifest;
    if (pkg.profile) v["openClawProfile"] = *pkg.profile;
  }
  v["diagnostics"] = to_json(pkg.diagnostics);
  return v;
}

/// The validation-failure envelope for a plan whose package did not read.
inline value plan_failure_document(const claw_package& pkg) {
  value v = value::object();
  v["schemaVersion"] = "openclaw.clawAddPlan.v1";
  v["stability"] = "experimental";
  v["valid"] = false;
  v["diagnostics"] = to_json(pkg.diagnostics);
  return v;
}

/// JSON text of a document, as OpenClaw prints it (two-space JSON.stringify, newline).
inline std::string json_text(const value& doc) { return js_stringify(doc, 2) + "\n"; }

inline std::string diagnostic_lines(const value& diags, const std::string& indent = "") {
  std::string out;
  for (const auto& d : diags) {
    diagnostic x;
    x.level = d["level"] == "warning" ? level::warning : level::error;
    x.code = d["code"].get<std::string>();
    x.path = d["path"].get<std::string>();
    x.message = d["message"].get<std::string>();
    out += indent + human_line(x) + "\n";
  }
  return out;
}

/// Human form of `inspect`.
inline std::string inspect_text(const claw_package& pkg) {
  std::string out = std::string(experimental_banner) + "\n";
  if (!pkg.ok()) {
    out += "Claw is invalid:\n";
    out += diagnostic_lines(to_json(pkg.diagnostics), "  ");
    return out;
  }
  const value& m = pkg.manifest;
  out += "Claw " + pkg.source.name + "@" + pkg.source.version + " (" + pkg.source.kind +
         ") is valid\n";
  out += "  agent:        " + m["agent"]["id"].get<std::string>();
  if (m["agent"].contains("name")) out += " (" + m["agent"]["name"].get<std::string>() + ")";
  out += "\n  manifest:     " + pkg.source.manifest_path + "\n";
  out += "  integrity:    " + pkg.source.integrity + " (" + pkg.source.integrity_kind + ", " +
         std::to_string(pkg.source.byte_length) + " bytes)\n";
  out +=
      "  profile:      " + (pkg.profile ? pkg.profile_path : std::string("none (host defaults)")) +
      "\n";
  out += "  workspace:    " + std::to_string(pkg.sources.size() + (pkg.body ? 1 : 0)) + " file(s)";
  if (pkg.body) out += ", SOUL.md from the CLAW.md body";
  out += "\n  packages:     " + std::to_string(m["packages"].size()) + "\n";
  out += "  MCP servers:  " + std::to_string(m["mcpServers"].size()) + "\n";
  out += "  cron jobs:    " + std::to_string(m["cronJobs"].size()) + "\n";
  out += diagnostic_lines(to_json(pkg.diagnostics), "  ");
  return out;
}

/// Human form of a plan.
inline std::string plan_text(const value& plan) {
  std::string out = std::string(experimental_banner) + "\n";
  const value& claw = plan["claw"];
  const value& agent = plan["agent"];
  out += "Plan: add Claw " + claw["name"].get<std::string>() + "@" +
         claw["version"].get<std::string>() + " as agent " + agent["finalId"].get<std::string>() +
         " (dry run, nothing written)\n";
  out += "  workspace:       " + agent["workspace"].get<std::string>() + "\n";
  out += "  plan integrity:  " + plan["planIntegrity"].get<std::string>() + "\n";
  out += "Actions (" + std::to_string(plan["actions"].size()) + "):\n";
  for (const auto& a : plan["actions"]) {
    out += std::string(a["blocked"].get<bool>() ? "  ! " : "    ") +
           a["action"].get<std::string>() + " " + a["kind"].get<std::string>() + " " +
           a["id"].get<std::string>() + " -> " + a["target"].get<std::string>();
    if (a.contains("reason")) out += "  [blocked: " + a["reason"].get<std::string>() + "]";
    out += "\n";
  }
  if (!plan["capabilityChanges"].empty()) {
    out += "Capability escalations needing distinct consent (" +
           std::to_string(plan["capabilityChanges"].size()) + "):\n";
    for (const auto& c : plan["capabilityChanges"])
      out += "  ! " + c["kind"].get<std::string>() + " " + c["id"].get<std::string>() + " (" +
             c["path"].get<std::string>() + ") " + c["digest"].get<std::string>() + "\n";
  }
  const value& ready = plan["readiness"];
  if (ready["ready"].get<bool>()) {
    out += "Readiness: ready\n";
  } else {
    out += "Readiness: not ready until:\n";
    for (const auto& r : ready["requirements"]) {
      if (r["kind"] == "environment") {
        out += "  environment " + r["name"].get<std::string>() + " for MCP server " +
               r["mcpServer"].get<std::string>() + "\n";
      } else {
        out += "  " + r["kind"].get<std::string>() + " for MCP server " +
               r["mcpServer"].get<std::string>() + "\n";
      }
    }
  }
  if (plan.contains("notices")) {
    for (const auto& n : plan["notices"])
      out += "  NOTICE " + n["code"].get<std::string>() + " " + n["path"].get<std::string>() +
             ": " + n["message"].get<std::string>() + "\n";
  }
  if (!plan["blockers"].empty()) {
    out += "Blocked (" + std::to_string(plan["blockers"].size()) + "):\n";
    out += diagnostic_lines(plan["blockers"], "  ");
  }
  out += diagnostic_lines(plan["diagnostics"], "  ");
  return out;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
