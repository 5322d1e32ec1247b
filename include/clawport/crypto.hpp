// SPDX-License-Identifier: MIT
// Opt-in, NOT part of <clawport/clawport.hpp>: the libsodium cipher policy that
// `importer::set_secret` (`clawport secrets set`) takes. Include it explicitly and link
// libsodium: #include <clawport/crypto.hpp>. See docs/library.md, "Verify, import and
// the append-only config writer".
#pragma once

#include "crypto/sodium.hpp"
