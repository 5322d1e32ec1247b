// SPDX-License-Identifier: MIT
// The SignatureVerifier every front end builds for a bundle (`verify --allowed-signers`,
// `import --require-signature`, the C ABI's `allowed-signers`/`signer` options): OpenSSH's
// ssh-keygen under the bundle namespace, one place so that they cannot differ.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/config.hpp"
#include "../core/host.hpp"
#include "../signing/policy.hpp"
#include "../signing/ssh_keygen.hpp"

#include <optional>
#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace verify {

/// A bundle's SignatureVerifier: `allowed_signers` (made absolute against `host`'s working
/// directory) lists who may sign; `signer`, when not empty, is the principal that must have
/// signed (refused with errc::invalid_argument when it is a pattern); the private temporary
/// directory is made in `host.temp_root`.
inline signing::verify_function ssh_bundle_verifier(const host_environment& host,
                                                    const std::string& allowed_signers,
                                                    const std::string& signer) {
  signing::ssh_keygen_options o;
  o.temp_root = host.temp_root;
  return signing::as_verify_function(signing::ssh_keygen_verifier(
      host.absolute(allowed_signers), std::string(bundle::signature_namespace),
      signer.empty() ? std::nullopt : std::optional<std::string>(signer), o));
}

}  // namespace verify
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
