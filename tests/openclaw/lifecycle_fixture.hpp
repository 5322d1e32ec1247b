// SPDX-License-Identifier: MIT
// What the OpenClaw lifecycle tests share (lifecycle_test, workspace_export_test,
// update_test): a small package on fs::memory, the request, consent, a consented add, the
// world outside the package, the ledger and status documents.
#pragma once

#include "support/test.hpp"

#include <map>
#include <optional>
#include <string>

namespace lifecycle_fixture {

namespace oc = clawport::openclaw;
using clawport::fs::faulty;
using clawport::fs::memory;
using oc::value;

inline const std::string now = "2026-12-01T12:00:00+00:00";

/// A small package: CLAW.md with a body (→ SOUL.md), a bootstrap file, a nested extra
/// file, one MCP server, one skill package and one cron job.
inline void package(memory& m, const std::string& soul = "Be kind.\n") {
  m.mkdirs("/pkg/ws/ref");
  m.mkdirs("/home");
  m.write_file("/pkg/package.json",
               "{\"name\": \"demo-claw\", \"version\": \"1.0.0\", \"openclaw\": {\"claw\": "
               "\"CLAW.md\"}}");
  m.write_file("/pkg/CLAW.md",
               "---\nschemaVersion: 1\nagent:\n  id: demo\nworkspace:\n  bootstrapFiles:\n"
               "    AGENTS.md: {source: ws/AGENTS.md}\n  files:\n"
               "    - {source: ws/ref/policy.md, path: ref/policy.md}\n"
               "packages:\n  - {kind: skill, source: clawhub, ref: demo-skill, version: 1.0.0}\n"
               "mcpServers:\n  docs:\n    url: https://mcp.example.com/mcp\n"
               "    transport: streamable-http\n"
               "cronJobs:\n  - id: digest\n    schedule: {cron: \"0 9 * * 1\", timezone: UTC}\n"
               "    session: isolated\n    message: Summarize.\n---\n" +
                   soul);
  m.write_file("/pkg/ws/AGENTS.md", "agents\n");
  m.write_file("/pkg/ws/ref/policy.md", "policy\n");
}

inline oc::destination_request request() {
  oc::destination_request r;
  r.home = "/home";
  r.cwd = "/";
  r.state_dir = "/state";
  return r;
}

inline oc::add_options without_packages() {
  oc::add_options o;
  o.without_packages = true;
  return o;
}

template <class Fs>
std::string integrity_of(Fs& fs, const oc::destination_request& req = request(),
                         const oc::add_options& opt = without_packages()) {
  const auto pkg = oc::read_package(fs, "/pkg");
  const oc::value plan = oc::to_json(oc::plan_add(fs, pkg, req, opt));
  return plan["planIntegrity"].get<std::string>();
}

inline oc::consent yes(const std::string& integrity) {
  oc::consent c;
  c.yes = true;
  c.plan_integrity = integrity;
  return c;
}

template <class Fs>
oc::add_outcome add(Fs& fs, const oc::consent& c, const oc::destination_request& req = request(),
                    const oc::add_options& opt = without_packages()) {
  const auto pkg = oc::read_package(fs, "/pkg");
  return oc::apply_add(fs, pkg, req, opt, c, now);
}

template <class Fs>
oc::add_outcome add_consented(Fs& fs, const oc::destination_request& req = request(),
                              const oc::add_options& opt = without_packages()) {
  return add(fs, yes(integrity_of(fs, req, opt)), req, opt);
}

/// Everything outside the package: the state directory and the home (workspaces).
inline std::map<std::string, std::string> world(memory& m) {
  std::map<std::string, std::string> all;
  for (const char* root : {"/state", "/home"}) {
    if (!m.lstat(root)) continue;
    for (const auto& e : m.snapshot(root)) all[std::string(root) + "/" + e.first] = e.second;
  }
  return all;
}

// A new agent's workspace by the one rule (agent_workspace): <state-dir>/workspace-<id>.
inline const std::string ws = "/state/workspace-demo";

inline value ledger_of(memory& m) {
  return value::parse(m.read_file("/state/clawport-claws.json"));
}

inline value status_of(memory& m, const std::optional<std::string>& target = std::nullopt) {
  return oc::to_json(oc::claw_status(m, request(), target));
}

inline const value* action_of(const value& plan, const std::string& kind, const std::string& id) {
  for (const auto& a : plan["actions"])
    if (a["kind"] == kind && a["id"] == id) return &a;
  return nullptr;
}

}  // namespace lifecycle_fixture
