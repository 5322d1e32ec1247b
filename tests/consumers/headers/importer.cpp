// SPDX-License-Identifier: MIT
// <clawport/importer.hpp> alone (with the production backend): planning the import of a
// bundle that does not exist is refused.
#include <clawport/fs.hpp>
#include <clawport/importer.hpp>

int header_importer() {
  clawport::fs::posix disk;
  clawport::importer::import_options o;
  o.bundle = "/nonexistent/clawport/bundle";
  o.config_path = "/nonexistent/clawport/config.toml";
  try {
    (void)clawport::importer::plan_import(disk, o);
  } catch (const clawport::error&) {
    return 0;
  }
  return 1;
}
