// SPDX-License-Identifier: MIT
// `clawport recover <dir>`: restores the previous bundle a crashed export left beside
// <dir>, removes the dead staging trees of every command (export, import, claw, skills,
// convert: publish/names.hpp), and says what it removed and what it left alone.
#pragma once

#include "../app.hpp"

#include <clawport/sqlite.hpp>

#include <iostream>
#include <memory>
#include <string>

namespace clawport::cli {

struct recover_args {
  std::string dir;
  bool json = false;
};

inline int run_recover(const recover_args& a, const host_environment& host) {
  std::string abs = host.absolute(a.dir);
  while (abs.size() > 1 && abs.back() == '/') abs.pop_back();
  fs::posix backend;
  const recover_report report = recover_path(backend, abs, a.dir, sqlite::import_target());
  // A tree that could not be deleted fails the command, unless recover restored the
  // destination: a command never reports failure after it changed the destination.
  const bool failed = !report.failed.empty() && !report.restored;
  if (a.json && failed) throw recover_failure(report, a.dir);
  if (a.json) {
    out::document(json::dump(to_json(report)));
  } else {
    // Names read from the destination's parent (often /tmp): escaped (issue 41 item 2).
    for (const std::string& line : report.actions) out::line(line);
  }
  if (failed) throw recover_failure(report, a.dir);
  return exit_ok;
}

inline void add_recover_command(CLI::App& app, action& selected, const host_environment& host) {
  auto args = std::make_shared<recover_args>();
  CLI::App* cmd = app.add_subcommand(
      "recover",
      "Restore the previous bundle after a crashed export and remove the staging trees a "
      "killed export, import, claw, skills or convert left beside a destination");
  cmd->add_option("dir", args->dir, "the destination the killed command was writing")
      ->required()
      ->check(non_empty());
  cmd->add_flag("--json", args->json, "print one JSON document on stdout");
  cmd->callback([args, &selected, &host] {
    selected = action{[args, &host] { return run_recover(*args, host); }, args->json};
  });
}

}  // namespace clawport::cli
