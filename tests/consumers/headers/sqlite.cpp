// SPDX-License-Identifier: MIT
// <clawport/sqlite.hpp> alone (link libsqlite3): a store that does not exist is refused
// with errc::io naming its path (read-only: nothing is created).
#include <clawport/sqlite.hpp>

int header_sqlite() {
  try {
    clawport::sqlite::store s("/nonexistent/clawport/brain.db");
  } catch (const clawport::error& e) {
    return e.code() == clawport::errc::io && e.subject() == "/nonexistent/clawport/brain.db" ? 0
                                                                                             : 1;
  }
  return 1;
}
