// SPDX-License-Identifier: MIT
// expect: Fs policy: missing `optional<string> canonical(string_view abs)`
// errors: 1
// A decorator that forwards everything but `canonical` (which the exporter needs).
#include <clawport/fs.hpp>

template <class B>
struct no_canonical : B {
  std::optional<std::string> canonical(std::string_view) = delete;
};

static_assert(clawport::fs::check_policy<no_canonical<clawport::fs::posix>>());
