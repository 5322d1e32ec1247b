// SPDX-License-Identifier: MIT
// Compile-time configuration macros. Define any of them before including clawport
// to change the default; every macro is documented in docs/library.md.
#pragma once

/// Size of the buffer used by the read/write fallback of file copies, in bytes.
#ifndef CLAWPORT_COPY_BUFFER_SIZE
#define CLAWPORT_COPY_BUFFER_SIZE (128 * 1024)
#endif

/// Deepest directory nesting a tree walk accepts before refusing with
/// `errc::limit_exceeded` (a guard against hostile, very deep trees).
#ifndef CLAWPORT_MAX_TREE_DEPTH
#define CLAWPORT_MAX_TREE_DEPTH 256
#endif
