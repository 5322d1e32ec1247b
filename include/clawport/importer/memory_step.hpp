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
#include "../fs/open_path.hpp"
#include "../fs/read_file.hpp"
#include "../memory/jsonl.hpp"
#include "../memory/markdown.hpp"
#include "../memory/target.hpp"
#include "../verify/report.hpp"
#include "staged_copy.hpp"

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
  /// memory/entries.jsonl's SHA-256 as verify read it (not rendered, not hashed into the
  /// plan: the file stream binds it): the merge reads the rows again from the bundle, line
  /// by line, and rolls back unless the bytes it read have this digest.
  std::string jsonl_sha256;
  /// The new agent is on the Markdown backend (its own `memory.backend`, else the target's
  /// `[memory] backend`): the memories become these files of its new workspace (path below
  /// the workspace -> text, memory::to_markdown), created with it, instead of store rows.
  std::map<std::string, std::string> markdown;
};

namespace detail {

/// The rows of the bundle `bundle`'s memory/entries.jsonl, read again (the one bounded
/// reader, in chunks: `fs::try_read_file_chunks_at`, at most `max` bytes) and parsed one line
/// at a time as they are given to the visitor, never held whole; after the last row the bytes
/// read must have the digest `sha256` verify took, else errc::identity_changed (the bundle
/// changed since it was verified: a merge inside one transaction then rolls back).
template <class Fs>
memory::entry_rows bundle_rows(Fs& fs, const std::string& bundle, const std::string& sha256,
                               std::uint64_t max) {
  return [&fs, bundle, sha256, max](const memory::entry_visitor& visit) {
    const std::string file(bundle::memory_entries_file);
    const auto root = fs.open_root(bundle);
    const fs::path_result<Fs> dir = fs::try_open_path(fs, root, bundle::memory_dir);
    if (!dir.ok()) throw bundle_changed("its memory/ is gone or was replaced", file);
    digest::sha256 hash;
    memory::jsonl_reader rows(visit);
    const fs::read_result r = fs::try_read_file_chunks_at(
        fs, dir.get(root), paths::file_name(file), max, fs::read_kinds::regular,
        [&hash, &rows](std::string_view chunk, const fs::stat_info&) {
          hash.update(chunk);
          rows.feed(chunk);
        });
    if (r.refusal != fs::read_refusal::none)
      throw bundle_changed(file + " is gone, was replaced or changed size", file);
    if (digest::to_hex(hash.finish()) != sha256)
      throw bundle_changed(file + " is not the file verified", file);
    rows.finish();
  };
}

/// The plan's memory: with `with_memory` and a bundle that carries memory, what merges into
/// `target`'s store for `alias` (refused when the store already has that alias); otherwise
/// none. The rows are read again from the bundle (`bundle_rows`) where they are needed: at
/// the merge, or here for the Markdown backend's files. Throws errc::unsupported without a
/// target, errc::destination_refused on a taken alias.
template <class Fs>
std::optional<memory_merge> plan_memory(Fs& fs, const verify::report& rep, bool with_memory,
                                        const memory::target& target,
                                        const std::string& install_root, const std::string& alias,
                                        bool markdown_backend, const std::string& bundle_path,
                                        const verify::limits& lim) {
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
  const verify::bundle_file* verified = rep.file(bundle::memory_entries_file);
  if (verified == nullptr)
    throw bundle_changed("its memory/entries.jsonl was not read",
                         std::string(bundle::memory_entries_file));
  m.jsonl_sha256 = verified->sha256;
  if (markdown_backend) {
    // The files are the target's form, made whole; the rows are read once to make them.
    std::vector<memory::entry> rows;
    bundle_rows(fs, bundle_path, m.jsonl_sha256,
                lim.max_memory_bytes)([&rows](const memory::entry& e) { rows.push_back(e); });
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

/// Merges the plan's memory for agent `agent_id` (the UUID the intent records), its rows
/// from `rows` (`bundle_rows`: streamed from the verified bundle); the rows inserted must be
/// the planned count.
inline void merge_memory(const memory::target& target, const std::string& install_root,
                         const memory_merge& m, const std::string& alias,
                         const std::string& agent_id, const std::string& now,
                         memory::entry_rows rows) {
  memory::merge_request r;
  r.agent_id = agent_id;
  r.alias = alias;
  r.created_at = now;
  r.rows = std::move(rows);
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
