// SPDX-License-Identifier: MIT
// The wire vocabulary of the manifest: drop reasons (docs/format.md), risk kinds
// (docs/format.md), and the kinds of host-local notes clawport adds to its report (not the
// manifest).
#pragma once

#include "../core/config.hpp"

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

constexpr std::string_view to_string(drop_reason r) noexcept {
  switch (r) {
    case drop_reason::host_specific:
      return "host_specific";
    case drop_reason::relational:
      return "relational";
    case drop_reason::default_closed:
      return "default_closed";
    case drop_reason::private_data:
      return "private_data";
    case drop_reason::not_yet_portable:
      return "not_yet_portable";
    case drop_reason::source_missing:
      return "source_missing";
    case drop_reason::unknown_key:
      return "unknown_key";
    case drop_reason::depth_limit:
      return "depth_limit";
    case drop_reason::unportable_name:
      return "unportable_name";
  }
  return "unknown";
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

constexpr std::string_view to_string(risk_kind k) noexcept {
  switch (k) {
    case risk_kind::full_autonomy:
      return "full_autonomy";
    case risk_kind::filesystem_escape:
      return "filesystem_escape";
    case risk_kind::sandbox_disabled:
      return "sandbox_disabled";
    case risk_kind::approval_bypass:
      return "approval_bypass";
    case risk_kind::env_passthrough:
      return "env_passthrough";
    case risk_kind::extra_filesystem_roots:
      return "extra_filesystem_roots";
    case risk_kind::delegation_enabled:
      return "delegation_enabled";
    case risk_kind::process_spawn:
      return "process_spawn";
    case risk_kind::untrusted_startup_context:
      return "untrusted_startup_context";
    case risk_kind::carried_skills:
      return "carried_skills";
    case risk_kind::carried_workspace_skills:
      return "carried_workspace_skills";
  }
  return "unknown";
}

/// A setting that travels but only means something on the source host. Reported by the
/// CLI and in its JSON; never written into the manifest (format 1 has no key for it).
enum class note_kind {
  host_path,         ///< an absolute host path (CA bundle, binary, allowed root)
  external_auth,     ///< the credential lives in a host auth store, not in the config
  secret_reference,  ///< the scrubbed secret was a vault reference (op://) on the source
};

constexpr std::string_view to_string(note_kind k) noexcept {
  switch (k) {
    case note_kind::host_path:
      return "host_path";
    case note_kind::external_auth:
      return "external_auth";
    case note_kind::secret_reference:
      return "secret_reference";
  }
  return "unknown";
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
