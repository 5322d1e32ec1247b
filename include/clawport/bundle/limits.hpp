// SPDX-License-Identifier: MIT
// What a bundle may hold, in numbers: one `limits` for the producer (the exporter refuses to
// write past them) and the consumers (`verify` and `import` refuse to read past them), so a
// bundle one command writes is one the others read (docs/format.md, "Limits").
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "layout.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace bundle {

/// The bounds of a bundle (docs/cli.md, "verify limits"). A test or an embedder may lower
/// them; the CLI uses these defaults for export, verify and import alike.
struct limits {
  /// Regular files in the bundle: 2^20, a million files and the bundle's own. verify and
  /// the digest list stream, so memory does not grow with it (docs/format.md, "Limits").
  std::uint64_t max_files = 1u << 20;
  std::uint64_t max_total_bytes = 8ull << 30;        ///< sum of their sizes (8 GiB)
  std::size_t max_depth = 64;                        ///< directory nesting below the root
  std::size_t max_name_bytes = 255;                  ///< one path component
  std::uint64_t max_manifest_bytes = 1u << 20;       ///< zeroclaw-agent.toml (1 MiB)
  std::uint64_t max_config_bytes = 4u << 20;         ///< config.toml (4 MiB)
  std::uint64_t max_digest_list_bytes = 256u << 20;  ///< zeroclaw-agent.sha256 (256 MiB)
  std::uint64_t max_signature_bytes = 64u << 10;     ///< zeroclaw-agent.sha256.sig (64 KiB)
  std::uint64_t max_memory_bytes = 256u << 20;       ///< memory/entries.jsonl (256 MiB; format 2)

  /// How deep directories may nest below the bundle directory `dir` ("workspace" is at
  /// depth 1, "skills/<alias>/<skill>" at 3): what a tree walk rooted there may descend.
  std::size_t depth_below(std::string_view dir) const noexcept {
    std::size_t depth = dir.empty() ? 0 : 1;
    for (const char c : dir) depth += c == '/' ? 1 : 0;
    return depth >= max_depth ? 0 : max_depth - depth;
  }

  /// The byte limit of a root file of the bundle (0: none of its own).
  std::uint64_t file_limit(std::string_view path) const noexcept {
    if (path == manifest_file) return max_manifest_bytes;
    if (path == config_file) return max_config_bytes;
    if (path == digest_list_file) return max_digest_list_bytes;
    if (path == signature_file) return max_signature_bytes;
    if (path == memory_entries_file) return max_memory_bytes;
    return 0;
  }
};

/// The producer's check of a bundle it is about to write: `name` (a root file) of `size`
/// bytes, or the totals. Throws errc::limit_exceeded with the finding `verify` would give.
inline void check_file_limit(const limits& lim, std::string_view name, std::uint64_t size) {
  const std::uint64_t max = lim.file_limit(name);
  if (max == 0 || size <= max) return;
  throw error(errc::limit_exceeded,
              std::string(name) + " would be " + std::to_string(size) +
                  " bytes; a bundle's limit is " + std::to_string(max) +
                  ", so `clawport verify` and `import` would refuse it (limit_exceeded); "
                  "nothing was written",
              std::string(name));
}

inline void check_totals(const limits& lim, std::uint64_t files, std::uint64_t bytes) {
  const auto refuse_over = [](std::uint64_t count, std::uint64_t max, const char* what) {
    if (count <= max) return;
    throw error(errc::limit_exceeded,
                "the bundle would hold " + std::to_string(count) + " " + what + "; the limit is " +
                    std::to_string(max) +
                    ", so `clawport verify` and `import` would refuse it; nothing was written",
                "workspace");
  };
  refuse_over(files, lim.max_files, "files");
  refuse_over(bytes, lim.max_total_bytes, "bytes");
}

}  // namespace bundle
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
