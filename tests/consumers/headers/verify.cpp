// SPDX-License-Identifier: MIT
// <clawport/verify.hpp> alone (with the production backend): verifying a bundle that does
// not exist is refused, not reported.
#include <clawport/fs.hpp>
#include <clawport/verify.hpp>

int header_verify() {
  clawport::fs::posix disk;
  try {
    (void)clawport::verify::verify_bundle(disk, "/nonexistent/clawport/bundle");
  } catch (const clawport::error& e) {
    return e.code() == clawport::errc::not_found ? 0 : 1;
  }
  return 1;
}
