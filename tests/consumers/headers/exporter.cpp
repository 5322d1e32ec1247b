// SPDX-License-Identifier: MIT
// <clawport/exporter.hpp> alone: one basic_exporter<>::run call (it refuses a config that
// does not exist) and the report of an empty result.
#include <clawport/exporter.hpp>

#include <string>

int header_exporter() {
  clawport::fs::posix disk;
  clawport::basic_exporter<> exporter(disk);
  clawport::export_options o;
  o.alias = "researcher";
  o.config_path = "/nonexistent/clawport/config.toml";
  o.out = "bundle";
  o.out_path = "/nonexistent/clawport/bundle";
  try {
    (void)exporter.run(o);
  } catch (const clawport::error& e) {
    (void)clawport::render_report(clawport::export_result{});
    return std::string(e.what()).empty() ? 1 : 0;
  }
  return 1;
}
