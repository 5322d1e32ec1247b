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
#include "output.hpp"

#include <sys/stat.h>

namespace clawport::cli {

/// The process umask, for the commands that copy files in (`import`, `skills install`:
/// fs::copied_mode). umask(2) can only be read by setting it, so it is put straight back;
/// a command calls this once, before it starts any thread.
inline std::uint32_t process_umask() {
  const ::mode_t mask = ::umask(0);
  ::umask(mask);
  return static_cast<std::uint32_t>(mask);
}

/// `--jobs N` of the commands that read and copy many files (`export`, `verify`, `import`,
/// `convert`):
/// threads that open, read, hash and write them; the output is the same for every N.
/// Defaults to the CPUs the process may use, at most 8 (fs::default_jobs).
/// `work` says what the threads do (`verify` copies nothing).
inline CLI::Option* add_jobs_option(CLI::App* cmd, unsigned& jobs,
                                    const char* work = "read, hash and copy files") {
  jobs = clawport::fs::default_jobs();
  return cmd
      ->add_option("--jobs", jobs,
                   std::string("threads that ") + work +
                       " (default: the CPUs this process may use, at most 8); the output is "
                       "the same for every value")
      ->check(CLI::Range(1u, 256u));
}

/// Exit statuses of the contract in docs/cli.md (130/143: interrupted by SIGINT/SIGTERM).
enum exit_status : int { exit_ok = 0, exit_failed = 1, exit_usage = 2 };

/// The command selected while parsing: what to run, and whether it was asked for `--json`
/// (then every failure is one JSON error document on stdout).
struct action {
  std::function<int()> run;
  bool json = false;
  explicit operator bool() const noexcept { return static_cast<bool>(run); }
};

/// A CLI11 check that refuses an empty value (an unset shell variable): bad usage, exit 2,
/// rather than the current directory.
inline CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& value) {
        return value.empty() ? std::string("must not be empty (an unset shell variable?)")
                             : std::string();
      },
      "NONEMPTY", "NONEMPTY");
}

/// `--config F` of every ZeroClaw command, defined once (issue 41 item 17): an empty value
/// is bad usage, never the default config (`skills bundle add` would rewrite it).
inline CLI::Option* add_config_option(CLI::App* cmd, std::string& config,
                                      const char* what = "the install's config.toml") {
  return cmd
      ->add_option("--config", config,
                   std::string(what) +
                       " (default: $ZEROCLAW_CONFIG_DIR/config.toml, else ~/.zeroclaw/config.toml)")
      ->check(non_empty());
}

/// `--state-dir D` of every OpenClaw command, defined once: an empty value is bad usage,
/// never the default state directory.
inline CLI::Option* add_state_dir_option(CLI::App* cmd, std::string& state_dir) {
  return cmd
      ->add_option("--state-dir", state_dir,
                   "the OpenClaw state directory (default: $OPENCLAW_STATE_DIR, else ~/.openclaw)")
      ->check(non_empty());
}

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
    out::error(e, act.json);
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

/// `--json` anywhere among the arguments (before `--`): usage errors are JSON documents too.
inline bool wants_json(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") return false;
    if (a == "--json") return true;
  }
  return false;
}

/// The first word that should name a subcommand and names none (`clawport bogus`,
/// `clawport skills bogus`), with the command it was given to; nullopt when all is well.
inline std::optional<std::pair<std::string, std::string>> unknown_subcommand(
    const CLI::App& root, int argc, const char* const* argv) {
  const CLI::App* cur = &root;
  std::string path = root.get_name();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") return std::nullopt;
    if (!a.empty() && a.front() == '-') continue;
    const auto subs = cur->get_subcommands([](const CLI::App*) { return true; });
    if (subs.empty()) return std::nullopt;  // a leaf command: positionals are its own
    const CLI::App* next = nullptr;
    for (const CLI::App* s : subs) {
      if (s->check_name(a)) next = s;
    }
    if (next == nullptr) return std::make_pair(a, path);
    cur = next;
    path += " " + next->get_name();
  }
  return std::nullopt;
}

/// Prints a usage error (exit 2), as a JSON document too when `--json` was given.
inline int usage_error(const std::string& message, bool json) {
  out::error(error(errc::invalid_argument, message), json);
  out::line("Run with --help for more information.", out::to::err);
  return exit_usage;
}

/// `clawport help [command...]`: the help of the command named (the root's without one),
/// as `<command> --help` prints it; an unknown command is bad usage.
inline int help_command(const CLI::App& app, int argc, const char* const* argv, bool json) {
  const CLI::App* cur = &app;
  std::string path = app.get_name();
  std::string parents;  // what CLI11's own --help passes: the names above the command
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (!a.empty() && a.front() == '-') continue;
    const CLI::App* next = nullptr;
    for (const CLI::App* s : cur->get_subcommands([](const CLI::App*) { return true; }))
      if (s->check_name(a)) next = s;
    if (next == nullptr)
      return usage_error(
          "unknown command '" + a + "' for `" + path + "` (see `" + path + " --help`)", json);
    cur = next;
    parents = path;
    path += " " + next->get_name();
  }
  out::rendered(cur->help(parents));
  return exit_ok;
}

/// A command group given without its subcommand (`clawport skills`, `clawport skills
/// bundle`): its help on stderr, which lists the subcommands, and bad usage. False when the
/// parse stopped elsewhere (a leaf's required option).
inline bool group_without_subcommand(CLI::App& app, bool json) {
  CLI::App* cur = &app;
  std::string parents;
  while (!cur->get_subcommands().empty()) {
    parents += (parents.empty() ? "" : " ") + cur->get_name();
    cur = cur->get_subcommands().front();
  }
  if (cur == &app || cur->get_subcommands([](const CLI::App*) { return true; }).empty())
    return false;
  const std::string path = parents + " " + cur->get_name();
  out::rendered(cur->help(parents), out::to::err);
  out::error(
      error(errc::invalid_argument, "`" + path + "` needs a subcommand, one of those listed above"),
      json);
  return true;
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
  if (const auto unknown = unknown_subcommand(app, argc, argv)) {
    return usage_error("unknown command '" + unknown->first + "' for `" + unknown->second +
                           "` (see `" + unknown->second + " --help`)",
                       json);
  }
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
