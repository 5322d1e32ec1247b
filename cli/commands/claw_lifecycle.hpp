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

struct export_options {
  std::string agent;
  std::string out;
  std::string bootstrap;
  std::string state_dir;
  bool json = false;
};

struct target_options {
  std::string target;
  std::string state_dir;
  consent_flags consent;
  bool json = false;
};

/// The ledger's time: SOURCE_DATE_EPOCH when set, else the clock (core/time.hpp's format).
inline std::string now_text(const host_environment& host) {
  return clawport::format_rfc3339_seconds(host.now());
}

/// The usage checks of the consent flags (exit 2); with --json the refusal keeps
/// OpenClaw's consent envelope `{schemaVersion, stability, ok:false, error}`.
inline void check_usage(const consent_flags& f, const char* result_schema) {
  try {
    check_consent_usage(f);
  } catch (usage_failure& e) {
    oc::failure refused = oc::failure_of(result_schema, e.code(), e.what());
    refused.at = oc::failure::stage::consent;  // before anything was planned
    e.document = oc::json_text(
        with_error(oc::to_json(refused), oc::error_member_of(refused), e.subject(), e).doc);
    throw;
  }
}

/// The consent the library checks: --yes and the integrity given or read from --plan.
inline oc::consent consent_of(const consent_flags& f, const host_environment& host,
                              const char* plan_schema) {
  oc::consent c;
  c.yes = f.yes;
  const std::string integrity = consented_integrity(f, host, plan_schema);
  if (!integrity.empty()) c.plan_integrity = integrity;
  return c;
}

/// Prints a lifecycle document as --json does: a failure with its `error` in
/// formats/json.hpp's shape (one that has none: `no added Claw matches`).
template <class Typed>
int print_json(const Typed& typed, const oc::value& doc, bool ok, const std::string& subject) {
  const error fallback(errc::claw_not_found, "no Claw matches `" + subject + "`", subject);
  json_outcome(doc, oc::error_member_of(typed), ok, subject, fallback);
  return ok ? exit_ok : exit_failed;
}

/// Prints a typed result (an outcome, a status): its document with --json, else its human
/// form, on stderr when it did not finish (its text then starts with the error).
template <class Result>
int print_result(const Result& result, bool ok, bool json, const std::string& subject,
                 bool text_to_stderr) {
  if (json) return print_json(result, oc::to_json(result), ok, subject);
  const std::string text = for_reader(oc::result_text(result));
  if (text_to_stderr)
    out::rendered(as_failure(text), out::to::err);
  else
    out::rendered(text);
  return ok ? exit_ok : exit_failed;
}
template <class Result>
int print_result(const Result& result, bool ok, bool json, const std::string& subject) {
  return print_result(result, ok, json, subject, !ok);
}

/// A lifecycle plan (the typed remove or update plan) shown without --yes: kept in
/// --plan-out and, for a person, followed by the command that applies it (when nothing
/// blocks it).
/// A plan that changes nothing (`noop`: an update already applied) ends with that instead.
template <class Plan>
int show_plan(const Plan& plan, bool blocked, const consent_flags& f, bool json,
              const std::string& subject, const host_environment& host, bool noop = false) {
  const oc::value doc = oc::to_json(plan);
  if (!blocked) write_plan_file(f, host, oc::json_text(doc));
  if (json) return print_json(plan, doc, !blocked, subject);
  out::rendered(
      for_reader(blocked ? without_apply_lines(oc::plan_text(plan)) : oc::plan_text(plan)));
  if (blocked)
    refused("the plan for " + subject + " is blocked", subject);
  else if (noop)
    out::line("nothing to apply: " + subject + " is up to date with its package");
  else
    out::lines(apply_hint(f, plan.integrity));
  return blocked ? exit_failed : exit_ok;
}

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

inline int run_export(const export_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  oc::export_request x;
  x.agent = o.agent;
  x.out = o.out;
  if (!o.bootstrap.empty()) x.bootstrap = o.bootstrap;
  const oc::export_outcome r = oc::export_claw(fs, request(host, o.state_dir, "", ""), x);
  return print_result(r, r.ok, o.json, o.agent);
}

}  // namespace claw_cmd

/// Registers `claw add`, `claw status`, `claw update`, `claw remove` and `claw export`
/// under `claw`.
inline void add_claw_lifecycle_commands(CLI::App& claw, action& selected,
                                        const host_environment& host) {
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

  auto xo = std::make_shared<claw_cmd::export_options>();
  CLI::App* exp = claw.add_subcommand(
      "export",
      "Export an added Claw's workspace back into a new package directory (refuses drift)");
  exp->add_option("agent", xo->agent, "the agent id the Claw was added as")->required();
  exp->add_option("--out", xo->out, "the new package directory (must not exist)")->required();
  exp->add_option("--bootstrap", xo->bootstrap,
                  "a Markdown file to carry as the package's BOOTSTRAP.md");
  add_state_dir_option(exp, xo->state_dir);
  exp->add_flag("--json", xo->json, "print the openclaw.clawExportResult.v1 document");
  exp->callback([xo, &selected, &host] {
    selected = action{[xo, &host] { return claw_cmd::run_export(*xo, host); }, xo->json};
  });
}

}  // namespace clawport::cli
