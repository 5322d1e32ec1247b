// SPDX-License-Identifier: MIT
// `skills test` (docs/cli.md, `skills test`): finding the skills that carry a TEST.sh and
// running each of their tests. TEST.sh is read through the Fs policy (never through a
// symlink); every command goes to the Runner policy of skills/process.hpp, one `sh -c`
// per line, in the skill's directory, with a timeout and only the runner's environment.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../core/error.hpp"
#include "../fs/policy.hpp"
#include "../fs/read_file.hpp"
#include "audit.hpp"
#include "loader.hpp"
#include "locations.hpp"
#include "test_script.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// TEST.sh files larger than this are refused (a test script is a short list of lines).
inline constexpr std::uint64_t test_file_max_bytes = 1024 * 1024;

/// How `test_skill` runs.
struct test_options {
  std::chrono::milliseconds timeout{60000};  ///< per command
  /// Called after each command (for `--verbose`); may be empty.
  std::function<void(const test_case&, const command_outcome&)> on_case;
};

/// One skill to test: where it is and what to call it.
struct test_target {
  std::string name;       ///< the directory name, as upstream reports it
  std::string directory;  ///< absolute
  std::string bundle;     ///< the bundle it lives in; empty for global or a path
};

namespace detail {

/// TEST.sh of the skill at `dir`, or nullopt when the skill has none (a symlink or a
/// non-regular TEST.sh counts as none: it is never followed).
template <class Fs>
std::optional<std::string> read_test_file(Fs& fs, const std::string& dir) {
  auto root = fs.open_root(paths::normalize(dir));
  const std::string shown = paths::join(dir, test_file_name);
  fs::read_result r = fs::try_read_file_at(fs, root, test_file_name, test_file_max_bytes,
                                           fs::read_kinds::hard_linked);
  if (r.refusal == fs::read_refusal::missing || r.refusal == fs::read_refusal::symlink ||
      r.refusal == fs::read_refusal::not_regular)
    return std::nullopt;
  if (r.refusal != fs::read_refusal::none)
    throw fs::read_refusal_error(r.refusal, shown, test_file_max_bytes);
  std::string text = std::move(r.bytes);
  if (!utf8::valid(text)) {
    throw error(errc::skill_invalid, "failed to read " + shown + ": it is not valid UTF-8", shown);
  }
  return text;
}

}  // namespace detail

/// Runs the tests of one skill (upstream `test_skill`): no TEST.sh gives 0 run; each line
/// that parses is one `sh -c <command>` in `dir`; a run passes when its exit status and
/// output pattern both match.
template <class Fs, class Runner>
skill_test_result test_skill(Fs& fs, const Runner& runner, const std::string& dir,
                             const std::string& name, const test_options& opt = {}) {
  static_assert(fs::check_policy<Fs>());
  skill_test_result result;
  result.skill_name = name;
  result.directory = dir;
  const std::optional<std::string> text = detail::read_test_file(fs, dir);
  if (!text) return result;
  result.has_test_file = true;
  const std::vector<test_case> cases = parse_test_script(*text);
  result.tests_run = cases.size();
  for (const test_case& c : cases) {
    const command_outcome o = runner.run({"/bin/sh", "-c", c.command}, dir, opt.timeout);
    if (opt.on_case) opt.on_case(c, o);
    if (auto f = judge(c, o)) {
      result.failures.push_back(std::move(*f));
    } else {
      ++result.tests_passed;
    }
  }
  return result;
}

/// The sub-directories of `dir` that carry a regular TEST.sh, in byte order (upstream
/// `test_all_skills` for one directory, minus its unspecified order). Missing `dir`: none.
template <class Fs>
std::vector<test_target> skills_with_tests(Fs& fs, const std::string& dir,
                                           const std::string& bundle = {}) {
  std::vector<test_target> out;
  std::optional<typename Fs::dir> root;
  try {
    root.emplace(fs.open_root(paths::normalize(dir)));
  } catch (const error&) {
    return out;
  }
  std::vector<std::string> names;
  fs.for_each_entry(*root, [&](std::string_view n) { names.emplace_back(n); });
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) {
    const auto st = fs.stat_at(*root, n);
    if (!st || st->kind != fs::file_kind::directory) continue;
    auto sub = fs.open_dir_at(*root, n);
    const auto t = fs.stat_at(sub, test_file_name);
    if (!t || t->kind != fs::file_kind::regular) continue;
    out.push_back({n, paths::join(dir, n), bundle});
  }
  return out;
}

/// The skills `skills test [<name>] [--bundle B]` runs. Without a name: every skill with a
/// TEST.sh in each configured bundle (alias order; only `bundle` when given) and in the
/// global directory. With a name: the skill directory of that name in those places;
/// none is `errc::not_found` ("Skill not found"), several `errc::invalid_argument`.
template <class Fs>
std::vector<test_target> test_targets(Fs& fs, const skills_config& cfg, const install_paths& where,
                                      const std::string& name, const std::string& bundle) {
  std::vector<std::pair<std::string, std::string>> places;  // (bundle, dir)
  if (!bundle.empty()) {
    places.emplace_back(bundle, resolve_directory(cfg, where.install_root, bundle));
  } else {
    for (const auto& b : cfg.bundles) {
      places.emplace_back(b.first, resolve_directory(cfg, where.install_root, b.first));
    }
    places.emplace_back(std::string(), global_skills_dir(where.data()));
  }
  std::vector<test_target> out;
  if (name.empty()) {
    for (const auto& p : places) {
      for (test_target& t : skills_with_tests(fs, p.second, p.first)) out.push_back(std::move(t));
    }
    return out;
  }
  check_skill_dir_name(name,
                       "(give a skill directory's name, or a path to test a directory outside "
                       "the install)");
  const auto holds = [&](std::size_t i) {
    try {
      auto root = fs.open_root(paths::normalize(places[i].second));
      const auto st = fs.stat_at(root, name);
      return st && st->kind == fs::file_kind::directory;
    } catch (const error&) {
      return false;
    }
  };
  const std::size_t i = find_one_skill(
      name, places.size(), holds, [&](std::size_t k) { return places[k].first; },
      bundle.empty() ? std::string("looked in every configured bundle and the global skills "
                                   "directory")
                     : "in skill bundle '" + bundle + "'");
  out.push_back({name, paths::join(places[i].second, name), places[i].first});
  return out;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
