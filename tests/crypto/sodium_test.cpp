// SPDX-License-Identifier: MIT
// The libsodium cipher policy (crypto/sodium.hpp) that `secrets set` seals with: what it
// seals is ChaCha20-Poly1305 (IETF) under the key and nonce given, the ciphertext followed
// by its 16-byte tag and no associated data (as ZeroClaw's secrets.rs seals `enc2:`), so
// libsodium's decryption with the same key and nonce gives the text back, and a changed
// byte does not open. The end-to-end check against an independent decryptor is
// tests/cli/secrets.sh.
#include "support/test.hpp"

#include <clawport/crypto.hpp>

#include <array>
#include <string>

namespace {

/// `sealed` opened under `key` and `nonce`; false when it does not authenticate.
bool open_sealed(const std::string& sealed, const unsigned char* nonce, const unsigned char* key,
                 std::string& plain) {
  plain.assign(sealed.size() < 16 ? 0 : sealed.size() - 16, '\0');
  unsigned long long n = 0;
  const int rc = ::crypto_aead_chacha20poly1305_ietf_decrypt(
      reinterpret_cast<unsigned char*>(plain.data()), &n, nullptr,
      reinterpret_cast<const unsigned char*>(sealed.data()), sealed.size(), nullptr, 0, nonce, key);
  plain.resize(static_cast<std::size_t>(n));
  return rc == 0;
}

}  // namespace

TEST_CASE("crypto::sodium seals ChaCha20-Poly1305 (IETF): ciphertext then tag, no AD") {
  clawport::crypto::sodium c;
  std::array<unsigned char, clawport::crypto::sodium::key_bytes> key{};
  std::array<unsigned char, clawport::crypto::sodium::nonce_bytes> nonce{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<unsigned char>(0x80 + i);
  for (std::size_t i = 0; i < nonce.size(); ++i) nonce[i] = static_cast<unsigned char>(i);
  for (const std::string& plain : {std::string(), std::string("sk-ant-secret"),
                                   std::string(1000, 'x') + std::string("\0\xff", 2)}) {
    CAPTURE(plain.size());
    const std::string sealed = c.seal(plain, nonce.data(), key.data());
    CHECK(sealed.size() == plain.size() + clawport::crypto::sodium::tag_bytes);
    std::string back;
    REQUIRE(open_sealed(sealed, nonce.data(), key.data(), back));
    CHECK(back == plain);
    std::string changed = sealed;
    changed[changed.size() - 1] = static_cast<char>(changed[changed.size() - 1] ^ 1);
    CHECK_FALSE(open_sealed(changed, nonce.data(), key.data(), back));
    nonce[0] ^= 1;  // another nonce: another ciphertext, which this nonce does not open
    CHECK(c.seal(plain, nonce.data(), key.data()) != sealed);
    CHECK_FALSE(open_sealed(sealed, nonce.data(), key.data(), back));
    nonce[0] ^= 1;
  }
  // random: the operating system's bytes, two draws of 32 never equal in practice.
  std::array<unsigned char, 32> a{}, b{};
  c.random(a.data(), a.size());
  c.random(b.data(), b.size());
  CHECK(a != b);
}
