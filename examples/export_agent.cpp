// SPDX-License-Identifier: MIT
// Export one agent of a ZeroClaw install into a bundle directory, with the library.
//   export_agent /abs/path/config.toml <agent> /abs/path/bundle
// Prints the report `clawport export` prints; exit 0 exported, 1 refused, 2 bad usage.
#include <clawport/clawport.hpp>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: export_agent /abs/config.toml <agent> /abs/bundle\n";
    return 2;
  }
  clawport::fs::posix disk;           // the Fs policy: the real filesystem
  clawport::exporter exporter(disk);  // basic_exporter<> with the default policies
  clawport::export_options o;
  o.config_path = argv[1];  // the install root is the directory holding it
  o.alias = argv[2];
  o.out = argv[3];  // as shown in messages and the report
  o.out_path = argv[3];
  try {
    const clawport::export_result r = exporter.run(o);
    std::cout << clawport::render_report(r);
    return 0;
  } catch (const clawport::error& e) {
    // One error type: a stable code, an actionable message, the path or field concerned.
    std::cerr << "refused (" << clawport::to_string(e.code()) << "): " << e.what() << "\n";
    return 1;
  }
}
