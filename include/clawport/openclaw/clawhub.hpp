// SPDX-License-Identifier: MIT
// The registry view of a diagnostic: ClawHub's stable `claw_v1_*` manifest codes and its
// `.n` index paths (openclaw-claws.md §1.8, §7; docs/openclaw.md "ClawHub codes").
// The validator emits OpenClaw codes; this table maps each of its findings to the code,
// path and message ClawHub's validateClawManifest reports for the same rule.
#pragma once

#include "../core/config.hpp"

#include "diagnostics.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// One row of the mapping. A diagnostic matches when its code equals `code` and its path
/// and message match the globs `path` and `message` (`*` matches any run of characters;
/// an empty glob matches anything). The first matching row wins.
struct clawhub_rule {
  errc code;                         ///< the OpenClaw code
  std::string_view path;             ///< glob over the OpenClaw path (`$.cronJobs[*].id`)
  std::string_view message;          ///< glob over the OpenClaw message
  errc clawhub_code;                 ///< ClawHub's code for the same finding
  std::string_view clawhub_message;  ///< ClawHub's message; empty keeps OpenClaw's
  bool parent = false;               ///< ClawHub reports at the containing member (cron schedule)
};

namespace detail {
inline constexpr std::string_view noncanonical =
    "Must be a non-empty string without leading or trailing whitespace.";
inline constexpr std::string_view ch_noncanonical =
    "Must be non-empty without leading or trailing whitespace.";
inline constexpr std::string_view ch_unsafe = "Must be a safe package-relative path.";
}  // namespace detail

/// The mapping, OpenClaw → ClawHub. Specific rows first; the last `invalid_manifest` row
/// sends every structural finding (unknown key, wrong type, missing field, bad enum) to
/// `claw_v1_invalid_manifest_shape`. Codes without a row (the profile codes, which both
/// sides share, and the read/plan codes ClawHub has no counterpart for) pass unchanged.
inline constexpr clawhub_rule clawhub_rules[] = {
    // agent
    {errc::invalid_manifest, "$.agent.id", "Agent id must start with *",
     errc::claw_v1_invalid_agent_id, "Invalid portable agent id."},
    {errc::invalid_manifest, "$.agent.id", detail::noncanonical, errc::claw_v1_invalid_agent_id,
     "Invalid portable agent id."},
    {errc::invalid_manifest, "$.agent.identity.avatar", "Local avatar * must be a managed *",
     errc::claw_v1_undeclared_avatar,
     "Workspace-relative avatar must match a workspace.files destination."},
    {errc::invalid_manifest, "$.agent.identity.avatar", "Avatar*", errc::claw_v1_invalid_avatar,
     "Must be a bounded image data URL or managed workspace-relative image path."},
    {errc::invalid_manifest, "$.metadata.*", "Metadata keys must be canonical *",
     errc::claw_v1_non_canonical_string, detail::ch_noncanonical},
    {errc::invalid_openclaw_profile_path, "", "", errc::claw_v1_invalid_profile_path,
     "Must reference a forward-slash package-relative .yml or .yaml file."},
    // workspace
    {errc::invalid_manifest, "", "Path must be package-relative *", errc::claw_v1_unsafe_path,
     detail::ch_unsafe},
    {errc::invalid_manifest, "$.workspace.bootstrapFiles.*.source", detail::noncanonical,
     errc::claw_v1_unsafe_path, detail::ch_unsafe},
    {errc::invalid_manifest, "$.workspace.files[*].source", detail::noncanonical,
     errc::claw_v1_unsafe_path, detail::ch_unsafe},
    {errc::invalid_manifest, "$.workspace.files[*].path", detail::noncanonical,
     errc::claw_v1_unsafe_path, detail::ch_unsafe},
    {errc::invalid_manifest, "$.workspace.files[*].path", "Workspace destination * more than once.",
     errc::claw_v1_duplicate_workspace_destination,
     "Workspace destination is declared more than once."},
    // [later] ClawHub: the package-root BOOTSTRAP.md is reserved.
    {errc::invalid_manifest, "$.workspace.files[*].path",
     "Package-root BOOTSTRAP.md uses the native seed-once lifecycle *",
     errc::claw_v1_reserved_workspace_target, ""},
    // packages
    {errc::invalid_manifest, "$.packages[*].ref", "ClawHub package references must *",
     errc::claw_v1_invalid_package_reference, "Must be a lowercase ClawHub package name."},
    {errc::invalid_manifest, "$.packages[*].version", "Package version must be *",
     errc::claw_v1_invalid_package_version, "Must be an exact semantic version."},
    {errc::invalid_manifest, "$.packages[*].version", detail::noncanonical,
     errc::claw_v1_invalid_package_version, "Must be an exact semantic version."},
    {errc::invalid_manifest, "$.packages[*]", "Package * is declared more than once*",
     errc::claw_v1_duplicate_package, "Package is declared more than once."},
    // MCP servers
    {errc::invalid_manifest, "$.mcpServers.*", "Invalid MCP server name.",
     errc::claw_v1_invalid_mcp_server_id, "Invalid MCP server name."},
    {errc::invalid_manifest, "$.mcpServers.*.url", "Remote MCP URLs must not *",
     errc::claw_v1_mcp_url_credentials, "Must not contain embedded credentials or fragments."},
    {errc::invalid_manifest, "$.mcpServers.*.url", "Invalid url.", errc::claw_v1_invalid_mcp_url,
     "Must use HTTPS, except HTTP on an exact loopback host."},
    {errc::invalid_manifest, "$.mcpServers.*.url", "Remote MCP URLs must use *",
     errc::claw_v1_invalid_mcp_url, "Must use HTTPS, except HTTP on an exact loopback host."},
    {errc::invalid_manifest, "$.mcpServers.*.args", "Package-manager MCP commands *",
     errc::claw_v1_unpinned_mcp_package,
     "Package-manager MCP commands must select one exact immutable package version."},
    {errc::invalid_manifest, "$.mcpServers.*.toolFilter.*", "Tool filters accept *",
     errc::claw_v1_invalid_tool_filter, "Tool filters support only exact names and * wildcards."},
    {errc::invalid_manifest, "$.mcpServers.*.toolFilter.*", "Tool filter entries must be unique.",
     errc::claw_v1_duplicate_tool_filter, "Tool filter entries must be unique."},
    {errc::invalid_manifest, "$.mcpServers.*.env.*", "Invalid environment variable name.",
     errc::claw_v1_invalid_environment_key, "Invalid portable environment key."},
    {errc::invalid_manifest, "$.mcpServers.*.env.*", "Environment variable * is blocked *",
     errc::claw_v1_blocked_environment_key,
     "Environment key is blocked by the spawned-process safety policy."},
    {errc::invalid_manifest, "$.mcpServers.*.env.*", "MCP environment values must be unresolved *",
     errc::claw_v1_invalid_environment_reference, "Must be an unresolved ${ENV_VAR} reference."},
    {errc::invalid_manifest, "$.mcpServers.*.timeout", "Too small: expected number to be >0",
     errc::claw_v1_invalid_timeout, "Must be positive."},
    {errc::invalid_manifest, "$.mcpServers.*.connectTimeout", "Too small: expected number to be >0",
     errc::claw_v1_invalid_timeout, "Must be positive."},
    // cron jobs
    {errc::invalid_manifest, "$.cronJobs[*].id", "Invalid cron job id.",
     errc::claw_v1_invalid_cron_job_id, "Invalid cron job id."},
    {errc::invalid_manifest, "$.cronJobs[*].id", detail::noncanonical,
     errc::claw_v1_invalid_cron_job_id, "Invalid cron job id."},
    {errc::invalid_manifest, "$.cronJobs[*].id", "Cron job id * is declared more than once.",
     errc::claw_v1_duplicate_cron_job, "Cron job id is declared more than once."},
    {errc::invalid_manifest, "$.cronJobs[*].schedule.cron", "Invalid cron expression or timezone.",
     errc::claw_v1_invalid_cron_schedule, "Must contain a valid cron expression and timezone.",
     true},
    {errc::invalid_manifest, "$.cronJobs[*].delivery", "Cron delivery must be *",
     errc::claw_v1_invalid_cron_delivery,
     "Must be { mode: \"none\" } or { mode: \"announce\", channel: \"last\" }."},
    // generic string and list rules
    {errc::invalid_manifest, "", detail::noncanonical, errc::claw_v1_non_canonical_string,
     detail::ch_noncanonical},
    {errc::invalid_manifest, "", "Too small: expected array to have >=1 items",
     errc::claw_v1_empty_list, "Must contain at least one value."},
    {errc::invalid_manifest, "", "", errc::claw_v1_invalid_manifest_shape, ""},
    // package codes
    {errc::read_failed_too_large, "", "", errc::claw_manifest_too_large, ""},
    {errc::invalid_json, "$", "package.json is not valid JSON.", errc::invalid_json, ""},
    {errc::invalid_json, "", "", errc::invalid_claw_json, ""},
};

/// `*` matches any run of characters (also none); everything else literally.
constexpr bool glob_match(std::string_view glob, std::string_view s) noexcept {
  std::size_t g = 0, k = 0, star = std::string_view::npos, mark = 0;
  while (k < s.size()) {
    if (g < glob.size() && glob[g] == '*') {
      star = g++;
      mark = k;
    } else if (g < glob.size() && glob[g] == s[k]) {
      ++g;
      ++k;
    } else if (star != std::string_view::npos) {
      g = star + 1;
      k = ++mark;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

/// The row that maps `d`, or null when ClawHub uses the same code.
inline const clawhub_rule* find_clawhub_rule(const diagnostic& d) noexcept {
  for (const auto& r : clawhub_rules) {
    if (!has_code(d, r.code)) continue;
    if (!r.path.empty() && !glob_match(r.path, d.path)) continue;
    if (!r.message.empty() && !glob_match(r.message, d.message)) continue;
    return &r;
  }
  return nullptr;
}

/// OpenClaw path → ClawHub path: array indices `[n]` become `.n`
/// (`$.workspace.files[0].path` → `$.workspace.files.0.path`); the root stays `$`.
inline std::string clawhub_path(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (std::size_t k = 0; k < path.size(); ++k) {
    if (path[k] == '[') {
      std::size_t e = k + 1;
      while (e < path.size() && path[e] >= '0' && path[e] <= '9') ++e;
      if (e > k + 1 && e < path.size() && path[e] == ']') {
        out += '.';
        out.append(path.substr(k + 1, e - k - 1));
        k = e;
        continue;
      }
    }
    out += path[k];
  }
  return out;
}

/// The diagnostic as ClawHub reports it: mapped code and message, `.n` path.
inline diagnostic to_clawhub(const diagnostic& d) {
  diagnostic out = d;
  std::string_view path = d.path;
  if (const clawhub_rule* r = find_clawhub_rule(d)) {
    out.code = r->clawhub_code;
    if (!r->clawhub_message.empty()) out.message = std::string(r->clawhub_message);
    if (r->parent) {
      const std::size_t dot = path.rfind('.');
      if (dot != std::string_view::npos && dot > 0) path = path.substr(0, dot);
    }
  }
  out.path = clawhub_path(path);
  return out;
}

inline std::vector<diagnostic> to_clawhub(const std::vector<diagnostic>& ds) {
  std::vector<diagnostic> out;
  out.reserve(ds.size());
  for (const auto& d : ds) out.push_back(to_clawhub(d));
  return out;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
