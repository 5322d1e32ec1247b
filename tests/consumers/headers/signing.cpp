// SPDX-License-Identifier: MIT
// <clawport/signing.hpp> alone: the ssh-keygen policies pass the compile-time policy checks
// and type-erase; a signer given a program that does not exist refuses with errc::unsupported
// (nothing is run: ssh-keygen need not be installed here).
#include <clawport/signing.hpp>

int header_signing() {
  namespace s = clawport::signing;
  s::ssh_keygen_options o;
  o.program = "/nonexistent/ssh-keygen";
  const s::sign_function sign = s::as_sign_function(s::ssh_keygen_signer("key", "ns", {}, o));
  const s::verify_function verify =
      s::as_verify_function(s::ssh_keygen_verifier("allowed", "ns", std::nullopt, o));
  try {
    (void)sign("data");
  } catch (const clawport::error& e) {
    return verify && e.code() == clawport::errc::unsupported ? 0 : 1;
  }
  return 1;
}
