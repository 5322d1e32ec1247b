// SPDX-License-Identifier: MIT
// Reads lines `a<US>b` (U+001F between the two strings) and prints, per line, the sign of
// clawport's locale_compare(a, b): -1, 0 or 1. Driven by collation_crosscheck.py.
// Only formats/ (a tenth of the umbrella's compile, issue 48); single_include/ (the ASan
// build) has the umbrella alone.
#if __has_include(<clawport/formats.hpp>)
#include <clawport/formats.hpp>
#else
#include <clawport/clawport.hpp>
#endif

#include <iostream>
#include <string>

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    const std::size_t us = line.find('\x1f');
    if (us == std::string::npos) return 2;
    std::cout << clawport::unicode::locale_compare(line.substr(0, us), line.substr(us + 1)) << '\n';
  }
  return 0;
}
