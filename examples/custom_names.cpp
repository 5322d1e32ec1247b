// SPDX-License-Identifier: MIT
// A custom Names rule: the portable grammar plus "no leading dash", lowercase only and at
// most 64 bytes, checked at compile time and used to plan an export.
//   custom_names /abs/path/config.toml <agent>
#include <clawport/clawport.hpp>

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string_view>

namespace names = clawport::names;

/// A rule: `check` returns the reason a name is refused (completing "the name …"), or nullopt.
struct no_leading_dash {
  static constexpr std::optional<std::string_view> check(std::string_view n) noexcept {
    if (!n.empty() && n.front() == '-') return std::string_view("starts with a dash");
    return std::nullopt;
  }
};

using strict = names::portable::with<names::rules::max_length<64>, names::rules::lowercase_only,
                                     no_leading_dash>;

static_assert(strict::accepts("research_tools"));
static_assert(!strict::accepts("Research"));  // lowercase_only
static_assert(!strict::accepts("-rf"));       // no_leading_dash
static_assert(!strict::accepts("CON"));       // still every portable rule
static_assert(names::is_names_policy_v<strict>);

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: custom_names /abs/config.toml <agent>\n";
    return 2;
  }
  std::cout << "-rf: the name " << *strict::unportable_reason("-rf") << "\n";
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  try {
    // The planner holds skill-bundle aliases and identity-path segments to `strict`.
    const auto plan =
        clawport::zeroclaw::plan_export<clawport::zeroclaw::schema_v3, strict>(text.str(), argv[2]);
    std::cout << plan.root_alias << ": " << plan.skill_sources.size()
              << " skill bundle(s), every name portable under the strict grammar\n";
    return 0;
  } catch (const clawport::error& e) {
    std::cerr << "refused (" << clawport::to_string(e.code()) << "): " << e.what() << "\n";
    return 1;
  }
}
