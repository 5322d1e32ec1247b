// SPDX-License-Identifier: MIT
// The umbrella header with TOML_EXCEPTIONS=0 (toml++ without exceptions): the one TOML
// adaptor (formats/toml.hpp) still turns a syntax error into clawport::error(config_parse)
// naming line and column, for both readers (config.toml and SKILL.toml).
#define TOML_EXCEPTIONS 0
#include <clawport/clawport.hpp>

#include <iostream>
#include <string>

namespace {

int check(bool ok, const std::string& what) {
  std::cout << (ok ? "ok: " : "FAILED: ") << what << "\n";
  return ok ? 0 : 1;
}

template <class F>
std::string parse_error_of(F&& f) {
  try {
    f();
  } catch (const clawport::error& e) {
    if (e.code() == clawport::errc::config_parse) return e.what();
    return std::string("wrong code: ") + e.what();
  }
  return "no error";
}

}  // namespace

int main() {
  int failures = 0;
  const clawport::zeroclaw::value v = clawport::zeroclaw::parse_toml("a = 1\n", "config.toml");
  failures += check(v.members.size() == 1 && v.members[0].key == "a", "parse_toml reads a table");
  const std::string e1 =
      parse_error_of([] { clawport::zeroclaw::parse_toml("a = \n", "config.toml"); });
  failures += check(e1.rfind("config.toml:1:", 0) == 0, "config.toml syntax error: " + e1);
  const std::string e2 =
      parse_error_of([] { clawport::skills::parse_skill_toml("[skill\n", "SKILL.toml"); });
  failures += check(e2.rfind("SKILL.toml:1:", 0) == 0, "SKILL.toml syntax error: " + e2);
  return failures == 0 ? 0 : 1;
}
