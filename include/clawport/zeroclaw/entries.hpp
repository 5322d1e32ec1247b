// SPDX-License-Identifier: MIT
// The kinds of entry a ZeroClaw config (or an exported closure) holds, and how to find them:
// each kind's section, its entries by name (`family.alias` for two-tier kinds, a server's
// `name`), the schema of each and its path. Shared by the import's planner and `secrets`.
#pragma once

#include "../core/config.hpp"
#include "document.hpp"
#include "schema.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// The kinds of entry a closure carries, in the order the plan decides them (what is
/// referenced before what refers to it).
struct entry_kind {
  std::string_view name;
  ref_target ref;
  std::string_view section;  ///< top-level table (`providers.models` for two-tier ones)
  bool two_tier;
};

inline constexpr entry_kind entry_kinds[] = {
    {"mcp_server", ref_target::mcp_server, "mcp.servers", false},
    {"tts_provider", ref_target::tts_provider, "providers.tts", true},
    {"transcription_provider", ref_target::transcription_provider, "providers.transcription", true},
    {"model_provider", ref_target::model_provider, "providers.models", true},
    {"risk_profile", ref_target::risk_profile, "risk_profiles", false},
    {"runtime_profile", ref_target::runtime_profile, "runtime_profiles", false},
    {"knowledge_bundle", ref_target::knowledge_bundle, "knowledge_bundles", false},
    {"mcp_bundle", ref_target::mcp_bundle, "mcp_bundles", false},
    {"skill_bundle", ref_target::skill_bundle, "skill_bundles", false},
    {"agent", ref_target::agent, "agents", false},
};

inline const entry_kind* entry_kind_named(std::string_view name) {
  for (const entry_kind& k : entry_kinds)
    if (k.name == name) return &k;
  return nullptr;
}

/// Every entry of kind `k` in `config`: name -> value (`family.alias` for two-tier kinds,
/// the `name` of each `[[mcp.servers]]`).
inline std::vector<std::pair<std::string, const value*>> entries_of(const value& config,
                                                                    const entry_kind& k) {
  std::vector<std::pair<std::string, const value*>> out;
  const value* section = find_path(config, k.section);
  if (section == nullptr) return out;
  if (k.ref == ref_target::mcp_server) {
    if (!section->is_array()) return out;
    for (const value& s : section->items)
      if (const value* n = s.is_table() ? s.find("name") : nullptr; n && n->is_string())
        out.emplace_back(n->text, &s);
    return out;
  }
  if (!section->is_table()) return out;
  for (const member& m : section->members) {
    if (!k.two_tier) {
      out.emplace_back(m.key, &m.val);
      continue;
    }
    if (!m.val.is_table()) continue;
    for (const member& a : m.val.members) out.emplace_back(m.key + "." + a.key, &a.val);
  }
  return out;
}

template <class Schema>
const entry_schema* entry_schema_of(const entry_kind& k, std::string_view name) {
  static constexpr entry_schema agent = Schema::agent();
  static constexpr entry_schema risk = Schema::risk_profile();
  static constexpr entry_schema runtime = Schema::runtime_profile();
  static constexpr entry_schema skill = Schema::skill_bundle();
  static constexpr entry_schema knowledge = Schema::knowledge_bundle();
  static constexpr entry_schema mcp_bundle = Schema::mcp_bundle();
  static constexpr entry_schema server = Schema::mcp_server();
  const std::string family(name.substr(0, name.find('.')));
  switch (k.ref) {
    case ref_target::agent:
      return &agent;
    case ref_target::risk_profile:
      return &risk;
    case ref_target::runtime_profile:
      return &runtime;
    case ref_target::skill_bundle:
      return &skill;
    case ref_target::knowledge_bundle:
      return &knowledge;
    case ref_target::mcp_bundle:
      return &mcp_bundle;
    case ref_target::mcp_server:
      return &server;
    case ref_target::model_provider:
      return Schema::model_provider(family);
    case ref_target::tts_provider:
      return Schema::tts_provider(family);
    case ref_target::transcription_provider:
      return Schema::transcription_provider(family);
    default:
      return nullptr;
  }
}

/// The path prefix of an entry (`providers.models.anthropic.main`, `mcp.servers.github`).
inline std::string entry_path(const entry_kind& k, const std::string& name) {
  return std::string(k.section) + "." + name;
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
