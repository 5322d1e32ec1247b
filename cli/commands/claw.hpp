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

#include <unistd.h>

namespace clawport::cli {

namespace claw_cmd {

namespace oc = clawport::openclaw;

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

/// The destination request from the options and the host (oc::environment_of: the one
/// OpenClaw environment of every claw and workspace command).
inline oc::destination_request request(const host_environment& host, const std::string& state_dir,
                                       const std::string& agent_id, const std::string& workspace) {
  oc::destination_request req;
  static_cast<oc::environment&>(req) = oc::environment_of(host, state_dir);
  if (!agent_id.empty()) req.agent_id = agent_id;
  if (!workspace.empty()) req.workspace = workspace;
  return req;
}

/// Human output of an OpenClaw command: the experimental banner only when a person reads
/// it (stdout is a terminal), not in a pipe or a file.
inline std::string for_reader(std::string text) {
  const std::string banner = std::string(oc::experimental_banner) + "\n";
  if (::isatty(STDOUT_FILENO) != 1 && text.rfind(banner, 0) == 0) text.erase(0, banner.size());
  return text;
}

/// A failing OpenClaw document as `--json` prints it: the upstream document, its `error`
/// of the one shape (formats/json.hpp) with `subject`: the typed error `e` (the failure's,
/// or the first error of its diagnostics or blockers: oc::error_member_of), else
/// `fallback`. `line` is that error, for the `clawport: error:` line on stderr.
struct failing_document {
  oc::value doc;
  error line;
};

inline failing_document with_error(oc::value doc, const std::optional<oc::error_member>& e,
                                   const std::string& subject, const error& fallback) {
  if (!e) {
    doc["error"] = json::error_document(fallback)["error"];
    return {std::move(doc), error(errc::io, fallback.what(), fallback.subject())};
  }
  doc["error"] = oc::to_json(*e, subject);
  return {std::move(doc), error(errc::io, e->message, oc::subject_of(*e, subject))};
}

/// A failing document of `--json`: printed on stdout, and its error as the
/// `clawport: error:` line on stderr that docs/cli.md promises every failure.
inline void failure_document(const failing_document& f) {
  out::document(oc::json_text(f.doc));
  out::error(f.line, false);
}

/// The document of `--json` of a typed result, plan or package (`doc` is its rendering),
/// through `failure_document` when it tells a failure.
inline void json_outcome(const oc::value& doc, const std::optional<oc::error_member>& e, bool ok,
                         const std::string& subject, const error& fallback) {
  if (ok)
    out::document(oc::json_text(doc));
  else
    failure_document(with_error(doc, e, subject, fallback));
}

/// A human failure on stderr: upstream's `ERROR <code>: ` opening (after the banner) told as
/// every clawport failure is, `clawport: error: <code>: `.
inline std::string as_failure(std::string text) {
  const std::string banner = std::string(oc::experimental_banner) + "\n";
  const std::size_t from = text.rfind(banner, 0) == 0 ? banner.size() : 0;
  if (text.compare(from, 6, "ERROR ") == 0) text.replace(from, 6, "clawport: error: ");
  return text;
}

/// The `clawport: error:` line that ends a refused plan or an invalid package shown to a
/// person (its `ERROR` lines above say why).
inline void refused(const std::string& what, const std::string& subject) {
  out::error(error(errc::invalid_argument, what + "; nothing was written (the ERROR lines say why)",
                   subject),
             false);
}

/// A refused plan's text without what only an applicable plan has: its integrity, and what
/// it would `retain` (issue 44 item 11).
inline std::string without_apply_lines(const std::string& text) {
  std::string kept;
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t nl = text.find('\n', from);
    const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
    const std::string line = text.substr(from, end - from);
    const std::size_t lead = line.find_first_not_of(' ');
    const bool apply_only =
        lead != std::string::npos &&
        (line.compare(lead, 15, "plan integrity:") == 0 || line.compare(lead, 7, "retain ") == 0);
    if (!apply_only) kept += line;
    from = end;
  }
  return kept;
}

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

namespace clawport::cli {

namespace claw_cmd {

struct migrate_options {
  std::string agent;
  std::string state_dir;
  consent_flags consent;
  bool json = false;
};

/// `claw migrate <agent-id>`: the plan without --yes (kept in --plan-out, followed by the
/// command that applies it); with --yes the package is published and the ledger written.
inline int run_migrate(const migrate_options& o, const host_environment& host) {
  check_usage(o.consent, oc::migration_result_schema);
  clawport::fs::posix fs;
  const oc::destination_request req = request(host, o.state_dir, "", "");
  // The document (JSON) or, for a person, `text`: on stderr when it failed.
  const auto show = [&](const auto& typed, bool ok, const std::string& text) {
    if (o.json) {
      const error fallback(errc::invalid_argument, "the migration is refused", o.agent);
      json_outcome(oc::to_json(typed), oc::error_member_of(typed), ok, o.agent, fallback);
    } else {
      out::rendered(ok ? for_reader(text) : as_failure(for_reader(text)),
                    ok ? out::to::out : out::to::err);
    }
    return ok ? exit_ok : exit_failed;
  };
  if (!o.consent.yes) {
    const oc::migration_plan plan = oc::plan_migration(fs, req, o.agent);
    const oc::value doc = oc::to_json(plan);
    if (!plan.blocked()) write_plan_file(o.consent, host, oc::json_text(doc));
    const std::string text = oc::plan_text(plan);
    const int status =
        show(plan, !plan.blocked(), plan.blocked() ? without_apply_lines(text) : text);
    if (!o.json && !plan.blocked()) out::lines(apply_hint(o.consent, plan.integrity));
    if (!o.json && plan.blocked()) refused("the migration of " + o.agent + " is refused", o.agent);
    return status;
  }
  const oc::consent c = consent_of(o.consent, host, oc::migration_plan_schema);
  const oc::migration_outcome r = oc::apply_migration(fs, req, o.agent, c, now_text(host));
  return show(r, r.ok, oc::result_text(r));
}

}  // namespace claw_cmd

/// Registers `claw migrate` under `claw`.
inline void add_claw_migrate_command(CLI::App& claw, action& selected,
                                     const host_environment& host) {
  auto mo = std::make_shared<claw_cmd::migrate_options>();
  CLI::App* migrate = claw.add_subcommand(
      "migrate",
      "Enroll an existing OpenClaw agent as a Claw: generate its package under "
      "<state-dir>/claws/local/<agent-id> and record it (offline; --yes --plan-integrity "
      "applies)");
  migrate->add_option("agent", mo->agent, "the agent id (a member of agents.entries)")->required();
  add_state_dir_option(migrate, mo->state_dir);
  add_consent_options(migrate, mo->consent);
  migrate->add_flag(
      "--json", mo->json,
      "print the openclaw.clawMigrationPlan.v1 (without --yes) or clawMigrationResult.v1 "
      "document");
  migrate->callback([mo, &selected, &host] {
    selected = action{[mo, &host] { return claw_cmd::run_migrate(*mo, host); }, mo->json};
  });
}

}  // namespace clawport::cli

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
