// SPDX-License-Identifier: MIT
// `clawport claw inspect|plan`: read, validate and plan an OpenClaw Claw package offline,
// printing what `openclaw claws inspect` and `openclaw claws add --dry-run` print.
#pragma once

#include <unistd.h>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "../app.hpp"
#include "../config_path.hpp"

namespace clawport::cli {

namespace claw_cmd {

namespace oc = clawport::openclaw;

struct inspect_options {
  std::string package;
  bool json = false;
};

struct plan_options {
  std::string package;
  std::string state_dir;
  std::string agent_id;
  std::string workspace;
  bool without_packages = false;
  bool json = false;
};

inline std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

inline std::string cwd() {
  char buf[4096];
  return ::getcwd(buf, sizeof buf) != nullptr ? std::string(buf) : std::string("/");
}

inline int run_inspect(const inspect_options& o) {
  clawport::fs::posix fs;
  const oc::claw_package pkg = oc::read_package(fs, absolute_path(o.package));
  if (o.json) {
    std::cout << oc::json_text(oc::inspect_document(pkg));
  } else {
    std::cout << oc::inspect_text(pkg);
  }
  return pkg.ok() ? exit_ok : exit_failed;
}

inline int run_plan(const plan_options& o) {
  clawport::fs::posix fs;
  oc::claw_package pkg = oc::read_package(fs, absolute_path(o.package));
  if (!pkg.ok()) {
    if (o.json) {
      std::cout << oc::json_text(oc::plan_failure_document(pkg));
    } else {
      std::cout << oc::inspect_text(pkg);
    }
    return exit_failed;
  }
  if (o.without_packages) pkg.manifest["packages"] = oc::value::array();
  oc::destination_request req;
  if (!o.agent_id.empty()) req.agent_id = o.agent_id;
  if (!o.workspace.empty()) req.workspace = o.workspace;
  if (!o.state_dir.empty()) req.state_dir = o.state_dir;
  const std::string env_state = env_or_empty("OPENCLAW_STATE_DIR");
  if (!env_state.empty()) req.state_dir_env = env_state;
  req.home = env_or_empty("HOME");
  req.cwd = cwd();
  const oc::host_state host = oc::read_host_state(fs, req);
  const oc::destination dest = oc::resolve_destination(fs, pkg, req);
  const oc::add_plan plan = oc::build_add_plan(pkg, dest, host, oc::offline_resolver{});
  if (o.json) {
    std::cout << oc::json_text(plan.plan);
  } else {
    std::cout << oc::plan_text(plan.plan);
  }
  return plan.blocked ? exit_failed : exit_ok;
}

}  // namespace claw_cmd

/// Registers `claw inspect` and `claw plan`.
inline void add_claw_command(CLI::App& app, action& selected) {
  CLI::App* claw = app.add_subcommand("claw", "Read, validate and plan OpenClaw Claw packages");
  claw->require_subcommand(1);

  auto io = std::make_shared<claw_cmd::inspect_options>();
  CLI::App* inspect = claw->add_subcommand(
      "inspect", "Validate a Claw package (directory, CLAW.md or *.claw.json) as OpenClaw does");
  inspect->add_option("package", io->package, "the package directory or manifest file")->required();
  inspect->add_flag("--json", io->json, "print the openclaw.clawInspect.v1 document");
  inspect->callback([io, &selected] { selected = [io] { return claw_cmd::run_inspect(*io); }; });

  auto po = std::make_shared<claw_cmd::plan_options>();
  CLI::App* plan = claw->add_subcommand(
      "plan", "Plan adding a Claw as a new OpenClaw agent (dry run; offline, nothing written)");
  plan->add_option("package", po->package, "the package directory or manifest file")->required();
  plan->add_option("--state-dir", po->state_dir,
                   "the OpenClaw state directory (default: $OPENCLAW_STATE_DIR, else ~/.openclaw)");
  plan->add_option("--agent-id", po->agent_id,
                   "use this unused agent id instead of the manifest's");
  plan->add_option("--workspace", po->workspace,
                   "create the agent's workspace here (default: ~/.openclaw/workspace-<id>)");
  plan->add_flag("--without-packages", po->without_packages,
                 "plan without the ClawHub packages (they cannot be resolved offline)");
  plan->add_flag("--json", po->json, "print the openclaw.clawAddPlan.v1 document");
  plan->callback([po, &selected] { selected = [po] { return claw_cmd::run_plan(*po); }; });
}

}  // namespace clawport::cli
