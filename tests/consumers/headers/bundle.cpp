// SPDX-License-Identifier: MIT
// <clawport/bundle.hpp> alone: the bundle layout.
#include <clawport/bundle.hpp>

int header_bundle() {
  static_assert(clawport::bundle::is_bundle_entry("zeroclaw-agent.toml"));
  static_assert(!clawport::bundle::is_bundle_entry("notes.md"));
  return clawport::bundle::skill_bundle_path("research_tools") == "skills/research_tools" &&
                 clawport::bundle::format_version == 1
             ? 0
             : 1;
}
