// SPDX-License-Identifier: MIT
// The TOML adaptor's nesting bound (formats/toml_limits.hpp, CLAWPORT_MAX_TOML_DEPTH): what
// counts as a level and what does not. The configs refused through it are
// tests/exporter/safety_test.cpp's item 14.
#include "support/test.hpp"

#include <string>

namespace {

namespace cp = clawport;

std::string deep_dotted_key(std::size_t parts) {
  std::string k = "k";
  for (std::size_t i = 1; i < parts; ++i) k += ".k";
  return k;
}

}  // namespace

TEST_CASE("item14: inline nesting and arrays count; strings, comments and floats do not") {
  std::string deep = "a = ";
  for (int i = 0; i < 200; ++i) deep += "[";
  for (int i = 0; i < 200; ++i) deep += "]";
  CHECK_THROWS_WITH_AS(cp::toml_adaptor::check_depth(deep + "\n", "c.toml"),
                       doctest::Contains("c.toml:1:"), cp::error);
  std::string inline_tables = "a = ";
  for (int i = 0; i < 130; ++i) inline_tables += "{ b = ";
  inline_tables += "1";
  for (int i = 0; i < 130; ++i) inline_tables += " }";
  CHECK_THROWS_AS(cp::toml_adaptor::check_depth(inline_tables, "c.toml"), cp::error);
  // Legitimate text well past the bound in dots and brackets, none of them levels.
  std::string floats = "x = [";
  for (int i = 0; i < 5000; ++i) floats += "1.5, ";
  floats += "2.5]\n";
  const std::string fine = floats + "\"" + deep_dotted_key(500) + "\" = \"[[[{{{" +
                           deep_dotted_key(500) + "\"\n# " + deep_dotted_key(500) + "\nm = '''\n" +
                           deep_dotted_key(500) + "\n'''\n[t.\"a.b.c\"]\n" +
                           "when = 1979-05-27T07:32:00.999\n";
  CHECK_NOTHROW(cp::toml_adaptor::check_depth(fine, "c.toml"));
  CHECK_NOTHROW(cp::toml_adaptor::parse(fine, "c.toml"));
  CHECK_NOTHROW(cp::toml_adaptor::check_depth("[a.b]\nc.d = { e = [1, { f.g = 2 }] }\n", "c"));
}
