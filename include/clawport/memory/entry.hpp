// SPDX-License-Identifier: MIT
// One memory of an agent as it travels (`memory/entries.jsonl`, bundle format 2), and the
// Store policy a memory backend provides (`sqlite::store` is the one the CLI links). Pure:
// no SQLite here, so a consumer who never reads memory needs no SQLite (docs/format.md).
#pragma once

#include "../core/config.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace memory {

/// One row of ZeroClaw's `memories` table, without what never travels (id, embedding,
/// session_id, tenant_id, agent_id, superseded_by).
struct entry {
  std::string key;
  std::string content;
  std::string category = "core";
  std::optional<std::string> kind;  ///< serde-JSON `MemoryKind` text, as stored
  std::string ns = "default";       ///< `namespace`
  double importance = 0.5;
  bool pinned = false;
  std::string created;  ///< `created_at`, RFC 3339 as stored
  std::string updated;  ///< `updated_at`
};

/// What an agent's store says about itself beside its rows.
struct store_facts {
  std::string backend = "sqlite";
  std::string embedding_model;  ///< `memory_meta.embedding_model`; empty when none is recorded
};

/// The visitor a Store calls once per row, inside one read transaction.
using entry_visitor = std::function<void(const entry&)>;

namespace detail {
template <class S, class = void>
struct has_read_agent : std::false_type {};
template <class S>
struct has_read_agent<S,
                      std::void_t<decltype(std::declval<S&>().read_agent(
                          std::declval<std::string_view>(), std::declval<const entry_visitor&>()))>>
    : std::true_type {};
template <class S, class = void>
struct has_facts : std::false_type {};
template <class S>
struct has_facts<S, std::void_t<decltype(store_facts(std::declval<S&>().facts()))>>
    : std::true_type {};
}  // namespace detail

/// Checks a Store policy whole: one message per missing member.
///   `read_agent(alias, visitor)`: every row of the agent `alias` in one read transaction (a
///   consistent snapshot while the runtime writes), in (created, key) order; returns the count;
///   `facts()`: the store's backend and embedding model.
template <class S>
constexpr bool check_store_policy() {
  static_assert(detail::has_read_agent<S>::value,
                "memory Store policy: needs read_agent(std::string_view alias, const "
                "memory::entry_visitor&) reading one agent's rows in one read transaction");
  static_assert(detail::has_facts<S>::value,
                "memory Store policy: needs facts() returning memory::store_facts");
  return true;
}

}  // namespace memory
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
