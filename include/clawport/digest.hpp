// SPDX-License-Identifier: MIT
// Content digests: the Digest policy and SHA-256 (hardware-accelerated where the CPU can).
#pragma once

#include "digest/list.hpp"
#include "digest/policy.hpp"
#include "digest/sha256.hpp"
