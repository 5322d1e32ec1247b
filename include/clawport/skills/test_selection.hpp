// SPDX-License-Identifier: MIT
// What `skills test [name]` tests, and the audit it checks first: a path names one skill
// directory, a name or nothing is looked up in the install; a skill whose static audit
// fails is only tested when the operator agrees (the CLI asks).
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/host.hpp"
#include "../core/paths.hpp"
#include "audit.hpp"
#include "install_context.hpp"
#include "test_runner.hpp"

#include <string>
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

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
