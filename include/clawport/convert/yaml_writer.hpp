// SPDX-License-Identifier: MIT
// The block-style YAML writer of the Claw manifest and profile lives in openclaw/ (`claw
// export` writes packages too); conversions use that one.
#pragma once

#include "../core/config.hpp"
#include "../openclaw/yaml_writer.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace convert {

using openclaw::to_yaml;

}  // namespace convert
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
