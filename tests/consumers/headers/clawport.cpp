// SPDX-License-Identifier: MIT
// <clawport/clawport.hpp> alone: the umbrella (and it does not hold the test backends).
#include <clawport/clawport.hpp>

int header_clawport() {
  clawport::fs::posix disk;
  clawport::exporter exporter(disk);
  clawport::export_options o;
  o.alias = "a";
  o.config_path = "/nonexistent/clawport/config.toml";
  o.out = "b";
  o.out_path = "/nonexistent/clawport/b";
  try {
    (void)exporter.run(o);
  } catch (const clawport::error&) {
    return 0;
  }
  return 1;
}
