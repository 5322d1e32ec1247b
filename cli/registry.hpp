// SPDX-License-Identifier: MIT
// The commands compiled in TUs of their own (cli/CMakeLists.txt): each heavy group of
// commands is its own TU, so a build compiles them in parallel and an edit to one command
// recompiles only its group. main.cpp calls these in the order of `clawport --help`.
#pragma once

#include "app.hpp"

namespace clawport::cli {

// cli/openclaw_commands.cpp
void register_claw(CLI::App& app, action& selected, const host_environment& host);
void register_convert(CLI::App& app, action& selected, const host_environment& host);
void register_workspace(CLI::App& app, action& selected, const host_environment& host);
// cli/skills_commands.cpp
void register_secrets(CLI::App& app, action& selected, const host_environment& host);
void register_skills(CLI::App& app, action& selected, const host_environment& host);

}  // namespace clawport::cli
