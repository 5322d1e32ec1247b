// SPDX-License-Identifier: MIT
// The one error type of the library: a stable code, a message a person can act on,
// and the path or config field it concerns.
#pragma once

#include "config.hpp"

#include <cerrno>
#include <cstddef>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

/// Stable error codes. The wire names (see `to_string`) are part of the CLI's JSON
/// contract and never change meaning; new codes are only ever appended.
enum class errc {
  invalid_argument,     ///< a caller passed something malformed (bad alias, bad option)
  io,                   ///< an operating-system call failed; `sys_errno()` says which
  not_found,            ///< a required file, directory, agent or entry does not exist
  unsafe_path,          ///< a path would leave its root, follows a symlink or is not portable
  identity_changed,     ///< an object changed between inspection and use (a race)
  overlap,              ///< destination and a source tree contain one another
  destination_refused,  ///< the destination exists and may not be replaced
  config_parse,         ///< TOML/JSON/YAML text did not parse
  config_invalid,       ///< a config or closure fails validation
  unknown_agent,        ///< the agent alias is not configured
  dangling_reference,   ///< a reference names an entry that does not exist
  ciphertext,           ///< an encrypted secret would leave the install
  unknown_key,          ///< a key the schema does not know (it may be a credential)
  skill_invalid,        ///< a skill file is malformed
  audit_blocked,        ///< a skill audit found a blocking problem
  bundle_invalid,       ///< a bundle fails verification
  publish_failed,       ///< publishing the staged bundle failed (and was rolled back)
  recover_ambiguous,    ///< recovery cannot tell which leftover is which
  limit_exceeded,       ///< a size, depth, count or descriptor limit was reached
  unsupported,          ///< the platform or filesystem cannot do what was asked
  cancelled,            ///< the caller cancelled (a signal); everything was rolled back
  // OpenClaw's diagnostic and failure codes (docs/openclaw.md), wire names as upstream's.
  read_failed,
  read_failed_too_large,
  unsupported_source,
  package_read_failed,
  package_read_failed_too_large,
  invalid_json,
  invalid_package_metadata,
  manifest_escapes_package,
  missing_claw_frontmatter,
  invalid_claw_markdown_utf8,
  invalid_claw_frontmatter,
  unsupported_claw_yaml_feature,
  invalid_manifest,
  claw_body_soul_conflict,
  invalid_openclaw_profile_path,
  conflicting_openclaw_profile_pointer,
  deprecated_openclaw_profile_pointer,
  openclaw_profile_too_large,
  openclaw_profile_unsafe,
  openclaw_profile_read_failed,
  invalid_openclaw_profile,
  unsupported_openclaw_profile_yaml_feature,
  legacy_openclaw_profile_requires_conversion,
  package_bootstrap_too_large,
  package_bootstrap_invalid,
  package_bootstrap_empty,
  workspace_source_too_large,
  workspace_source_unsafe,
  workspace_source_invalid,
  workspace_sources_too_large,
  invalid_config,
  invalid_agent_id,
  agent_id_collision,
  workspace_collision,
  workspace_file_conflict,
  mcp_server_collision,
  package_install_unavailable,
  package_not_installed,
  plugin_preflight_failed,
  skill_preflight_failed,
  cron_gateway_required,
  consent_required,
  plan_integrity_required,
  plan_integrity_mismatch,
  invalid_ledger,
  claw_not_found,
  claw_ambiguous,
  agent_modified,
  workspace_file_unsafe,
  workspace_source_changed,
  workspace_files_failed,
  config_commit_failed,
  provenance_failed,
  remove_blocked,
  remove_failed,
  update_invalid,
  update_target_blocked,
  update_blocked,
  update_changed,
  update_partial,
  claw_identity_mismatch,
  recorded_source_unavailable,
  agent_changed,
  mcp_config_conflict,
  mcp_config_unavailable,
  workspace_file_collision,
  workspace_file_drift,
  workspace_update_failed,
  agent_update_failed,
  mcp_update_failed,
  provenance_update_failed,
  install_incomplete,
  agent_missing,
  workspace_changed,
  agent_drifted,
  workspace_files_drifted,
  packages_drifted,
  mcp_servers_unavailable,
  export_forbidden_file,
  export_bootstrap_invalid,
  export_manifest_invalid,
  export_openclaw_profile_invalid,
  output_collision,
  export_write_failed,
  workspace_missing,
  extra_workspace,
  bootstrap_file_missing,
  bootstrap_file_too_large,
  bootstrap_file_unreadable,
  bootstrap_total_too_large,
  secret_in_workspace,
  secret_not_ignored,
  legacy_state_file,
  state_file_in_workspace,
  credentials_in_workspace,
  session_store_in_workspace,
  // ClawHub's codes, which `claw validate --clawhub` reports (openclaw/clawhub.hpp).
  claw_manifest_too_large,
  invalid_claw_json,
  claw_v1_invalid_manifest_shape,
  claw_v1_non_canonical_string,
  claw_v1_empty_list,
  claw_v1_invalid_agent_id,
  claw_v1_invalid_avatar,
  claw_v1_undeclared_avatar,
  claw_v1_invalid_profile_path,
  claw_v1_unsafe_path,
  claw_v1_duplicate_workspace_destination,
  claw_v1_reserved_workspace_target,
  claw_v1_invalid_package_reference,
  claw_v1_invalid_package_version,
  claw_v1_duplicate_package,
  claw_v1_invalid_mcp_server_id,
  claw_v1_invalid_mcp_url,
  claw_v1_mcp_url_credentials,
  claw_v1_unpinned_mcp_package,
  claw_v1_invalid_tool_filter,
  claw_v1_duplicate_tool_filter,
  claw_v1_invalid_environment_key,
  claw_v1_blocked_environment_key,
  claw_v1_invalid_environment_reference,
  claw_v1_invalid_timeout,
  claw_v1_invalid_cron_job_id,
  claw_v1_duplicate_cron_job,
  claw_v1_invalid_cron_schedule,
  claw_v1_invalid_cron_delivery,
  skill_test_failed,  ///< a skill's TEST.sh case did not give the expected exit or output
  // `claw migrate` (upstream's ClawMigrationError codes)
  agent_not_found,
  agent_already_managed,
  workspace_unavailable,
  package_destination_exists,
  workspace_ownership_ambiguous,
  workspace_file_encoding_unsupported,
  agent_setting_unsupported,
  migration_changed,
  // Signed bundles (issue 29; signing/).
  not_signed,         ///< wire name `unsigned` (a C++ keyword): a signature was required, none
  signature_invalid,  ///< the signature does not match the data it claims to sign
  signer_untrusted,   ///< the signing key is not (or no longer) in the allowed signers
  signing_failed,     ///< the signing program refused or failed (key, agent, passphrase)
};

/// The wire name of enumerator `e` from `names`, which lists one name per enumerator in
/// declaration order (enumerators numbered from 0 without gaps, `Last` the last of them);
/// `fallback` for a value outside the list. The one enum-to-name rule; each table sits beside its
/// enum.
template <auto Last, class E, class Name, std::size_t N>
constexpr Name wire_name(E e, const Name (&names)[N],
                         typename std::enable_if<true, Name>::type fallback) noexcept {
  static_assert(N == static_cast<std::size_t>(Last) + 1, "one name per enumerator, in order");
  const auto k = static_cast<std::size_t>(e);
  return k < N ? names[k] : fallback;
}

namespace detail {

/// Every code's wire name, in the order of `errc`.
inline constexpr std::string_view errc_names[] = {
    "invalid_argument",
    "io",
    "not_found",
    "unsafe_path",
    "identity_changed",
    "overlap",
    "destination_refused",
    "config_parse",
    "config_invalid",
    "unknown_agent",
    "dangling_reference",
    "ciphertext",
    "unknown_key",
    "skill_invalid",
    "audit_blocked",
    "bundle_invalid",
    "publish_failed",
    "recover_ambiguous",
    "limit_exceeded",
    "unsupported",
    "cancelled",
    "read_failed",
    "read_failed_too_large",
    "unsupported_source",
    "package_read_failed",
    "package_read_failed_too_large",
    "invalid_json",
    "invalid_package_metadata",
    "manifest_escapes_package",
    "missing_claw_frontmatter",
    "invalid_claw_markdown_utf8",
    "invalid_claw_frontmatter",
    "unsupported_claw_yaml_feature",
    "invalid_manifest",
    "claw_body_soul_conflict",
    "invalid_openclaw_profile_path",
    "conflicting_openclaw_profile_pointer",
    "deprecated_openclaw_profile_pointer",
    "openclaw_profile_too_large",
    "openclaw_profile_unsafe",
    "openclaw_profile_read_failed",
    "invalid_openclaw_profile",
    "unsupported_openclaw_profile_yaml_feature",
    "legacy_openclaw_profile_requires_conversion",
    "package_bootstrap_too_large",
    "package_bootstrap_invalid",
    "package_bootstrap_empty",
    "workspace_source_too_large",
    "workspace_source_unsafe",
    "workspace_source_invalid",
    "workspace_sources_too_large",
    "invalid_config",
    "invalid_agent_id",
    "agent_id_collision",
    "workspace_collision",
    "workspace_file_conflict",
    "mcp_server_collision",
    "package_install_unavailable",
    "package_not_installed",
    "plugin_preflight_failed",
    "skill_preflight_failed",
    "cron_gateway_required",
    "consent_required",
    "plan_integrity_required",
    "plan_integrity_mismatch",
    "invalid_ledger",
    "claw_not_found",
    "claw_ambiguous",
    "agent_modified",
    "workspace_file_unsafe",
    "workspace_source_changed",
    "workspace_files_failed",
    "config_commit_failed",
    "provenance_failed",
    "remove_blocked",
    "remove_failed",
    "update_invalid",
    "update_target_blocked",
    "update_blocked",
    "update_changed",
    "update_partial",
    "claw_identity_mismatch",
    "recorded_source_unavailable",
    "agent_changed",
    "mcp_config_conflict",
    "mcp_config_unavailable",
    "workspace_file_collision",
    "workspace_file_drift",
    "workspace_update_failed",
    "agent_update_failed",
    "mcp_update_failed",
    "provenance_update_failed",
    "install_incomplete",
    "agent_missing",
    "workspace_changed",
    "agent_drifted",
    "workspace_files_drifted",
    "packages_drifted",
    "mcp_servers_unavailable",
    "export_forbidden_file",
    "export_bootstrap_invalid",
    "export_manifest_invalid",
    "export_openclaw_profile_invalid",
    "output_collision",
    "export_write_failed",
    "workspace_missing",
    "extra_workspace",
    "bootstrap_file_missing",
    "bootstrap_file_too_large",
    "bootstrap_file_unreadable",
    "bootstrap_total_too_large",
    "secret_in_workspace",
    "secret_not_ignored",
    "legacy_state_file",
    "state_file_in_workspace",
    "credentials_in_workspace",
    "session_store_in_workspace",
    "claw_manifest_too_large",
    "invalid_claw_json",
    "claw_v1_invalid_manifest_shape",
    "claw_v1_non_canonical_string",
    "claw_v1_empty_list",
    "claw_v1_invalid_agent_id",
    "claw_v1_invalid_avatar",
    "claw_v1_undeclared_avatar",
    "claw_v1_invalid_profile_path",
    "claw_v1_unsafe_path",
    "claw_v1_duplicate_workspace_destination",
    "claw_v1_reserved_workspace_target",
    "claw_v1_invalid_package_reference",
    "claw_v1_invalid_package_version",
    "claw_v1_duplicate_package",
    "claw_v1_invalid_mcp_server_id",
    "claw_v1_invalid_mcp_url",
    "claw_v1_mcp_url_credentials",
    "claw_v1_unpinned_mcp_package",
    "claw_v1_invalid_tool_filter",
    "claw_v1_duplicate_tool_filter",
    "claw_v1_invalid_environment_key",
    "claw_v1_blocked_environment_key",
    "claw_v1_invalid_environment_reference",
    "claw_v1_invalid_timeout",
    "claw_v1_invalid_cron_job_id",
    "claw_v1_duplicate_cron_job",
    "claw_v1_invalid_cron_schedule",
    "claw_v1_invalid_cron_delivery",
    "skill_test_failed",
    "agent_not_found",
    "agent_already_managed",
    "workspace_unavailable",
    "package_destination_exists",
    "workspace_ownership_ambiguous",
    "workspace_file_encoding_unsupported",
    "agent_setting_unsupported",
    "migration_changed",
    "unsigned",
    "signature_invalid",
    "signer_untrusted",
    "signing_failed",
};

}  // namespace detail

/// Wire name of an error code, e.g. `"unsafe_path"`.
constexpr std::string_view to_string(errc code) noexcept {
  return wire_name<errc::signing_failed>(code, detail::errc_names, "unknown");
}

/// The code whose wire name is `name`, or nullopt for a name outside the vocabulary.
constexpr std::optional<errc> errc_from_string(std::string_view name) noexcept {
  for (std::size_t k = 0; k < std::size(detail::errc_names); ++k)
    if (detail::errc_names[k] == name) return static_cast<errc>(k);
  return std::nullopt;
}

static_assert(std::size(detail::errc_names) == static_cast<std::size_t>(errc::signing_failed) + 1,
              "every errc has a wire name");

/// Every refusal and failure the library reports is a `clawport::error`.
///
/// `what()` is the full human message; `subject()` is the path (bundle- or
/// root-relative where possible) or config field (`agents.researcher.model_provider`)
/// the error is about, empty when there is none; `sys_errno()` is the errno of the
/// failing system call for `errc::io` and friends, else 0.
class error : public std::runtime_error {
 public:
  error(errc code, const std::string& message, std::string subject = {}, int sys_errno = 0)
      : std::runtime_error(message),
        code_(code),
        subject_(std::move(subject)),
        sys_errno_(sys_errno) {}

  errc code() const noexcept { return code_; }
  const std::string& subject() const noexcept { return subject_; }
  int sys_errno() const noexcept { return sys_errno_; }

 private:
  errc code_;
  std::string subject_;
  int sys_errno_;
};

/// The text of an errno value (thread-safe, unlike strerror).
inline std::string errno_text(int err) { return std::generic_category().message(err); }

/// Why `cause` failed, without a backend's framing ("cannot open x: ..."): the errno text
/// of an I/O error, a plain statement for a refused symlink, and the whole message for a
/// limit (it says what to raise) or an error without an errno.
inline std::string reason_of(const error& cause) {
  if (cause.code() == errc::limit_exceeded) return cause.what();
  if (cause.sys_errno() == ELOOP) return "it is a symbolic link, which is never followed";
  if (cause.sys_errno() != 0) return errno_text(cause.sys_errno());
  return cause.what();
}

/// The one context wrapper (issue 43 item 5: every "{context}: {cause}" re-throw of the
/// library is one of these): `cause` told again as "{context}: {reason}" about `subject`,
/// with `code`, keeping the cause's errno. `reason` is the cause's own message unless the
/// caller words it (`reason_of` drops a backend's framing).
inline error with_context(errc code, const error& cause, const std::string& context,
                          std::string subject, const std::string& reason) {
  return error(code, context + ": " + reason, std::move(subject), cause.sys_errno());
}
inline error with_context(errc code, const error& cause, const std::string& context,
                          std::string subject) {
  return with_context(code, cause, context, std::move(subject), cause.what());
}
/// The same, keeping the cause's code.
inline error with_context(const error& cause, const std::string& context, std::string subject) {
  return with_context(cause.code(), cause, context, std::move(subject), cause.what());
}
inline error with_context(const error& cause, const std::string& context, std::string subject,
                          const std::string& reason) {
  return with_context(cause.code(), cause, context, std::move(subject), reason);
}

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
