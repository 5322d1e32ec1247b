// SPDX-License-Identifier: MIT
// Where `import --with-memory` merges an agent's memory (issue 47 item 5): a target store,
// type-erased like memory::source, so the importer never includes a backend (the CLI passes
// `sqlite::import_target()`). The merge is the new agent's alone: its `agents` row (a new
// UUID) and its rows, all in one transaction; undone by removing that agent's rows.
#pragma once

#include "../core/config.hpp"
#include "entry.hpp"

#include <cstddef>
#include <functional>
#include <random>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace memory {

/// What a target store says before an import plans against it.
struct target_facts {
  bool exists = false;             ///< the store has the runtime's tables (else it is created)
  bool alias_taken = false;        ///< an `agents` row has the alias
  std::size_t alias_memories = 0;  ///< that agent's rows
};

/// The rows of one import, given one at a time to the visitor.
using entry_rows = std::function<void(const entry_visitor&)>;

/// One merge: the new agent and its rows.
struct merge_request {
  std::string agent_id;    ///< a new UUID v4
  std::string alias;       ///< the agent's alias on the target
  std::string created_at;  ///< `agents.created_at`, RFC 3339
  entry_rows rows;
};

/// A store an import merges into. `inspect(path, alias)` reads; `merge(path, request)`
/// creates the store with the runtime's schema when it has none, then inserts the agent and
/// its rows in one transaction (all or nothing), refusing an alias the store has; returns the
/// rows inserted; `remove_agent(path, agent_id)` removes that agent's rows and `agents` row in
/// one transaction (what undoes a merge), returning the rows removed (0 when none).
struct target {
  std::function<target_facts(const std::string& path, std::string_view alias)> inspect;
  std::function<std::size_t(const std::string& path, const merge_request& request)> merge;
  std::function<std::size_t(const std::string& path, std::string_view agent_id)> remove_agent;
  explicit operator bool() const noexcept {
    return static_cast<bool>(inspect) && static_cast<bool>(merge) &&
           static_cast<bool>(remove_agent);
  }
};

/// A new UUID v4 (lower-case, hyphenated), as the runtime mints an agent's and a row's id.
inline std::string new_uuid() {
  static constexpr char digits[] = "0123456789abcdef";
  std::random_device device;
  unsigned char b[16];
  for (unsigned char& c : b) c = static_cast<unsigned char>(device() & 0xffU);
  b[6] = static_cast<unsigned char>((b[6] & 0x0fU) | 0x40U);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3fU) | 0x80U);  // RFC 4122 variant
  std::string out;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(digits[b[i] >> 4]);
    out.push_back(digits[b[i] & 15]);
  }
  return out;
}

}  // namespace memory
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
