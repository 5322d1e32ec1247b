// SPDX-License-Identifier: MIT
// clawport_toml_parse <file>: parses the file with toml++ and prints its number of top-level
// keys; the baseline of bench/run.sh (e) (planning one agent reads the same file).
#include <toml++/toml.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  try {
    const toml::table t = toml::parse_file(argv[1]);
    std::cout << t.size() << '\n';
  } catch (const toml::parse_error& e) {
    std::cerr << e.description() << '\n';
    return 1;
  }
  return 0;
}
