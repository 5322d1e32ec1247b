// SPDX-License-Identifier: MIT
// <clawport/crypto.hpp> alone (link libsodium): one seal under a random key and nonce gives
// the plaintext's length plus the 16-byte tag, and a second nonce gives other bytes.
#include <clawport/crypto.hpp>

int header_crypto() {
  clawport::crypto::sodium cipher;
  unsigned char key[clawport::crypto::sodium::key_bytes];
  unsigned char nonce[clawport::crypto::sodium::nonce_bytes];
  cipher.random(key, sizeof key);
  cipher.random(nonce, sizeof nonce);
  const std::string first = cipher.seal("secret", nonce, key);
  nonce[0] = static_cast<unsigned char>(nonce[0] ^ 1U);
  const std::string second = cipher.seal("secret", nonce, key);
  return first.size() == 6 + clawport::crypto::sodium::tag_bytes && first != second ? 0 : 1;
}
