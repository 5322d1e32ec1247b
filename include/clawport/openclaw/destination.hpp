// SPDX-License-Identifier: MIT
// Where a Claw is added (docs/openclaw.md, "Destination"): the caller's request, the
// state directory's openclaw.json as the plan reads it (agent ids, their workspaces, MCP
// servers), and the final agent id and canonical workspace.
#pragma once

#include "../core/config.hpp"
#include "../core/paths.hpp"
#include "../formats/json5.hpp"
#include "environment.hpp"
#include "package.hpp"
#include "state.hpp"
#include "value.hpp"

#include <algorithm>
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
  /// The caller adopts an existing workspace (`claw migrate`): byte-identical files are
  /// `adopt` actions, absent ones `write`, differing ones block. `claw add` never does: an
  /// existing workspace, empty or not, is a `workspace_collision` as upstream.
  bool adopt_existing = false;
  /// The workspace exists and is a real directory (filled by `probe_workspace`).
  bool workspace_adoptable = false;
  /// Planned destination (workspace-relative) → what is there; absent keys are absent
  /// files. Filled at the edge by `probe_workspace` (lifecycle.hpp).
  std::map<std::string, existing_file> existing;
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
      return paths::join(parent.empty() ? "/" : parent, name);
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
          if (const auto roster = roster_problem(cfg))  // upstream loads no such config
            h.problem = error_at(
                errc::invalid_config, phase::plan, "$",
                "OpenClaw config is invalid: " + h.state_dir + "/openclaw.json: " + *roster);
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
/// agent's own `<state-dir>/workspace-<id>` (new_agent_workspace; an id that collides
/// does not take the configured agent's workspace).
template <class Fs>
destination resolve_destination(Fs& fs, const claw_package& pkg, const destination_request& req,
                                const host_state& /*host*/) {
  destination d;
  d.requested_id = pkg.model.agent.id;
  d.final_id = req.agent_id ? *req.agent_id : d.requested_id;
  const std::string ws =
      req.workspace ? operator_path(*req.workspace, req) : new_agent_workspace(req, d.final_id);
  d.workspace = detail::canonical_through_ancestor(fs, ws, d.workspace_exists);
  return d;
}

/// The same, reading the state directory's openclaw.json for it.
template <class Fs>
destination resolve_destination(Fs& fs, const claw_package& pkg, const destination_request& req) {
  return resolve_destination(fs, pkg, req, read_host_state(fs, req));
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
