// SPDX-License-Identifier: MIT
// Lexical path arithmetic now lives in core/paths.hpp (clawport::paths), with the one `..`
// semantics of the library; `zeroclaw::paths` remains as a name for it.
#pragma once

#include "../core/paths.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

namespace paths = clawport::paths;

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
