// SPDX-License-Identifier: MIT
// What every test file includes: doctest, the umbrella header and the opt-in test backends
// (never a deeper header, so the same tests also build against single_include/).
#pragma once

#include <doctest/doctest.h>

#include <clawport/clawport.hpp>
#include <clawport/testing.hpp>

#include <string>

namespace clawport::testing {

/// Path of a file in the repository (for fixtures under examples/ or tests/).
inline std::string source_path(const std::string& relative) {
  return std::string(CLAWPORT_TEST_SOURCE_DIR) + "/" + relative;
}

}  // namespace clawport::testing
