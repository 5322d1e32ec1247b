// SPDX-License-Identifier: MIT
// Entry point of the `clawport` tool: gathers the host environment once, registers each
// command and runs the one asked for.
#include "app.hpp"
#include "commands/claw.hpp"
#include "commands/completions.hpp"
#include "commands/convert.hpp"
#include "commands/export.hpp"
#include "commands/import.hpp"
#include "commands/recover.hpp"
#include "commands/secrets.hpp"
#include "commands/skills.hpp"
#include "commands/skills_lifecycle.hpp"
#include "commands/status.hpp"
#include "commands/verify.hpp"
#include "commands/workspace.hpp"

int main(int argc, char** argv) {
  const clawport::host_environment host = clawport::gather_process_host();
  clawport::cli::out::plain() = host.plain_text;
  return clawport::cli::run(argc, argv, [&host](CLI::App& app, clawport::cli::action& selected) {
    // Commands register here, one line each: add_<name>_command(app, selected, host);
    clawport::cli::add_claw_command(app, selected, host);
    clawport::cli::add_convert_command(app, selected, host);
    clawport::cli::add_export_command(app, selected, host);
    clawport::cli::add_import_command(app, selected, host);
    clawport::cli::add_recover_command(app, selected, host);
    clawport::cli::add_secrets_command(app, selected, host);
    clawport::cli::add_skills_command(app, selected, host);
    clawport::cli::add_skills_lifecycle_commands(*app.get_subcommand("skills"), selected, host);
    clawport::cli::add_status_command(app, selected, host);
    clawport::cli::add_verify_command(app, selected, host);
    clawport::cli::add_workspace_command(app, selected, host);
    // Last: the completion scripts and manual pages describe every command above.
    clawport::cli::add_completions_command(app, selected, host);
  });
}
