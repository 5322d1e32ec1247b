// SPDX-License-Identifier: MIT
// ZeroClaw's SQLite memory store (`<install>/data/memory/brain.db`, one per install, rows
// scoped by agent UUID) behind the memory Store policy (memory/entry.hpp). It only reads: a
// connection of its own, read-only, symlinks refused, the schema untrusted, and an agent's
// rows read inside one read transaction, so the snapshot is one point in time while the
// runtime writes (WAL readers never block the writer). The file, its -wal and -shm are never
// copied (docs/format.md, "Format 2"). The connection is opened read-write but `query_only`:
// SQL cannot change the store, and closing it, when it is the last one, removes the -wal
// and -shm files as the runtime's own close does (a read-only connection would leave them
// in the install). NOT part of <clawport/clawport.hpp>: include <clawport/sqlite.hpp> and
// link libsqlite3.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../memory/entry.hpp"

#include <sqlite3.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace sqlite {

namespace detail {

/// A prepared statement, finalized on every path.
class statement {
 public:
  statement(sqlite3* db, std::string_view sql, const std::string& path) {
    if (::sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
        SQLITE_OK)
      throw error(errc::config_invalid,
                  path + " is not a ZeroClaw v3 memory store clawport can read (" +
                      ::sqlite3_errmsg(db) +
                      "); start the runtime once so it migrates the store, then export again",
                  path);
  }
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;
  ~statement() { ::sqlite3_finalize(stmt_); }
  sqlite3_stmt* get() const noexcept { return stmt_; }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

inline std::string column_text(sqlite3_stmt* s, int i, std::string fallback = {}) {
  const auto* p = ::sqlite3_column_text(s, i);
  if (p == nullptr) return fallback;
  return std::string(reinterpret_cast<const char*>(p),
                     static_cast<std::size_t>(::sqlite3_column_bytes(s, i)));
}

inline memory::entry row_entry(sqlite3_stmt* s) {
  memory::entry e;
  e.key = column_text(s, 0);
  e.content = column_text(s, 1);
  e.category = column_text(s, 2, "core");
  if (::sqlite3_column_type(s, 3) != SQLITE_NULL) e.kind = column_text(s, 3);
  e.ns = column_text(s, 4, "default");
  if (::sqlite3_column_type(s, 5) != SQLITE_NULL) e.importance = ::sqlite3_column_double(s, 5);
  e.pinned = ::sqlite3_column_int64(s, 6) != 0;
  e.created = column_text(s, 7);
  e.updated = column_text(s, 8);
  return e;
}

// The agent's current rows (`superseded_by IS NULL`: a superseded row is history), joined on
// the alias inside the same transaction as the read, so a concurrent rename cannot split it.
inline constexpr std::string_view agent_rows_sql =
    "SELECT m.key, m.content, m.category, m.kind, m.namespace, m.importance, m.pinned, "
    "m.created_at, m.updated_at FROM memories AS m JOIN agents AS a ON a.id = m.agent_id "
    "WHERE a.alias = ?1 AND m.superseded_by IS NULL ORDER BY m.created_at, m.key";

}  // namespace detail

/// A query-only connection to one `brain.db`, the memory Store policy.
class store {
 public:
  explicit store(std::string path) : path_(std::move(path)) {
    // Never created: a missing store is an error, not an empty one.
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX;
    if (::sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      const std::string why = db_ != nullptr ? ::sqlite3_errmsg(db_) : "out of memory";
      ::sqlite3_close(db_);
      throw error(errc::io, "cannot open the memory store " + path_ + " (" + why + ")", path_);
    }
    // The file is the user's, but its schema may name functions: never run them (defensive).
    ::sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    ::sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    ::sqlite3_busy_timeout(db_, 5000);
    try {
      exec("PRAGMA query_only = ON");
    } catch (...) {
      ::sqlite3_close(db_);
      throw;
    }
  }
  store(const store&) = delete;
  store& operator=(const store&) = delete;
  ~store() { ::sqlite3_close(db_); }

  /// Every current row of agent `alias`, in (created_at, key) order, read in one transaction;
  /// the number of rows. An alias with no `agents` row has none.
  std::size_t read_agent(std::string_view alias, const memory::entry_visitor& visit) {
    exec("BEGIN DEFERRED");
    std::size_t n = 0;
    try {
      detail::statement rows(db_, detail::agent_rows_sql, path_);
      ::sqlite3_bind_text(rows.get(), 1, alias.data(), static_cast<int>(alias.size()),
                          SQLITE_TRANSIENT);
      int rc = SQLITE_ROW;
      while ((rc = ::sqlite3_step(rows.get())) == SQLITE_ROW) {
        visit(detail::row_entry(rows.get()));
        ++n;
      }
      if (rc != SQLITE_DONE) fail("reading the agent's memories");
    } catch (...) {
      ::sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    exec("COMMIT");
    return n;
  }

  /// The backend and the embedding model the store records (`memory_meta`).
  memory::store_facts facts() {
    memory::store_facts f;
    detail::statement meta(db_, "SELECT value FROM memory_meta WHERE key = 'embedding_model'",
                           path_);
    if (::sqlite3_step(meta.get()) == SQLITE_ROW)
      f.embedding_model = detail::column_text(meta.get(), 0);
    return f;
  }

 private:
  void exec(const char* sql) {
    if (::sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql);
  }
  [[noreturn]] void fail(const std::string& what) {
    throw error(errc::io,
                "memory store " + path_ + ": " + what + " failed (" + ::sqlite3_errmsg(db_) + ")",
                path_);
  }

  std::string path_;
  sqlite3* db_ = nullptr;
};

static_assert(memory::check_store_policy<store>());

}  // namespace sqlite
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
