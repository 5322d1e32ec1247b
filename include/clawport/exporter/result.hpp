// SPDX-License-Identifier: MIT
// What an export returns: the plan (closure, secrets, drops, risk flags, host-local notes),
// the copy counts, and how it was published. The report and the JSON are rendered from it.
#pragma once

#include "../memory/entry.hpp"
#include "../publish/policy.hpp"
#include "../zeroclaw/plan.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

/// Counts of one copy (docs/library.md, Exporting): one for the workspace, one shared by all
/// skills.
struct copy_counts {
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  std::uint64_t symlinks = 0;    ///< symlinks skipped
  std::uint64_t special = 0;     ///< sockets, FIFOs and devices skipped
  std::uint64_t hard_links = 0;  ///< files with more than one name skipped
  std::uint64_t replaced = 0;    ///< entries replaced between classification and open
  std::uint64_t names = 0;       ///< entries whose name a bundle cannot carry (unportable_name)
};

/// The outcome of one export (or dry run).
struct export_result {
  std::string alias;        ///< the exported agent
  std::string out;          ///< --out as the caller gave it (printed as typed)
  std::string destination;  ///< the resolved absolute destination
  copy_counts workspace;
  copy_counts skills;
  std::size_t skill_bundles = 0;  ///< skill bundles that carried content
  zeroclaw::export_plan plan;     ///< after record_missing_* (what the manifest says)
  std::string exported_at;        ///< provenance.exported_at
  publish::outcome publish;       ///< strategy, guarantee, warnings
  bool dry_run = false;           ///< nothing was written
  /// --force replaced a non-empty directory that held no zeroclaw-agent.toml: whatever it
  /// was, it was not a bundle (upstream replaces it silently; clawport says so).
  bool replaced_non_bundle = false;
  /// The bundle carries zeroclaw-agent.sha256.sig (export_options::sign).
  bool signed_bundle = false;
  /// `--with-memory`: what of the agent's memory travelled (counts, never text).
  std::optional<memory::summary> memory;
  /// The workspace held its memory store (`memory/`) and `MEMORY_SNAPSHOT.md`: the manifest
  /// lists both as dropped always (as upstream); the human report only what was there and
  /// did not travel (issue 44 item 11).
  bool had_memory_store = false;
  bool had_memory_snapshot = false;
};

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
