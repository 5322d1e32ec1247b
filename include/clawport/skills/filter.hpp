// SPDX-License-Identifier: MIT
// A skill bundle's include/exclude filter (upstream `SkillBundleConfig::admits_skill`).
// The rule is part of the ZeroClaw install layout (zeroclaw/install_layout.hpp), shared
// with the exporter, which carries exactly the skills this filter admits by logical name.
#pragma once

#include "../zeroclaw/install_layout.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// Which skills of a bundle an agent may load, by logical name: `zeroclaw::skill_filter`.
using bundle_filter = clawport::zeroclaw::skill_filter;

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
