// SPDX-License-Identifier: MIT
// `clawport completions bash|zsh|fish`: a completion script generated from the command
// definition (cli/reference.hpp). Hidden helpers, in no help group: `clawport __complete
// aliases|bundles|skills|secrets [--config F]` prints the install's names the scripts offer
// (one a line); `clawport __man --list` the manual pages, `clawport __man <page>` one page
// (roff), which the build writes for `cmake --install` (cmake/cli_reference.cmake).
#pragma once

#include "../app.hpp"
#include "../reference.hpp"
#include "../reference_bash.hpp"
#include "../reference_fish.hpp"
#include "../reference_man.hpp"
#include "../reference_zsh.hpp"

#include <algorithm>
#include <memory>
#include <set>
#include <string>

namespace clawport::cli {

struct completion_args {
  std::string shell;
  std::string kind;
  std::string config;
  std::string page;
  bool list = false;
};

inline int run_completions(const CLI::App& root, const completion_args& a) {
  const reference::command cmd = reference::describe(root);
  out::rendered(a.shell == "bash"  ? reference::bash_script(cmd)
                : a.shell == "zsh" ? reference::zsh_script(cmd)
                                   : reference::fish_script(cmd));
  return exit_ok;
}

/// The names of `kind` in the install: its agents, bundles, skills or secret fields.
inline int run_complete(const completion_args& a, const host_environment& host) {
  fs::posix fs;
  std::set<std::string> names;
  if (a.kind == "secrets") {
    const std::string path = zeroclaw::config_path_of(host, a.config);
    for (const auto& s : importer::read_secrets(fs, path)) names.insert(s.path);
  } else {
    const skills::install_context l = skills::load_install(fs, host, a.config);
    if (a.kind == "aliases")
      for (const auto& agent : l.cfg.agents) names.insert(agent.first);
    if (a.kind == "bundles")
      for (const auto& b : l.cfg.bundles) names.insert(b.first);
    if (a.kind == "skills")
      for (const auto& e : skills::list_skills(fs, l.cfg, l.where, skills::list_request{}).entries)
        names.insert(skills::directory_name_of(e));  // what remove and test take
  }
  text::terminal_lines line;
  for (const std::string& n : names) line(n);
  out::lines(line);
  return exit_ok;
}

inline int run_man(const CLI::App& root, const completion_args& a) {
  const reference::command cmd = reference::describe(root);
  std::vector<const reference::command*> all;
  reference::flatten(cmd, all);
  text::terminal_lines line;
  for (const reference::command* c : all) {
    if (a.list) {
      line(reference::page_name(*c));
    } else if (reference::page_name(*c) == a.page) {
      out::rendered(reference::man_page(*c, std::string(clawport::version_string)));
      return exit_ok;
    }
  }
  if (!a.list) throw usage_failure(errc::invalid_argument, "no manual page " + a.page, a.page);
  out::lines(line);
  return exit_ok;
}

/// Registers `completions` and the hidden `__complete` and `__man` on the root `app`.
inline void add_completions_command(CLI::App& app, action& selected, const host_environment& host) {
  auto args = std::make_shared<completion_args>();
  CLI::App* cmd = app.add_subcommand(
      "completions",
      "Print a completion script for bash, zsh or fish, generated from clawport's own command "
      "definition (e.g. `clawport completions bash > ~/.local/share/bash-completion/completions/"
      "clawport`)");
  cmd->add_option("shell", args->shell, "the shell")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  const CLI::App* root = &app;
  cmd->callback([args, root, &selected] {
    selected = action{[args, root] { return run_completions(*root, *args); }, false};
  });

  CLI::App* complete = app.add_subcommand("__complete", "the install's names, for completion");
  complete->group("");
  complete->add_option("kind", args->kind, "what to list")
      ->required()
      ->check(CLI::IsMember({"aliases", "bundles", "skills", "secrets"}));
  add_config_option(complete, args->config);
  complete->callback([args, &selected, &host] {
    selected = action{[args, &host] { return run_complete(*args, host); }, false};
  });

  CLI::App* man = app.add_subcommand("__man", "a manual page of clawport, in roff");
  man->group("");
  man->add_option("page", args->page, "the page (clawport, clawport-export, ...)");
  man->add_flag("--list", args->list, "list the pages");
  man->callback([args, root, &selected] {
    selected = action{[args, root] { return run_man(*root, *args); }, false};
  });
}

}  // namespace clawport::cli
