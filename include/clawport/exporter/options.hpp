// SPDX-License-Identifier: MIT
// What an export is asked to do: export_options, apart from the exporter so that the
// compiled mode's declarations (compiled/api.hpp) can name it without the whole library.
#pragma once

#include "../bundle/limits.hpp"
#include "../core/time.hpp"
#include "../memory/entry.hpp"
#include "../signing/policy.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

struct export_result;

/// What to export and how.
struct export_options {
  std::string alias;        ///< the agent to export
  std::string config_path;  ///< absolute path of the install's config.toml
  std::string out;          ///< --out as the user typed it (used in messages and the report)
  std::string out_path;     ///< `out` made absolute (lexically, `..` kept); empty = `out`
  /// The user's home directory (the CLI passes $HOME): a destination that is or contains
  /// it is refused. Empty = not checked.
  std::string home;
  bool force = false;  ///< replace a non-empty destination directory
  bool sync = true;    ///< flush the staged tree (one syncfs) and fsync the parent
  std::string token;   ///< staging token; empty = random (tests inject one)
  std::optional<timestamp> exported_at;  ///< provenance time; empty = the clock
  /// Runs once the staged bundle is complete, just before publishing (the CLI's progress
  /// line names the phase; tests use it as a seam).
  std::function<void()> before_publish;
  /// Called once the new bundle is published over a previous one, before that one is
  /// removed (minutes for a large tree), with the result as `run` will return it but for
  /// the removal's warnings: the CLI prints its report here. Not called otherwise.
  std::function<void(const export_result&)> on_published;
  /// Called while that previous bundle is removed, with the entries removed so far (no
  /// total: counting would take a second walk). Not called otherwise.
  std::function<void(std::uint64_t removed)> on_removing;
  /// Called for every workspace entry the copy visits (for a progress line).
  std::function<void(std::uint64_t entries)> on_progress;
  /// Polled between steps, for every workspace entry and skill, and by the Publish policy
  /// before (and, for staged_swap, between) its renames: true = stop, roll back, throw
  /// errc::cancelled. The CLI sets a flag from its SIGINT/SIGTERM handler; the library
  /// keeps no signal state of its own.
  std::function<bool()> cancelled;
  /// What the bundle may hold: the one definition `verify` and `import` read with, so the
  /// export refuses (limit_exceeded, nothing written) what they would refuse.
  bundle::limits limits;
  /// When set, the Signer (signing/policy.hpp) of the digest list: its signature is written
  /// as zeroclaw-agent.sha256.sig into the staged bundle before it is published, so a
  /// failed signing publishes nothing. The dry run does not sign.
  signing::sign_function sign;
  /// Threads that copy and hash the workspace and skills (fs/jobs.hpp; used when the Fs
  /// policy is thread-safe): the bundle, its digest list, the report and the first error
  /// are those of one thread.
  unsigned jobs = 1;
  /// `--with-memory` (issue 47): when set, the agent's memory is read from the install's
  /// store through it and travels as `memory/entries.jsonl` (bundle format 2); empty = the
  /// bundle is format 1, byte for byte. The CLI passes `memory::as_source<sqlite::store>()`.
  memory::source memory;
};

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
