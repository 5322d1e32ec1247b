// SPDX-License-Identifier: MIT
// A consumer of clawport: compiles against the public header and makes a library call.
#include <clawport/clawport.hpp>

#include <iostream>

int main() {
  try {
    throw clawport::error(clawport::errc::not_found, "no such agent \"x\"", "agents.x");
  } catch (const clawport::error& e) {
    std::cout << "clawport " << clawport::version_string << ": " << clawport::to_string(e.code())
              << " at " << e.subject() << "\n";
    return e.subject() == "agents.x" ? 0 : 1;
  }
}
