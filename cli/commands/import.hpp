// SPDX-License-Identifier: MIT
// `clawport import <bundle> [--config <file>] [--as <alias>] [--map KIND.ALIAS=LOCAL]...
//                  [--dry-run] [--yes --plan-integrity sha256:<hex>] [--json]`
// Shows the plan; applies it only with --yes and the integrity that was shown (or after
// the operator confirms on a terminal). No import logic lives here.
#pragma once

#include "../app.hpp"

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
  bool dry_run = false;
  bool yes = false;
  std::string plan_integrity;
  bool json = false;
};

inline int run_import(const import_args& a, const host_environment& host) {
  importer::import_options o;
  o.bundle = host.absolute(a.bundle);
  o.config_path = zeroclaw::config_path_of(host, a.config);
  if (!a.as.empty()) o.as = a.as;
  o.maps = a.maps;
  o.now = host.now();
  o.umask = process_umask();
  fs::posix backend;
  if (a.yes && !a.dry_run) {
    if (a.plan_integrity.empty())
      throw error(errc::invalid_argument,
                  "--yes needs --plan-integrity <the value the plan showed>: run `clawport "
                  "import` without --yes first and review the plan",
                  "--plan-integrity");
    const importer::import_result r = importer::apply_import(backend, o, a.plan_integrity);
    if (a.json) {
      std::cout << clawport::json::dump(importer::to_json(r)) << "\n";
    } else {
      std::cout << importer::render_result(r);
    }
    return exit_ok;
  }
  const importer::import_plan p = importer::plan_import(backend, o);
  if (a.json) {
    std::cout << clawport::json::dump(importer::to_json(p)) << "\n";
    return exit_ok;
  }
  std::cout << importer::render_plan(p);
  const bool interactive = ::isatty(STDIN_FILENO) == 1 && ::isatty(STDOUT_FILENO) == 1;
  if (a.dry_run || !interactive) {
    std::string apply = "nothing was written; to apply: clawport import " + a.bundle +
                        (a.config.empty() ? "" : " --config " + a.config) +
                        (a.as.empty() ? "" : " --as " + a.as);
    for (const std::string& m : a.maps) apply += " --map " + m;
    text::terminal_lines line;  // the one terminal-safe renderer, as the plan above
    line("");
    line(apply + " --yes --plan-integrity " + p.plan_integrity);
    std::cout << line.text;
    return exit_ok;
  }
  std::cout << "\napply this plan? [y/N] " << std::flush;
  std::string answer;
  std::getline(std::cin, answer);
  if (answer != "y" && answer != "Y" && answer != "yes") {
    std::cout << "nothing was written\n";
    return exit_ok;
  }
  std::cout << importer::render_result(importer::apply_import(backend, o, p.plan_integrity));
  return exit_ok;
}

inline void add_import_command(CLI::App& app, action& selected, const host_environment& host) {
  auto args = std::make_shared<import_args>();
  CLI::App* cmd = app.add_subcommand(
      "import", "verify an agent bundle and import it into an install, never overwriting anything");
  cmd->add_option("bundle", args->bundle, "the bundle directory")->required();
  cmd->add_option("--config", args->config,
                  "the target install's config.toml (default: $ZEROCLAW_CONFIG_DIR/config.toml, "
                  "else ~/.zeroclaw/config.toml)");
  cmd->add_option("--as", args->as, "the agent's alias on the target");
  cmd->add_option("--map", args->maps,
                  "KIND.ALIAS=LOCAL: point references to a bundle entry at a local one "
                  "(repeatable), e.g. risk_profile.default=calm");
  cmd->add_flag("--dry-run", args->dry_run, "show the plan; write nothing");
  cmd->add_flag("--yes", args->yes, "apply the plan (needs --plan-integrity)");
  cmd->add_option("--plan-integrity", args->plan_integrity,
                  "the plan_integrity the plan showed (sha256:<hex>)");
  cmd->add_flag("--json", args->json, "print one JSON document on stdout");
  cmd->callback([args, &selected, &host] {
    selected = action{[args, &host] { return run_import(*args, host); }, args->json};
  });
}

}  // namespace clawport::cli
