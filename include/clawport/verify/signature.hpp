// SPDX-License-Identifier: MIT
// The SignatureVerifier every front end builds for a bundle (`verify --allowed-signers`,
// `import --require-signature`, the C ABI's `allowed-signers`/`signer` options): OpenSSH's
// ssh-keygen under the bundle namespace, one place so that they cannot differ.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/config.hpp"
#include "../core/host.hpp"
#include "../fs/posix.hpp"
#include "../fs/read_file.hpp"
#include "../signing/policy.hpp"
#include "../signing/ssh_keygen.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace verify {

/// A bundle's SignatureVerifier: `allowed_signers` (made absolute against `host`'s working
/// directory) lists who may sign; `signer`, when not empty, is the principal that must have
/// signed (refused with errc::invalid_argument when it is a pattern); the private temporary
/// directory is made in `host.temp_root`. The allowed-signers file is read here, before
/// ssh-keygen runs: a missing one is errc::not_found naming it (ssh-keygen would only say
/// that the key is not in it).
inline signing::verify_function ssh_bundle_verifier(const host_environment& host,
                                                    const std::string& allowed_signers,
                                                    const std::string& signer) {
  const std::string file = host.absolute(allowed_signers);
  fs::posix backend;
  constexpr std::uint64_t max_allowed_signers = std::uint64_t{1} << 24;
  try {
    fs::read_file(backend, file, max_allowed_signers,
                  fs::read_kinds::follow_symlink | fs::read_kinds::hard_linked,
                  "the allowed-signers file");
  } catch (const error& e) {
    if (e.code() != errc::not_found) throw;
    throw error(errc::not_found,
                std::string(e.what()) +
                    "; pass --allowed-signers the file of `<principal> <public key>` lines "
                    "that says who may sign",
                file, e.sys_errno());
  }
  signing::ssh_keygen_options o;
  o.temp_root = host.temp_root;
  return signing::as_verify_function(signing::ssh_keygen_verifier(
      file, std::string(bundle::signature_namespace),
      signer.empty() ? std::nullopt : std::optional<std::string>(signer), o));
}

}  // namespace verify
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
