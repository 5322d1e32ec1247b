// SPDX-License-Identifier: MIT
// expect: a Signer needs `std::string sign(const std::string& data) const`
// errors: first
#include <clawport/signing.hpp>

struct no_sign {
  std::string sign(const std::string& data);  // not const: export signs through a const one
};

int main() { return clawport::signing::as_sign_function(no_sign{}) ? 0 : 1; }
