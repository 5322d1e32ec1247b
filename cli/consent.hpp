// SPDX-License-Identifier: MIT
// The one consent flow of every command that applies a plan (`import`, `claw add`,
// `claw update`, `claw remove`): without `--yes` the plan is shown with the exact command
// that applies it (nothing is written); `--yes` with `--plan-integrity X`, or with
// `--plan F` (a plan kept by `--plan-out F`), applies it. The library rebuilds the plan and
// refuses it when its integrity is not the consented one (plan/consent.hpp).
#pragma once

#include "app.hpp"

#include <memory>
#include <string>
#include <vector>

namespace clawport::cli {

/// The consent options as typed.
struct consent_flags {
  bool dry_run = false;
  bool yes = false;
  std::string plan_integrity;
  std::string plan_out;  ///< `--plan-out F`: keep the plan document in F for review
  std::string plan_in;   ///< `--plan F`: apply the plan reviewed in F
};

/// Registers `--dry-run`, `--yes`, `--plan-integrity`, `--plan-out` and `--plan`.
inline void add_consent_options(CLI::App* cmd, consent_flags& f) {
  cmd->add_flag("--dry-run", f.dry_run,
                "show the plan and the command that applies it; write nothing (the default "
                "without --yes)");
  cmd->add_flag("--yes", f.yes, "apply the plan (with --plan-integrity or --plan)");
  cmd->add_option("--plan-integrity", f.plan_integrity,
                  "the integrity of the plan you reviewed (sha256:<hex>)")
      ->check(non_empty());
  cmd->add_option("--plan-out", f.plan_out,
                  "also write the plan's JSON document to this file, for review")
      ->check(non_empty());
  cmd->add_option("--plan", f.plan_in,
                  "with --yes: apply the plan reviewed in this file (written by --plan-out)")
      ->check(non_empty());
}

/// The usage rules of the flags (exit 2): `--yes` needs an integrity, which goes with
/// `--yes` only; `--dry-run` and `--plan-out` only show.
inline void check_consent_usage(const consent_flags& f) {
  if (f.yes && f.dry_run)
    throw usage_failure(errc::invalid_argument,
                        "--dry-run shows the plan and --yes applies it: give one of them", "--yes");
  if (f.yes && !f.plan_out.empty())
    throw usage_failure(errc::invalid_argument,
                        "--plan-out keeps a plan for review; it does not go with --yes",
                        "--plan-out");
  if (f.yes && f.plan_integrity.empty() && f.plan_in.empty()) {
    const plan::refusal r{plan::refusal_kind::plan_integrity_required, {}, {}};
    throw usage_failure(r.code(), plan::message(r, {}), "--plan-integrity");
  }
  if (!f.yes && !(f.plan_integrity.empty() && f.plan_in.empty()))
    throw usage_failure(errc::invalid_argument,
                        "--plan-integrity and --plan apply a plan, so they need --yes",
                        f.plan_in.empty() ? "--plan-integrity" : "--plan");
  if (!f.plan_integrity.empty() && !plan::well_formed(f.plan_integrity))
    throw usage_failure(errc::invalid_argument,
                        "--plan-integrity " + f.plan_integrity +
                            " is malformed: an integrity is sha256: and 64 hex digits; copy it "
                            "whole from the plan's `to apply:` line",
                        "--plan-integrity");
}

/// The integrity consented to: `--plan-integrity`, or the one of the plan in `--plan F`
/// (read by plan::read_plan_file; both given: they must agree). `kind` names the plan F must
/// hold: its `schemaVersion` (OpenClaw), or "" for an import plan (which has none).
inline std::string consented_integrity(const consent_flags& f, const host_environment& host,
                                       const std::string& kind) {
  if (f.plan_in.empty()) return f.plan_integrity;
  fs::posix backend;
  const std::string integrity =
      plan::read_plan_file(backend, host.absolute(f.plan_in), kind, f.plan_in);
  if (!f.plan_integrity.empty() && f.plan_integrity != integrity)
    throw usage_failure(errc::plan_integrity_mismatch,
                        "--plan-integrity " + f.plan_integrity + " is not the integrity of " +
                            f.plan_in + " (" + integrity + "): give one of them",
                        "--plan-integrity");
  return integrity;
}

/// Writes the plan's JSON document to `--plan-out` (when given), replacing the file
/// atomically (publish/replace_file.hpp).
inline void write_plan_file(const consent_flags& f, const host_environment& host,
                            const std::string& json_text) {
  if (f.plan_out.empty()) return;
  const std::string path = host.absolute(f.plan_out);
  fs::posix backend;
  auto dir = backend.open_root(paths::parent(path));
  (void)publish::replace_file(backend, dir, paths::file_name(path), json_text, path);
}

/// The command that applies the plan just shown: this run's words without `--dry-run`,
/// `--json`, `--plan-out F`, with `--yes --plan-integrity <integrity>`.
inline text::command_line apply_command(const std::string& integrity) {
  const std::vector<std::string>& words = invocation();
  std::vector<std::string> cmd;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "--dry-run" || w == "--json" || w == "--yes") continue;
    if (w == "--plan-out" || w == "--plan-integrity" || w == "--plan") {
      ++i;  // and its value
      continue;
    }
    if (w.rfind("--plan-out=", 0) == 0 || w.rfind("--plan-integrity=", 0) == 0 ||
        w.rfind("--plan=", 0) == 0)
      continue;
    cmd.push_back(w);
  }
  cmd.insert(cmd.end(), {"--yes", "--plan-integrity", integrity});
  return text::paste_command(cmd);
}

/// The closing lines of a plan shown without `--yes`: nothing was written, and how to
/// apply it (through the one terminal-safe renderer).
inline text::terminal_lines apply_hint(const consent_flags& f, const std::string& integrity) {
  text::terminal_lines line;
  line("");
  line((f.plan_out.empty() ? std::string("nothing was written")
                           : "the plan was written to " + f.plan_out + ", nothing else") +
           "; to apply: ",
       apply_command(integrity));
  return line;
}

}  // namespace clawport::cli
