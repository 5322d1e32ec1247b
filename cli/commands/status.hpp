// SPDX-License-Identifier: MIT
// `clawport status [--config <file>] [--json]`: one look at a ZeroClaw install (its agents
// and which came from an import, the secrets still blank, whether the config validates,
// leftovers of interrupted commands). Exit 0 when nothing is pending, 1 otherwise.
#pragma once

#include "../app.hpp"

#include <iostream>
#include <memory>
#include <string>

namespace clawport::cli {

struct status_args {
  std::string config;
  bool json = false;
};

inline int run_status(const status_args& a, const host_environment& host) {
  fs::posix backend;
  const importer::install_status st = importer::read_status(
      backend, zeroclaw::config_path_of(host, a.config), zeroclaw::data_dir_of(host));
  if (a.json) {
    out::document(clawport::json::dump(importer::to_json(st)));
  } else {
    out::rendered(importer::render_status(st));
  }
  return st.pending() ? exit_failed : exit_ok;
}

inline void add_status_command(CLI::App& app, action& selected, const host_environment& host) {
  auto args = std::make_shared<status_args>();
  CLI::App* cmd = app.add_subcommand(
      "status",
      "Show a ZeroClaw install's agents (and which came from an import), the secrets still "
      "blank, whether its config validates and leftovers of interrupted commands; exit 1 "
      "when something is pending");
  add_config_option(cmd, args->config);
  cmd->add_flag("--json", args->json, "print one JSON document on stdout");
  cmd->callback([args, &selected, &host] {
    selected = action{[args, &host] { return run_status(*args, host); }, args->json};
  });
}

}  // namespace clawport::cli
