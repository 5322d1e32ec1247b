// SPDX-License-Identifier: MIT
// Entry point of the `clawport` tool: registers each command and runs the one asked for.
#include "app.hpp"

int main(int argc, char** argv) {
  return clawport::cli::run(argc, argv, [](CLI::App& app, clawport::cli::action& selected) {
    (void)app;
    (void)selected;
    // Commands register here, one line each: add_<name>_command(app, selected);
  });
}
