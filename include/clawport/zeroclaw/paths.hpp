// SPDX-License-Identifier: MIT
// Lexical path arithmetic now lives in core/paths.hpp (clawport::paths), with the one `..`
// semantics of the library; `zeroclaw::paths` remains as a name for it.
#pragma once

#include "../core/paths.hpp"

namespace clawport::zeroclaw {

namespace paths = clawport::paths;

}  // namespace clawport::zeroclaw
