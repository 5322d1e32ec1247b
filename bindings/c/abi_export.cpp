// SPDX-License-Identifier: MIT
// `export` and `recover` (clawport_v1_export, clawport_v1_recover).
#include "abi.hpp"

#include <clawport/compiled/extern_templates.hpp>
#include <clawport/exporter.hpp>
#include <clawport/signing.hpp>

namespace {

using namespace clawport_c;  // NOLINT: the part's own helpers and the shared ones

template <class Publish>
cp::export_result run_exporter(cp::fs::posix& backend, const cp::export_options& o) {
  cp::basic_exporter<cp::fs::posix, cp::zeroclaw::schema_v3, Publish> exporter(backend);
  return exporter.run(o);
}

std::string do_export(const options& a, const volatile int* cancel) {
  cp::export_options o;
  o.alias = a.text("alias", true);
  o.out = a.text("out", true);
  const cp::host_environment h = host();
  o.out_path = h.absolute(o.out);
  o.config_path = config_of(h, a);
  if (const auto home = h.absolute_home()) o.home = *home;
  o.force = a.flag("force");
  o.sync = !a.flag("no-sync");
  o.exported_at = h.now();
  o.cancelled = [cancel] { return flag_set(cancel); };
  o.jobs = a.jobs();
  if (const std::string key = a.text("sign"); !key.empty()) o.sign = cp::ssh_bundle_signer(h, key);
  const std::string publish = a.choice("publish", {"exchange", "swap"}, "exchange");
  cp::fs::posix backend;
  cp::export_result r;
  if (a.flag("dry-run")) {
    r = run_exporter<cp::publish::none>(backend, o);
  } else if (publish == "swap") {
    r = run_exporter<cp::publish::staged_swap>(backend, o);
  } else {
    r = run_exporter<cp::publish::exchange>(backend, o);
  }
  return cp::render_json(r);
}

std::string do_recover(const options& a, const volatile int* cancel) {
  const std::string dir = a.text("dir", true);
  std::string abs = host().absolute(dir);
  while (abs.size() > 1 && abs.back() == '/') abs.pop_back();
  poll(cancel, "recovering");
  cp::fs::posix backend;
  const cp::recover_report report = cp::recover_path(backend, abs, dir);
  if (!report.failed.empty() && !report.restored) throw cp::recover_failure(report, dir);
  return cp::json::dump(cp::to_json(report));
}

}  // namespace

extern "C" {

clawport_status clawport_v1_export(const char* o, const volatile int* cancel, char** result,
                                   clawport_error** err) {
  return entry(o,
               {"alias", "out", "config", "force", "publish", "dry-run", "no-sync", "sign", "jobs"},
               cancel, result, err, do_export);
}
clawport_status clawport_v1_recover(const char* o, const volatile int* cancel, char** result,
                                    clawport_error** err) {
  return entry(o, {"dir"}, cancel, result, err, do_recover);
}

}  // extern "C"
