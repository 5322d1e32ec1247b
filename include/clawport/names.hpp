// SPDX-License-Identifier: MIT
// Portable names: the composable name grammar (names::portable, a Names policy) and the
// identity-path normalization built on it.
#pragma once

#include "names/grammar.hpp"
#include "names/identity_path.hpp"
