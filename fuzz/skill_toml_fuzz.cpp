// SPDX-License-Identifier: MIT
// libFuzzer target for the TOML skill manifests: the input as SKILL.toml and as manifest.toml
// (one reader, strict `[skill]`), and through the TOML audit. Properties: the reader returns
// a skill or throws clawport::error (config_parse, limit_exceeded or skill_invalid), never
// anything else; both subjects read the same skill; the audit never throws.
#include <clawport/skills.hpp>

#include "common.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace cp = clawport;
  namespace sk = clawport::skills;
  using clawport_fuzz::check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string first;  // what the SKILL.toml reading gave: the manifest.toml one must agree
  for (const char* subject : {"SKILL.toml", "manifest.toml"}) {
    std::string got;
    try {
      const sk::skill s = sk::parse_skill_toml(text, subject);
      got = "ok:" + s.name + '\0' + s.description + '\0' + s.version + '\0' +
            std::to_string(s.tools.size()) + '\0' + std::to_string(s.prompts.size());
    } catch (const cp::error& e) {
      got = "refused:" + std::to_string(static_cast<int>(e.code()));
      check(e.code() == cp::errc::config_parse || e.code() == cp::errc::limit_exceeded ||
                e.code() == cp::errc::skill_invalid,
            "a manifest is refused as config_parse, limit_exceeded or skill_invalid");
      check(std::string(e.what()).size() > 0, "a refusal says why");
    }
    if (first.empty()) {
      first = got;
    } else {
      check(first == got, "SKILL.toml and manifest.toml read the same text alike");
    }
  }
  (void)sk::audit_toml_text(text, "SKILL.toml");
  (void)sk::is_valid_skill_name(text);
  return 0;
}
