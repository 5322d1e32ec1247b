// SPDX-License-Identifier: MIT
// The default-policy instantiations the other parts declare `extern template` (abi.hpp):
// the export's three publish strategies and verify, compiled once, in parallel with them.
#include <clawport/compiled/instantiations.hpp>
