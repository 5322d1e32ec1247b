// SPDX-License-Identifier: MIT
// The OpenClaw-side commands in a TU of their own (cli/registry.hpp): claw (with its
// lifecycle subcommands), convert and workspace.
#include "commands/claw.hpp"
#include "commands/convert.hpp"
#include "commands/workspace.hpp"
#include "registry.hpp"

namespace clawport::cli {

void register_claw(CLI::App& app, action& selected, const host_environment& host) {
  add_claw_command(app, selected, host);
}
void register_convert(CLI::App& app, action& selected, const host_environment& host) {
  add_convert_command(app, selected, host);
}
void register_workspace(CLI::App& app, action& selected, const host_environment& host) {
  add_workspace_command(app, selected, host);
}

}  // namespace clawport::cli
