// SPDX-License-Identifier: MIT
// `clawport workspace resolve|bootstrap|doctor`: the OpenClaw agent workspace, offline
// (docs/openclaw.md, "Workspace"). The library decides and renders; this file parses
// options, reads the environment and prints.
#pragma once

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "../app.hpp"
#include "claw.hpp"

namespace clawport::cli {

namespace workspace_cmd {

namespace oc = clawport::openclaw;

struct options {
  std::string agent_id;
  std::string state_dir;
  std::string workspace;
  bool json = false;
};

inline std::optional<std::string> env_opt(const char* name) {
  const std::string v = claw_cmd::env_or_empty(name);
  if (v.empty()) return std::nullopt;
  return v;
}

inline oc::workspace_env environment(const options& o) {
  oc::workspace_env env;
  env.workspace_dir = env_opt("OPENCLAW_WORKSPACE_DIR");
  env.profile = env_opt("OPENCLAW_PROFILE");
  env.state_dir = env_opt("OPENCLAW_STATE_DIR");
  if (!o.state_dir.empty()) env.state_dir_option = o.state_dir;
  env.home = claw_cmd::env_or_empty("HOME");
  env.cwd = claw_cmd::cwd();
  return env;
}

/// The workspace a command works on: --workspace, else the resolved one.
inline oc::value resolved(clawport::fs::posix& fs, const options& o, oc::value* config = nullptr) {
  const oc::workspace_env env = environment(o);
  oc::value cfg = oc::read_openclaw_config(fs, oc::workspace_state_dir(env));
  std::optional<std::string> id;
  if (!o.agent_id.empty()) id = o.agent_id;
  oc::value r = oc::resolve_workspace(cfg, env, id);
  if (!o.workspace.empty()) {
    r["workspace"] = oc::detail::ws_abs(o.workspace, env);
    r["rule"] = "--workspace";
  }
  if (config != nullptr) *config = std::move(cfg);
  return r;
}

inline int print(const oc::value& d, bool ok, bool json) {
  std::cout << (json ? oc::json_text(d) : oc::workspace_text(d));
  return ok ? exit_ok : exit_failed;
}

inline int run_resolve(const options& o) {
  clawport::fs::posix fs;
  return print(resolved(fs, o), true, o.json);
}

inline int run_bootstrap(const options& o) {
  clawport::fs::posix fs;
  oc::value cfg;
  const oc::value r = resolved(fs, o, &cfg);
  const oc::value* agents = oc::detail::get(cfg, "agents");
  const oc::value* defaults = agents ? oc::detail::get(*agents, "defaults") : nullptr;
  const oc::value* skip = defaults ? oc::detail::get(*defaults, "skipBootstrap") : nullptr;
  const bool skipped = skip != nullptr && skip->is_boolean() && skip->get<bool>();
  return print(oc::bootstrap_workspace(fs, r["workspace"].get<std::string>(), skipped), true,
               o.json);
}

inline int run_doctor(const options& o) {
  clawport::fs::posix fs;
  const oc::value r = resolved(fs, o);
  const oc::value d =
      oc::doctor_workspace(fs, r["workspace"].get<std::string>(), claw_cmd::env_or_empty("HOME"));
  return print(d, d["ok"].get<bool>(), o.json);
}

}  // namespace workspace_cmd

/// Registers `workspace resolve`, `workspace bootstrap` and `workspace doctor`.
inline void add_workspace_command(CLI::App& app, action& selected) {
  CLI::App* ws =
      app.add_subcommand("workspace", "Resolve, seed and check an OpenClaw agent workspace");
  ws->require_subcommand(1);
  const auto common = [](CLI::App* c, workspace_cmd::options& o, bool with_workspace) {
    c->add_option("--agent-id", o.agent_id, "the agent (default: the default agent, main)");
    c->add_option("--state-dir", o.state_dir,
                  "the OpenClaw state directory (default: $OPENCLAW_STATE_DIR, else ~/.openclaw)");
    if (with_workspace)
      c->add_option("--workspace", o.workspace, "this workspace directory instead");
    c->add_flag("--json", o.json, "print the JSON document");
  };
  auto ro = std::make_shared<workspace_cmd::options>();
  CLI::App* resolve = ws->add_subcommand(
      "resolve",
      "Print the workspace directory as OpenClaw resolves it, and the rule that decided");
  common(resolve, *ro, false);
  resolve->callback([ro, &selected] {
    selected = action{[ro] { return workspace_cmd::run_resolve(*ro); }, ro->json};
  });
  auto bo = std::make_shared<workspace_cmd::options>();
  CLI::App* bootstrap = ws->add_subcommand(
      "bootstrap", "Seed the missing standard workspace files, never overwriting one");
  common(bootstrap, *bo, true);
  bootstrap->callback([bo, &selected] {
    selected = action{[bo] { return workspace_cmd::run_bootstrap(*bo); }, bo->json};
  });
  auto dop = std::make_shared<workspace_cmd::options>();
  CLI::App* doctor = ws->add_subcommand(
      "doctor",
      "Report what must not live in the workspace, legacy state, missing or oversized files");
  common(doctor, *dop, true);
  doctor->callback([dop, &selected] {
    selected = action{[dop] { return workspace_cmd::run_doctor(*dop); }, dop->json};
  });
}

}  // namespace clawport::cli
