// SPDX-License-Identifier: MIT
// `clawport secrets list [--config <file>] [--json]`: every secret field of the install's
// config and whether it is set, blank, encrypted or a reference (never a value).
// `clawport secrets set <path> [--config <file>] [--json]`: the value from standard input,
// or from a prompt that does not echo when standard input is a terminal (never from the
// command line), stored as ZeroClaw stores it (importer/secrets.hpp, crypto/sodium.hpp).
#pragma once

#include "../app.hpp"
#include "../input.hpp"

#include <clawport/crypto.hpp>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace clawport::cli {

struct secrets_args {
  std::string config;
  std::string path;
  bool json = false;
};

/// The secret: one line typed at a prompt that does not echo, or standard input (at most
/// cli::max_input_bytes; one final newline dropped), both read by cli/input.hpp.
inline std::string read_secret_value(const std::string& path) {
  if (stdin_is_terminal())
    return read_hidden_line("value for " + path + " (not echoed): ", "the value for " + path);
  return read_all_input("the value for " + path);
}

inline int run_secrets_list(const secrets_args& a, const host_environment& host) {
  fs::posix backend;
  const std::string config_path = zeroclaw::config_path_of(host, a.config);
  const auto secrets = importer::read_secrets(backend, config_path);
  if (a.json) {
    out::document(clawport::json::dump(importer::secrets_to_json(config_path, secrets)));
    return exit_ok;
  }
  out::rendered(importer::render_secrets(config_path, secrets));
  return exit_ok;
}

inline int run_secrets_set(const secrets_args& a, const host_environment& host) {
  fs::posix backend;
  crypto::sodium cipher;
  const std::string config_path = zeroclaw::config_path_of(host, a.config);
  importer::require_secret_field(backend, config_path, a.path);  // before any input is read
  const std::string value = read_secret_value(a.path);
  const importer::set_secret_result r =
      importer::set_secret(backend, cipher, config_path, a.path, value, host.now());
  if (a.json) {
    out::document(clawport::json::dump(importer::to_json(r)));
  } else {
    out::rendered(importer::render_set_secret(r));
  }
  return exit_ok;
}

/// After an import applied with standard input a terminal: offers to supply each
/// credential of its to-do list, read as `clawport secrets set` reads it (a prompt that does
/// not echo) and stored by the same library call; an empty answer skips it.
inline void offer_secret_prompts(const importer::import_result& r, const host_environment& host) {
  std::vector<std::string> paths;
  for (const importer::todo_item& t : r.plan.todo)
    if (t.group == "secret") paths.push_back(t.path);
  if (paths.empty() || !stdin_is_terminal()) return;
  out::line("");
  out::line(
      "supply the credential(s) now (an empty answer skips one; `clawport secrets set` later "
      "does the same):");
  fs::posix backend;
  crypto::sodium cipher;
  for (const std::string& path : paths) {
    const std::string value = read_secret_value(path);
    if (value.empty()) {
      out::line("  skipped " + path);
      continue;
    }
    try {
      // the import kept the config's one backup of this run (render_result names it)
      (void)importer::set_secret(backend, cipher, r.plan.config_path, path, value, host.now(),
                                 false);
      out::line("  set " + path);
    } catch (const error& e) {
      out::line("  not set " + path + ": " + e.what());
    }
  }
}

inline void add_secrets_command(CLI::App& app, action& selected, const host_environment& host) {
  CLI::App* secrets = app.add_subcommand(
      "secrets", "List an install's secret fields, or supply one as ZeroClaw stores it");
  secrets->require_subcommand(1);
  const auto config_option = [](CLI::App* cmd, secrets_args& args) {
    add_config_option(cmd, args.config);
    cmd->add_flag("--json", args.json, "print one JSON document on stdout");
  };
  auto list_args = std::make_shared<secrets_args>();
  CLI::App* list = secrets->add_subcommand(
      "list",
      "List every secret field of the config: set, blank, encrypted or reference (never a value)");
  config_option(list, *list_args);
  list->callback([list_args, &selected, &host] {
    selected =
        action{[list_args, &host] { return run_secrets_list(*list_args, host); }, list_args->json};
  });
  auto set_args = std::make_shared<secrets_args>();
  CLI::App* set = secrets->add_subcommand(
      "set",
      "Supply a secret field (the value from standard input, or a prompt that does not echo): "
      "enc2: with the install's .secret_key, plain where [secrets] encrypt = false, an op:// "
      "reference as given; only that value changes, the previous config is kept");
  set->add_option("path", set_args->path,
                  "the field's config path, as `secrets list` shows it "
                  "(providers.models.anthropic.main.api_key)")
      ->required()
      ->check(non_empty());
  config_option(set, *set_args);
  set->callback([set_args, &selected, &host] {
    selected =
        action{[set_args, &host] { return run_secrets_set(*set_args, host); }, set_args->json};
  });
}

}  // namespace clawport::cli
