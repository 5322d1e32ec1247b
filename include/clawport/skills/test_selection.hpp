// SPDX-License-Identifier: MIT
// What `skills test [name]` tests, and the audit it checks first: a path names one skill
// directory, a name or nothing is looked up in the install; a skill whose static audit
// fails is only tested when the operator agrees (the CLI asks).
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/host.hpp"
#include "../core/paths.hpp"
#include "../core/text.hpp"
#include "audit.hpp"
#include "install_context.hpp"
#include "test_runner.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// Whether a `skills test` argument is a path (holds a `/` or starts with `.`), not a name.
inline bool names_a_path(const std::string& s) {
  return s.find('/') != std::string::npos || (!s.empty() && s.front() == '.');
}

/// The skills to test and the audit option to check them with.
struct test_selection {
  std::vector<test_target> targets;
  bool allow_scripts = false;
};

/// A path is tested as it is (the config, read only when `--config` is given, sets
/// allow_scripts); a name or nothing is looked up in the install (test_targets).
template <class Fs>
test_selection select_tests(Fs& fs, const host_environment& host, const std::string& config_option,
                            const std::string& name, const std::string& bundle) {
  test_selection s;
  if (!name.empty() && names_a_path(name)) {
    const std::string abs = paths::normalize(host.absolute(name));
    s.targets.push_back({paths::file_name(abs), abs, {}});
    if (!config_option.empty()) {
      s.allow_scripts = load_install(fs, host, config_option).cfg.allow_scripts;
    }
  } else {
    const install_context inst = load_install(fs, host, config_option);
    s.allow_scripts = inst.cfg.allow_scripts;
    s.targets = test_targets(fs, inst.cfg, inst.where, name, bundle);
  }
  return s;
}

/// Why a skill's tests should not run unasked: the summary of its failing static audit, or
/// why the audit could not run; empty when the skill is clean.
template <class Fs>
std::string audit_before_test(Fs& fs, const std::string& directory, bool allow_scripts) {
  try {
    const audit_report a = audit_skill_directory(fs, directory, audit_options{allow_scripts});
    return a.clean() ? std::string() : a.summary();
  } catch (const error& e) {
    return e.what();
  }
}

/// What `skills test` ran: each tested skill's result, and the skills not tested because
/// their audit failed and the caller did not confirm them.
struct test_run {
  std::vector<skill_test_result> results;
  std::vector<std::string> skipped;
  bool failed() const { return aggregate(results).failed() > 0; }
};

/// Asked before testing a skill whose audit fails (`why`); true to test it anyway.
using confirm_test = std::function<bool(const test_target&, const std::string& why)>;

/// Runs the TEST.sh of every skill of `sel` (`test_skill`), in order. A skill whose static
/// audit fails is tested only when `confirm` says so (its TEST.sh runs shell commands with
/// the user's permissions); `on_skill`, when given, is called before each skill is tested.
template <class Fs, class Runner>
test_run test_skills(Fs& fs, const Runner& runner, const test_selection& sel,
                     const test_options& opt, const confirm_test& confirm,
                     const std::function<void(const test_target&)>& on_skill = {}) {
  test_run run;
  for (const test_target& t : sel.targets) {
    const std::string why = audit_before_test(fs, t.directory, sel.allow_scripts);
    if (!why.empty() && !confirm(t, why)) {
      run.skipped.push_back(t.name);
      continue;
    }
    if (on_skill) on_skill(t);
    run.results.push_back(test_skill(fs, runner, t.directory, t.name, opt));
    run.results.back().bundle = t.bundle;
  }
  return run;
}

/// The human report of `run`: the summary (`render_test_results`), or, when the one skill
/// `name` asked for has no TEST.sh, that line alone.
inline std::string render_test_run(const test_run& run, const std::string& name,
                                   const text::marks& m = {}) {
  if (!name.empty() && run.results.size() == 1 && !run.results.front().has_test_file) {
    text::terminal_lines line;
    line("  - No " + std::string(test_file_name) + " found for skill '" + name + "'.");
    return std::move(line.text);
  }
  return render_test_results(run.results, m);
}

/// The error of a run with a failed test (errc::skill_test_failed; `name` the skill asked
/// for, if one): the `--json` document's `error` and the line on stderr.
inline error test_failure_error(const std::string& name) {
  return error(errc::skill_test_failed, "some skill tests failed", name);
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
