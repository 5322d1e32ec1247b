// SPDX-License-Identifier: MIT
// What of an agent's workspace is its memory or its user's private data, and so never leaves
// the install it lives in (issue 30, docs/format.md "Memory stays home"): the one rule for the
// ZeroClaw export, `verify`, `convert` in both directions and `claw export`. Pure.
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"

#include <cstddef>
#include <optional>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace bundle {

/// Which kind of private data a workspace entry is.
enum class private_kind {
  memory_store,     ///< `memory/`: the memory store (ZeroClaw's SQLite, OpenClaw's daily notes)
  memory_snapshot,  ///< `MEMORY_SNAPSHOT.md`: an export of the core memories
  memory_file,      ///< `MEMORY.md` in either case: Markdown memory, curated long-term memory
  user_profile,     ///< `USER.md` in either case: who the user is
};

/// The kind of private data the workspace entry `relative` ('/'-separated, from the workspace
/// root) is, or nothing when it is ordinary content. Anchored at the workspace root: the
/// store by its first component `memory`, the three files by their name at the root. A
/// directory is private when it is `memory`; an entry below it is private too.
constexpr std::optional<private_kind> private_workspace_entry(std::string_view relative) noexcept {
  const std::string_view first = relative.substr(0, relative.find('/'));
  if (first == "memory") return private_kind::memory_store;
  if (first.size() != relative.size()) return std::nullopt;
  if (relative == "MEMORY_SNAPSHOT.md") return private_kind::memory_snapshot;
  if (text::iequals_ascii(relative, "MEMORY.md")) return private_kind::memory_file;
  if (text::iequals_ascii(relative, "USER.md")) return private_kind::user_profile;
  return std::nullopt;
}

/// Why an entry of `kind` stays home, for a `dropped` detail or a loss report.
constexpr std::string_view private_reason(private_kind kind) noexcept {
  switch (kind) {
    case private_kind::memory_store:
      return "the memory store holds what the agent remembered about its user and their "
             "conversations; an imported agent starts with an empty memory";
    case private_kind::memory_snapshot:
      return "the memory snapshot is an export of the agent's core memories, which an agent "
             "re-hydrates its store from; it stays with the store it came from";
    case private_kind::memory_file:
      return "MEMORY.md is the agent's memory (ZeroClaw's Markdown memory backend appends core "
             "memories to it and injects it into prompts; OpenClaw's curated long-term "
             "memory); an imported agent starts with an empty memory";
    case private_kind::user_profile:
      return "USER.md says who the user is; it describes this install's user, not the agent";
  }
  return "private data";
}

}  // namespace bundle
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
