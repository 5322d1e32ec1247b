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
#include "instantiations.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

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
