// SPDX-License-Identifier: MIT
// The byte limits of a Claw package (docs/openclaw.md), checked before parsing and
// again while reading.
#pragma once

#include "../core/config.hpp"

#include <cstddef>
#include <cstdint>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

struct limits {
  std::uint64_t manifest = 1024 * 1024;             ///< CLAW.md or JSON: read_failed_too_large
  std::uint64_t package_json = 256 * 1024;          ///< package_read_failed_too_large
  std::uint64_t profile = 256 * 1024;               ///< openclaw_profile_too_large
  std::uint64_t workspace_source = 1024 * 1024;     ///< one source: workspace_source_too_large
  std::uint64_t workspace_total = 4 * 1024 * 1024;  ///< all sources: workspace_sources_too_large
  std::uint64_t bootstrap = 2 * 1024 * 1024;  ///< package BOOTSTRAP.md: package_bootstrap_too_large
  std::size_t yaml_depth = 64;                ///< nested YAML collections
};

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
