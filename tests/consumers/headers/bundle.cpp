// SPDX-License-Identifier: MIT
// <clawport/bundle.hpp> alone: the bundle layout and the skill-bundle walk.
#include <clawport/bundle.hpp>
#include <clawport/fs/posix.hpp>

int header_bundle() {
  static_assert(clawport::bundle::is_bundle_entry("zeroclaw-agent.toml"));
  static_assert(!clawport::bundle::is_bundle_entry("notes.md"));
  clawport::fs::posix disk;
  const auto here = disk.open_root("/");
  // no sources: nothing is walked and nothing is created
  const auto carried = clawport::bundle::copy_skill_bundles(disk, "/", {}, here);
  return clawport::bundle::skill_bundle_path("research_tools") == "skills/research_tools" &&
                 clawport::bundle::format_version == 1 && carried.bundles == 0
             ? 0
             : 1;
}
