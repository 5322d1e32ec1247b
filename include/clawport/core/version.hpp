// SPDX-License-Identifier: MIT
// Library version, kept in one place; tools/amalgamate.py and the build files read it.
#pragma once

#include "config.hpp"

#define CLAWPORT_VERSION_MAJOR 0
#define CLAWPORT_VERSION_MINOR 1
#define CLAWPORT_VERSION_PATCH 0

#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

/// The library version as "MAJOR.MINOR.PATCH".
inline constexpr std::string_view version_string = "0.1.0";

/// The bundle format this library writes and the only one it reads.
inline constexpr int bundle_format_version = 1;

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
