// SPDX-License-Identifier: MIT
// Entry point of the `clawport` tool: gathers the host environment once, registers each
// command and runs the one asked for. The heavy command groups are compiled in TUs of their
// own (cli/registry.hpp); the ZeroClaw bundle commands are compiled here.
#include "app.hpp"
#include "commands/export.hpp"
#include "commands/import.hpp"
#include "commands/recover.hpp"
#include "commands/status.hpp"
#include "commands/verify.hpp"
#include "registry.hpp"

int main(int argc, char** argv) {
  const clawport::host_environment host = clawport::gather_process_host();
  return clawport::cli::run(argc, argv, [&host](CLI::App& app, clawport::cli::action& selected) {
    // Commands register here, one line each, in the order of `clawport --help`:
    // add_<name>_command (a header included above) or register_<name> (cli/registry.hpp).
    clawport::cli::register_claw(app, selected, host);
    clawport::cli::register_convert(app, selected, host);
    clawport::cli::add_export_command(app, selected, host);
    clawport::cli::add_import_command(app, selected, host);
    clawport::cli::add_recover_command(app, selected, host);
    clawport::cli::register_secrets(app, selected, host);
    clawport::cli::register_skills(app, selected, host);
    clawport::cli::add_status_command(app, selected, host);
    clawport::cli::add_verify_command(app, selected, host);
    clawport::cli::register_workspace(app, selected, host);
  });
}
