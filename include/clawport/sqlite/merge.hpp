// SPDX-License-Identifier: MIT
// `import --with-memory` into ZeroClaw's SQLite store (issue 47 item 5): the new agent's
// `agents` row and its memories inserted in one `BEGIN IMMEDIATE` transaction (a kill leaves
// the store as it was: SQLite rolls the transaction back), embeddings NULL, the FTS index
// kept in step by the store's own triggers; a target without a store gets one with exactly
// the runtime's schema (sqlite/schema.hpp) in that same transaction. Never another agent's
// rows: the alias must be new to the store. Undone by `remove_agent`.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../memory/entry.hpp"
#include "../memory/target.hpp"
#include "schema.hpp"
#include "store.hpp"

#include <sqlite3.h>

#include <cerrno>
#include <cstddef>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace sqlite {

namespace detail {

/// A read-write connection to a store (created when `create`), symlinks refused, defensive,
/// the runtime's pragmas set; null when the file is absent and not to be created.
class connection {
 public:
  connection(const std::string& path, bool create) : path_(path) {
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX |
                      (create ? SQLITE_OPEN_CREATE : 0);
    if (::sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      const bool absent = !create && db_ != nullptr && ::sqlite3_system_errno(db_) == ENOENT;
      const std::string why = db_ != nullptr ? ::sqlite3_errmsg(db_) : "out of memory";
      ::sqlite3_close(db_);
      db_ = nullptr;
      if (absent) return;
      throw error(errc::io, "cannot open the memory store " + path + " (" + why + ")", path);
    }
    // The install's own store (a bundle never carries a database file): its triggers must
    // run, since they keep the FTS index in step, and SQLite calls an FTS5 table written by
    // a trigger unsafe unless the schema is trusted. Defensive still: no writable_schema.
    ::sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 1, nullptr);
    ::sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    ::sqlite3_busy_timeout(db_, 5000);
    try {
      exec(std::string(runtime_pragmas));
    } catch (...) {
      ::sqlite3_close(db_);
      throw;
    }
  }
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  ~connection() { ::sqlite3_close(db_); }
  explicit operator bool() const noexcept { return db_ != nullptr; }
  sqlite3* get() const noexcept { return db_; }
  const std::string& path() const noexcept { return path_; }

  void exec(const std::string& sql) {
    if (::sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
      fail(sql.substr(0, sql.find(' ')));
  }
  [[noreturn]] void fail(const std::string& what) {
    throw error(errc::io,
                "memory store " + path_ + ": " + what + " failed (" + ::sqlite3_errmsg(db_) + ")",
                path_);
  }
  /// Runs `body` inside BEGIN IMMEDIATE ... COMMIT; rolled back when it throws.
  template <class F>
  void transaction(F&& body) {
    exec("BEGIN IMMEDIATE");
    try {
      body();
    } catch (...) {
      ::sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    exec("COMMIT");
  }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

inline void bind_text(sqlite3_stmt* s, int i, std::string_view text) {
  ::sqlite3_bind_text(s, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

/// The single integer a query returns (0 without a row).
inline std::int64_t count(connection& c, std::string_view sql, std::string_view arg = {}) {
  statement q(c.get(), sql, c.path());
  if (sql.find('?') != std::string_view::npos) bind_text(q.get(), 1, arg);
  const int rc = ::sqlite3_step(q.get());
  if (rc == SQLITE_ROW) return ::sqlite3_column_int64(q.get(), 0);
  if (rc != SQLITE_DONE) c.fail("reading the store");
  return 0;
}

inline bool has_tables(connection& c) {
  return count(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'memories'") >
         0;
}

/// The runtime's schema, its `schema_version` row and its `default` agent.
inline void create_schema(connection& c, const std::string& now) {
  c.exec(std::string(schema_sql));
  statement v(c.get(), "INSERT INTO schema_version VALUES (?1, ?2, ?3)", c.path());
  bind_text(v.get(), 1, schema_component);
  ::sqlite3_bind_int(v.get(), 2, schema_version);
  bind_text(v.get(), 3, now);
  if (::sqlite3_step(v.get()) != SQLITE_DONE) c.fail("writing schema_version");
  statement a(c.get(), "INSERT INTO agents VALUES (?1, ?2, ?3)", c.path());
  const std::string id = memory::new_uuid();
  bind_text(a.get(), 1, id);
  bind_text(a.get(), 2, default_alias);
  bind_text(a.get(), 3, now);
  if (::sqlite3_step(a.get()) != SQLITE_DONE) c.fail("writing the default agent");
}

inline constexpr std::string_view insert_row_sql =
    "INSERT INTO memories (id, key, content, category, embedding, created_at, updated_at, "
    "session_id, namespace, importance, superseded_by, agent_id, kind, pinned, tenant_id) "
    "VALUES (?1, ?2, ?3, ?4, NULL, ?5, ?6, NULL, ?7, ?8, NULL, ?9, ?10, ?11, NULL)";

/// Inserts the request's agent and rows (inside the caller's transaction); the row count.
inline std::size_t insert_agent(connection& c, const memory::merge_request& r) {
  if (const std::int64_t n = count(c, "SELECT count(*) FROM agents WHERE alias = ?1", r.alias))
    throw error(errc::destination_refused,
                "the memory store " + c.path() + " already has an agent `" + r.alias +
                    "`; import under another alias (--as) or without --with-memory; nothing "
                    "was written",
                c.path());
  statement a(c.get(), "INSERT INTO agents VALUES (?1, ?2, ?3)", c.path());
  bind_text(a.get(), 1, r.agent_id);
  bind_text(a.get(), 2, r.alias);
  bind_text(a.get(), 3, r.created_at);
  if (::sqlite3_step(a.get()) != SQLITE_DONE) c.fail("adding the agent");
  statement ins(c.get(), insert_row_sql, c.path());
  std::size_t n = 0;
  r.rows([&](const memory::entry& e) {
    ::sqlite3_reset(ins.get());
    ::sqlite3_clear_bindings(ins.get());
    const std::string id = memory::new_uuid();
    bind_text(ins.get(), 1, id);
    bind_text(ins.get(), 2, e.key);
    bind_text(ins.get(), 3, e.content);
    bind_text(ins.get(), 4, e.category);
    bind_text(ins.get(), 5, e.created);
    bind_text(ins.get(), 6, e.updated);
    bind_text(ins.get(), 7, e.ns);
    ::sqlite3_bind_double(ins.get(), 8, e.importance);
    bind_text(ins.get(), 9, r.agent_id);
    if (e.kind) bind_text(ins.get(), 10, *e.kind);
    ::sqlite3_bind_int(ins.get(), 11, e.pinned ? 1 : 0);
    if (::sqlite3_step(ins.get()) != SQLITE_DONE) c.fail("inserting memory `" + e.key + "`");
    ++n;
  });
  return n;
}

}  // namespace detail

/// What the store at `path` says about `alias` (memory::target::inspect).
inline memory::target_facts inspect(const std::string& path, std::string_view alias) {
  memory::target_facts f;
  detail::connection c(path, false);
  if (!c || !detail::has_tables(c)) return f;
  f.exists = true;
  f.alias_taken = detail::count(c, "SELECT count(*) FROM agents WHERE alias = ?1", alias) > 0;
  f.alias_memories = static_cast<std::size_t>(detail::count(
      c,
      "SELECT count(*) FROM memories AS m JOIN agents AS a ON a.id = m.agent_id WHERE a.alias = ?1",
      alias));
  return f;
}

/// Merges `r` into the store at `path`, made with the runtime's schema when it has none
/// (memory::target::merge): one transaction.
inline std::size_t merge(const std::string& path, const memory::merge_request& r) {
  detail::connection c(path, true);
  std::size_t n = 0;
  c.transaction([&] {
    if (!detail::has_tables(c)) detail::create_schema(c, r.created_at);
    n = detail::insert_agent(c, r);
  });
  return n;
}

/// Removes agent `agent_id` and its rows (memory::target::remove_agent): one transaction.
inline std::size_t remove_agent(const std::string& path, std::string_view agent_id) {
  detail::connection c(path, false);
  if (!c || !detail::has_tables(c)) return 0;
  std::size_t n = 0;
  c.transaction([&] {
    n = static_cast<std::size_t>(
        detail::count(c, "SELECT count(*) FROM memories WHERE agent_id = ?1", agent_id));
    detail::statement m(c.get(), "DELETE FROM memories WHERE agent_id = ?1", c.path());
    detail::bind_text(m.get(), 1, agent_id);
    if (::sqlite3_step(m.get()) != SQLITE_DONE) c.fail("removing the agent's memories");
    detail::statement a(c.get(), "DELETE FROM agents WHERE id = ?1", c.path());
    detail::bind_text(a.get(), 1, agent_id);
    if (::sqlite3_step(a.get()) != SQLITE_DONE) c.fail("removing the agent");
  });
  return n;
}

/// The import target over ZeroClaw's SQLite store (what the CLI passes).
inline memory::target import_target() {
  memory::target t;
  t.inspect = inspect;
  t.merge = merge;
  t.remove_agent = remove_agent;
  return t;
}

}  // namespace sqlite
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
