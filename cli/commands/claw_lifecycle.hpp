// SPDX-License-Identifier: MIT
// `clawport claw add|status|remove`: the OpenClaw write side, offline (docs/openclaw.md,
// "Lifecycle"). The library decides and renders; this file parses options and prints.
#pragma once

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "../app.hpp"
#include "claw_export.hpp"
#include "claw_output.hpp"

namespace clawport::cli {

namespace claw_cmd {

struct add_options {
  std::string package;
  std::string state_dir;
  std::string agent_id;
  std::string workspace;
  bool without_packages = false;
  consent_flags consent;
  bool json = false;
};

struct update_options {
  std::string target;
  std::string from;
  std::string state_dir;
  consent_flags consent;
  bool json = false;
};

struct target_options {
  std::string target;
  std::string state_dir;
  consent_flags consent;
  bool json = false;
};

inline int run_add(const add_options& o, const host_environment& host) {
  check_usage(o.consent, "openclaw.clawAddResult.v1");
  if (!o.consent.yes) {
    plan_options p;
    p.package = o.package;
    p.state_dir = o.state_dir;
    p.agent_id = o.agent_id;
    p.workspace = o.workspace;
    p.without_packages = o.without_packages;
    p.json = o.json;
    return run_plan(p, host, &o.consent);
  }
  const oc::consent c = consent_of(o.consent, host, "openclaw.clawAddPlan.v1");
  clawport::fs::posix fs;
  const oc::claw_package pkg = oc::read_package(fs, host.absolute(o.package));
  oc::add_options opt;
  opt.without_packages = o.without_packages;
  const oc::add_outcome r = oc::apply_add(
      fs, pkg, request(host, o.state_dir, o.agent_id, o.workspace), opt, c, now_text(host));
  return print_result(r, r.ok, o.json, o.package);
}

inline int run_status(const target_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  std::optional<std::string> target;
  if (!o.target.empty()) target = o.target;
  const oc::status_result r = oc::claw_status(fs, request(host, o.state_dir, "", ""), target);
  if (!r.ok && !o.json) {  // a target that matched nothing: said so, not "No Claws installed."
    out::error(error(errc::claw_not_found, "no Claw matches `" + o.target + "`", o.target), false);
    return exit_failed;
  }
  return print_result(r, r.ok, o.json, o.target, false);
}

inline int run_remove(const target_options& o, const host_environment& host) {
  check_usage(o.consent, "openclaw.clawRemoveResult.v1");
  clawport::fs::posix fs;
  const oc::destination_request req = request(host, o.state_dir, "", "");
  if (!o.consent.yes) {
    const oc::remove_plan plan = oc::build_remove_plan(fs, req, o.target);
    return show_plan(plan, !plan.blockers.empty(), o.consent, o.json, o.target, host);
  }
  const oc::consent c = consent_of(o.consent, host, "openclaw.clawRemovePlan.v1");
  const oc::remove_outcome r = oc::apply_remove(fs, req, o.target, c, now_text(host));
  return print_result(r, r.ok, o.json, o.target);
}

inline int run_update(const update_options& o, const host_environment& host) {
  check_usage(o.consent, "openclaw.clawUpdateResult.v1");
  clawport::fs::posix fs;
  const oc::destination_request req = request(host, o.state_dir, "", "");
  std::optional<std::string> from;
  if (!o.from.empty()) from = host.absolute(o.from);
  if (!o.consent.yes) {
    const oc::update_plan plan = oc::plan_update(fs, req, o.target, from);
    const bool noop =
        plan.capability_changes.empty() &&
        std::all_of(plan.actions.begin(), plan.actions.end(), [](const oc::update_action& a) {
          return a.verb == oc::update_verb::unchanged;
        });
    return show_plan(plan, plan.blocked, o.consent, o.json, o.target, host, noop);
  }
  const oc::consent c = consent_of(o.consent, host, "openclaw.clawUpdatePlan.v1");
  const oc::update_outcome r = oc::apply_update(fs, req, o.target, from, c, now_text(host));
  return print_result(r, r.ok, o.json, o.target);
}

}  // namespace claw_cmd

/// Registers `claw add`, `claw status`, `claw update` and `claw remove` under `claw`
/// (and `claw export`, claw_export.hpp).
inline void add_claw_lifecycle_commands(CLI::App& claw, action& selected,
                                        const host_environment& host) {
  add_claw_export_command(claw, selected, host);
  auto ao = std::make_shared<claw_cmd::add_options>();
  CLI::App* add = claw.add_subcommand("add",
                                      "Add a Claw as a new OpenClaw agent offline: shows the plan; "
                                      "--yes --plan-integrity applies it");
  add->add_option("package", ao->package, "the package directory or manifest file")->required();
  add_state_dir_option(add, ao->state_dir);
  add->add_option("--agent-id", ao->agent_id, "use this unused agent id instead of the manifest's");
  add->add_option("--workspace", ao->workspace,
                  "the agent's workspace (default: the agent's rule, as `workspace resolve "
                  "--agent-id <id>` shows; <state-dir>/workspace-<id> for a new agent)");
  add->add_flag("--without-packages", ao->without_packages,
                "record the ClawHub packages as not installed (they cannot be resolved offline)");
  add_consent_options(add, ao->consent);
  add->add_flag("--json", ao->json,
                "print the openclaw.clawAddPlan.v1 (without --yes) or clawAddResult.v1 document");
  add->callback([ao, &selected, &host] {
    selected = action{[ao, &host] { return claw_cmd::run_add(*ao, host); }, ao->json};
  });

  auto so = std::make_shared<claw_cmd::target_options>();
  CLI::App* status = claw.add_subcommand(
      "status",
      "Show each added Claw's drift: managed files, agent entry, MCP servers (read-only)");
  status->add_option("target", so->target, "an agent id or Claw package name (default: all)");
  add_state_dir_option(status, so->state_dir);
  status->add_flag("--json", so->json, "print the openclaw.clawStatus.v1 document");
  status->callback([so, &selected, &host] {
    selected = action{[so, &host] { return claw_cmd::run_status(*so, host); }, so->json};
  });

  auto uo = std::make_shared<claw_cmd::update_options>();
  CLI::App* update = claw.add_subcommand(
      "update",
      "Update an added Claw's managed files and agent entry from its package (refuses drift)");
  update->add_option("target", uo->target, "an agent id or Claw package name")->required();
  update->add_option("--from", uo->from,
                     "the package to update from (default: the recorded source)");
  add_state_dir_option(update, uo->state_dir);
  add_consent_options(update, uo->consent);
  update->add_flag(
      "--json", uo->json,
      "print the openclaw.clawUpdatePlan.v1 (without --yes) or clawUpdateResult.v1 document");
  update->callback([uo, &selected, &host] {
    selected = action{[uo, &host] { return claw_cmd::run_update(*uo, host); }, uo->json};
  });

  auto ro = std::make_shared<claw_cmd::target_options>();
  CLI::App* remove = claw.add_subcommand(
      "remove", "Remove an added Claw: unchanged managed files only, the ledger entry last");
  remove->add_option("target", ro->target, "an agent id or Claw package name")->required();
  add_state_dir_option(remove, ro->state_dir);
  add_consent_options(remove, ro->consent);
  remove->add_flag(
      "--json", ro->json,
      "print the openclaw.clawRemovePlan.v1 (without --yes) or clawRemoveResult.v1 document");
  remove->callback([ro, &selected, &host] {
    selected = action{[ro, &host] { return claw_cmd::run_remove(*ro, host); }, ro->json};
  });
}

}  // namespace clawport::cli
