// SPDX-License-Identifier: MIT
// The wire vocabulary of the manifest: drop reasons (docs/format.md), risk kinds
// (docs/format.md), and the kinds of host-local notes clawport adds to its report (not the
// manifest).
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"

#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// Why a piece of configuration did not travel (`dropped[].reason`).
enum class drop_reason {
  host_specific,     ///< names accounts, addresses or paths that exist only on the source host
  relational,        ///< names other agents that will not exist on the target
  default_closed,    ///< an outward-facing surface that must be re-enabled deliberately
  private_data,      ///< the agent's private data
  not_yet_portable,  ///< format 1 does not carry it
  source_missing,    ///< referenced content the exporter did not have
  unknown_key,       ///< clawport: a key the schema does not know (it may be a credential)
  depth_limit,       ///< clawport: past a bound the runtime or the bundle format sets
  unportable_name,   ///< clawport: a file name a bundle cannot carry (not UTF-8, a control)
};

inline constexpr std::string_view drop_reason_names[] = {
    "host_specific",  "relational",  "default_closed", "private_data",   "not_yet_portable",
    "source_missing", "unknown_key", "depth_limit",    "unportable_name"};
constexpr std::string_view to_string(drop_reason r) noexcept {
  return wire_name<drop_reason::unportable_name>(r, drop_reason_names, "unknown");
}

/// A capability the importing operator is asked to grant (`risk_flags[].kind`).
enum class risk_kind {
  full_autonomy,
  filesystem_escape,
  sandbox_disabled,
  approval_bypass,
  env_passthrough,
  extra_filesystem_roots,
  delegation_enabled,
  process_spawn,
  untrusted_startup_context,
  carried_skills,
  carried_workspace_skills,
};

inline constexpr std::string_view risk_kind_names[] = {
    "full_autonomy",      "filesystem_escape",       "sandbox_disabled",
    "approval_bypass",    "env_passthrough",         "extra_filesystem_roots",
    "delegation_enabled", "process_spawn",           "untrusted_startup_context",
    "carried_skills",     "carried_workspace_skills"};
constexpr std::string_view to_string(risk_kind k) noexcept {
  return wire_name<risk_kind::carried_workspace_skills>(k, risk_kind_names, "unknown");
}

/// A setting that travels but only means something on the source host. Reported by the
/// CLI and in its JSON; never written into the manifest (format 1 has no key for it).
enum class note_kind {
  host_path,         ///< an absolute host path (CA bundle, binary, allowed root)
  external_auth,     ///< the credential lives in a host auth store, not in the config
  secret_reference,  ///< the scrubbed secret was a vault reference (op://) on the source
};

inline constexpr std::string_view note_kind_names[] = {"host_path", "external_auth",
                                                       "secret_reference"};
constexpr std::string_view to_string(note_kind k) noexcept {
  return wire_name<note_kind::secret_reference>(k, note_kind_names, "unknown");
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
