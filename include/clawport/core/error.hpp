// SPDX-License-Identifier: MIT
// The one error type of the library: a stable code, a message a person can act on,
// and the path or config field it concerns.
#pragma once

#include "config.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
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
};

/// Wire name of an error code, e.g. `"unsafe_path"`.
constexpr std::string_view to_string(errc code) noexcept {
  switch (code) {
    case errc::invalid_argument:
      return "invalid_argument";
    case errc::io:
      return "io";
    case errc::not_found:
      return "not_found";
    case errc::unsafe_path:
      return "unsafe_path";
    case errc::identity_changed:
      return "identity_changed";
    case errc::overlap:
      return "overlap";
    case errc::destination_refused:
      return "destination_refused";
    case errc::config_parse:
      return "config_parse";
    case errc::config_invalid:
      return "config_invalid";
    case errc::unknown_agent:
      return "unknown_agent";
    case errc::dangling_reference:
      return "dangling_reference";
    case errc::ciphertext:
      return "ciphertext";
    case errc::unknown_key:
      return "unknown_key";
    case errc::skill_invalid:
      return "skill_invalid";
    case errc::audit_blocked:
      return "audit_blocked";
    case errc::bundle_invalid:
      return "bundle_invalid";
    case errc::publish_failed:
      return "publish_failed";
    case errc::recover_ambiguous:
      return "recover_ambiguous";
    case errc::limit_exceeded:
      return "limit_exceeded";
    case errc::unsupported:
      return "unsupported";
  }
  return "unknown";
}

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

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
