// SPDX-License-Identifier: MIT
// `clawport recover <dir>`: restores the previous bundle a crashed export left beside
// <dir>, removes dead staging trees, and says what it did.
#pragma once

#include "../app.hpp"
#include "export.hpp"

#include <iostream>
#include <memory>
#include <string>

namespace clawport::cli {

inline int run_recover(const std::string& dir) {
  std::string abs = absolute_path(dir);
  while (abs.size() > 1 && abs.back() == '/') abs.pop_back();
  fs::posix backend;
  const recover_report report = recover_path(backend, abs, dir);
  for (const std::string& action : report.actions) std::cout << action << "\n";
  return exit_ok;
}

inline void add_recover_command(CLI::App& app, action& selected) {
  auto dir = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "recover", "restore the previous bundle after a crashed export and remove its leftovers");
  cmd->add_option("dir", *dir, "the destination the export was publishing to")->required();
  cmd->callback([dir, &selected] { selected = [dir] { return run_recover(*dir); }; });
}

}  // namespace clawport::cli
