// SPDX-License-Identifier: MIT
// <clawport/formats.hpp> alone: the TOML adaptor, JSON (both writers), JSON5, YAML, regex.
#include <clawport/formats.hpp>

int header_formats() {
  const auto y = clawport::yaml::parse("b: 1\na: [x]\n");
  if (!y.ok() || clawport::json::stable_stringify(y.value) != R"({"a":["x"],"b":1})") return 1;
  if (clawport::yaml::to_yaml(y.value) != "b: 1\na:\n  - x\n") return 1;
  const auto j = clawport::json5::parse("{b: 1, a: ['x'],}");
  if (!j.ok() || clawport::json::dump(j.data, -1) != R"({"b":1,"a":["x"]})") return 1;
  const auto m = clawport::regex::matches("^a+b$", "aaab");
  if (!m || !*m) return 1;
  try {
    (void)clawport::toml_adaptor::parse("a = ", "x.toml");
  } catch (const clawport::error& e) {
    return e.code() == clawport::errc::config_parse && e.subject() == "x.toml" ? 0 : 1;
  }
  return 1;
}
