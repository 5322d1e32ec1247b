// SPDX-License-Identifier: MIT
// `clawport claw inspect|plan`: read, validate and plan an OpenClaw Claw package offline,
// printing what `openclaw claws inspect` and `openclaw claws add --dry-run` print.
#pragma once

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "../app.hpp"
#include "../consent.hpp"
#include "claw_output.hpp"

#include <unistd.h>

namespace clawport::cli {

namespace claw_cmd {

struct inspect_options {
  std::string package;
  std::string codes = "openclaw";  ///< `clawhub`: the registry's claw_v1_* codes and `.n` paths
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

inline int run_inspect(const inspect_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  oc::claw_package pkg = oc::read_package(fs, host.absolute(o.package));
  if (o.codes == "clawhub") pkg.diagnostics = oc::to_clawhub(pkg.diagnostics);
  if (o.json) {
    const oc::value doc = oc::inspect_document(pkg);
    const error fallback(errc::invalid_argument, "the Claw package is invalid", o.package);
    json_outcome(doc, oc::error_member_of(pkg), pkg.ok(), o.package, fallback);
  } else {
    out::rendered(for_reader(oc::inspect_text(pkg)), pkg.ok() ? out::to::out : out::to::err);
    if (!pkg.ok()) refused("the Claw package " + o.package + " is invalid", o.package);
  }
  return pkg.ok() ? exit_ok : exit_failed;
}

/// `claw plan`, and `claw add` without --yes (`consent`: then the plan also goes to
/// --plan-out and ends with the command that applies it).
inline int run_plan(const plan_options& o, const host_environment& host,
                    const consent_flags* consent = nullptr) {
  clawport::fs::posix fs;
  oc::claw_package pkg = oc::read_package(fs, host.absolute(o.package));
  const error invalid(errc::invalid_argument, "the Claw package is invalid", o.package);
  if (!pkg.ok()) {
    if (o.json) {
      const oc::invalid_package failed{pkg.diagnostics};
      failure_document(
          with_error(oc::to_json(failed), oc::error_member_of(failed), o.package, invalid));
    } else {
      out::rendered(for_reader(oc::inspect_text(pkg)), out::to::err);
      refused("the Claw package " + o.package + " is invalid", o.package);
    }
    return exit_failed;
  }
  oc::add_options opt;
  opt.without_packages = o.without_packages;
  const oc::add_plan plan =
      oc::plan_add(fs, pkg, request(host, o.state_dir, o.agent_id, o.workspace), opt);
  const oc::value doc = oc::to_json(plan);
  const std::string integrity = plan.integrity;
  if (consent != nullptr && !plan.blocked) write_plan_file(*consent, host, oc::json_text(doc));
  if (o.json) {
    const error blocked(errc::invalid_argument, "the plan is blocked", o.package);
    json_outcome(doc, oc::error_member_of(plan), !plan.blocked, o.package, blocked);
  } else {
    out::rendered(for_reader(oc::plan_text(plan)));
    if (consent != nullptr && !plan.blocked) out::lines(apply_hint(*consent, integrity));
    if (plan.blocked) refused("the plan to add " + o.package + " is blocked", o.package);
  }
  return plan.blocked ? exit_failed : exit_ok;
}

}  // namespace claw_cmd

}  // namespace clawport::cli

#include "claw_lifecycle.hpp"
#include "claw_migrate.hpp"

namespace clawport::cli {

/// Registers `claw inspect`, `claw plan` and the lifecycle commands.
inline void add_claw_command(CLI::App& app, action& selected, const host_environment& host) {
  CLI::App* claw = app.add_subcommand(
      "claw",
      "Inspect, plan, add, update, migrate, export and remove OpenClaw Claw packages "
      "(offline)");
  claw->require_subcommand(1);

  auto io = std::make_shared<claw_cmd::inspect_options>();
  CLI::App* inspect = claw->add_subcommand(
      "inspect", "Validate a Claw package (directory, CLAW.md or *.claw.json) as OpenClaw does");
  inspect->add_option("package", io->package, "the package directory or manifest file")->required();
  inspect
      ->add_option("--codes", io->codes,
                   "diagnostic codes and paths: openclaw (default) or clawhub (the registry's "
                   "claw_v1_* codes, `.n` indices)")
      ->check(CLI::IsMember({"openclaw", "clawhub"}));
  inspect->add_flag("--json", io->json, "print the openclaw.clawInspect.v1 document");
  inspect->callback([io, &selected, &host] {
    selected = action{[io, &host] { return claw_cmd::run_inspect(*io, host); }, io->json};
  });

  auto po = std::make_shared<claw_cmd::plan_options>();
  CLI::App* plan = claw->add_subcommand(
      "plan", "Plan adding a Claw as a new OpenClaw agent (dry run; offline, nothing written)");
  plan->add_option("package", po->package, "the package directory or manifest file")->required();
  add_state_dir_option(plan, po->state_dir);
  plan->add_option("--agent-id", po->agent_id,
                   "use this unused agent id instead of the manifest's");
  plan->add_option("--workspace", po->workspace,
                   "create the agent's workspace here (default: the agent's rule, as `workspace "
                   "resolve --agent-id <id>` shows; <state-dir>/workspace-<id> for a new agent)");
  plan->add_flag("--without-packages", po->without_packages,
                 "plan without the ClawHub packages (they cannot be resolved offline)");
  plan->add_flag("--json", po->json, "print the openclaw.clawAddPlan.v1 document");
  plan->callback([po, &selected, &host] {
    selected = action{[po, &host] { return claw_cmd::run_plan(*po, host); }, po->json};
  });
  add_claw_lifecycle_commands(*claw, selected, host);
  add_claw_migrate_command(*claw, selected, host);
}

}  // namespace clawport::cli
