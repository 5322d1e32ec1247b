// SPDX-License-Identifier: MIT
// <clawport/digest.hpp> alone: SHA-256 of "abc" (FIPS 180-2 example).
#include <clawport/digest.hpp>

int header_digest() {
  return clawport::digest::sha256_hex("abc") ==
                 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
             ? 0
             : 1;
}
