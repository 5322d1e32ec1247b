// SPDX-License-Identifier: MIT
// Shared by the libFuzzer targets: a property failure prints what broke and aborts (libFuzzer
// then saves the input as a crash), and the input splits into a first line and the rest.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>

namespace clawport_fuzz {

/// Aborts with `what` when `ok` is false: a broken property is a finding like a crash.
inline void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "clawport fuzz: property broken: %s\n", what);
  std::abort();
}

/// The input up to the first '\n' and everything after it (the rest is empty without one).
inline std::pair<std::string_view, std::string_view> first_line(std::string_view text) {
  const std::size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return {text, std::string_view()};
  return {text.substr(0, nl), text.substr(nl + 1)};
}

}  // namespace clawport_fuzz
