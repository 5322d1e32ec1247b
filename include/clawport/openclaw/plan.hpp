// SPDX-License-Identifier: MIT
// The add plan `openclaw.clawAddPlan.v1` (docs/openclaw.md): destination
// resolution against the state directory, the ordered actions, capability records,
// blockers, readiness, and planIntegrity over OpenClaw's stableStringify. ClawHub lookups go
// through a resolver policy; with none (offline) every package plans as an unresolved
// blocker, as upstream does without the registry.
#pragma once

#include "../formats/json5.hpp"
#include "../plan/integrity.hpp"
#include "diagnostics.hpp"
#include "grammar.hpp"
#include "package.hpp"
#include "state.hpp"
#include "value.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
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
  std::optional<std::string> warning;   ///< ClawHub trust warning
  value requirements = value::array();  ///< plugin setup requirements
  std::string code;                     ///< when !ok: e.g. plugin_version_conflict
  std::string message;                  ///< when !ok
};

/// A resolver is any type with `std::optional<package_preflight> preflight(const value&
/// package) const` (nullopt: no preflight available). This one is offline.
struct offline_resolver {
  std::optional<package_preflight> preflight(const value&) const { return std::nullopt; }
};

// ---------------------------------------------------------------------------------------
// Destination resolution
// ---------------------------------------------------------------------------------------

/// The caller's choices and environment (environment.hpp: the state directory's sources,
/// home, cwd).
struct destination_request : environment {
  std::optional<std::string> agent_id;   ///< --agent-id
  std::optional<std::string> workspace;  ///< --workspace (`~` expanded, relative to `cwd`)
};

/// What the state directory's `openclaw.json` says.
struct host_state {
  std::string state_dir;
  bool config_found = false;
  std::vector<std::string> agent_ids;
  std::vector<std::string> workspaces;  ///< canonical workspace of every configured agent
  value mcp_servers = value::object();  ///< `mcp.servers`
  value config = value::object();       ///< the parsed openclaw.json (empty when absent)
  std::optional<diagnostic> problem;    ///< the config could not be read
};

/// What an existing workspace holds at one planned destination (the adopt rule).
struct existing_file {
  std::optional<std::string> digest;  ///< `sha256:<hex>` of a regular file
  std::string problem;                ///< why it cannot be adopted (not a plain regular file)
};

/// The resolved destination.
struct destination {
  std::string requested_id;
  std::string final_id;
  std::string workspace;  ///< canonical (through its nearest existing ancestor)
  bool workspace_exists = false;
  /// The workspace exists and is a real directory: the plan adopts it (byte-identical
  /// files are `adopt` actions, absent ones `write`, differing ones block).
  bool workspace_adoptable = false;
  /// Planned destination (workspace-relative) → what is there; absent keys are absent
  /// files. Filled at the edge by `probe_workspace` (lifecycle.hpp).
  std::map<std::string, existing_file> existing;
};

/// Choices of the caller that shape the plan (and so its integrity).
struct add_options {
  /// Each ClawHub package becomes a recorded `skip` action ("not installed") instead of
  /// the offline blocker `package_install_unavailable`.
  bool without_packages = false;
};

namespace detail {

/// Canonicalises a directory path as every write opens it (state.hpp, `open_dir_path`):
/// its parent through the nearest existing ancestor (symlinked parents resolved: the
/// operator's own path), its last component kept as it is, never followed. `exists` says
/// whether that last component exists (a symlink there exists, and plans as a collision).
template <class Fs>
std::string canonical_through_ancestor(Fs& fs, const std::string& abs, bool& exists) {
  exists = false;
  const std::string name = paths::file_name(abs);
  std::string head = paths::parent(abs);
  if (abs.size() <= 1 || head.empty()) return abs;
  std::string tail;
  for (;;) {
    if (auto c = fs.canonical(head)) {
      const std::string parent = (*c == "/" ? "" : *c) + tail;
      if (tail.empty()) {
        try {
          exists = fs.stat_at(fs.open_root(*c), name).has_value();
        } catch (const error&) {
        }
      }
      return parent + "/" + name;
    }
    if (head == "/" || head.empty()) return abs;
    tail = "/" + paths::file_name(head) + tail;
    head = paths::parent(head);
  }
}

}  // namespace detail

/// Reads `<state-dir>/openclaw.json` (JSON5) through the Fs policy: configured agent ids
/// (`agents.entries` keys or `agents.list[].id`; the implicit `main` agent when none), their
/// canonical workspaces, and `mcp.servers`. A missing file is an install with only `main`.
template <class Fs>
host_state read_host_state(Fs& fs, const destination_request& req) {
  host_state h;
  h.state_dir = state_dir_of(req);
  value cfg = value::object();
  std::optional<typename Fs::dir> dir;
  try {
    dir.emplace(detail::open_state_dir(fs, h.state_dir));  // as every write opens it
  } catch (const error& e) {
    if (e.code() != errc::not_found)
      h.problem = error_at(errc::invalid_config, phase::plan, "$", e.what());
  }
  if (dir) {
    try {
      detail::file_read fr = detail::read_in_root(fs, *dir, "openclaw.json", 16 * 1024 * 1024);
      if (fr.status == detail::read_status::ok) {
        h.config_found = true;
        json5::result r = json5::parse(fr.bytes);
        if (r.ok() && r.data.is_object()) {
          cfg = std::move(r.data);
        } else {
          h.problem = error_at(errc::invalid_config, phase::plan, "$",
                               "Could not read " + h.state_dir + "/openclaw.json: " +
                                   (r.ok() ? std::string("not an object")
                                           : *r.error + " at line " + std::to_string(r.line) +
                                                 ", column " + std::to_string(r.column)) +
                                   ".");
        }
      } else if (fr.status != detail::read_status::missing) {
        h.problem = error_at(errc::invalid_config, phase::plan, "$",
                             detail::read_problem(fr.status, h.state_dir + "/openclaw.json",
                                                  16 * 1024 * 1024, fr.detail));
      }
    } catch (const error& e) {
      h.problem = error_at(errc::invalid_config, phase::plan, "$", e.what());
    }
  }
  // Every configured agent's workspace by the one rule (environment.hpp, agent_workspace).
  const auto workspace_of = [&](const std::string& id) {
    bool exists = false;
    return detail::canonical_through_ancestor(fs, agent_workspace(cfg, req, id).path, exists);
  };
  for (const configured_agent& a : configured_agents(cfg)) {
    h.agent_ids.push_back(a.id);
    h.workspaces.push_back(workspace_of(a.id));
  }
  if (h.agent_ids.empty()) {
    h.agent_ids.push_back("main");
    h.workspaces.push_back(workspace_of("main"));
  }
  if (const value* mcp = detail::get(cfg, "mcp")) {
    if (const value* servers = detail::get(*mcp, "servers"); servers && servers->is_object()) {
      h.mcp_servers = *servers;
    }
  }
  h.config = std::move(cfg);
  return h;
}

/// Resolves the final agent id and the canonical workspace: --workspace, else the new
/// agent's workspace by the rule every command uses (agent_workspace over `host.config`).
template <class Fs>
destination resolve_destination(Fs& fs, const claw_package& pkg, const destination_request& req,
                                const host_state& host) {
  destination d;
  d.requested_id = pkg.manifest["agent"]["id"].get<std::string>();
  d.final_id = req.agent_id ? *req.agent_id : d.requested_id;
  const std::string ws = req.workspace ? operator_path(*req.workspace, req)
                                       : agent_workspace(host.config, req, d.final_id).path;
  d.workspace = detail::canonical_through_ancestor(fs, ws, d.workspace_exists);
  return d;
}

/// The same, reading the state directory's openclaw.json for it.
template <class Fs>
destination resolve_destination(Fs& fs, const claw_package& pkg, const destination_request& req) {
  return resolve_destination(fs, pkg, req, read_host_state(fs, req));
}

// ---------------------------------------------------------------------------------------
// The plan
// ---------------------------------------------------------------------------------------

namespace detail {

/// The order JavaScript's localeCompare gives plan keys (unicode::locale_less).
inline bool locale_less(const std::string& a, const std::string& b) {
  return unicode::locale_less(a, b);
}

/// OpenClaw's canonicalizeConfiguredMcpServer: legacy `type` → `transport`, snake_case
/// aliases → camelCase; strict Claw shapes pass unchanged.
inline value canonical_mcp_server(const value& s) {
  if (!s.is_object()) return s;
  value out = value::object();
  for (auto it = s.begin(); it != s.end(); ++it) {
    std::string k = it.key();
    if (k == "type") k = "transport";
    if (k == "tool_filter") k = "toolFilter";
    if (k == "connect_timeout") k = "connectTimeout";
    if (!out.contains(k)) out[k] = it.value();
  }
  return out;
}

inline value mcp_effect(const value& server) {
  value e = value::object();
  for (auto it = server.begin(); it != server.end(); ++it) {
    if (it.key() == "env") {
      std::vector<std::string> keys;
      for (auto k = it.value().begin(); k != it.value().end(); ++k) keys.push_back(k.key());
      std::sort(keys.begin(), keys.end(),
                [](const std::string& a, const std::string& b) { return utf16_less(a, b); });
      e["env"] = keys;
    } else {
      e[it.key()] = it.value();
    }
  }
  return e;
}

/// The digest OpenClaw records of a JSON value: `sha256:<hex>` of its stableStringify.
inline std::string digest_of(const value& v) {
  return digest::sha256_prefixed(stable_stringify(v));
}

inline value capability(const std::string& kind, const std::string& id, const std::string& path,
                        const std::string& action, value effect) {
  value c = value::object();
  c["kind"] = kind;
  c["id"] = id;
  c["path"] = path;
  c["action"] = action;
  c["classification"] = "escalation";
  c["requiresDistinctConsent"] = true;
  c["digest"] = digest_of(effect);
  c["effect"] = std::move(effect);
  return c;
}

inline value action(const std::string& kind, const std::string& id, const std::string& verb,
                    const std::string& target) {
  value a = value::object();
  a["kind"] = kind;
  a["id"] = id;
  a["action"] = verb;
  a["target"] = target;
  return a;
}

inline void set_blocked(value& a, const std::optional<std::string>& reason) {
  a["blocked"] = reason.has_value();
  if (reason) a["reason"] = *reason;
}

}  // namespace detail

/// The command that installs one ClawHub package later, with a running OpenClaw.
inline std::string package_install_command(const value& p) {
  const std::string kind = p["kind"].get<std::string>();
  return std::string("openclaw ") + (kind == "plugin" ? "plugins" : "skills") +
         " install clawhub:" + p["ref"].get<std::string>() + "@" + p["version"].get<std::string>();
}

/// The plan as data, and whether anything blocks it.
struct add_plan {
  value plan;  ///< `openclaw.clawAddPlan.v1`
  bool blocked = false;
};

/// The three plans of the lifecycle that carry a planIntegrity.
enum class plan_kind { add, update, remove };

/// The canonical text a plan's `planIntegrity` digests: OpenClaw's stableStringify of what
/// the plan binds. An add binds upstream's parts (manifest schema version, the Claw's
/// integrity, the final id and workspace, the actions, capability changes and blockers, and
/// the extensions and notices when there are any); an update binds the whole plan but its
/// integrity; a remove binds the target, the agent id, the actions and the blockers.
inline std::string plan_canonical_text(plan_kind kind, const value& plan) {
  value bound = value::object();
  if (kind == plan_kind::update) {
    bound = plan;
    bound.erase("planIntegrity");
  } else if (kind == plan_kind::remove) {
    bound["target"] = plan.at("target");
    bound["agentId"] = plan.contains("agentId") ? plan["agentId"] : undefined_value();
    bound["actions"] = plan.at("actions");
    bound["blockers"] = plan.at("blockers");
  } else {
    bound["manifestSchemaVersion"] = plan.at("manifestSchemaVersion");
    bound["clawIntegrity"] = plan.at("claw").at("integrity");
    bound["finalId"] = plan.at("agent").at("finalId");
    bound["workspace"] = plan.at("agent").at("workspace");
    bound["actions"] = plan.at("actions");
    bound["capabilityChanges"] = plan.at("capabilityChanges");
    bound["blockers"] = plan.at("blockers");
    if (plan.contains("extensions") && !plan["extensions"].empty())
      bound["extensions"] = plan["extensions"];
    if (plan.contains("notices") && !plan["notices"].empty()) bound["notices"] = plan["notices"];
  }
  return stable_stringify(bound);
}

/// `planIntegrity` of a plan document (`sha256:<hex>` of its canonical text).
inline std::string plan_integrity(plan_kind kind, const value& plan) {
  return clawport::plan::integrity_of(plan_canonical_text(kind, plan));
}

/// `planIntegrity` of an add plan from its bound parts.
inline std::string add_plan_integrity(const value& plan) {
  return plan_integrity(plan_kind::add, plan);
}

namespace detail {

/// The parts of an add plan as they are found, and what every part needs to know.
struct add_builder {
  const claw_package& pkg;
  const destination& dest;
  const host_state& host;
  const std::string& final_id;
  const std::string& ws;
  value actions = value::array();
  value caps = value::array();
  value blockers = value::array();
  value requirements = value::array();
  value notices = value::array();
  value offline = value::array();        ///< diagnostics (not bound): what an offline add cannot do
  bool adopt = false;                    ///< an existing workspace is adopted
  std::optional<std::string> ws_reason;  ///< why the workspace blocks

  add_builder(const claw_package& p, const destination& d, const host_state& h)
      : pkg(p), dest(d), host(h), final_id(d.final_id), ws(d.workspace) {}

  void block(errc code, const std::string& path, const std::string& msg) {
    blockers.push_back(to_json(error_at(code, phase::plan, path, msg)));
  }

  /// The adopt rule for one file action: an identical existing file is adopted, a differing
  /// one (or anything not a plain regular file) blocks with workspace_file_conflict.
  void adopt_file(value& a, const std::string& rel, const std::string& want,
                  std::optional<std::string>& reason, const std::string& path) {
    if (!adopt || reason) return;
    const auto it = dest.existing.find(rel);
    if (it == dest.existing.end()) return;
    if (it->second.digest && *it->second.digest == want) {
      a["action"] = "adopt";
      a["details"] = value::object({{"expectedState", "existing-identical"}});
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
/// settings over it, the final id and workspace.
inline value agent_config_of(const claw_package& pkg, const std::string& final_id,
                             const std::string& ws) {
  value config = pkg.manifest["agent"];
  if (pkg.profile) {
    for (auto it = (*pkg.profile)["agent"].begin(); it != (*pkg.profile)["agent"].end(); ++it)
      config[it.key()] = it.value();
  }
  config["id"] = final_id;
  config["workspace"] = ws;
  return config;
}

/// The agent and workspace actions: an invalid or taken id blocks, so does a workspace that
/// exists and cannot be adopted or belongs to a configured agent.
inline void add_agent_actions(add_builder& b, const value& config) {
  const std::string& final_id = b.final_id;
  std::optional<std::string> agent_reason;
  if (!is_agent_id(final_id)) {
    agent_reason = "Agent id " + final_id + " must match ^[a-z][a-z0-9_-]{0,63}$.";
    b.block(errc::invalid_agent_id, "$.agent.id", *agent_reason);
  } else if (std::find(b.host.agent_ids.begin(), b.host.agent_ids.end(), final_id) !=
             b.host.agent_ids.end()) {
    agent_reason = "Agent " + final_id + " already exists. Claws never merge into existing agents.";
    b.block(errc::agent_id_collision, "$.agent.id", *agent_reason);
  }
  const bool configured = std::find(b.host.workspaces.begin(), b.host.workspaces.end(), b.ws) !=
                          b.host.workspaces.end();
  b.adopt = b.dest.workspace_exists && b.dest.workspace_adoptable && !configured;
  if (configured || (b.dest.workspace_exists && !b.adopt)) {
    b.ws_reason = "Workspace " + b.ws + " already exists.";
    b.block(errc::workspace_collision, "$.workspace", *b.ws_reason);
  }
  value a = action("agent", final_id, "create", "agents.entries[" + js_string(final_id) + "]");
  value details = config;
  details["expectedState"] = "absent";
  a["details"] = std::move(details);
  set_blocked(a, agent_reason);
  b.actions.push_back(std::move(a));
  value w = action("workspace", final_id, b.adopt ? "adopt" : "create", b.ws);
  w["details"] = value::object({{"expectedState", b.adopt ? "existing" : "absent"}});
  set_blocked(w, b.ws_reason);
  b.actions.push_back(std::move(w));
}

/// The workspace files: the body first, then bootstrap names and files[], then the
/// BOOTSTRAP.md seeded once.
inline void add_file_actions(add_builder& b) {
  const claw_package& pkg = b.pkg;
  const std::string prefix = b.ws == "/" ? "/" : b.ws + "/";
  if (pkg.body) {
    value a = action("workspaceFile", "SOUL.md", "write", prefix + "SOUL.md");
    a["source"] = pkg.source.manifest_path;
    a["sourceKind"] = "clawMarkdownBody";
    if (!b.ws_reason && !pkg.sources_too_large) a["digest"] = sha256_digest(*pkg.body);
    a["details"] = value::object({{"expectedState", "absent"}});
    std::optional<std::string> reason = b.ws_reason;
    if (!reason && pkg.sources_too_large) reason = "Workspace sources exceed the aggregate limit.";
    b.adopt_file(a, "SOUL.md", sha256_digest(*pkg.body), reason,
                 "$.workspace.bootstrapFiles.SOUL.md");
    if (reason) a.erase("digest");
    set_blocked(a, reason);
    b.actions.push_back(std::move(a));
  }
  bool too_large_reported = false;
  for (const auto& s : pkg.sources) {
    value a = action("workspaceFile", s.destination, "write", prefix + s.destination);
    a["source"] = s.real_path;
    std::optional<std::string> reason = b.ws_reason;
    if (s.problem) {
      if (!has_code(*s.problem, errc::workspace_sources_too_large) || !too_large_reported) {
        b.blockers.push_back(
            to_json(error_at(s.problem->code, phase::plan, s.problem->path, s.problem->message)));
        too_large_reported =
            too_large_reported || has_code(*s.problem, errc::workspace_sources_too_large);
      }
      if (!reason) reason = s.problem->message;
    }
    a["details"] = value::object({{"expectedState", "absent"}});
    b.adopt_file(a, s.destination, s.digest, reason,
                 s.bootstrap ? "$.workspace.bootstrapFiles." + s.destination : "$.workspace.files");
    if (!reason) a["digest"] = s.digest;
    set_blocked(a, reason);
    b.actions.push_back(std::move(a));
  }
  if (pkg.bootstrap) {
    value a = action("bootstrap", "BOOTSTRAP.md", "seed", prefix + "BOOTSTRAP.md");
    a["source"] = (pkg.source.package_root == "/" ? "" : pkg.source.package_root) + "/BOOTSTRAP.md";
    if (!b.ws_reason) a["digest"] = sha256_digest(*pkg.bootstrap);
    a["details"] = value::object({{"expectedState", "absent"}, {"lifecycle", "native-seed-once"}});
    set_blocked(a, b.ws_reason);
    b.actions.push_back(std::move(a));
  }
}

/// A package recorded as a consented `skip` (--without-packages), with its notice.
inline void add_skipped_package(add_builder& b, value a, const value& p, std::size_t k) {
  a["action"] = "skip";
  value details = p;
  details["expectedState"] = "not-installed";
  details["reason"] = "without-packages";
  a["details"] = std::move(details);
  set_blocked(a, std::nullopt);
  b.actions.push_back(std::move(a));
  b.notices.push_back(value::object(
      {{"code", std::string(to_string(errc::package_not_installed))},
       {"path", index("$.packages", k)},
       {"message", p["kind"].get<std::string>() + " " + p["ref"].get<std::string>() + "@" +
                       p["version"].get<std::string>() +
                       " is not installed (--without-packages); install it later with: " +
                       package_install_command(p)}}));
}

/// A package install action from the resolver's preflight (none: unresolved, blocked).
inline void add_resolved_package(add_builder& b, value a, const value& p, std::size_t k,
                                 const std::optional<package_preflight>& pf) {
  const std::string id = p["kind"].get<std::string>() + ":" + p["ref"].get<std::string>();
  value details = p;
  std::optional<std::string> reason;
  value effect = value::object();
  for (const char* key : {"kind", "source", "ref", "version"}) effect[key] = p[key];
  if (!pf) {
    a["digest"] = undefined_value();
    details["expectedState"] = "unresolved";
    details["ownerAction"] = undefined_value();
    reason = "Package preflight is unavailable.";
    b.block(errc::package_install_unavailable, index("$.packages", k), *reason);
    effect["integrity"] = "unresolved";
  } else {
    a["digest"] = pf->integrity ? value(*pf->integrity) : undefined_value();
    if (pf->integrity) details["integrity"] = *pf->integrity;
    if (pf->install_id) details["installId"] = *pf->install_id;
    if (pf->warning) details["riskWarning"] = *pf->warning;
    if (!pf->requirements.empty()) details["prerequisites"] = pf->requirements;
    details["expectedState"] = !pf->ok                                  ? "unresolved"
                               : (pf->action && *pf->action == "reuse") ? "present-exact"
                                                                        : "absent";
    details["ownerAction"] = pf->action ? value(*pf->action) : undefined_value();
    effect["integrity"] = pf->integrity ? *pf->integrity : "unresolved";
    if (pf->install_id) effect["installId"] = *pf->install_id;
    if (pf->warning) effect["riskWarning"] = *pf->warning;
    if (!pf->ok) {
      reason = pf->message.empty() ? "Package preflight failed." : pf->message;
      // The resolver's own code when it names one (ClawHub's, outside errc).
      const std::string code =
          pf->code.empty() ? std::string(to_string(errc::plugin_preflight_failed)) : pf->code;
      b.blockers.push_back(to_json(error_at(code, phase::plan, index("$.packages", k), *reason)));
    }
  }
  a["details"] = std::move(details);
  set_blocked(a, reason);
  b.actions.push_back(std::move(a));
  b.caps.push_back(capability(
      "package", id, "packages." + p["kind"].get<std::string>() + "." + p["ref"].get<std::string>(),
      "install", std::move(effect)));
}

/// The ClawHub packages: skipped (--without-packages) or preflighted by the resolver.
template <class Resolver>
void add_package_actions(add_builder& b, const Resolver& resolver, const add_options& opt) {
  const value& packages = b.pkg.manifest["packages"];
  for (std::size_t k = 0; k < packages.size(); ++k) {
    const value& p = packages[k];
    const std::string ref = p["ref"].get<std::string>();
    value a = action("package", p["kind"].get<std::string>() + ":" + ref, "install",
                     "clawhub:" + ref + "@" + p["version"].get<std::string>());
    if (opt.without_packages) {
      // Recorded, bound into the integrity, and reported: never skipped silently.
      add_skipped_package(b, std::move(a), p, k);
    } else {
      add_resolved_package(b, std::move(a), p, k, resolver.preflight(p));
    }
  }
}

/// The prerequisites of one MCP server: its environment references and OAuth.
inline value mcp_prerequisites(add_builder& b, const std::string& name, const value& server) {
  value prereq = value::array();
  if (server.contains("env")) {
    for (auto e = server["env"].begin(); e != server["env"].end(); ++e) {
      std::string var;
      if (is_env_reference(e.value().get<std::string>(), &var)) {
        value r = value::object({{"kind", "environment"}, {"mcpServer", name}, {"name", var}});
        prereq.push_back(r);
        b.requirements.push_back(std::move(r));
      }
    }
  }
  if (server.contains("auth") && server["auth"] == "oauth") {
    value r = value::object({{"kind", "oauth"}, {"mcpServer", name}});
    prereq.push_back(r);
    b.requirements.push_back(std::move(r));
  }
  return prereq;
}

/// The MCP servers: absent, present-exact (identical), or a collision.
inline void add_mcp_actions(add_builder& b) {
  const value& servers = b.pkg.manifest["mcpServers"];
  for (auto it = servers.begin(); it != servers.end(); ++it) {
    const std::string& name = it.key();
    const value& server = it.value();
    value a = action("mcpServer", name, "configure", "mcp.servers." + name);
    value prereq = mcp_prerequisites(b, name, server);
    std::string expected = "absent";
    std::optional<std::string> reason;
    if (b.host.mcp_servers.contains(name)) {
      if (stable_stringify(canonical_mcp_server(server)) ==
          stable_stringify(canonical_mcp_server(b.host.mcp_servers[name]))) {
        expected = "present-exact";
      } else {
        reason = "MCP server " + name + " already exists with a different configuration.";
      }
    }
    value details = server;
    details["expectedState"] = expected;
    details["prerequisites"] = std::move(prereq);
    a["details"] = std::move(details);
    if (reason) b.block(errc::mcp_server_collision, "$.mcpServers." + name, *reason);
    set_blocked(a, reason);
    b.actions.push_back(std::move(a));
    b.caps.push_back(
        capability("mcpServer", name, "mcpServers." + name, "configure", mcp_effect(server)));
  }
}

/// The cron jobs: planned, disclosed as needing a running Gateway.
inline void add_cron_actions(add_builder& b) {
  const value& jobs = b.pkg.manifest["cronJobs"];
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const value& job = jobs[k];
    const std::string id = job["id"].get<std::string>();
    b.offline.push_back(
        to_json(warning_at(errc::cron_gateway_required, phase::plan, index("$.cronJobs", k),
                           "Cron job " + id +
                               " needs a running OpenClaw Gateway (cron.add); "
                               "clawport does not schedule it offline.")));
    value a = action("cronJob", id, "schedule", "cron:" + id + ":agent=" + b.final_id);
    value details = job;
    details["agentId"] = b.final_id;
    details["expectedState"] = "absent";
    if (job.contains("delivery") && job["delivery"].contains("channel") &&
        job["delivery"]["channel"] == "last") {
      details["deliveryResolution"] = "local-channel-state:last";
    }
    a["details"] = std::move(details);
    set_blocked(a, std::nullopt);
    b.actions.push_back(std::move(a));
    value effect = job;
    effect["agentId"] = b.final_id;
    b.caps.push_back(capability("cronJob", id, "cronJobs." + id, "schedule", std::move(effect)));
  }
}

/// The agent capability (the profile's escalating settings), then every capability sorted
/// by `<kind>:<id>:<path>` in localeCompare order.
inline void add_capabilities(add_builder& b) {
  if (b.pkg.profile) {
    value effect = value::object();
    for (const char* k : {"sandbox", "tools", "memory", "heartbeat"})
      if ((*b.pkg.profile)["agent"].contains(k)) effect[k] = (*b.pkg.profile)["agent"][k];
    if (!effect.empty())
      b.caps.push_back(capability("agent", b.final_id, "agent", "create", std::move(effect)));
  }
  std::vector<value> sorted(b.caps.begin(), b.caps.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const value& x, const value& y) {
    const auto key = [](const value& c) {
      return c["kind"].get<std::string>() + ":" + c["id"].get<std::string>() + ":" +
             c["path"].get<std::string>();
    };
    return locale_less(key(x), key(y));
  });
  b.caps = value::array();
  for (auto& c : sorted) b.caps.push_back(std::move(c));
}

/// The counts of the plan's actions by kind.
inline value add_summary(const value& actions, std::size_t escalations) {
  std::size_t agent_n = 0, ws_n = 0, pkg_n = 0, mcp_n = 0, cron_n = 0, blocked_n = 0;
  for (const auto& a : actions) {
    const std::string k = a["kind"].get<std::string>();
    agent_n += k == "agent";
    ws_n += k == "workspace" || k == "workspaceFile" || k == "bootstrap";
    pkg_n += k == "package";
    mcp_n += k == "mcpServer";
    cron_n += k == "cronJob";
    blocked_n += a["blocked"].get<bool>();
  }
  value summary = value::object();
  summary["totalActions"] = actions.size();
  summary["agentActions"] = agent_n;
  summary["workspaceActions"] = ws_n;
  summary["packageActions"] = pkg_n;
  summary["mcpServerActions"] = mcp_n;
  summary["cronJobActions"] = cron_n;
  summary["blockedActions"] = blocked_n;
  summary["capabilityEscalations"] = escalations;
  return summary;
}

/// The `openclaw.clawAddPlan.v1` document of the parts found, with its planIntegrity.
inline value add_plan_document(add_builder& b, const value& config) {
  value plan = value::object();
  plan["schemaVersion"] = "openclaw.clawAddPlan.v1";
  plan["manifestSchemaVersion"] = 1;
  plan["stability"] = "experimental";
  plan["dryRun"] = true;
  plan["mutationAllowed"] = false;
  plan["planIntegrity"] = "";
  plan["claw"] = to_json(b.pkg.source);
  plan["agent"] = value::object({{"requestedId", b.dest.requested_id},
                                 {"finalId", b.final_id},
                                 {"workspace", b.ws},
                                 {"config", config}});
  plan["summary"] = add_summary(b.actions, b.caps.size());
  plan["actions"] = std::move(b.actions);
  plan["capabilityChanges"] = std::move(b.caps);
  plan["readiness"] =
      value::object({{"ready", b.requirements.empty()}, {"requirements", b.requirements}});
  if (b.pkg.profile && !(*b.pkg.profile)["extensions"].empty())
    plan["extensions"] = (*b.pkg.profile)["extensions"];
  plan["blockers"] = std::move(b.blockers);
  plan["notices"] = std::move(b.notices);
  value diags = value::array();
  for (const auto& d : b.pkg.diagnostics) diags.push_back(to_json(d));
  for (auto& d : b.offline) diags.push_back(std::move(d));
  plan["diagnostics"] = std::move(diags);
  plan["planIntegrity"] = add_plan_integrity(plan);
  return plan;
}

}  // namespace detail

/// Builds the add plan of a package that read cleanly. Pure: the package, the
/// destination and the host state were gathered at the edge.
template <class Resolver = offline_resolver>
add_plan build_add_plan(const claw_package& pkg, const destination& dest, const host_state& host,
                        const Resolver& resolver = {}, const add_options& opt = {}) {
  detail::add_builder b(pkg, dest, host);
  const value config = detail::agent_config_of(pkg, dest.final_id, dest.workspace);
  detail::add_agent_actions(b, config);
  detail::add_file_actions(b);
  detail::add_package_actions(b, resolver, opt);
  detail::add_mcp_actions(b);
  detail::add_cron_actions(b);
  detail::add_capabilities(b);
  if (host.problem) b.blockers.push_back(to_json(*host.problem));
  add_plan out;
  out.blocked = !b.blockers.empty();
  out.plan = detail::add_plan_document(b, config);
  return out;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
