// SPDX-License-Identifier: MIT
// The skills and secrets commands in a TU of their own (cli/registry.hpp).
#include "commands/secrets.hpp"
#include "commands/skills.hpp"
#include "commands/skills_lifecycle.hpp"
#include "registry.hpp"

namespace clawport::cli {

void register_secrets(CLI::App& app, action& selected, const host_environment& host) {
  add_secrets_command(app, selected, host);
}
/// `skills` and its lifecycle subcommands (install, update, remove...).
void register_skills(CLI::App& app, action& selected, const host_environment& host) {
  add_skills_command(app, selected, host);
  add_skills_lifecycle_commands(*app.get_subcommand("skills"), selected, host);
}

}  // namespace clawport::cli
