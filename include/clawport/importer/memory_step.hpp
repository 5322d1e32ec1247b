// SPDX-License-Identifier: MIT
// `import --with-memory` (issue 47 item 5): the memory a format 2 bundle carries merged into
// the target's store for the new agent only (memory::target; the CLI's is SQLite). Planned:
// the store, whether it is created, the counts, all hashed into the plan's integrity. Applied
// inside the import's intent (publish/intent.hpp records the store and the new agent's UUID
// before the rows are added), after the trees are published and before the config commits:
// a kill before the commit is undone by the re-run or `recover` (the agent's rows removed),
// after it the import is complete. Without --with-memory the memory is left out, and said so.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../digest/sha256.hpp"
#include "../memory/jsonl.hpp"
#include "../memory/markdown.hpp"
#include "../memory/target.hpp"
#include "../verify/report.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

/// The install-relative memory store an import merges into (ZeroClaw's `data/memory/brain.db`).
inline constexpr std::string_view memory_store_rel = "data/memory/brain.db";

/// The memory an import merges (`import_plan::memory`).
struct memory_merge {
  std::string store = std::string(memory_store_rel);  ///< install-relative
  bool create = false;      ///< the target has no store: made with the runtime's schema
  std::size_t entries = 0;  ///< rows merged for the new agent
  std::map<std::string, std::size_t> categories;
  std::string embedding_model;  ///< the source's; vectors never travel (reindex on the target)
  std::string jsonl;            ///< memory/entries.jsonl as verified (not rendered, not hashed)
  /// The new agent is on the Markdown backend (its own `memory.backend`, else the target's
  /// `[memory] backend`): the memories become these files of its new workspace (path below
  /// the workspace -> text, memory::to_markdown), created with it, instead of store rows.
  std::map<std::string, std::string> markdown;
};

namespace detail {

/// The plan's memory: with `with_memory` and a bundle that carries memory, what merges into
/// `target`'s store for `alias` (refused when the store already has that alias); otherwise
/// none. Takes the text verify kept (`rep.memory_text`). Throws errc::unsupported without a target,
/// errc::destination_refused on a taken alias.
inline std::optional<memory_merge> plan_memory(verify::report& rep, bool with_memory,
                                               const memory::target& target,
                                               const std::string& install_root,
                                               const std::string& alias, bool markdown_backend) {
  if (!rep.memory || !with_memory) return std::nullopt;
  if (!target && !markdown_backend)
    throw error(errc::unsupported,
                "--with-memory needs a memory store backend (the CLI links SQLite); import "
                "without --with-memory to leave the memory out",
                std::string(bundle::memory_entries_file));
  memory_merge m;
  m.entries = rep.memory->entries;
  m.categories = rep.memory->categories;
  m.embedding_model = rep.memory->embedding_model;
  if (markdown_backend) {
    std::vector<memory::entry> rows;
    memory::read_jsonl(rep.memory_text, [&rows](const memory::entry& e) { rows.push_back(e); });
    m.markdown = memory::to_markdown(rows);
    m.store.clear();
    return m;
  }
  const std::string path = paths::join(install_root, m.store);
  const memory::target_facts f = target.inspect(path, alias);
  if (f.alias_taken)
    throw error(errc::destination_refused,
                "the memory store " + path + " already has an agent `" + alias + "` (" +
                    std::to_string(f.alias_memories) +
                    " memories), whose rows an import never touches; import under another "
                    "alias (--as) or without --with-memory; nothing was written",
                path);
  m.create = !f.exists;
  m.jsonl = std::move(rep.memory_text);  // held once (100,000 memories: tens of MB)
  return m;
}

/// Each Markdown file's SHA-256 (what the canonical text binds, not the text).
inline std::map<std::string, std::string> markdown_digests(
    const std::map<std::string, std::string>& files) {
  std::map<std::string, std::string> out;
  for (const auto& [path, text] : files) out[path] = digest::sha256_hex(text);
  return out;
}

/// The memory part of the plan's canonical text (absent without a merge: a plan that
/// merges memory has another integrity than one that leaves it out). Whether the store is
/// created is not part of it: a store with the runtime's schema and none of this agent's
/// rows (what an undone run, or the runtime's first start, leaves) takes the same merge.
inline void canonical_memory(const std::optional<memory_merge>& m, nlohmann::json& j) {
  if (!m) return;
  j["memory"] = {{"store", m->store}, {"entries", m->entries}, {"categories", m->categories}};
}

/// Merges the plan's memory for agent `agent_id` (the UUID the intent records); the rows
/// inserted must be the planned count.
inline void merge_memory(const memory::target& target, const std::string& install_root,
                         const memory_merge& m, const std::string& alias,
                         const std::string& agent_id, const std::string& now) {
  memory::merge_request r;
  r.agent_id = agent_id;
  r.alias = alias;
  r.created_at = now;
  const std::string& text = m.jsonl;
  r.rows = [&text](const memory::entry_visitor& visit) { memory::read_jsonl(text, visit); };
  const std::string path = paths::join(install_root, m.store);
  const std::size_t n = target.merge(path, r);
  if (n != m.entries)
    throw error(errc::identity_changed,
                "merged " + std::to_string(n) + " memories into " + path + " where the plan had " +
                    std::to_string(m.entries),
                path);
}

}  // namespace detail
}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
