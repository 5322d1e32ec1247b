// SPDX-License-Identifier: MIT
// ZeroClaw's V3 memory store schema (`brain.db`), the one text of it in the project: what
// `import --with-memory` creates on a target without a store, and what
// tools/make_example_memory.py reads (between the `R"sql(` and `)sql"` markers) to make the
// example's and the tests' stores. It is the runtime's after `init_schema`,
// `migrate_sqlite_memory_to_v3` and `init_schema` again (ZeroClaw's
// crates/zeroclaw-memory/src/sqlite.rs; docs/format.md, "Format 2").
#pragma once

#include "../core/config.hpp"

#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace sqlite {

/// The pragmas every runtime connection sets (WAL, foreign keys).
inline constexpr std::string_view runtime_pragmas =
    "PRAGMA foreign_keys=ON; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
    "PRAGMA mmap_size=8388608; PRAGMA cache_size=-2000; PRAGMA temp_store=MEMORY;";

/// The tables, indexes and triggers, in the runtime's order.
inline constexpr std::string_view schema_sql = R"sql(
CREATE TABLE agents (
    id         TEXT PRIMARY KEY,
    alias      TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
CREATE TABLE memories (
    id            TEXT PRIMARY KEY,
    key           TEXT NOT NULL,
    content       TEXT NOT NULL,
    category      TEXT NOT NULL DEFAULT 'core',
    embedding     BLOB,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    session_id    TEXT,
    namespace     TEXT DEFAULT 'default',
    importance    REAL DEFAULT 0.5,
    superseded_by TEXT,
    agent_id      TEXT NOT NULL REFERENCES agents(id),
    UNIQUE (agent_id, key)
);
ALTER TABLE memories ADD COLUMN kind TEXT;
ALTER TABLE memories ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE memories ADD COLUMN tenant_id TEXT;
CREATE INDEX idx_memories_category ON memories(category);
CREATE INDEX idx_memories_key ON memories(key);
CREATE INDEX idx_memories_session ON memories(session_id);
CREATE INDEX idx_memories_namespace ON memories(namespace);
CREATE INDEX idx_memories_agent_id ON memories(agent_id);
CREATE INDEX idx_memories_namespace_category ON memories(namespace, category);
CREATE VIRTUAL TABLE memories_fts USING fts5(
    key, content, content=memories, content_rowid=rowid
);
CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, key, content)
    VALUES (new.rowid, new.key, new.content);
END;
CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, key, content)
    VALUES ('delete', old.rowid, old.key, old.content);
END;
CREATE TRIGGER memories_au AFTER UPDATE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, key, content)
    VALUES ('delete', old.rowid, old.key, old.content);
    INSERT INTO memories_fts(rowid, key, content)
    VALUES (new.rowid, new.key, new.content);
END;
CREATE TABLE embedding_cache (
    content_hash TEXT PRIMARY KEY,
    embedding    BLOB NOT NULL,
    created_at   TEXT NOT NULL,
    accessed_at  TEXT NOT NULL
);
CREATE INDEX idx_cache_accessed ON embedding_cache(accessed_at);
CREATE TABLE memory_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE schema_version (
    component  TEXT PRIMARY KEY,
    version    INTEGER NOT NULL,
    applied_at TEXT NOT NULL
);
)sql";

/// The `schema_version` row V3 writes (`SQLITE_MEMORY_SCHEMA_VERSION`).
inline constexpr std::string_view schema_component = "memories";
inline constexpr int schema_version = 1;

/// The `default` agent a runtime store always holds.
inline constexpr std::string_view default_alias = "default";

}  // namespace sqlite
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
