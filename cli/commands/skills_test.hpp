// SPDX-License-Identifier: MIT
// `clawport skills test [name|path] [--bundle B] [--verbose] [--yes] [--timeout S] [--json]`:
// runs skills' TEST.sh through the library (`skills::test_skills`), asking on a terminal
// before testing a skill whose audit fails; prints what the library renders.
#pragma once

#include <unistd.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "../app.hpp"
#include "../input.hpp"
#include "skills_common.hpp"

namespace clawport::cli {

namespace skills_life {

// ---- test -----------------------------------------------------------------------------

struct test_options : common_options {
  std::string name;
  std::string bundle;
  bool verbose = false;
  bool yes = false;
  unsigned timeout = 60;
};

/// On a terminal, asks before running the tests of a skill whose audit fails.
inline bool confirm_unaudited(const sk::test_target& t, const std::string& why, bool yes) {
  warn("skill '" + t.name + "' fails the static audit (" + why +
       "); its TEST.sh runs shell commands with your permissions and no sandbox");
  if (yes || !stdin_is_terminal() || !::isatty(2)) return true;
  out::prompt("Run the tests of '" + t.name + "' anyway? [y/N] ");
  const std::optional<std::string> answer = read_input_line("the answer");
  if (!answer) return false;
  return *answer == "y" || *answer == "Y" || *answer == "yes";
}

/// The --verbose report of each command.
inline void print_case(const sk::test_case& c, const sk::command_outcome& r) {
  text::terminal_lines line;
  line("    running: " + c.command);
  if (!r.output.empty()) line("    output: " + std::string(text::trim(r.output)));
  line("    exit: " + std::to_string(r.exit) + (r.timed_out ? " (timed out)" : ""));
  out::lines(line);
}

inline int run_test(const test_options& o, const host_environment& host) {
  clawport::fs::posix fs;
  const sk::test_selection sel = [&] {
    try {
      return sk::select_tests(fs, host, o.config, o.name, o.bundle);
    } catch (const error& e) {  // a name `skills list` shows is its manifest's: say which dir
      if (e.code() != errc::not_found || o.name.empty() || sk::names_a_path(o.name)) throw;
      const sk::install_context l = sk::load_install(fs, host, o.config);
      throw sk::with_directory_hint(fs, l.cfg, l.where, o.name, e);
    }
  }();
  const sk::posix_runner runner(host.child_env);
  sk::test_options topt;
  topt.timeout = std::chrono::seconds(o.timeout);
  const bool verbose = o.verbose && !o.json;
  if (verbose) topt.on_case = print_case;
  const bool yes = o.yes || o.json;
  const sk::test_run run = sk::test_skills(
      fs, runner, sel, topt,
      [yes](const sk::test_target& t, const std::string& why) {
        return confirm_unaudited(t, why, yes);
      },
      [verbose](const sk::test_target& t) {
        if (verbose) out::line("  Testing skill: " + t.name + " (" + t.directory + ")");
      });
  if (run.results.empty() && !run.skipped.empty()) {  // declined: not done, so not 0
    std::string names;
    for (const std::string& n : run.skipped) names += (names.empty() ? "" : ", ") + n;
    out::error(
        error(errc::consent_required,
              "declined: no test ran (" + names + " not tested; --yes tests it anyway)", o.name),
        false);
    return exit_failed;
  }
  const error failure = sk::test_failure_error(o.name);
  if (o.json) {
    const auto doc = sk::to_json(run.results, run.skipped);
    out::document(clawport::json::dump(run.failed() ? with_error(doc, failure) : doc));
  } else {
    out::rendered(sk::render_test_run(run, o.name, text::marks_for(host.plain_text)));
  }
  if (!run.failed()) return exit_ok;
  out::error(failure, false);  // the line on stderr; the document carries it with --json
  return exit_failed;
}

}  // namespace skills_life

/// Registers `skills test` under `skills`.
inline void add_skills_test_command(CLI::App& skills, action& selected,
                                    const host_environment& host) {
  namespace sl = skills_life;
  auto to = std::make_shared<sl::test_options>();
  CLI::App* ts = skills.add_subcommand(
      "test", "Run skills' TEST.sh checks (each line: command | exit code | output pattern)");
  ts->add_option("name", to->name, "a skill name, or a path to a skill directory (default: all)");
  ts->add_option("--bundle", to->bundle, "only skills of this bundle");
  ts->add_flag("--verbose", to->verbose, "show each command, its output and exit status");
  ts->add_flag("--yes", to->yes, "do not ask before testing a skill whose audit fails");
  ts->add_option("--timeout", to->timeout, "seconds each command may run (default 60)")
      ->check(CLI::Range(1u, 86400u));
  sl::add_config_option(ts, *to);
  ts->callback([to, &selected, &host] {
    selected = action{[to, &host] { return sl::run_test(*to, host); }, to->json};
  });
}

}  // namespace clawport::cli
