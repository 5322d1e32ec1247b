// SPDX-License-Identifier: MIT
// sqlite::store, the memory Store policy on ZeroClaw's brain.db: stores made by
// tools/make_example_memory.py with Python's sqlite3 and the runtime's exact schema (WAL).
// Mirrors the hazards of copying a live store (docs/format.md, format 2): one read transaction is
// one point in time while another process writes; the file, -wal and -shm are never copied.
#include "support/test.hpp"

#include <clawport/sqlite.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

using clawport::testing::source_path;

struct scratch {
  std::string root;
  scratch() {
    std::string tmpl = "/tmp/clawport-memory-XXXXXX";
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    root = tmpl;
  }
  ~scratch() { (void)std::system(("rm -rf '" + root + "'").c_str()); }
};

// tools/make_example_memory.py with `args` (the store maker of the tests and the example).
void maker(const std::string& args) {
  const std::string cmd = "python3 '" + source_path("tools/make_example_memory.py") + "' " + args;
  REQUIRE_MESSAGE(std::system(cmd.c_str()) == 0, cmd);
}

std::vector<clawport::memory::entry> rows_of(clawport::sqlite::store& s, const std::string& a) {
  std::vector<clawport::memory::entry> out;
  const std::size_t n =
      s.read_agent(a, [&](const clawport::memory::entry& e) { out.push_back(e); });
  CHECK(n == out.size());
  return out;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

}  // namespace

TEST_CASE("sqlite::store reads one agent's current rows, never another agent's") {
  scratch t;
  const std::string db = t.root + "/brain.db";
  maker("create '" + db + "'");
  maker("add '" + db + "' --agent researcher --count 3 --prefix r");
  maker("add '" + db + "' --agent assistant --count 2 --prefix a");
  clawport::sqlite::store s(db);
  const auto rows = rows_of(s, "researcher");
  REQUIRE(rows.size() == 3);
  for (const auto& e : rows) {
    CHECK(e.key.rfind("r_", 0) == 0);
    CHECK(e.category == "core");
    CHECK(e.ns == "default");
    CHECK(e.importance == doctest::Approx(0.5));
    CHECK_FALSE(e.pinned);
    CHECK_FALSE(e.kind.has_value());
  }
  CHECK(rows_of(s, "assistant").size() == 2);
  // An agent with no memories, and one the store has never heard of: no rows, no error.
  CHECK(rows_of(s, "default").empty());
  CHECK(rows_of(s, "nobody").empty());
}

TEST_CASE("sqlite::store: the example install's store (researcher, assistant, default)") {
  scratch t;
  const std::string db = t.root + "/brain.db";
  REQUIRE(std::system(("cp '" + source_path("examples/zeroclaw-install/data/memory/brain.db") +
                       "' '" + db + "'")
                          .c_str()) == 0);
  clawport::sqlite::store s(db);
  const auto rows = rows_of(s, "researcher");
  REQUIRE(rows.size() == 5);
  CHECK(rows[0].key == "citation_style");
  CHECK(rows[0].pinned);
  CHECK(rows[0].importance == doctest::Approx(0.9));
  CHECK(rows[0].created == "2026-01-05T09:00:00+00:00");
  CHECK(rows[1].kind == std::optional<std::string>("\"Preference\""));
  CHECK(rows[2].category == "daily");
  CHECK(rows_of(s, "assistant").size() == 2);
  CHECK(s.facts().backend == "sqlite");
  CHECK(s.facts().embedding_model.empty());
}

TEST_CASE("sqlite::store: a writer process committing during the read is not seen (one snapshot)") {
  scratch t;
  const std::string db = t.root + "/brain.db";
  maker("create '" + db + "'");
  maker("add '" + db + "' --agent researcher --count 5 --prefix before");
  clawport::sqlite::store s(db);
  std::size_t seen = 0;
  const std::size_t n = s.read_agent("researcher", [&](const clawport::memory::entry& e) {
    // Another process commits 20 rows for the same agent while this transaction is open:
    // WAL lets it, and the read goes on from its own point in time.
    if (seen++ == 0) maker("add '" + db + "' --agent researcher --count 20 --prefix during");
    CHECK(e.key.rfind("before_", 0) == 0);
  });
  CHECK(n == 5);
  CHECK(seen == 5);
  // The next transaction sees the writer's commit.
  CHECK(rows_of(s, "researcher").size() == 25);
}

TEST_CASE("sqlite::store: the embedding model is read from memory_meta") {
  scratch t;
  const std::string db = t.root + "/brain.db";
  maker("create '" + db + "'");
  maker("meta '" + db + "' embedding_model text-embedding-3-small");
  clawport::sqlite::store s(db);
  CHECK(s.facts().embedding_model == "text-embedding-3-small");
}

TEST_CASE("sqlite::store: refusals name the path and create nothing") {
  scratch t;
  const std::string missing = t.root + "/brain.db";
  try {
    clawport::sqlite::store s(missing);
    FAIL("a missing store was opened");
  } catch (const clawport::error& e) {
    CHECK(e.code() == clawport::errc::io);
    CHECK(e.subject() == missing);
  }
  CHECK_FALSE(exists(missing));
  // A symlink to a store is refused (SQLITE_OPEN_NOFOLLOW).
  maker("create '" + t.root + "/real.db'");
  REQUIRE(::symlink((t.root + "/real.db").c_str(), (t.root + "/link.db").c_str()) == 0);
  CHECK_THROWS_AS(clawport::sqlite::store(t.root + "/link.db"), clawport::error);
  // A file that is not a memory store: config_invalid naming it.
  const std::string junk = t.root + "/junk.db";
  REQUIRE(std::system(("printf 'not a database at all, just text....' > '" + junk + "'").c_str()) ==
          0);
  try {
    clawport::sqlite::store s(junk);
    (void)rows_of(s, "researcher");
    FAIL("a file that is not a store was read");
  } catch (const clawport::error& e) {
    CHECK(e.subject() == junk);
  }
}

TEST_CASE("sqlite::store: reading never writes to the store and leaves no -wal or -shm") {
  scratch t;
  const std::string db = t.root + "/brain.db";
  maker("create '" + db + "'");
  maker("add '" + db + "' --agent researcher --count 2");
  REQUIRE_FALSE(exists(db + "-wal"));
  {
    clawport::sqlite::store s(db);
    CHECK(rows_of(s, "researcher").size() == 2);
  }
  CHECK_FALSE(exists(db + "-wal"));
  CHECK_FALSE(exists(db + "-shm"));
}
