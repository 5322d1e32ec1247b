// SPDX-License-Identifier: MIT
// `clawport claw export <agent-id> --out <dir>`: an added Claw's workspace back into a new
// package directory (refuses drift).
#pragma once

#include <memory>
#include <string>

#include "../app.hpp"
#include "claw_output.hpp"

namespace clawport::cli {

namespace claw_cmd {

struct export_options {
  std::string agent;
  std::string out;
  std::string bootstrap;
  std::string state_dir;
  bool json = false;
};

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

/// Registers `claw export` under `claw`.
inline void add_claw_export_command(CLI::App& claw, action& selected,
                                    const host_environment& host) {
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
