// SPDX-License-Identifier: MIT
// Plan integrity: the digest an operator reviews and gives back to apply a plan. Each
// command defines its canonical text (what the apply step does, nothing that changes
// between two plannings of the same inputs); the integrity is always `sha256:<hex>` of it.
#pragma once

#include "../core/config.hpp"
#include "../digest/sha256.hpp"

#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace plan {

/// The integrity of a plan whose canonical text is `canonical`: `sha256:<64 hex>`.
inline std::string integrity_of(std::string_view canonical) {
  return digest::sha256_prefixed(canonical);
}

/// The same digest for a canonical text too large to build whole: `write(piece)` is
/// called with a function that takes each piece (std::string_view) in order.
template <class Writer>
std::string integrity_of_stream(Writer&& write) {
  digest::sha256 hash;
  write([&hash](std::string_view piece) { hash.update(piece); });
  return digest::prefixed(digest::to_hex(hash.finish()));
}

}  // namespace plan
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
