// SPDX-License-Identifier: MIT
// What every test file includes: doctest, the umbrella header and the opt-in test backends
// (never a deeper header, so the same tests also build against single_include/).
#pragma once

#include <doctest/doctest.h>

#include <clawport/clawport.hpp>
#include <clawport/testing.hpp>

#include <cstddef>
#include <cstdlib>
#include <string>

namespace clawport::testing {

/// Path of a file in the repository (for fixtures under examples/ or tests/).
inline std::string source_path(const std::string& relative) {
  return std::string(CLAWPORT_TEST_SOURCE_DIR) + "/" + relative;
}

/// The fault and crash sweeps test every point of their one-thread runs; of their runs on
/// several threads (`jobs` > 1, issue 25) every point too, or every k-th point when the
/// environment says CLAWPORT_SWEEP_STRIDE=k. .ci/run sets it for the sanitizer suite only
/// (those runs were a fifth of its unit tests' time); the release suite sweeps every point.
inline std::size_t jobs_sweep_stride() {
  static const std::size_t stride = [] {
    const char* v = std::getenv("CLAWPORT_SWEEP_STRIDE");
    const long k = v != nullptr ? std::strtol(v, nullptr, 10) : 1;
    return k > 1 ? static_cast<std::size_t>(k) : std::size_t{1};
  }();
  return stride;
}

/// Whether this run tests point `n` of a sweep on `jobs` threads (see jobs_sweep_stride).
inline bool swept(std::size_t n, unsigned jobs) {
  return jobs <= 1 || n % jobs_sweep_stride() == 0;
}

}  // namespace clawport::testing
