// SPDX-License-Identifier: MIT
// libFuzzer target for the Claw manifest reader: the input as CLAW.md bytes (envelope,
// frontmatter, strict schema v1 and cross-field rules), as a grouped JSON manifest, and as
// an OpenClaw profile. Nothing may throw; a manifest that validates re-validates to itself.
#include <clawport/clawport.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace oc = clawport::openclaw;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<oc::value> candidates;
  const oc::envelope env = oc::split_envelope(text);
  std::vector<oc::diagnostic> ds;
  if (env.found) {
    const oc::yaml_document frontmatter{"CLAW.md frontmatter",
                                        clawport::errc::invalid_claw_frontmatter,
                                        clawport::errc::unsupported_claw_yaml_feature, "", 1};
    if (auto v = oc::yaml_to_json(env.frontmatter, frontmatter, 1024 * 1024, 64, ds)) {
      candidates.push_back(std::move(*v));
    }
  }
  oc::value json = oc::value::parse(text.begin(), text.end(), nullptr, false);
  if (!json.is_discarded()) candidates.push_back(std::move(json));
  const oc::yaml_document profile{"profiles/openclaw.yml", clawport::errc::invalid_openclaw_profile,
                                  clawport::errc::unsupported_openclaw_profile_yaml_feature,
                                  "OpenClaw profile YAML", 0};
  if (auto v = oc::yaml_to_json(text, profile, 256 * 1024, 64, ds)) {
    candidates.push_back(std::move(*v));
  }
  for (const oc::value& c : candidates) {
    const oc::manifest_result m = oc::validate_manifest(c);
    if (m.ok()) {
      const oc::manifest_result again = oc::validate_manifest(m.manifest);
      if (!again.ok() || again.manifest != m.manifest) std::abort();
      (void)clawport::json::stable_stringify(m.manifest);
    }
    for (const auto& d : m.diagnostics)
      if (d.path.empty() || d.path[0] != '$' || to_string(d.code).empty()) std::abort();
    const oc::profile_result p = oc::validate_profile(c, "$.profiles.openclaw");
    if (p.ok()) {  // the typed profile renders a profile that validates to the same one
      const oc::profile_result again =
          oc::validate_profile(oc::to_json(p.profile), "$.profiles.openclaw");
      if (!again.ok() || oc::to_json(again.profile) != oc::to_json(p.profile)) std::abort();
    }
  }
  return 0;
}
