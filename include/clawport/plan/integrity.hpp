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

/// The integrity of a plan whose canonical text is written in pieces: `write(put)` calls
/// `put(std::string_view)` with each piece in order, so a text too large to build whole (an
/// import of a million files) needs no copy of it. `sha256:<64 hex>` of the concatenation.
template <class Writer>
std::string integrity_of_stream(Writer&& write) {
  digest::sha256 hash;
  write([&hash](std::string_view piece) { hash.update(piece); });
  return digest::prefixed(digest::to_hex(hash.finish()));
}

/// The integrity of a plan whose canonical text is `canonical` (one piece).
inline std::string integrity_of(std::string_view canonical) {
  return integrity_of_stream([canonical](const auto& put) { put(canonical); });
}

/// Whether `given` has the shape of an integrity, `sha256:` and 64 lowercase hex digits: a
/// truncated or mistyped one is told as such, not as "the plan changed".
inline bool well_formed(std::string_view given) noexcept {
  constexpr std::string_view prefix = "sha256:";
  if (given.size() != prefix.size() + 64 || given.substr(0, prefix.size()) != prefix) return false;
  for (const char c : given.substr(prefix.size()))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace plan
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
