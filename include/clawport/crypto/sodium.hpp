// SPDX-License-Identifier: MIT
// The cipher policy `importer::set_secret` takes, on libsodium: ChaCha20-Poly1305 in its
// IETF form (32-byte key, 12-byte nonce, 16-byte tag: what ZeroClaw's `enc2:` uses) and the
// operating system's random source. NOT part of <clawport/clawport.hpp>: include
// <clawport/crypto.hpp> and link libsodium (pkg-config `libsodium`) where secrets are set.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"

#include <sodium.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace crypto {

/// libsodium behind the cipher policy (see importer/secrets.hpp).
class sodium {
 public:
  static constexpr std::size_t key_bytes = crypto_aead_chacha20poly1305_ietf_KEYBYTES;
  static constexpr std::size_t nonce_bytes = crypto_aead_chacha20poly1305_ietf_NPUBBYTES;
  static constexpr std::size_t tag_bytes = crypto_aead_chacha20poly1305_ietf_ABYTES;
  static_assert(key_bytes == 32 && nonce_bytes == 12 && tag_bytes == 16,
                "enc2: is ChaCha20-Poly1305 with a 32-byte key, a 12-byte nonce, a 16-byte tag");

  sodium() {
    if (::sodium_init() < 0) throw error(errc::io, "libsodium could not be initialised");
  }

  /// `n` bytes from the operating system's random source.
  void random(unsigned char* out, std::size_t n) { ::randombytes_buf(out, n); }

  /// `plain` sealed under `key` with `nonce`: the ciphertext followed by the tag, no
  /// associated data (as secrets.rs seals).
  std::string seal(std::string_view plain, const unsigned char* nonce, const unsigned char* key) {
    std::string out(plain.size() + tag_bytes, '\0');
    unsigned long long written = 0;
    if (::crypto_aead_chacha20poly1305_ietf_encrypt(
            reinterpret_cast<unsigned char*>(out.data()), &written,
            reinterpret_cast<const unsigned char*>(plain.data()), plain.size(), nullptr, 0, nullptr,
            nonce, key) != 0)
      throw error(errc::io, "ChaCha20-Poly1305 encryption failed");
    out.resize(static_cast<std::size_t>(written));
    return out;
  }
};

}  // namespace crypto
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
