// SPDX-License-Identifier: MIT
// The clawport command line: argument parsing, dispatch and exit codes. Commands live in
// cli/commands/, one file each; they parse options, call the library and print.
#pragma once

#include <CLI/CLI.hpp>
#include <clawport/clawport.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "interrupt.hpp"
#include "options.hpp"
#include "output.hpp"
#include "usage.hpp"

namespace clawport::cli {

/// The command selected while parsing: what to run, and whether it was asked for `--json`
/// (then every failure is one JSON error document on stdout).
struct action {
  std::function<int()> run;
  bool json = false;
  explicit operator bool() const noexcept { return static_cast<bool>(run); }
};

/// A usage error found after parsing (`--yes` without `--plan-integrity`): exit 2, told
/// like any other error. `document`, when set, is the JSON to print instead of the error
/// document (an OpenClaw command keeps its upstream envelope).
class usage_failure : public clawport::error {
 public:
  using clawport::error::error;
  std::string document;
};

/// The words of this run (argv, `clawport` first): what the apply command of a plan is
/// built from (cli/consent.hpp). Set once by `run`, before any command runs.
inline std::vector<std::string>& invocation() {
  static std::vector<std::string> words;
  return words;
}

/// A result document that tells a failure (`--json`): the document, and `error` of the one
/// shape (formats/json.hpp), so every failure carries {code, message, subject}.
template <class Json>
Json with_error(Json doc, const clawport::error& e) {
  doc["error"] = clawport::json::error_document(e)["error"];
  return doc;
}

/// A command run without --config whose config is missing: there is no install at the
/// default place, so the fix is the option (new-user walk 2); nullopt for any other error.
inline std::optional<clawport::error> default_config_missing(const clawport::error& e) {
  if (e.code() != errc::not_found || paths::file_name(e.subject()) != zeroclaw::install_config_name)
    return std::nullopt;
  for (const std::string& w : invocation())
    if (w == "--config" || w.rfind("--config=", 0) == 0) return std::nullopt;
  return clawport::error(errc::not_found,
                         "no config given and none at the default " + e.subject() +
                             ": pass --config <path> (the install's config.toml), or create "
                             "the install there (a config.toml holding `schema_version = 3`)",
                         e.subject());
}

/// Runs the command whose action was selected during parsing; maps library errors to exit
/// 1 (or 128+signal for an interrupted command) with the message (and the path or field).
inline int run_action(const action& act) {
  try {
    return act.run();
  } catch (const usage_failure& e) {
    out::error(e, act.json && e.document.empty());
    if (act.json && !e.document.empty()) out::rendered(e.document);
    out::line("Run with --help for more information.", out::to::err);
    return exit_usage;
  } catch (const clawport::error& e) {
    out::error(default_config_missing(e).value_or(e), act.json);
    if (e.code() == errc::cancelled && interrupt_signal() != 0) return 128 + interrupt_signal();
    // invalid_argument is bad usage wherever the library finds it (docs/cli.md): exit 2
    if (e.code() == errc::invalid_argument) {
      out::line("Run with --help for more information.", out::to::err);
      return exit_usage;
    }
    return exit_failed;
  } catch (const std::exception& e) {
    out::error(clawport::error(errc::io, e.what()), act.json);
    return exit_failed;
  }
}

/// Parses `argv`; usage errors print a hint and give exit 2, `--help`/`--version` exit 0.
template <class Register>
int run(int argc, const char* const* argv, Register&& register_commands) {
  CLI::App app{"clawport: make AI agents portable between installs", "clawport"};
  app.set_version_flag("-V,--version", "clawport " + std::string(clawport::version_string));
  app.require_subcommand(1);
  app.fallthrough(false);
  action selected;
  register_commands(app, selected);
  if (argc <= 1) {  // bare `clawport`: what it can do
    out::rendered(app.help());
    return exit_ok;
  }
  invocation().assign(argv, argv + argc);
  invocation().front() = "clawport";
  const bool json = wants_json(argc, argv);
  if (std::string(argv[1]) == "help") return help_command(app, argc, argv, json);
  if (const auto unknown = unknown_subcommand(app, argc, argv)) return usage_error(*unknown, json);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0)
      return app.exit(e, out::stream(out::to::out), out::stream(out::to::err)) == 0 ? exit_ok
                                                                                    : exit_usage;
    // `secrets set PATH VALUE`: refused without repeating the words (CLI11's message would
    // print the secret); they are in the shell's history already.
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && argc > 2 &&
        std::string(argv[1]) == "secrets" && std::string(argv[2]) == "set")
      return usage_error(
          "a secret value is never taken as an argument (it would stay in your shell history "
          "and in ps): pipe it on stdin or type it at the prompt",
          json);
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr)
      if (const auto m = unknown_option_message(app, argc, argv)) return usage_error(*m, json);
    if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr &&
        group_without_subcommand(app, json))
      return exit_usage;
    return usage_error(e.what(), json);
  }
  if (!selected) {
    out::rendered(app.help(), out::to::err);
    return exit_usage;
  }
  return run_action(selected);
}

}  // namespace clawport::cli
