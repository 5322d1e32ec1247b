// SPDX-License-Identifier: MIT
// Signing policies (issue 29). A Signer turns bytes into a detached signature; a
// SignatureVerifier checks one against its allowed signers and names who signed:
//
//   struct Signer {
//     std::string sign(const std::string& data) const;          // the signature's bytes
//   };
//   struct SignatureVerifier {
//     std::string verify(const std::string& data,                // the signer's principal
//                        const std::string& signature) const;
//   };
//
// Both throw clawport::error: a Signer errc::signing_failed; a verifier
// errc::signature_invalid (the signature does not match the data, or was made for another
// purpose) or errc::signer_untrusted (a good signature by a key the operator does not
// allow). The key, the allowed signers and the purpose (SSHSIG namespace) are the policy
// object's own. The library never signs by hand: signing/ssh_keygen.hpp runs OpenSSH's.
#pragma once

#include "../core/config.hpp"

#include <functional>
#include <string>
#include <type_traits>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace signing {

/// A Signer, type-erased (what the non-template options of export hold).
using sign_function = std::function<std::string(const std::string& data)>;
/// A SignatureVerifier, type-erased (what the options of verify and import hold).
using verify_function =
    std::function<std::string(const std::string& data, const std::string& signature)>;

namespace detail {
template <class S, class = void>
struct has_sign : std::false_type {};
template <class S>
struct has_sign<S, std::void_t<decltype(std::declval<const S&>().sign(std::string()))>>
    : std::is_convertible<decltype(std::declval<const S&>().sign(std::string())), std::string> {};
template <class V, class = void>
struct has_verify : std::false_type {};
template <class V>
struct has_verify<
    V, std::void_t<decltype(std::declval<const V&>().verify(std::string(), std::string()))>>
    : std::is_convertible<decltype(std::declval<const V&>().verify(std::string(), std::string())),
                          std::string> {};
}  // namespace detail

/// `signer` as a sign_function (copied into it).
template <class Signer>
sign_function as_sign_function(Signer signer) {
  static_assert(detail::has_sign<Signer>::value,
                "a Signer needs `std::string sign(const std::string& data) const`");
  return [s = std::move(signer)](const std::string& data) { return s.sign(data); };
}

/// `verifier` as a verify_function (copied into it).
template <class Verifier>
verify_function as_verify_function(Verifier verifier) {
  static_assert(detail::has_verify<Verifier>::value,
                "a SignatureVerifier needs `std::string verify(const std::string& data, const "
                "std::string& signature) const`");
  return [v = std::move(verifier)](const std::string& data, const std::string& signature) {
    return v.verify(data, signature);
  };
}

}  // namespace signing
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
