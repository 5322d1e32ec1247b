// SPDX-License-Identifier: MIT
// `convert` (clawport_v1_convert).
#include "abi.hpp"

#include <clawport/compiled/extern_templates.hpp>
#include <clawport/convert.hpp>

namespace {

using namespace clawport_c;  // NOLINT: the part's own helpers and the shared ones

std::string do_convert(const options& a, const volatile int* cancel) {
  cp::convert::options o;
  o.source_display = a.text("source", true);
  o.out_display = a.text("out", true);
  const cp::host_environment h = host();
  o.source = h.absolute(o.source_display);
  o.out = h.absolute(o.out_display);
  const std::string to = a.text("to", true);
  if (to != "claw" && to != "zeroclaw")
    throw error(errc::invalid_argument, "option 'to' must be claw or zeroclaw", "to");
  o.to = to == "claw" ? cp::convert::direction::to_claw : cp::convert::direction::to_zeroclaw;
  o.dry_run = a.flag("dry-run");
  o.allow_narrowing = a.flag("allow-narrowing");
  o.at = h.now();
  // The library's step between the checked staging tree and the publish: a cancellation
  // there removes the staging tree.
  o.before_publish = [cancel] {
    if (flag_set(cancel))
      throw error(errc::cancelled,
                  "the conversion was cancelled before publishing; nothing was "
                  "written");
  };
  poll(cancel, "converting");
  cp::fs::posix backend;
  return cp::json::dump(cp::convert::to_json(cp::convert::run(backend, o)));
}

}  // namespace

extern "C" {

clawport_status clawport_v1_convert(const char* o, const volatile int* cancel, char** result,
                                    clawport_error** err) {
  return entry(o, {"source", "to", "out", "dry-run", "allow-narrowing"}, cancel, result, err,
               do_convert);
}

}  // extern "C"
