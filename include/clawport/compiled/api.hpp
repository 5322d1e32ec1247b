// SPDX-License-Identifier: MIT
// The compiled mode (docs/library.md, "Compiled mode"): the export and the verify with the
// default policies, declared without toml++, nlohmann/json or any template of the library.
// One TU of the program includes <clawport/compiled/implementation.hpp>, which defines
// them (or the program links the clawport::compiled CMake target); every other TU includes
// only this header and compiles in a fraction of the header-only cost (docs/benchmarks.md,
// "Compile cost"). Header-only stays the default: nothing here is needed to use the library.
#pragma once

#include "../exporter/options.hpp"
#include "../exporter/result.hpp"
#include "../verify/report.hpp"

#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace compiled {

/// `exporter(disk).run(o)` with `fs::posix` and the default policies (basic_exporter<>).
/// Throws clawport::error exactly as the header-only exporter does.
export_result run_export(const export_options& o);
/// The export's report and JSON document, as `render_report(r)` and `json::dump(to_json(r),
/// indent)`.
std::string render_report(const export_result& r);
std::string to_json(const export_result& r, int indent = 2);

/// `verify::verify_bundle(disk, bundle_path, lim)` with `fs::posix` and the v3 schema.
verify::report verify_bundle(const std::string& bundle_path, const verify::limits& lim = {});
/// The verify's report and JSON document, as `verify::render_report` and `verify::to_json`.
std::string render_report(const verify::report& r);
std::string to_json(const verify::report& r, int indent = 2);

}  // namespace compiled
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
