// SPDX-License-Identifier: MIT
// The clawport command line: argument parsing, dispatch and exit codes. Commands live in
// cli/commands/, one file each; they parse options, call the library and print.
#pragma once

#include <CLI/CLI.hpp>
#include <clawport/clawport.hpp>

#include <functional>
#include <iostream>
#include <string>

namespace clawport::cli {

/// Exit statuses of the contract in docs/cli.md.
enum exit_status : int { exit_ok = 0, exit_failed = 1, exit_usage = 2 };

/// What a command's action reports back to `run`.
using action = std::function<int()>;

/// Runs the command whose action was selected during parsing; maps library errors
/// to exit 1 with the message (and the path or field) on stderr.
inline int run_action(const action& act, std::ostream& err) {
  try {
    return act();
  } catch (const clawport::error& e) {
    err << "clawport: error: " << e.what();
    if (!e.subject().empty() && std::string(e.what()).find(e.subject()) == std::string::npos) {
      err << " (" << e.subject() << ")";
    }
    err << "\n";
    return exit_failed;
  } catch (const std::exception& e) {
    err << "clawport: error: " << e.what() << "\n";
    return exit_failed;
  }
}

/// Parses `argv`; usage errors print a hint and give exit 2, `--help`/`--version` exit 0.
template <class Register>
int run(int argc, const char* const* argv, Register&& register_commands) {
  CLI::App app{"clawport: make AI agents portable between installs", "clawport"};
  app.set_version_flag("--version", "clawport " + std::string(clawport::version_string));
  app.require_subcommand(1);
  app.fallthrough(false);
  action selected;
  register_commands(app, selected);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e, std::cout, std::cerr);
    return code == 0 ? exit_ok : exit_usage;
  }
  if (!selected) {
    std::cerr << app.help();
    return exit_usage;
  }
  return run_action(selected, std::cerr);
}

}  // namespace clawport::cli
