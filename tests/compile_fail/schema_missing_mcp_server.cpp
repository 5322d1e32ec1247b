// SPDX-License-Identifier: MIT
// expect: Schema policy: missing `static constexpr entry_schema mcp_server()`
// errors: 1
// A schema that forgot one member: plan_export says which, and nothing else.
#include <clawport/zeroclaw.hpp>

namespace zc = clawport::zeroclaw;

struct partial_schema {
  static constexpr std::uint32_t version = 3;
  static constexpr zc::entry_schema agent() noexcept { return zc::schema_v3::agent(); }
  static constexpr zc::entry_schema risk_profile() noexcept {
    return zc::schema_v3::risk_profile();
  }
  static constexpr zc::entry_schema runtime_profile() noexcept {
    return zc::schema_v3::runtime_profile();
  }
  static constexpr zc::entry_schema skill_bundle() noexcept {
    return zc::schema_v3::skill_bundle();
  }
  static constexpr zc::entry_schema knowledge_bundle() noexcept {
    return zc::schema_v3::knowledge_bundle();
  }
  static constexpr zc::entry_schema mcp_bundle() noexcept { return zc::schema_v3::mcp_bundle(); }
  static constexpr const zc::entry_schema* model_provider(std::string_view f) noexcept {
    return zc::schema_v3::model_provider(f);
  }
  static constexpr const zc::entry_schema* tts_provider(std::string_view f) noexcept {
    return zc::schema_v3::tts_provider(f);
  }
  static constexpr const zc::entry_schema* transcription_provider(std::string_view f) noexcept {
    return zc::schema_v3::transcription_provider(f);
  }
  static constexpr zc::name_list model_families() noexcept {
    return zc::schema_v3::model_families();
  }
};

int main() { return zc::plan_export<partial_schema>("", "a").root_alias.empty() ? 0 : 1; }
