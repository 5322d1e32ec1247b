// SPDX-License-Identifier: MIT
// What an import plans (docs/cli.md, `clawport import`): its options and the plan as data
// (entries, placements, secrets, to-do, memory); planned by importer/plan.hpp.
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"
#include "../verify/verify.hpp"
#include "file_stream.hpp"
#include "memory_step.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

/// What to import, from where, into which install.
struct import_options {
  std::string bundle;             ///< absolute path of the bundle directory
  std::string config_path;        ///< absolute path of the target's config.toml
  std::optional<std::string> as;  ///< `--as`: the agent's alias on the target
  std::vector<std::string> maps;  ///< `--map KIND.ALIAS=LOCAL`, as typed
  std::optional<timestamp> now;   ///< provenance time; empty = the clock
  verify::limits limits;          ///< the verify bounds
  /// Cleared from the mode of every placed file, as `cp` without `-p` does
  /// (fs::copied_mode). The CLI passes the process umask, read once; not part of the plan.
  std::uint32_t umask = 022;
  /// Threads that copy and hash the bundle's trees (fs/jobs.hpp; used when the Fs policy is
  /// thread-safe): what is placed, refused and reported is that of one. Not part of the plan.
  unsigned jobs = 1;
  /// When set, the bundle must be signed and this SignatureVerifier (signing/policy.hpp)
  /// must accept its signature; otherwise it is refused (errc::not_signed,
  /// signature_invalid, signer_untrusted) before anything is written.
  signing::verify_function require_signature;
  /// `--with-memory`: a format 2 bundle's memory merges into the target's store (`memory`,
  /// the CLI's SQLite target) for the new agent; without it the memory is left out.
  bool with_memory = false;
  memory::target memory;
  /// Refuse a bundle whose bytes no digest list authenticates (`--strict`; before anything
  /// is written, as any bundle that does not verify).
  bool strict = false;
  /// A progress count (issue 44 item 1): called while the bundle is hashed (`verifying`)
  /// and while apply copies its files (`copying`), with the files done and the total (0 =
  /// not known). Not part of the plan.
  std::function<void(std::string_view phase, std::uint64_t done, std::uint64_t total)> on_progress;
  /// Polled between files while the bundle is hashed and copied: true = stop, remove what
  /// was staged and throw errc::cancelled (the CLI sets it from its SIGINT/SIGTERM handler).
  /// Empty = never cancelled. Not part of the plan.
  std::function<bool()> cancelled;
};

/// One incoming entry and what the plan does with it.
struct entry_change {
  std::string kind;    ///< agent, risk_profile, model_provider, mcp_server, ...
  std::string from;    ///< its name in the bundle (`family.alias` for providers)
  std::string to;      ///< its name on the target
  std::string action;  ///< add, rename, reuse, map
  /// Why a rename: the entry or directory the name collides with and how to choose
  /// otherwise (`--map`, `--as`); empty for the other actions. Not hashed (it follows from
  /// the config and bundle the plan is hashed over).
  std::string reason;
};

/// A bundle entry the plan adds that the operator may replace with one of the target's
/// own (issue 27 item 3: a model provider): the target's entries of that kind, each a
/// `--map KIND.FROM=LOCAL` to plan again with. The mapped plan is checked as any other.
struct map_option {
  std::string kind;
  std::string from;                ///< the bundle's name
  std::vector<std::string> local;  ///< the target's entries of that kind
};

/// A tree of the bundle copied into the install.
struct placement {
  std::string kind;  ///< workspace, skill_bundle
  std::string from;  ///< bundle-relative (`workspace`, `skills/research_tools`)
  std::string to;    ///< install-relative (`agents/researcher_imported/workspace`)
};

/// One thing the target's operator does after the import (issue 27 item 1): what the
/// export told the source operator, with the paths as they will be on the target.
struct todo_item {
  /// `secret` (a credential to supply), `review` (a host-local setting that travelled and
  /// may not hold here), `memory` (after `--with-memory`: the runtime's reindex), `recreate`
  /// (configuration left behind, to set up again if wanted).
  std::string group;
  std::string kind;            ///< required_secret, secret_unlisted; a note kind; a drop reason
  std::string path;            ///< config path on the target (source path for a `recreate`)
  std::string detail;          ///< why, in the exporter's words
  text::command_line command;  ///< the command that does it, when there is one
};

/// The plan `clawport import` shows, and applies only when its integrity is given back.
struct import_plan {
  std::string bundle;
  std::string config_path;
  std::string install_root;
  std::string source_alias;  ///< the manifest's root_agent
  std::string alias;         ///< the agent as it will be installed
  std::string manifest_sha256;
  /// The principal whose signature the plan checked (import_options::require_signature);
  /// empty when none was required.
  std::string signed_by;
  std::string signature_sha256;  ///< digest of zeroclaw-agent.sha256.sig, when checked
  std::string exported_at;
  std::string producer;
  std::vector<entry_change> entries;
  std::vector<placement> placements;
  std::vector<verify::finding> risk_flags;  ///< {kind, path (renamed), detail}
  std::vector<std::string> secrets;         ///< config paths to supply, renamed
  std::vector<verify::finding> warnings;    ///< verify's warnings (an unauthenticated bundle)
  /// The target operator's to-do list, grouped secret, review, memory, recreate (not hashed into
  /// plan_integrity: it is what the manifest, whose digest is, says to do afterwards).
  std::vector<todo_item> todo;
  /// The model providers the plan adds that the target could supply instead (not hashed:
  /// they follow from the config the plan is hashed over).
  std::vector<map_option> map_options;
  /// The memory merged into the target's store (`--with-memory`, a format 2 bundle).
  std::optional<memory_merge> memory;
  bool config_exists = false;
  std::string config_before;  ///< the target config's bytes, as planned against
  zeroclaw::value additions = zeroclaw::value::make_table();  ///< the tables to append
  std::string appended;  ///< additions as TOML (after the provenance comment)
  /// The bundle's files as verified: the digest of their digest-list lines in path order
  /// (importer/file_stream.hpp), which the apply reads again and checks each copied file
  /// against; not the files themselves (kept only for a bundle whose list cannot be read
  /// again in path order).
  file_stream files;
  std::string plan_integrity;  ///< `sha256:<hex>`
  /// Planned for applying: the bytes below `workspace/` and `skills/` were not read, their
  /// digests are the digest list's, and apply checks every one as it copies it (never part
  /// of the plan's JSON or integrity: the digests are the same either way).
  bool bytes_deferred = false;
};

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
