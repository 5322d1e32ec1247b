// SPDX-License-Identifier: MIT
// `clawport export <alias> --out <dir> [--config <file>] [--force] [--json]
//                  [--publish swap|exchange] [--dry-run] [--no-sync] [--sign <key>]
//                  [--jobs <n>] [--with-memory]`
// Parses options, resolves the defaults the way ZeroClaw does, runs the exporter and prints
// the report (or the JSON document). No export logic lives here.
#pragma once

#include "../app.hpp"
#include "../progress.hpp"

#include <clawport/sqlite.hpp>

#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>

namespace clawport::cli {

struct export_args {
  std::string alias;
  std::string out;
  std::string config;
  bool force = false;
  bool json = false;
  std::string publish = "exchange";
  bool dry_run = false;
  bool no_sync = false;
  std::string sign;  ///< a private key file, or a .pub whose private half is in ssh-agent
  unsigned jobs = 1;
  bool with_memory = false;  ///< the agent's memory travels (bundle format 2, issue 47)
};

template <class Publish>
export_result run_exporter(fs::posix& backend, const export_options& options) {
  basic_exporter<fs::posix, zeroclaw::schema_v3, Publish> exporter(backend);
  return exporter.run(options);
}

/// The report of a published bundle. From here nothing may report failure (a signal that
/// arrives now is too late to undo anything, and the report always renders).
inline void print_report(const export_result& result, const export_args& a) {
  try {
    if (a.json)
      out::document(render_json(result));
    else
      out::rendered(render_report(result));
  } catch (const std::exception& e) {
    out::warning("the bundle was published to " + a.out +
                 " but the report could not be printed: " + e.what());
  }
}

inline int run_export(const export_args& a, const host_environment& host) {
  export_options o;
  o.alias = a.alias;
  o.out = a.out;
  o.out_path = host.absolute(a.out);
  o.config_path = zeroclaw::config_path_of(host, a.config);
  if (const auto home = host.absolute_home()) o.home = *home;
  o.force = a.force;
  o.sync = !a.no_sync;
  o.jobs = a.jobs;
  if (a.with_memory) o.memory = memory::as_source<sqlite::store>();
  if (!a.sign.empty()) o.sign = ssh_bundle_signer(host, a.sign);
  // Reproducible provenance: SOURCE_DATE_EPOCH wins over the clock when set.
  o.exported_at = host.now();
  progress_line progress = progress_line::for_command(a.json);
  o.on_progress = [&progress](std::uint64_t n) {
    progress.count("copying and hashing the workspace", n, 0, "entry", "entries");
  };
  const std::string publishing = "publishing the bundle at " + a.out;
  o.before_publish = [&progress, &publishing] { progress.phase(publishing); };
  // Replacing a bundle: the report as soon as the new one is in place, then the removal of
  // the previous one (minutes for 50,000 files) on the progress line.
  bool reported = false;
  const std::string removing = "removing the previous bundle at " + a.out;
  if (!a.json) {
    o.on_published = [&progress, &reported, &a, &removing](const export_result& r) {
      progress.clear();
      print_report(r, a);
      reported = true;
      progress.phase(removing + " (the new one is in place)");
    };
    o.on_removing = [&progress, &removing](std::uint64_t n) {
      progress.count(removing, n, 0, "entry", "entries");
    };
  }

  // SIGINT/SIGTERM only set a flag; the exporter polls it, rolls back and throws
  // errc::cancelled, which run_action turns into exit 130/143.
  interrupt_scope interrupts;
  o.cancelled = [] { return interrupted(); };

  fs::posix backend;
  export_result result;
  try {
    if (a.dry_run) {
      result = run_exporter<publish::none>(backend, o);
    } else if (a.publish == "swap") {
      result = run_exporter<publish::staged_swap>(backend, o);
    } else {
      result = run_exporter<publish::exchange>(backend, o);
    }
  } catch (const error& e) {  // the library names the option; the CLI adds its flag
    const std::string what = e.what();
    if (e.code() != errc::destination_refused ||
        what.find(publish::refusal::force_words) == std::string::npos)
      throw;
    throw error(e.code(), what + " (--force)", e.subject());
  }
  progress.clear();
  if (!reported)
    print_report(result, a);
  else  // what the removal left, told after the report
    for (const std::string& w : result.publish.warnings) out::warning(w);
  return exit_ok;
}

inline void add_export_command(CLI::App& app, action& selected, const host_environment& host) {
  auto args = std::make_shared<export_args>();
  CLI::App* cmd = app.add_subcommand(
      "export", "Export a ZeroClaw agent as a scrubbed, self-validating agent bundle");
  cmd->add_option("alias", args->alias, "the agent to export")->required();
  cmd->add_option("--out", args->out, "the bundle directory to publish")
      ->required()
      ->check(non_empty());
  add_config_option(cmd, args->config);
  cmd->add_flag("--force", args->force, "replace a non-empty destination directory");
  cmd->add_flag("--json", args->json, "print one JSON document on stdout");
  cmd->add_option("--publish", args->publish,
                  "exchange (default: atomic renameat2, falls back to swap where unsupported) "
                  "or swap (upstream's two renames)")
      ->check(CLI::IsMember({"swap", "exchange"}));
  cmd->add_flag("--dry-run", args->dry_run, "check and report what would travel; write nothing");
  cmd->add_option("--sign", args->sign,
                  "sign the digest list with this SSH key (a private key file, or a .pub whose "
                  "private half is in ssh-agent): writes zeroclaw-agent.sha256.sig")
      ->check(non_empty());
  cmd->add_flag("--no-sync", args->no_sync,
                "skip flushing the bundle to disk (scratch exports only)");
  add_jobs_option(cmd, args->jobs);
  cmd->add_flag("--with-memory", args->with_memory,
                "carry the agent's memory (its rows of data/memory/brain.db, read as one "
                "snapshot) as memory/entries.jsonl: bundle format 2; it may hold personal data");
  cmd->callback([args, &selected, &host] {
    selected = action{[args, &host] { return run_export(*args, host); }, args->json};
  });
}

}  // namespace clawport::cli
