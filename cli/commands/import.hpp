// SPDX-License-Identifier: MIT
// `clawport import <bundle> [--config <file>] [--as <alias>] [--map KIND.ALIAS=LOCAL]...
//                  [--dry-run] [--plan-out F] [--yes (--plan-integrity sha256:<hex> | --plan F)]
//                  [--require-signature --allowed-signers F [--signer P]] [--json]
//                  [--jobs <n>] [--with-memory]`
// Shows the plan; applies it only with --yes and the integrity that was shown (or after
// the operator confirms on a terminal): the one consent flow (cli/consent.hpp). No import
// logic lives here.
#pragma once

#include "../app.hpp"
#include "../consent.hpp"
#include "../input.hpp"
#include "secrets.hpp"
#include "verify.hpp"

#include <clawport/sqlite.hpp>

#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clawport::cli {

struct import_args {
  std::string bundle;
  std::string config;
  std::string as;
  std::vector<std::string> maps;
  consent_flags consent;
  bool require_signature = false;
  bool strict = false;
  std::string allowed_signers;
  std::string signer;
  bool json = false;
  unsigned jobs = 1;
  bool with_memory = false;  ///< merge a format 2 bundle's memory (issue 47 item 5)
};

/// The usage checks that need no planning (exit 2): each `--map` of the right shape.
inline void check_import_usage(const import_args& a) {
  check_consent_usage(a.consent);
  for (const std::string& m : a.maps) {
    try {
      (void)importer::parse_map(m);
    } catch (const error& e) {
      throw usage_failure(e.code(), e.what(), e.subject());
    }
  }
}

/// Asks on a terminal whether to apply the plan just shown; true for yes.
inline bool confirmed_on_terminal() {
  out::line("");
  out::prompt("apply this plan? [y/N] ", out::to::out);
  const std::string answer = read_input_line("the answer").value_or("");
  return answer == "y" || answer == "Y" || answer == "yes";
}

/// `--with-memory` given for a bundle that carries none: said in the human output (the
/// plan and its integrity are the same as without the flag).
inline void note_no_memory(const import_args& a, const importer::import_plan& p) {
  if (a.with_memory && !p.memory)
    out::rendered("this bundle carries no memory (format 1): --with-memory has nothing to merge\n");
}

inline int run_import(const import_args& a, const host_environment& host) {
  check_import_usage(a);
  importer::import_options o;
  o.bundle = host.absolute(a.bundle);
  o.config_path = zeroclaw::config_path_of(host, a.config);
  if (!a.as.empty()) o.as = a.as;
  o.maps = a.maps;
  o.now = host.now();
  o.umask = process_umask();
  o.jobs = a.jobs;
  o.with_memory = a.with_memory;
  // Also when memory is left out: a re-run resolves a killed --with-memory run of its plan.
  o.memory = sqlite::import_target();
  // --allowed-signers alone asks for the signature, as `verify` does (--require-signature
  // says so out loud and needs it)
  if (!a.allowed_signers.empty())
    o.require_signature = bundle_verifier(host, a.allowed_signers, a.signer);
  o.strict = a.strict;
  progress_line progress = progress_line::for_command(a.json);
  o.on_progress = [&progress](std::string_view phase, std::uint64_t n, std::uint64_t total) {
    progress.count(phase == "copying" ? "importing: copying and checking" : "verifying: hashing", n,
                   total);
  };
  // As export: SIGINT/SIGTERM only set a flag the importer polls; it undoes what it staged
  // and throws errc::cancelled, which run_action turns into exit 130/143.
  interrupt_scope interrupts;
  o.cancelled = [] { return interrupted(); };
  fs::posix backend;
  if (a.consent.yes) {
    const std::string integrity = consented_integrity(a.consent, host, "");
    const importer::import_result r =
        importer::apply_import(backend, o, plan::consented_to(integrity));
    progress.clear();
    if (a.json) {
      out::document(clawport::json::dump(importer::to_json(r)));
    } else {
      out::rendered(importer::render_result(r));
      note_no_memory(a, r.plan);
      offer_secret_prompts(r, host);
    }
    return exit_ok;
  }
  const importer::import_plan p = importer::plan_import(backend, o);
  progress.clear();
  const std::string doc = clawport::json::dump(importer::to_json(p)) + "\n";
  write_plan_file(a.consent, host, doc);
  if (a.json) {
    out::document(doc);
    return exit_ok;
  }
  out::rendered(importer::render_plan(p));
  note_no_memory(a, p);
  const bool interactive = stdin_is_terminal() && ::isatty(STDOUT_FILENO) == 1;
  if (a.consent.dry_run || !a.consent.plan_out.empty() || !interactive) {
    out::lines(apply_hint(a.consent, p.plan_integrity));
    return exit_ok;
  }
  if (!confirmed_on_terminal()) {  // declined: not done, so not 0 (as terraform's apply)
    out::error(error(errc::consent_required, "the plan was not applied; nothing was written"),
               false);
    return exit_failed;
  }
  const importer::import_result r =
      importer::apply_import(backend, o, plan::consented_to(p.plan_integrity));
  progress.clear();
  out::rendered(importer::render_result(r));
  note_no_memory(a, r.plan);
  offer_secret_prompts(r, host);
  return exit_ok;
}

inline void add_import_command(CLI::App& app, action& selected, const host_environment& host) {
  auto args = std::make_shared<import_args>();
  CLI::App* cmd = app.add_subcommand(
      "import", "Verify an agent bundle and import it into an install, never overwriting anything");
  cmd->add_option("bundle", args->bundle, "the bundle directory")->required();
  add_config_option(cmd, args->config, "the target install's config.toml");
  cmd->add_option("--as", args->as, "the agent's alias on the target")->check(non_empty());
  cmd->add_option("--map", args->maps,
                  "KIND.ALIAS=LOCAL: point references to a bundle entry at a local one "
                  "(repeatable), e.g. risk_profile.default=calm");
  CLI::Option* require =
      cmd->add_flag("--require-signature", args->require_signature,
                    "refuse the bundle unless an allowed signer signed it (needs "
                    "--allowed-signers, which implies it); the plan names the signer");
  CLI::Option* allowed = cmd->add_option("--allowed-signers", args->allowed_signers,
                                         "refuse the bundle unless a signer of this "
                                         "allowed_signers file (ssh-keygen's format) signed it")
                             ->check(non_empty());
  require->needs(allowed);
  cmd->add_option("--signer", args->signer,
                  "the principal that must have signed (default: any allowed signer)")
      ->check(non_empty())
      ->needs(allowed);
  cmd->add_flag("--with-memory", args->with_memory,
                "merge the memory a format 2 bundle carries into this install's "
                "data/memory/brain.db for the new agent only (one transaction; made with the "
                "runtime's schema when missing); without it the memory is left out");
  cmd->add_flag("--strict", args->strict,
                "refuse a bundle without a digest list (its bytes unauthenticated), as "
                "`verify --strict` does");
  add_consent_options(cmd, args->consent);
  cmd->add_flag("--json", args->json, "print one JSON document on stdout");
  add_jobs_option(cmd, args->jobs);
  cmd->callback([args, &selected, &host] {
    selected = action{[args, &host] { return run_import(*args, host); }, args->json};
  });
}

}  // namespace clawport::cli
