// SPDX-License-Identifier: MIT
// One memory of an agent as it travels (`memory/entries.jsonl`, bundle format 2), and the
// Store policy a memory backend provides (`sqlite::store` is the one the CLI links). Pure:
// no SQLite here, so a consumer who never reads memory needs no SQLite (docs/format.md).
#pragma once

#include "../core/config.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

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

/// Why a row of the agent did not travel.
enum class skip_reason {
  redacted_category,  ///< its category is one `[memory.policy] redact_categories` names
  conversation,       ///< a conversation row: a session's turn, which never travels (issue 47)
  credential_shape,   ///< its key or content looks like a credential
  not_utf8,           ///< its key or content is not UTF-8
  too_large,          ///< its line would pass max_line_bytes
};

/// What travelled of an agent's memory, for the report and the manifest (never the text).
struct summary {
  std::string backend = "sqlite";
  std::string embedding_model;                    ///< of the source store; vectors never travel
  std::size_t entries = 0;                        ///< rows in `memory/entries.jsonl`
  std::map<std::string, std::size_t> categories;  ///< travelled rows by category
  std::map<skip_reason, std::size_t> skipped;     ///< rows left home, by reason
  std::vector<std::string> redacted_categories;   ///< the categories that never travel
  std::size_t skipped_total() const noexcept {
    std::size_t n = 0;
    for (const auto& s : skipped) n += s.second;
    return n;
  }
};

/// What `memory::jsonl_checker` (memory/jsonl.hpp) found in a carried `memory/entries.jsonl`.
struct jsonl_check {
  std::size_t entries = 0;
  std::map<std::string, std::size_t> categories;
  /// {line number (1-based; 0: the whole file), what is wrong}; at most `max_problems`.
  std::vector<std::pair<std::size_t, std::string>> problems;
};

/// The problems `check_jsonl` reports at most (the first ones, in line order).
inline constexpr std::size_t max_problems = 20;

/// Where an export reads an agent's memory from: opens the store at `path` and reads the rows
/// of `alias` (one read transaction); returns the store's facts. Type-erased so that the
/// exporter never includes a backend: the CLI passes `as_source<sqlite::store>()`.
using source = std::function<store_facts(const std::string& path, std::string_view alias,
                                         const entry_visitor& visit)>;

/// The source over Store policy `S` (constructible from the store's path).
template <class S>
source as_source() {
  return [](const std::string& path, std::string_view alias, const entry_visitor& visit) {
    S store(path);
    store_facts facts = store.facts();
    store.read_agent(alias, visit);
    return facts;
  };
}

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
