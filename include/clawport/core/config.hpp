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

/// Deepest TOML nesting any reader accepts (table-header and dotted-key components, inline
/// tables and arrays), checked on the text before it is parsed: errc::limit_exceeded.
#ifndef CLAWPORT_MAX_TOML_DEPTH
#define CLAWPORT_MAX_TOML_DEPTH 128
#endif

/// Largest install config.toml the export and `skills list` read, in bytes.
#ifndef CLAWPORT_MAX_CONFIG_BYTES
#define CLAWPORT_MAX_CONFIG_BYTES (16 * 1024 * 1024)
#endif
