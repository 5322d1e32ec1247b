// SPDX-License-Identifier: MIT
// The add plan `openclaw.clawAddPlan.v1` (docs/openclaw.md): destination
// resolution against the state directory, the ordered actions, capability records,
// blockers, readiness, and planIntegrity over OpenClaw's stableStringify. ClawHub lookups go
// through a resolver policy; with none (offline) every package plans as an unresolved
// blocker, as upstream does without the registry.
#pragma once

#include "../plan/integrity.hpp"
#include "diagnostics.hpp"
#include "grammar.hpp"
#include "json5.hpp"
#include "package.hpp"
#include "stable_json.hpp"
#include "state.hpp"

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

/// The caller's choices and environment.
struct destination_request {
  std::optional<std::string> agent_id;   ///< --agent-id
  std::optional<std::string> workspace;  ///< --workspace (`~` expanded, relative to `cwd`)
  std::optional<std::string> state_dir;  ///< --state-dir, else OPENCLAW_STATE_DIR, else ~/.openclaw
  std::optional<std::string> state_dir_env;  ///< OPENCLAW_STATE_DIR
  std::string home;                          ///< the home directory
  std::string cwd;                           ///< for relative paths
};

/// What the state directory's `openclaw.json` says.
struct host_state {
  std::string state_dir;
  bool config_found = false;
  std::vector<std::string> agent_ids;
  std::vector<std::string> workspaces;  ///< canonical workspace of every configured agent
  value mcp_servers = value::object();  ///< `mcp.servers`
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

inline std::string expand_home(const std::string& p, const std::string& home) {
  if (p == "~") return home;
  if (p.rfind("~/", 0) == 0) return home + p.substr(1);
  return p;
}

/// Absolute and lexically normal (`.`, `..`, repeated `/` removed).
inline std::string lexical_absolute(const std::string& p, const std::string& cwd) {
  const std::string abs = !p.empty() && p[0] == '/' ? p : cwd + "/" + p;
  std::vector<std::string> parts;
  std::size_t from = 0;
  while (from <= abs.size()) {
    std::size_t slash = abs.find('/', from);
    if (slash == std::string::npos) slash = abs.size();
    const std::string part = abs.substr(from, slash - from);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    from = slash + 1;
  }
  std::string out;
  for (const auto& part : parts) out += "/" + part;
  return out.empty() ? "/" : out;
}

/// Canonicalises a directory path as every write opens it (state.hpp, `open_dir_path`):
/// its parent through the nearest existing ancestor (symlinked parents resolved: the
/// operator's own path), its last component kept as it is, never followed. `exists` says
/// whether that last component exists (a symlink there exists, and plans as a collision).
template <class Fs>
std::string canonical_through_ancestor(Fs& fs, const std::string& abs, bool& exists) {
  exists = false;
  const std::size_t last = abs.rfind('/');
  if (abs.size() <= 1 || last == std::string::npos) return abs;
  std::string head = last == 0 ? "/" : abs.substr(0, last);
  std::string tail;
  for (;;) {
    if (auto c = fs.canonical(head)) {
      const std::string parent = (*c == "/" ? "" : *c) + tail;
      if (tail.empty()) {
        try {
          exists = fs.stat_at(fs.open_root(*c), abs.substr(last + 1)).has_value();
        } catch (const error&) {
        }
      }
      return parent + abs.substr(last);
    }
    if (head == "/" || head.empty()) return abs;
    const std::size_t slash = head.rfind('/');
    tail = head.substr(slash) + tail;
    head = slash == 0 ? "/" : head.substr(0, slash);
  }
}

}  // namespace detail

/// The state directory: --state-dir, else OPENCLAW_STATE_DIR, else `~/.openclaw`.
inline std::string state_dir_of(const destination_request& req) {
  if (req.state_dir && !req.state_dir->empty()) {
    return detail::lexical_absolute(detail::expand_home(*req.state_dir, req.home), req.cwd);
  }
  if (req.state_dir_env && !req.state_dir_env->empty()) {
    return detail::lexical_absolute(detail::expand_home(*req.state_dir_env, req.home), req.cwd);
  }
  return req.home + "/.openclaw";
}

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
      h.problem = error_at("invalid_config", phase::plan, "$", e.what());
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
          h.problem = error_at("invalid_config", phase::plan, "$",
                               "Could not read " + h.state_dir + "/openclaw.json: " +
                                   (r.ok() ? std::string("not an object")
                                           : *r.error + " at line " + std::to_string(r.line) +
                                                 ", column " + std::to_string(r.column)) +
                                   ".");
        }
      } else if (fr.status != detail::read_status::missing) {
        h.problem = error_at("invalid_config", phase::plan, "$",
                             detail::read_problem(fr.status, h.state_dir + "/openclaw.json",
                                                  16 * 1024 * 1024, fr.detail));
      }
    } catch (const error& e) {
      h.problem = error_at("invalid_config", phase::plan, "$", e.what());
    }
  }
  const auto workspace_of = [&](const std::string& id, const value* entry) {
    std::string ws;
    if (entry != nullptr && entry->is_object() && entry->contains("workspace") &&
        (*entry)["workspace"].is_string()) {
      ws = (*entry)["workspace"].get<std::string>();
    } else if (id == "main") {
      const value* agents = detail::get(cfg, "agents");
      const value* defaults = agents ? detail::get(*agents, "defaults") : nullptr;
      const value* dws = defaults ? detail::get(*defaults, "workspace") : nullptr;
      ws = dws && dws->is_string() ? dws->get<std::string>() : h.state_dir + "/workspace";
    } else {
      ws = h.state_dir + "/workspace-" + id;
    }
    bool exists = false;
    return detail::canonical_through_ancestor(
        fs, detail::lexical_absolute(detail::expand_home(ws, req.home), req.cwd), exists);
  };
  const value* agents = detail::get(cfg, "agents");
  if (agents != nullptr) {
    if (const value* entries = detail::get(*agents, "entries"); entries && entries->is_object()) {
      for (auto it = entries->begin(); it != entries->end(); ++it) {
        h.agent_ids.push_back(it.key());
        h.workspaces.push_back(workspace_of(it.key(), &it.value()));
      }
    }
    if (const value* list = detail::get(*agents, "list"); list && list->is_array()) {
      for (const auto& e : *list) {
        if (!e.is_object() || !e.contains("id") || !e["id"].is_string()) continue;
        h.agent_ids.push_back(e["id"].get<std::string>());
        h.workspaces.push_back(workspace_of(e["id"].get<std::string>(), &e));
      }
    }
  }
  if (h.agent_ids.empty()) {
    h.agent_ids.push_back("main");
    h.workspaces.push_back(workspace_of("main", nullptr));
  }
  if (const value* mcp = detail::get(cfg, "mcp")) {
    if (const value* servers = detail::get(*mcp, "servers"); servers && servers->is_object()) {
      h.mcp_servers = *servers;
    }
  }
  return h;
}

/// Resolves the final agent id and the canonical workspace.
template <class Fs>
destination resolve_destination(Fs& fs, const claw_package& pkg, const destination_request& req) {
  destination d;
  d.requested_id = pkg.manifest["agent"]["id"].get<std::string>();
  d.final_id = req.agent_id ? *req.agent_id : d.requested_id;
  const std::string ws = req.workspace ? detail::expand_home(*req.workspace, req.home)
                                       : req.home + "/.openclaw/workspace-" + d.final_id;
  d.workspace = detail::canonical_through_ancestor(fs, detail::lexical_absolute(ws, req.cwd),
                                                   d.workspace_exists);
  return d;
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

inline value capability(const std::string& kind, const std::string& id, const std::string& path,
                        const std::string& action, value effect) {
  value c = value::object();
  c["kind"] = kind;
  c["id"] = id;
  c["path"] = path;
  c["action"] = action;
  c["classification"] = "escalation";
  c["requiresDistinctConsent"] = true;
  c["digest"] = digest::sha256_prefixed(stable_stringify(effect));
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

/// Builds the add plan of a package that read cleanly. Pure: the package, the
/// destination and the host state were gathered at the edge.
template <class Resolver = offline_resolver>
add_plan build_add_plan(const claw_package& pkg, const destination& dest, const host_state& host,
                        const Resolver& resolver = {}, const add_options& opt = {}) {
  const value& m = pkg.manifest;
  const std::string& final_id = dest.final_id;
  const std::string& ws = dest.workspace;
  value actions = value::array();
  value caps = value::array();
  value blockers = value::array();
  value requirements = value::array();
  value notices = value::array();
  value offline = value::array();  // diagnostics (not bound): what an offline add cannot do
  const auto block = [&](const std::string& code, const std::string& path, const std::string& msg) {
    blockers.push_back(to_json(error_at(code, phase::plan, path, msg)));
  };

  // The agent.
  std::optional<std::string> agent_reason;
  if (!is_agent_id(final_id)) {
    agent_reason = "Agent id " + final_id + " must match ^[a-z][a-z0-9_-]{0,63}$.";
    block("invalid_agent_id", "$.agent.id", *agent_reason);
  } else if (std::find(host.agent_ids.begin(), host.agent_ids.end(), final_id) !=
             host.agent_ids.end()) {
    agent_reason = "Agent " + final_id + " already exists. Claws never merge into existing agents.";
    block("agent_id_collision", "$.agent.id", *agent_reason);
  }
  std::optional<std::string> ws_reason;
  const bool configured =
      std::find(host.workspaces.begin(), host.workspaces.end(), ws) != host.workspaces.end();
  const bool adopt = dest.workspace_exists && dest.workspace_adoptable && !configured;
  if (configured || (dest.workspace_exists && !adopt)) {
    ws_reason = "Workspace " + ws + " already exists.";
    block("workspace_collision", "$.workspace", *ws_reason);
  }
  // The adopt rule for one file action: an identical existing file is adopted, a differing
  // one (or anything not a plain regular file) blocks with workspace_file_conflict.
  const auto adopt_file = [&](value& a, const std::string& rel, const std::string& want,
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
    block("workspace_file_conflict", path, *reason);
  };
  value config = m["agent"];
  if (pkg.profile) {
    for (auto it = (*pkg.profile)["agent"].begin(); it != (*pkg.profile)["agent"].end(); ++it)
      config[it.key()] = it.value();
  }
  config["id"] = final_id;
  config["workspace"] = ws;
  {
    value a =
        detail::action("agent", final_id, "create", "agents.entries[" + js_string(final_id) + "]");
    value details = config;
    details["expectedState"] = "absent";
    a["details"] = std::move(details);
    detail::set_blocked(a, agent_reason);
    actions.push_back(std::move(a));
  }
  {
    value a = detail::action("workspace", final_id, adopt ? "adopt" : "create", ws);
    a["details"] = value::object({{"expectedState", adopt ? "existing" : "absent"}});
    detail::set_blocked(a, ws_reason);
    actions.push_back(std::move(a));
  }
  // Workspace files: the body first, then bootstrap names, then files[].
  const std::string prefix = ws == "/" ? "/" : ws + "/";
  if (pkg.body) {
    value a = detail::action("workspaceFile", "SOUL.md", "write", prefix + "SOUL.md");
    a["source"] = pkg.source.manifest_path;
    a["sourceKind"] = "clawMarkdownBody";
    if (!ws_reason && !pkg.sources_too_large) a["digest"] = sha256_digest(*pkg.body);
    a["details"] = value::object({{"expectedState", "absent"}});
    std::optional<std::string> reason = ws_reason;
    if (!reason && pkg.sources_too_large) reason = "Workspace sources exceed the aggregate limit.";
    adopt_file(a, "SOUL.md", sha256_digest(*pkg.body), reason,
               "$.workspace.bootstrapFiles.SOUL.md");
    if (reason) a.erase("digest");
    detail::set_blocked(a, reason);
    actions.push_back(std::move(a));
  }
  bool too_large_reported = false;
  for (const auto& s : pkg.sources) {
    value a = detail::action("workspaceFile", s.destination, "write", prefix + s.destination);
    a["source"] = s.real_path;
    std::optional<std::string> reason = ws_reason;
    if (s.problem) {
      if (s.problem->code != "workspace_sources_too_large" || !too_large_reported) {
        blockers.push_back(
            to_json(error_at(s.problem->code, phase::plan, s.problem->path, s.problem->message)));
        too_large_reported = too_large_reported || s.problem->code == "workspace_sources_too_large";
      }
      if (!reason) reason = s.problem->message;
    }
    a["details"] = value::object({{"expectedState", "absent"}});
    adopt_file(a, s.destination, s.digest, reason,
               s.bootstrap ? "$.workspace.bootstrapFiles." + s.destination : "$.workspace.files");
    if (!reason) a["digest"] = s.digest;
    detail::set_blocked(a, reason);
    actions.push_back(std::move(a));
  }
  if (pkg.bootstrap) {
    value a = detail::action("bootstrap", "BOOTSTRAP.md", "seed", prefix + "BOOTSTRAP.md");
    a["source"] = (pkg.source.package_root == "/" ? "" : pkg.source.package_root) + "/BOOTSTRAP.md";
    if (!ws_reason) a["digest"] = sha256_digest(*pkg.bootstrap);
    a["details"] = value::object({{"expectedState", "absent"}, {"lifecycle", "native-seed-once"}});
    detail::set_blocked(a, ws_reason);
    actions.push_back(std::move(a));
  }
  // Packages.
  for (std::size_t k = 0; k < m["packages"].size(); ++k) {
    const value& p = m["packages"][k];
    const std::string kind = p["kind"].get<std::string>();
    const std::string ref = p["ref"].get<std::string>();
    value a = detail::action("package", kind + ":" + ref, "install",
                             "clawhub:" + ref + "@" + p["version"].get<std::string>());
    if (opt.without_packages) {
      // Recorded, bound into the integrity, and reported: never skipped silently.
      a["action"] = "skip";
      value details = p;
      details["expectedState"] = "not-installed";
      details["reason"] = "without-packages";
      a["details"] = std::move(details);
      detail::set_blocked(a, std::nullopt);
      actions.push_back(std::move(a));
      notices.push_back(value::object(
          {{"code", "package_not_installed"},
           {"path", index("$.packages", k)},
           {"message", kind + " " + ref + "@" + p["version"].get<std::string>() +
                           " is not installed (--without-packages); install it later with: " +
                           package_install_command(p)}}));
      continue;
    }
    const std::optional<package_preflight> pf = resolver.preflight(p);
    value details = p;
    std::optional<std::string> reason;
    value effect = value::object();
    for (const char* key : {"kind", "source", "ref", "version"}) effect[key] = p[key];
    if (!pf) {
      a["digest"] = undefined_value();
      details["expectedState"] = "unresolved";
      details["ownerAction"] = undefined_value();
      reason = "Package preflight is unavailable.";
      block("package_install_unavailable", index("$.packages", k), *reason);
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
        block(pf->code.empty() ? "plugin_preflight_failed" : pf->code, index("$.packages", k),
              *reason);
      }
    }
    a["details"] = std::move(details);
    detail::set_blocked(a, reason);
    actions.push_back(std::move(a));
    caps.push_back(detail::capability("package", kind + ":" + ref, "packages." + kind + "." + ref,
                                      "install", std::move(effect)));
  }
  // MCP servers.
  for (auto it = m["mcpServers"].begin(); it != m["mcpServers"].end(); ++it) {
    const std::string& name = it.key();
    const value& server = it.value();
    value a = detail::action("mcpServer", name, "configure", "mcp.servers." + name);
    value prereq = value::array();
    if (server.contains("env")) {
      for (auto e = server["env"].begin(); e != server["env"].end(); ++e) {
        std::string var;
        if (is_env_reference(e.value().get<std::string>(), &var)) {
          value r = value::object({{"kind", "environment"}, {"mcpServer", name}, {"name", var}});
          prereq.push_back(r);
          requirements.push_back(std::move(r));
        }
      }
    }
    if (server.contains("auth") && server["auth"] == "oauth") {
      value r = value::object({{"kind", "oauth"}, {"mcpServer", name}});
      prereq.push_back(r);
      requirements.push_back(std::move(r));
    }
    std::string expected = "absent";
    std::optional<std::string> reason;
    if (host.mcp_servers.contains(name)) {
      const std::string mine = stable_stringify(detail::canonical_mcp_server(server));
      const std::string theirs =
          stable_stringify(detail::canonical_mcp_server(host.mcp_servers[name]));
      if (mine == theirs) {
        expected = "present-exact";
      } else {
        reason = "MCP server " + name + " already exists with a different configuration.";
      }
    }
    value details = server;
    details["expectedState"] = expected;
    details["prerequisites"] = std::move(prereq);
    a["details"] = std::move(details);
    if (reason) block("mcp_server_collision", "$.mcpServers." + name, *reason);
    detail::set_blocked(a, reason);
    actions.push_back(std::move(a));
    caps.push_back(detail::capability("mcpServer", name, "mcpServers." + name, "configure",
                                      detail::mcp_effect(server)));
  }
  // Cron jobs.
  for (std::size_t k = 0; k < m["cronJobs"].size(); ++k) {
    const value& job = m["cronJobs"][k];
    const std::string id = job["id"].get<std::string>();
    offline.push_back(
        to_json(warning_at("cron_gateway_required", phase::plan, index("$.cronJobs", k),
                           "Cron job " + id +
                               " needs a running OpenClaw Gateway (cron.add); "
                               "clawport does not schedule it offline.")));
    value a = detail::action("cronJob", id, "schedule", "cron:" + id + ":agent=" + final_id);
    value details = job;
    details["agentId"] = final_id;
    details["expectedState"] = "absent";
    if (job.contains("delivery") && job["delivery"].contains("channel") &&
        job["delivery"]["channel"] == "last") {
      details["deliveryResolution"] = "local-channel-state:last";
    }
    a["details"] = std::move(details);
    detail::set_blocked(a, std::nullopt);
    actions.push_back(std::move(a));
    value effect = job;
    effect["agentId"] = final_id;
    caps.push_back(
        detail::capability("cronJob", id, "cronJobs." + id, "schedule", std::move(effect)));
  }
  // The agent capability: profile settings that escalate.
  if (pkg.profile) {
    value effect = value::object();
    for (const char* k : {"sandbox", "tools", "memory", "heartbeat"})
      if ((*pkg.profile)["agent"].contains(k)) effect[k] = (*pkg.profile)["agent"][k];
    if (!effect.empty())
      caps.push_back(detail::capability("agent", final_id, "agent", "create", std::move(effect)));
  }
  std::vector<value> sorted(caps.begin(), caps.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const value& a, const value& b) {
    const auto key = [](const value& c) {
      return c["kind"].get<std::string>() + ":" + c["id"].get<std::string>() + ":" +
             c["path"].get<std::string>();
    };
    return detail::locale_less(key(a), key(b));
  });
  caps = value::array();
  for (auto& c : sorted) caps.push_back(std::move(c));
  if (host.problem) blockers.push_back(to_json(*host.problem));

  // Summary.
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
  value plan = value::object();
  plan["schemaVersion"] = "openclaw.clawAddPlan.v1";
  plan["manifestSchemaVersion"] = 1;
  plan["stability"] = "experimental";
  plan["dryRun"] = true;
  plan["mutationAllowed"] = false;
  plan["planIntegrity"] = "";
  plan["claw"] = to_json(pkg.source);
  plan["agent"] = value::object({{"requestedId", dest.requested_id},
                                 {"finalId", final_id},
                                 {"workspace", ws},
                                 {"config", config}});
  value summary = value::object();
  summary["totalActions"] = actions.size();
  summary["agentActions"] = agent_n;
  summary["workspaceActions"] = ws_n;
  summary["packageActions"] = pkg_n;
  summary["mcpServerActions"] = mcp_n;
  summary["cronJobActions"] = cron_n;
  summary["blockedActions"] = blocked_n;
  summary["capabilityEscalations"] = caps.size();
  plan["summary"] = std::move(summary);
  plan["actions"] = std::move(actions);
  plan["capabilityChanges"] = std::move(caps);
  plan["readiness"] =
      value::object({{"ready", requirements.empty()}, {"requirements", requirements}});
  if (pkg.profile && !(*pkg.profile)["extensions"].empty())
    plan["extensions"] = (*pkg.profile)["extensions"];
  add_plan out;
  out.blocked = !blockers.empty();
  plan["blockers"] = std::move(blockers);
  plan["notices"] = std::move(notices);
  value diags = value::array();
  for (const auto& d : pkg.diagnostics) diags.push_back(to_json(d));
  for (auto& d : offline) diags.push_back(std::move(d));
  plan["diagnostics"] = std::move(diags);
  plan["planIntegrity"] = add_plan_integrity(plan);
  out.plan = std::move(plan);
  return out;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
