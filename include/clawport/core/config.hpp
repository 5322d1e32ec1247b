// SPDX-License-Identifier: MIT
// Compile-time configuration macros and the ABI namespace keyed on them. Define any of the
// macros before including clawport to change the default; every macro is documented in
// docs/library.md ("Configuration macros").
#pragma once

/// Size of the buffer used by the read/write fallback of file copies, by the export's
/// hashing copy and by verify, in bytes. 64 KiB: below glibc's default mmap threshold
/// (128 KiB), so the buffer comes from the heap; an mmap-backed buffer made every read
/// from the page cache spend ~3x the kernel time (docs/benchmarks.md).
/// A decimal integer literal (it names the ABI namespace below).
#ifndef CLAWPORT_COPY_BUFFER_SIZE
#define CLAWPORT_COPY_BUFFER_SIZE 65536
#endif

/// Deepest directory nesting a tree walk accepts before refusing with
/// `errc::limit_exceeded` (a guard against hostile, very deep trees).
/// A decimal integer literal (it names the ABI namespace below).
#ifndef CLAWPORT_MAX_TREE_DEPTH
#define CLAWPORT_MAX_TREE_DEPTH 256
#endif

/// Deepest TOML nesting any reader accepts (table-header and dotted-key components, inline
/// tables and arrays), checked on the text before it is parsed: errc::limit_exceeded.
#ifndef CLAWPORT_MAX_TOML_DEPTH
#define CLAWPORT_MAX_TOML_DEPTH 128
#endif

/// Largest install config.toml the export and `skills list` read, in bytes (16 MiB).
/// A plain integer literal: it is part of the ABI namespace's name.
#ifndef CLAWPORT_MAX_CONFIG_BYTES
#define CLAWPORT_MAX_CONFIG_BYTES 16777216
#endif

// Everything clawport declares lives in an inline namespace whose name carries the value of
// every configuration macro (abi_d256_b65536_t128_c16777216 by default), as toml++ and
// nlohmann/json do: two translation units built with different values define different functions
// instead of silently sharing one definition chosen by the linker (an ODR violation). Code names
// `clawport::fs::posix` as always; the inline namespace only shows in symbol names.
#define CLAWPORT_DETAIL_ABI_NAME2(depth, buffer, toml, config) \
  abi_d##depth##_b##buffer##_t##toml##_c##config
#define CLAWPORT_DETAIL_ABI_NAME(depth, buffer, toml, config) \
  CLAWPORT_DETAIL_ABI_NAME2(depth, buffer, toml, config)
/// The ABI namespace. Every header opens its namespace through it, explicitly:
///   namespace clawport {
///   inline namespace CLAWPORT_ABI_NAMESPACE {
///   namespace fs {
/// (`namespace clawport::fs {` would not do: clang does not extend a namespace declared
/// inside an inline namespace from a nested definition, and would put it outside).
#define CLAWPORT_ABI_NAMESPACE                                                 \
  CLAWPORT_DETAIL_ABI_NAME(CLAWPORT_MAX_TREE_DEPTH, CLAWPORT_COPY_BUFFER_SIZE, \
                           CLAWPORT_MAX_TOML_DEPTH, CLAWPORT_MAX_CONFIG_BYTES)

// The module namespaces, declared once inside the ABI namespace.
// A new module namespace is added here too (tools/check_layers.py checks it).
namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace detail {}
namespace paths {}
namespace utf8 {}
namespace regex {}
namespace text {}
namespace toml_adaptor {}
namespace toml_doc {}
namespace toml_writer {}
namespace json {}
namespace json5 {}
namespace yaml {}
namespace unicode {}
namespace unicode_data {}
namespace timezone_data {}
namespace fs {}
namespace names {}
namespace testing {}
namespace zeroclaw {}
namespace skills {}
namespace bundle {}
namespace digest {}
namespace publish {}
namespace plan {}
namespace process {}
namespace exporter_detail {}
namespace importer {}
namespace verify {}
namespace openclaw {}
namespace convert {}
namespace compiled {}
namespace crypto {}
namespace signing {}
namespace memory {}
namespace sqlite {}
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport

static_assert(CLAWPORT_COPY_BUFFER_SIZE > 0, "CLAWPORT_COPY_BUFFER_SIZE must be positive");
static_assert(CLAWPORT_MAX_TREE_DEPTH > 0, "CLAWPORT_MAX_TREE_DEPTH must be positive");
static_assert(CLAWPORT_MAX_TOML_DEPTH > 0, "CLAWPORT_MAX_TOML_DEPTH must be positive");
static_assert(CLAWPORT_MAX_CONFIG_BYTES > 0, "CLAWPORT_MAX_CONFIG_BYTES must be positive");
