// SPDX-License-Identifier: MIT
// <clawport/openclaw.hpp> alone: diagnostics of the OpenClaw read side.
#include <clawport/openclaw.hpp>

#include <vector>

int header_openclaw() {
  namespace oc = clawport::openclaw;
  const std::vector<oc::diagnostic> ds = {
      oc::warning_at(clawport::errc::invalid_argument, oc::phase{}, "a", "a warning"),
      oc::error_at(clawport::errc::invalid_argument, oc::phase{}, "b", "an error")};
  return oc::has_errors(ds) && !oc::human_line(ds[1]).empty() ? 0 : 1;
}
