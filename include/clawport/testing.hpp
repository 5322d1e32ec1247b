// SPDX-License-Identifier: MIT
// Opt-in test support, NOT part of <clawport/clawport.hpp>: the Fs backends for tests,
// fs::memory (an in-memory filesystem that behaves like Linux) and fs::faulty<B> (fault
// injection, race hooks and simulated crashes over any backend). Include it explicitly
// from test code: #include <clawport/testing.hpp>. See docs/library.md, "Test backends".
#pragma once

#include "testing/faulty.hpp"
#include "testing/memory.hpp"
