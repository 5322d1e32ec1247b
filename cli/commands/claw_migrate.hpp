// SPDX-License-Identifier: MIT
// `clawport claw migrate <agent-id>`: enroll an existing OpenClaw agent as a Claw (the plan
// without --yes; with --yes the generated package is published and the install recorded).
#pragma once

#include <memory>
#include <string>

#include "../app.hpp"
#include "claw_output.hpp"

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
