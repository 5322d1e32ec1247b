// SPDX-License-Identifier: MIT
// The typed Claw manifest (schema v1) as validation leaves it, and its JSON form: the agent,
// the metadata, the workspace declarations, the ClawHub packages, MCP servers and cron jobs.
#pragma once

#include "../core/config.hpp"
#include "tools.hpp"
#include "value.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// The five named bootstrap files, in plan order.
inline constexpr const char* bootstrap_file_names[] = {"AGENTS.md", "SOUL.md", "IDENTITY.md",
                                                       "TOOLS.md", "HEARTBEAT.md"};

/// Host facts the profile rules consult: the built-in tool profiles the running OpenClaw
/// registers.
struct host_catalog {
  /// The built-in tool profiles (default: the generated catalogue, tool_catalog.hpp).
  std::vector<std::string> tool_profiles = tool_profile_ids();
  /// Profiles whose resolution contains `bundle-mcp` and therefore need a bounded `allow`.
  std::vector<std::string> bundle_mcp_profiles = tool_profile_ids(true);
};

/// The agent's identity as the manifest declares it; absent members stay absent.
struct agent_identity {
  std::optional<std::string> name;
  std::optional<std::string> theme;
  std::optional<std::string> emoji;
  std::optional<std::string> avatar;
};

/// `agent`: the id and the optional display members.
struct manifest_agent {
  std::string id;
  std::optional<std::string> name;
  std::optional<std::string> description;
  std::optional<agent_identity> identity;
};

/// One workspace declaration: a named bootstrap file (`path` is its name) or a `files`
/// entry, both package-relative with forward slashes.
struct workspace_decl {
  std::string source;
  std::string path;
};

/// One `packages` entry: a ClawHub skill or plugin at an exact version.
struct package_decl {
  std::string kind;
  std::string source;
  std::string ref;
  std::string version;
};

/// One `mcpServers` entry: the declaration as the JSON data it is (it passes to the host
/// unchanged) and what the plan asks of it, read once by the schema.
struct mcp_server_decl {
  std::string name;
  value declaration;
  std::vector<std::string> env_values;  ///< `env`'s string values, in declaration order
  bool oauth = false;                   ///< `auth: "oauth"`
  bool remote = false;                  ///< has a `url` (a remote server, not a command)
};

/// One `cronJobs` entry: the declaration as the JSON data it is, its id and its delivery.
struct cron_job_decl {
  std::string id;
  value declaration;
  bool last_channel = false;  ///< `delivery.channel: "last"`
};

/// A validated, normalised manifest: the model the package side works on. MCP servers and
/// cron jobs keep their declarations as JSON (they pass to the host unchanged).
struct claw_manifest {
  manifest_agent agent;
  std::vector<std::pair<std::string, std::string>> metadata;  ///< in declaration order
  std::vector<workspace_decl> bootstrap_files;                ///< in `bootstrap_file_names` order
  std::vector<workspace_decl> files;
  std::vector<package_decl> packages;
  std::vector<mcp_server_decl> mcp_servers;  ///< in the declaration object's order
  std::vector<cron_job_decl> cron_jobs;

  /// The metadata value under `key`, when declared.
  const std::string* metadata_value(std::string_view key) const {
    for (const auto& kv : metadata)
      if (kv.first == key) return &kv.second;
    return nullptr;
  }
  /// The MCP server `name`, when declared.
  const mcp_server_decl* mcp_server(std::string_view name) const {
    for (const auto& s : mcp_servers)
      if (s.name == name) return &s;
    return nullptr;
  }
};

/// The manifest's agent as JSON, in schema key order.
inline value to_json(const manifest_agent& a) {
  value agent = value::object();
  agent["id"] = a.id;
  if (a.name) agent["name"] = *a.name;
  if (a.description) agent["description"] = *a.description;
  if (a.identity) {
    const agent_identity& i = *a.identity;
    value id = value::object();
    if (i.name) id["name"] = *i.name;
    if (i.theme) id["theme"] = *i.theme;
    if (i.emoji) id["emoji"] = *i.emoji;
    if (i.avatar) id["avatar"] = *i.avatar;
    agent["identity"] = std::move(id);
  }
  return agent;
}

/// One `packages` entry as JSON (the ClawHub resolver's input), in schema key order.
inline value to_json(const package_decl& p) {
  return value::object(
      {{"kind", p.kind}, {"source", p.source}, {"ref", p.ref}, {"version", p.version}});
}

/// The manifest as JSON: schema key order, every default present (the normalised form
/// plans, digests and documents carry).
inline value to_json(const claw_manifest& m) {
  value out = value::object();
  out["schemaVersion"] = 1;
  out["agent"] = to_json(m.agent);
  value md = value::object();
  for (const auto& kv : m.metadata) md[kv.first] = kv.second;
  out["metadata"] = std::move(md);
  value ws = value::object();
  ws["bootstrapFiles"] = value::object();
  for (const auto& b : m.bootstrap_files)
    ws["bootstrapFiles"][b.path] = value::object({{"source", b.source}});
  ws["files"] = value::array();
  for (const auto& f : m.files)
    ws["files"].push_back(value::object({{"source", f.source}, {"path", f.path}}));
  out["workspace"] = std::move(ws);
  out["packages"] = value::array();
  for (const auto& p : m.packages) out["packages"].push_back(to_json(p));
  out["mcpServers"] = value::object();
  for (const auto& s : m.mcp_servers) out["mcpServers"][s.name] = s.declaration;
  out["cronJobs"] = value::array();
  for (const auto& j : m.cron_jobs) out["cronJobs"].push_back(j.declaration);
  return out;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
