// SPDX-License-Identifier: MIT
// `clawport workspace resolve|bootstrap|doctor`: the OpenClaw agent workspace, offline
// (docs/openclaw.md, "Workspace"). The library decides and renders; this file parses
// options, calls it with the host environment and prints.
#pragma once

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

/// The workspace a command works on: --workspace, else the resolved one.
inline oc::workspace_location resolved(clawport::fs::posix& fs, const host_environment& host,
                                       const options& o, oc::value* config = nullptr) {
  const oc::environment env = oc::environment_of(host, o.state_dir);
  oc::value cfg = oc::read_openclaw_config(fs, oc::state_dir_of(env));
  std::optional<std::string> id;
  if (!o.agent_id.empty()) id = o.agent_id;
  std::optional<std::string> workspace;
  if (!o.workspace.empty()) workspace = o.workspace;
  oc::workspace_location r = oc::locate_workspace(cfg, env, id, workspace);
  if (config != nullptr) *config = std::move(cfg);
  return r;
}

/// Prints a typed result: its document with --json, else its human lines.
template <class Result>
int print(const Result& r, bool ok, bool json) {
  if (json)
    out::document(oc::json_text(oc::to_json(r)));
  else
    out::rendered(oc::workspace_text(r));
  return ok ? exit_ok : exit_failed;
}

inline int run_resolve(const options& o, const host_environment& host) {
  clawport::fs::posix fs;
  return print(resolved(fs, host, o), true, o.json);
}

inline int run_bootstrap(const options& o, const host_environment& host) {
  clawport::fs::posix fs;
  oc::value cfg;
  const oc::workspace_location r = resolved(fs, host, o, &cfg);
  const oc::setup_marker_store marker{r.state_dir, format_rfc3339(host.now())};
  return print(oc::seed_workspace(fs, r.workspace, oc::skip_bootstrap(cfg), marker), true, o.json);
}

inline int run_doctor(const options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const oc::workspace_location r = resolved(fs, host, o);
  const oc::doctor_report d =
      oc::check_workspace(fs, r.workspace, oc::environment_of(host, o.state_dir).home);
  if (d.ok()) return print(d, true, o.json);
  // a failure like every other (docs/cli.md): `error` (the first finding) and the stderr line
  const oc::workspace_finding& first = d.findings.front();
  const error e(first.code, first.message, first.path);
  if (o.json) {
    oc::value doc = oc::to_json(d);
    doc["error"] = json::error_document(e)["error"];
    claw_cmd::failure_document({doc, error(errc::io, e.what(), e.subject())});
  } else {
    out::rendered(oc::workspace_text(d));
    out::error(e, false);
  }
  return exit_failed;
}

}  // namespace workspace_cmd

/// Registers `workspace resolve`, `workspace bootstrap` and `workspace doctor`.
inline void add_workspace_command(CLI::App& app, action& selected, const host_environment& host) {
  CLI::App* ws =
      app.add_subcommand("workspace", "Resolve, seed and check an OpenClaw agent workspace");
  ws->require_subcommand(1);
  const auto common = [](CLI::App* c, workspace_cmd::options& o, bool with_workspace) {
    c->add_option("--agent-id", o.agent_id,
                  "the agent (default: the default agent of openclaw.json, else main)");
    add_state_dir_option(c, o.state_dir);
    if (with_workspace)
      c->add_option("--workspace", o.workspace, "this workspace directory instead");
    c->add_flag("--json", o.json, "print the JSON document");
  };
  auto ro = std::make_shared<workspace_cmd::options>();
  CLI::App* resolve = ws->add_subcommand(
      "resolve",
      "Print the workspace directory as OpenClaw resolves it, and the rule that decided");
  common(resolve, *ro, false);
  resolve->callback([ro, &selected, &host] {
    selected = action{[ro, &host] { return workspace_cmd::run_resolve(*ro, host); }, ro->json};
  });
  auto bo = std::make_shared<workspace_cmd::options>();
  CLI::App* bootstrap = ws->add_subcommand(
      "bootstrap", "Seed the missing standard workspace files, never overwriting one");
  common(bootstrap, *bo, true);
  bootstrap->callback([bo, &selected, &host] {
    selected = action{[bo, &host] { return workspace_cmd::run_bootstrap(*bo, host); }, bo->json};
  });
  auto dop = std::make_shared<workspace_cmd::options>();
  CLI::App* doctor = ws->add_subcommand(
      "doctor",
      "Report what must not live in the workspace, legacy state, missing or oversized files");
  common(doctor, *dop, true);
  doctor->callback([dop, &selected, &host] {
    selected = action{[dop, &host] { return workspace_cmd::run_doctor(*dop, host); }, dop->json};
  });
}

}  // namespace clawport::cli
