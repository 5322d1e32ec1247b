// SPDX-License-Identifier: MIT
// The Signer every front end builds for `export --sign` (the CLI, the C ABI's `sign`
// option): OpenSSH's ssh-keygen under the bundle namespace, one place so that they cannot
// differ.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/config.hpp"
#include "../core/host.hpp"
#include "../signing/policy.hpp"
#include "../signing/ssh_keygen.hpp"

#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

/// The Signer of an export: `key` (made absolute against `host`'s working directory) is a
/// private key file, or a `.pub` whose private half is in the ssh-agent of
/// `host.ssh_auth_sock`; the private temporary directory is made in `host.temp_root`.
inline signing::sign_function ssh_bundle_signer(const host_environment& host,
                                                const std::string& key) {
  signing::ssh_keygen_options o;
  o.temp_root = host.temp_root;
  return signing::as_sign_function(signing::ssh_keygen_signer(
      host.absolute(key), std::string(bundle::signature_namespace), host.ssh_auth_sock, o));
}

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
