// SPDX-License-Identifier: MIT
// Planning an add (docs/openclaw.md): the actions, capability records, blockers and
// readiness of `openclaw.clawAddPlan.v1` (add_plan.hpp) found against the destination
// (destination.hpp), and planIntegrity (integrity.hpp). ClawHub lookups go
// through a resolver policy; with none (offline) every package plans as an unresolved
// blocker, as upstream does without the registry.
#pragma once

#include "../formats/json5.hpp"
#include "add_plan.hpp"
#include "destination.hpp"
#include "diagnostics.hpp"
#include "grammar.hpp"
#include "integrity.hpp"
#include "package.hpp"
#include "state.hpp"
#include "tools.hpp"
#include "value.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

// ---------------------------------------------------------------------------------------
// The resolver policy
// ---------------------------------------------------------------------------------------

/// What a ClawHub preflight says about one package.
struct package_preflight {
  bool ok = false;
  std::optional<std::string> action;     ///< "install" | "reuse"
  std::optional<std::string> integrity;  ///< `sha256:<64 hex>`
  std::optional<std::string> install_id;
  std::optional<std::string> warning;         ///< ClawHub trust warning
  value requirements = value::array();        ///< plugin setup requirements
  errc code = errc::plugin_preflight_failed;  ///< when !ok: ClawHub's code, in the vocabulary
  std::string message;                        ///< when !ok
};

/// A resolver is any type with `std::optional<package_preflight> preflight(const value&
/// package) const` (nullopt: no preflight available). This one is offline.
struct offline_resolver {
  std::optional<package_preflight> preflight(const value&) const { return std::nullopt; }
};

/// Choices of the caller that shape the plan (and so its integrity).
struct add_options {
  /// Each ClawHub package becomes a recorded `skip` action ("not installed") instead of
  /// the offline blocker `package_install_unavailable`.
  bool without_packages = false;
};

namespace detail {

/// The parts of an add plan as they are found, and what every part needs to know.
struct add_builder {
  const claw_package& pkg;
  const destination& dest;
  const host_state& host;
  const std::string& final_id;
  const std::string& ws;
  add_plan plan;
  std::vector<diagnostic> offline;       ///< diagnostics (not bound): what an offline add cannot do
  bool adopt = false;                    ///< an existing workspace is adopted
  std::optional<std::string> ws_reason;  ///< why the workspace blocks

  add_builder(const claw_package& p, const destination& d, const host_state& h)
      : pkg(p), dest(d), host(h), final_id(d.final_id), ws(d.workspace) {}

  void block(errc code, const std::string& path, const std::string& msg) {
    plan.blockers.push_back(error_at(code, phase::plan, path, msg));
  }

  add_action& act(add_kind kind, const std::string& id, add_verb verb, const std::string& target) {
    add_action a;
    a.kind = kind;
    a.id = id;
    a.verb = verb;
    a.target = target;
    plan.actions.push_back(std::move(a));
    return plan.actions.back();
  }

  void capability(const std::string& kind, const std::string& id, const std::string& path,
                  const std::string& action, const char* reason, value effect) {
    plan.capabilities.push_back({kind, id, path, action, reason, std::move(effect)});
  }

  /// The adopt rule for one file action: an identical existing file is adopted, a differing
  /// one (or anything not a plain regular file) blocks with workspace_file_conflict.
  void adopt_file(add_action& a, const std::string& rel, const std::string& want,
                  std::optional<std::string>& reason, const std::string& path) {
    if (!adopt || reason) return;
    const auto it = dest.existing.find(rel);
    if (it == dest.existing.end()) return;
    if (it->second.digest && *it->second.digest == want) {
      a.verb = add_verb::adopt;
      a.expected = expected_state::existing_identical;
      return;
    }
    reason = "Workspace file " + rel + " already exists" +
             (it->second.digest ? std::string(" with different content")
                                : " and " + it->second.problem) +
             "; clawport never overwrites it.";
    block(errc::workspace_file_conflict, path, *reason);
  }
};

/// The agent's configuration as the plan registers it: the manifest's agent, the profile's
/// settings over it (its `tools` materialised from the tool catalogue, tools.hpp), the
/// final id and workspace.
inline value agent_config_of(const claw_package& pkg, const std::string& final_id,
                             const std::string& ws) {
  value config = to_json(pkg.model.agent);
  if (pkg.profile) {
    for (auto it = pkg.profile->agent.begin(); it != pkg.profile->agent.end(); ++it)
      config[it.key()] = it.key() == "tools" && pkg.profile->tools
                             ? materialize_tools(*pkg.profile->tools, it.value())
                             : it.value();
  }
  config["id"] = final_id;
  config["workspace"] = ws;
  return config;
}

/// The agent and workspace actions: an invalid or taken id blocks, so does a workspace that
/// exists and cannot be adopted or belongs to a configured agent.
inline void add_agent_actions(add_builder& b) {
  const std::string& final_id = b.final_id;
  std::optional<std::string> agent_reason;
  if (!is_agent_id(final_id)) {
    agent_reason = "Final agent id " + js_string(final_id) + " is not a valid portable agent id.";
    b.block(errc::invalid_agent_id, "$.agent.id", *agent_reason);
  } else if (std::find(b.host.agent_ids.begin(), b.host.agent_ids.end(), final_id) !=
             b.host.agent_ids.end()) {
    agent_reason = "Agent id " + js_string(final_id) +
                   " already exists; Claws never merge into existing agents.";
    b.block(errc::agent_id_collision, "$.agent.id", *agent_reason);
  }
  const bool configured = std::find(b.host.workspaces.begin(), b.host.workspaces.end(), b.ws) !=
                          b.host.workspaces.end();
  b.adopt =
      b.dest.adopt_existing && b.dest.workspace_exists && b.dest.workspace_adoptable && !configured;
  if (configured || (b.dest.workspace_exists && !b.adopt)) {
    b.ws_reason = "Workspace " + js_string(b.ws) + " already exists.";
    b.block(errc::workspace_collision, "$.workspace",
            "Workspace " + js_string(b.ws) + " already exists; a Claw requires a new workspace.");
  }
  add_action& a = b.act(add_kind::agent, final_id, add_verb::create,
                        "agents.entries[" + js_string(final_id) + "]");
  a.declaration = b.plan.agent_config;
  a.blocked_silently = agent_reason.has_value();  // the blocker says why
  add_action& w =
      b.act(add_kind::workspace, final_id, b.adopt ? add_verb::adopt : add_verb::create, b.ws);
  w.expected = b.adopt ? expected_state::existing : expected_state::absent;
  w.reason = b.ws_reason;
}

/// The package-root BOOTSTRAP.md: upstream's `bootstrap` action, written once before the
/// other files (OpenClaw consumes it on the first run), blocked with the workspace.
inline void add_bootstrap_action(add_builder& b, const std::string& prefix) {
  const claw_package& pkg = b.pkg;
  if (!pkg.bootstrap) return;
  add_action& a =
      b.act(add_kind::bootstrap, "BOOTSTRAP.md", add_verb::write, prefix + "BOOTSTRAP.md");
  a.source = (pkg.source.package_root == "/" ? "" : pkg.source.package_root) + "/BOOTSTRAP.md";
  a.digest = sha256_digest(*pkg.bootstrap);
  a.byte_length = pkg.bootstrap->size();
  a.expected = expected_state::absent_or_native_consumed;
  a.reason = b.ws_reason;
}

/// The workspace files: the package-root BOOTSTRAP.md, the body, then bootstrap names and
/// files[]. As upstream, a workspace collision blocks the declared files (their digests
/// still shown) but not the body's SOUL.md; body and sources over the aggregate block every
/// file with one blocker.
inline void add_file_actions(add_builder& b) {
  const claw_package& pkg = b.pkg;
  const std::string prefix = b.ws == "/" ? "/" : b.ws + "/";
  add_bootstrap_action(b, prefix);
  std::optional<std::string> too_large;
  if (pkg.sources_too_large)
    too_large =
        "Workspace sources exceed " + std::to_string(pkg.workspace_total) + " aggregate bytes.";
  if (pkg.body) {
    add_action a;
    a.kind = add_kind::workspace_file;
    a.id = "SOUL.md";
    a.verb = add_verb::write;
    a.target = prefix + "SOUL.md";
    a.source = pkg.source.manifest_path;
    a.from_body = true;
    std::optional<std::string> reason = too_large;
    b.adopt_file(a, "SOUL.md", sha256_digest(*pkg.body), reason,
                 "$.workspace.bootstrapFiles.SOUL.md");
    if (!reason) a.digest = sha256_digest(*pkg.body);
    a.reason = reason;
    b.plan.actions.push_back(std::move(a));
  }
  for (const auto& s : pkg.sources) {
    add_action a;
    a.kind = add_kind::workspace_file;
    a.id = s.destination;
    a.verb = add_verb::write;
    a.target = prefix + s.destination;
    a.source = s.real_path;
    std::optional<std::string> reason;
    if (s.problem) {
      b.plan.blockers.push_back(
          error_at(s.problem->code, phase::plan, s.problem->path, s.problem->message));
      reason = s.problem->message;
    }
    b.adopt_file(a, s.destination, s.digest, reason,
                 s.bootstrap ? "$.workspace.bootstrapFiles." + s.destination : "$.workspace.files");
    if (!reason && !too_large && !s.digest.empty()) a.digest = s.digest;
    if (b.ws_reason) reason = b.ws_reason;  // upstream's order of reasons
    if (too_large) reason = too_large;
    a.reason = reason;
    b.plan.actions.push_back(std::move(a));
  }
  if (too_large) b.block(errc::workspace_sources_too_large, "$.workspace", *too_large);
}

/// A package recorded as a consented `skip` (--without-packages), with its notice.
inline void add_skipped_package(add_builder& b, add_action& a, std::size_t k) {
  const package_decl& p = a.package.decl;
  a.verb = add_verb::skip;
  a.expected = expected_state::not_installed;
  a.package.skipped = true;
  b.plan.notices.push_back({std::string(to_string(errc::package_not_installed)),
                            index("$.packages", k),
                            p.kind + " " + p.ref + "@" + p.version +
                                " is not installed (--without-packages); install it later with: " +
                                package_install_command(p)});
}

/// A package install action from the resolver's preflight (none: unresolved, blocked).
inline void add_resolved_package(add_builder& b, add_action& a, std::size_t k,
                                 const std::optional<package_preflight>& pf) {
  const package_decl& p = a.package.decl;
  value effect = value::object(
      {{"kind", p.kind}, {"source", p.source}, {"ref", p.ref}, {"version", p.version}});
  if (!pf) {
    // Upstream's offline preflight fails per kind (its message is the network error, so
    // not stable: clawport says why in its own words).
    a.expected = expected_state::unresolved;
    a.reason =
        "Package preflight failed: clawport does not contact ClawHub (--without-packages "
        "adds the Claw without its packages).";
    b.block(p.kind == "skill" ? errc::skill_preflight_failed : errc::plugin_preflight_failed,
            index("$.packages", k), *a.reason);
    effect["integrity"] = "unresolved";
  } else {
    package_plan& pp = a.package;
    pp.integrity = pf->integrity;
    pp.install_id = pf->install_id;
    pp.risk_warning = pf->warning;
    pp.prerequisites = pf->requirements;
    pp.owner_action = pf->action;
    a.expected = !pf->ok                                  ? expected_state::unresolved
                 : (pf->action && *pf->action == "reuse") ? expected_state::present_exact
                                                          : expected_state::absent;
    effect["integrity"] = pf->integrity ? *pf->integrity : "unresolved";
    if (pf->install_id) effect["installId"] = *pf->install_id;
    if (pf->warning) effect["riskWarning"] = *pf->warning;
    if (!pf->ok) {
      a.reason = pf->message.empty() ? "Package preflight failed." : pf->message;
      b.plan.blockers.push_back(error_at(pf->code, phase::plan, index("$.packages", k), *a.reason));
    }
  }
  const bool reuse = pf && pf->ok && pf->action && *pf->action == "reuse";
  b.capability("package", a.id, "packages." + p.kind + "." + p.ref, reuse ? "reuse" : "install",
               reuse ? capability_reason::package_reuse : capability_reason::package_install,
               std::move(effect));
}

/// The ClawHub packages: skipped (--without-packages) or preflighted by the resolver.
template <class Resolver>
void add_package_actions(add_builder& b, const Resolver& resolver, const add_options& opt) {
  for (std::size_t k = 0; k < b.pkg.model.packages.size(); ++k) {
    const package_decl& p = b.pkg.model.packages[k];
    add_action& a = b.act(add_kind::package, p.kind + ":" + p.ref, add_verb::install,
                          "clawhub:" + p.ref + "@" + p.version);
    a.package.decl = p;
    if (opt.without_packages) {
      // Recorded, bound into the integrity, and reported: never skipped silently.
      add_skipped_package(b, a, k);
    } else {
      add_resolved_package(b, a, k, resolver.preflight(to_json(p)));
    }
  }
}

/// The prerequisites of one MCP server: its environment references and OAuth.
inline std::vector<plan_requirement> mcp_prerequisites(add_builder& b,
                                                       const mcp_server_decl& server) {
  const std::string& name = server.name;
  std::vector<plan_requirement> prereq;
  for (const auto& v : server.env_values) {
    std::string var;
    if (is_env_reference(v, &var)) prereq.push_back({"environment", name, var});
  }
  if (server.oauth) prereq.push_back({"oauth", name, std::nullopt});
  for (const auto& r : prereq) b.plan.requirements.push_back(r);
  return prereq;
}

/// The MCP servers: absent, present-exact (identical), or a collision.
inline void add_mcp_actions(add_builder& b) {
  for (const mcp_server_decl& decl : b.pkg.model.mcp_servers) {
    const std::string& name = decl.name;
    const value& server = decl.declaration;
    add_action& a = b.act(add_kind::mcp_server, name, add_verb::configure, "mcp.servers." + name);
    a.prerequisites = mcp_prerequisites(b, decl);
    a.declaration = server;
    if (b.host.mcp_servers.contains(name)) {
      if (stable_stringify(canonical_mcp_server(server)) ==
          stable_stringify(canonical_mcp_server(b.host.mcp_servers[name]))) {
        a.expected = expected_state::present_exact;
      } else {
        // Upstream's words; its action blocks without a reason of its own (the blocker says it).
        a.blocked_silently = true;
        b.block(errc::mcp_server_collision, "$.mcpServers." + name,
                "MCP server " + js_string(name) +
                    " already exists with different or unresolved configuration and will not be "
                    "overwritten.");
      }
    }
    b.capability("mcpServer", name, "mcpServers." + name, "configure",
                 capability_reason::mcp_server, mcp_effect(server));
  }
}

/// The cron jobs: planned, disclosed as needing a running Gateway.
inline void add_cron_actions(add_builder& b) {
  const std::vector<cron_job_decl>& jobs = b.pkg.model.cron_jobs;
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const value& job = jobs[k].declaration;
    const std::string& id = jobs[k].id;
    b.offline.push_back(warning_at(errc::cron_gateway_required, phase::plan, index("$.cronJobs", k),
                                   "Cron job " + id +
                                       " needs a running OpenClaw Gateway (cron.add); "
                                       "clawport does not schedule it offline."));
    add_action& a =
        b.act(add_kind::cron_job, id, add_verb::schedule, "cron:" + id + ":agent=" + b.final_id);
    a.declaration = job;
    a.agent_id = b.final_id;
    a.last_channel = jobs[k].last_channel;
    value effect = job;
    effect["agentId"] = b.final_id;
    b.capability("cronJob", id, "cronJobs." + id, "schedule", capability_reason::cron_job,
                 std::move(effect));
  }
}

/// The agent capability (the profile's escalating settings), then every capability sorted
/// by `<kind>:<id>:<path>` in localeCompare order.
inline void add_capabilities(add_builder& b) {
  if (b.pkg.profile) {
    value effect = value::object();
    for (const char* k : {"sandbox", "tools", "memory", "heartbeat"})
      if (b.pkg.profile->sets(k)) effect[k] = b.pkg.profile->agent.at(k);
    if (!effect.empty())
      b.capability("agent", b.final_id, "agent", "create", capability_reason::agent,
                   std::move(effect));
  }
  std::stable_sort(b.plan.capabilities.begin(), b.plan.capabilities.end(),
                   [](const capability_change& x, const capability_change& y) {
                     return locale_less(x.kind + ":" + x.id + ":" + x.path,
                                        y.kind + ":" + y.id + ":" + y.path);
                   });
}

}  // namespace detail

/// Builds the add plan of a package that read cleanly. Pure: the package, the
/// destination and the host state were gathered at the edge.
template <class Resolver = offline_resolver>
add_plan build_add_plan(const claw_package& pkg, const destination& dest, const host_state& host,
                        const Resolver& resolver = {}, const add_options& opt = {}) {
  detail::add_builder b(pkg, dest, host);
  add_plan& p = b.plan;
  p.claw = pkg.source;
  p.requested_id = dest.requested_id;
  p.final_id = dest.final_id;
  p.workspace = dest.workspace;
  p.agent_config = detail::agent_config_of(pkg, dest.final_id, dest.workspace);
  detail::add_agent_actions(b);
  detail::add_file_actions(b);
  detail::add_package_actions(b, resolver, opt);
  detail::add_mcp_actions(b);
  detail::add_cron_actions(b);
  detail::add_capabilities(b);
  if (host.problem) p.blockers.push_back(*host.problem);
  if (pkg.profile) p.extensions = pkg.profile->extensions;
  p.diagnostics = pkg.diagnostics;
  for (auto& d : b.offline) p.diagnostics.push_back(std::move(d));
  p.blocked = !p.blockers.empty();
  p.integrity = add_plan_integrity_of(p);
  return std::move(b.plan);
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
