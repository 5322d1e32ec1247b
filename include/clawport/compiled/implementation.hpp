// SPDX-License-Identifier: MIT
// The definitions of the compiled mode's entry points (compiled/api.hpp). Include this
// header in exactly ONE translation unit of a program (a second one is a duplicate-symbol
// link error, by design); the clawport::compiled CMake target is such a TU (src/compiled.cpp).
// The TU is built with the same configuration macros as its callers: the ABI namespace of
// core/config.hpp is keyed on them, so a mismatch fails to link instead of mixing limits.
#pragma once

#include "../exporter.hpp"
#include "../fs/posix.hpp"
#include "../verify.hpp"
#include "api.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

// The one definition of each instantiation extern_templates.hpp declares.
template class basic_exporter<>;
namespace zeroclaw {
template export_plan plan_export<schema_v3, names::portable>(std::string_view, std::string_view,
                                                             const plan_options&);
template std::string render_config_toml<schema_v3>(const export_plan&);
template std::set<std::string> read_secret_ledger<fs::posix>(fs::posix&, const std::string&,
                                                             const std::string&);
}  // namespace zeroclaw
namespace verify {
template report verify_bundle<fs::posix, zeroclaw::schema_v3>(fs::posix&, const std::string&,
                                                              const limits&);
}  // namespace verify

namespace compiled {

export_result run_export(const export_options& o) {
  fs::posix disk;
  basic_exporter<> exporter(disk);
  return exporter.run(o);
}

std::string render_report(const export_result& r) { return ::clawport::render_report(r); }

std::string to_json(const export_result& r, int indent) {
  return ::clawport::json::dump(::clawport::to_json(r), indent);
}

verify::report verify_bundle(const std::string& bundle_path, const verify::limits& lim) {
  fs::posix disk;
  return verify::verify_bundle(disk, bundle_path, lim);
}

std::string render_report(const verify::report& r) { return verify::render_report(r); }

std::string to_json(const verify::report& r, int indent) {
  return json::dump(verify::to_json(r), indent);
}

}  // namespace compiled
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
