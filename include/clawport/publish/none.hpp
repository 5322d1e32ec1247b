// SPDX-License-Identifier: MIT
// publish::none: the dry run. The exporter sees `writes == false` and stages nothing.
#pragma once

#include "../fs/policy.hpp"
#include "policy.hpp"

#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

/// Dry run: nothing is staged and nothing is published.
struct none {
  static constexpr std::string_view name = "none";
  static constexpr bool writes = false;

  template <class Fs>
  static outcome publish(Fs&, const typename Fs::dir&, const request&) {
    return outcome_of(name, guarantee::none);
  }
};

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
