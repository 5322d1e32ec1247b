// SPDX-License-Identifier: MIT
// A skill bundle's include/exclude filter (upstream `SkillBundleConfig::admits_skill`).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace clawport::skills {

/// Which skills of a bundle an agent may load. Membership is exact, case-sensitive string
/// equality on the skill's declared name: no globs, no trimming. An empty `include`
/// admits every name; `exclude` always wins over `include`.
struct bundle_filter {
  std::vector<std::string> include;
  std::vector<std::string> exclude;

  bool admits_skill(std::string_view name) const {
    const auto has = [name](const std::vector<std::string>& list) {
      return std::find(list.begin(), list.end(), name) != list.end();
    };
    if (!include.empty() && !has(include)) return false;
    return !has(exclude);
  }

  /// Why `admits_skill(name)` is false: "in exclude", "not in include", or "" if admitted.
  std::string_view rejection(std::string_view name) const {
    const auto has = [name](const std::vector<std::string>& list) {
      return std::find(list.begin(), list.end(), name) != list.end();
    };
    if (has(exclude)) return "in exclude";
    if (!include.empty() && !has(include)) return "not in include";
    return "";
  }
};

}  // namespace clawport::skills
