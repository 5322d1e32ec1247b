// SPDX-License-Identifier: MIT
// expect: a SignatureVerifier needs `std::string verify(const std::string& data, const std::string&
// errors: first
#include <clawport/signing.hpp>

struct checks_only_data {
  std::string verify(const std::string& data) const { return data; }
};

int main() { return clawport::signing::as_verify_function(checks_only_data{}) ? 0 : 1; }
