// SPDX-License-Identifier: MIT
// `import --with-memory` (issue 47 item 5): a format 2 bundle's memory merged into the
// target's store for the new agent only, in one transaction, inside the import's intent.
// On real files: stores made by tools/make_example_memory.py (Python's sqlite3, the runtime's
// exact schema, WAL), merged by sqlite::import_target(). The kill sweep (the rig of
// tests/security/crash_test.cpp, issue 41 item 4) runs on fs::memory with a store kept in
// memory whose merge is all or nothing, as SQLite's transaction is.
#include "support/crash_sweep.hpp"
#include "support/test.hpp"

#include <clawport/sqlite.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace cp = clawport;
namespace im = clawport::importer;
using cp::testing::source_path;

// ---- on real files ----------------------------------------------------------------------

struct world {
  std::string root;
  world() {
    std::string tmpl = "/tmp/clawport-memimport-XXXXXX";
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    root = tmpl;
    run("cp -a '" + source_path("examples/zeroclaw-install") + "' '" + root + "/src'");
    run("mkdir '" + root + "/dst' && printf 'schema_version = 3\\n' > '" + root +
        "/dst/config.toml'");
  }
  ~world() { (void)std::system(("rm -rf '" + root + "'").c_str()); }
  static void run(const std::string& cmd) { REQUIRE_MESSAGE(std::system(cmd.c_str()) == 0, cmd); }
  std::string src_db() const { return root + "/src/data/memory/brain.db"; }
  std::string dst_db() const { return root + "/dst/data/memory/brain.db"; }
  void maker(const std::string& args) const {
    run("python3 '" + source_path("tools/make_example_memory.py") + "' " + args);
  }
  /// `alias` of the source exported with its memory to `<root>/<out>`.
  void export_memory(const std::string& alias, const std::string& out) const {
    cp::export_options o;
    o.alias = alias;
    o.config_path = root + "/src/config.toml";
    o.out = root + "/" + out;
    o.sync = false;
    o.exported_at = cp::timestamp{1700000000, 0};
    o.memory = cp::memory::as_source<cp::sqlite::store>();
    cp::fs::posix backend;
    cp::exporter ex(backend);
    (void)ex.run(o);
  }
  im::import_options import_opts(const std::string& bundle, bool with_memory) const {
    im::import_options o;
    o.bundle = root + "/" + bundle;
    o.config_path = root + "/dst/config.toml";
    o.now = cp::timestamp{1786500000, 0};
    o.with_memory = with_memory;
    o.memory = cp::sqlite::import_target();
    return o;
  }
  im::import_result import(const im::import_options& o) const {
    cp::fs::posix backend;
    const std::string integrity = im::plan_import(backend, o).plan_integrity;
    im::apply_options a;
    a.sync = false;
    return im::apply_import(backend, o, cp::plan::consented_to(integrity), a);
  }
  /// The store as text: every table's rows (ids and times of the import aside), ordered.
  static std::string dump(const std::string& db) {
    const std::string out = db + ".dump";
    run("python3 -c \"import sqlite3,sys; d=sqlite3.connect(sys.argv[1]); "
        "open(sys.argv[2],'w').write(repr([sorted(map(repr, d.execute('SELECT * FROM ' + t)))"
        " for t in ('agents','memories','schema_version','memory_meta')]))\" '" +
        db + "' '" + out + "'");
    std::ifstream in(out);
    std::ostringstream s;
    s << in.rdbuf();
    ::unlink(out.c_str());
    return s.str();
  }
};

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

std::vector<cp::memory::entry> rows_of(const std::string& db, const std::string& alias) {
  cp::sqlite::store s(db);
  std::vector<cp::memory::entry> out;
  (void)s.read_agent(alias, [&](const cp::memory::entry& e) { out.push_back(e); });
  return out;
}

void same_rows(const std::vector<cp::memory::entry>& a, const std::vector<cp::memory::entry>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(a[i].key);
    CHECK(a[i].key == b[i].key);
    CHECK(a[i].content == b[i].content);
    CHECK(a[i].category == b[i].category);
    CHECK(a[i].kind == b[i].kind);
    CHECK(a[i].ns == b[i].ns);
    CHECK(a[i].importance == doctest::Approx(b[i].importance));
    CHECK(a[i].pinned == b[i].pinned);
    CHECK(a[i].created == b[i].created);
    CHECK(a[i].updated == b[i].updated);
  }
}

}  // namespace

TEST_CASE("import --with-memory: round trip sqlite -> bundle -> sqlite keeps every row") {
  world w;
  w.export_memory("researcher", "b");
  const auto r = w.import(w.import_opts("b", true));
  REQUIRE(r.plan.memory.has_value());
  CHECK(r.plan.memory->create);  // the target had no store
  CHECK(r.plan.memory->entries == 3);
  // Every key and content of what travelled (the api_key and conversation rows stay home).
  std::vector<cp::memory::entry> travelled;
  for (const auto& e : rows_of(w.src_db(), "researcher"))
    if (e.category != "api_key" && e.category != "conversation") travelled.push_back(e);
  same_rows(rows_of(w.dst_db(), "researcher"), travelled);
  // The created store is the runtime's schema, byte for byte of its SQL, with its
  // schema_version row and `default` agent; the FTS index is in step (the store's
  // triggers); embeddings NULL; no -wal or -shm left once closed.
  w.maker("create '" + w.root + "/fresh.db'");
  w.run(
      "python3 -c \"import sqlite3,sys; q='SELECT type,name,sql FROM sqlite_master ORDER BY name';"
      " a=sqlite3.connect(sys.argv[1]); b=sqlite3.connect(sys.argv[2]);"
      " assert a.execute(q).fetchall()==b.execute(q).fetchall();"
      " assert a.execute('SELECT component,version FROM "
      "schema_version').fetchall()==[('memories',1)];"
      " assert [r[0] for r in a.execute('SELECT alias FROM agents ORDER BY "
      "alias')]==['default','researcher'];"
      " assert a.execute('SELECT count(*) FROM memories WHERE embedding IS NOT "
      "NULL').fetchone()[0]==0;"
      " assert a.execute(\\\"SELECT key FROM memories_fts WHERE memories_fts MATCH 'papers' ORDER "
      "BY key\\\").fetchall()==[('openclaw_2026-01-07_1',),('preferred_sources',)];"
      " a.execute(\\\"INSERT INTO memories_fts(memories_fts) VALUES('integrity-check')\\\");"
      " assert a.execute('PRAGMA integrity_check').fetchone()[0]=='ok';"
      " assert a.execute('PRAGMA foreign_key_check').fetchall()==[]\" '" +
      w.dst_db() + "' '" + w.root + "/fresh.db'");
  CHECK_FALSE(exists(w.dst_db() + "-wal"));
  bool reindex = false;
  for (const auto& t : r.plan.todo)
    if (t.kind == "memory_reindex") reindex = t.command.str() == "zeroclaw memory reindex";
  CHECK(reindex);
}

TEST_CASE("import --with-memory: a second import of the same bundle is a new agent, no clash") {
  world w;
  w.export_memory("researcher", "b");
  (void)w.import(w.import_opts("b", true));
  const std::string once = world::dump(w.dst_db());
  // Under a name of its own (--as), then under the collision rename: each its own rows.
  auto o = w.import_opts("b", true);
  o.as = "researcher_two";
  const auto r2 = w.import(o);
  CHECK_FALSE(r2.plan.memory->create);
  const auto r3 = w.import(w.import_opts("b", true));
  CHECK(r3.plan.alias == "researcher_imported");
  const auto first = rows_of(w.dst_db(), "researcher");
  same_rows(rows_of(w.dst_db(), "researcher_two"), first);
  same_rows(rows_of(w.dst_db(), "researcher_imported"), first);
  CHECK(first.size() == 3);
  CHECK(once != world::dump(w.dst_db()));
}

TEST_CASE("import --with-memory into a store with other agents touches none of their rows") {
  world w;
  w.export_memory("researcher", "b");
  w.run("mkdir -p '" + w.root + "/dst/data/memory'");
  w.maker("create '" + w.dst_db() + "'");
  w.maker("add '" + w.dst_db() + "' --agent mine --count 3 --prefix m");
  const auto mine = rows_of(w.dst_db(), "mine");
  const auto r = w.import(w.import_opts("b", true));
  CHECK_FALSE(r.plan.memory->create);
  same_rows(rows_of(w.dst_db(), "mine"), mine);
  CHECK(rows_of(w.dst_db(), "researcher").size() == 3);
}

TEST_CASE("import --with-memory refusals and failures leave the store as it was") {
  world w;
  w.export_memory("researcher", "b");
  w.run("mkdir -p '" + w.root + "/dst/data/memory'");
  w.maker("create '" + w.dst_db() + "'");
  SUBCASE("the store already has an agent of that alias: refused at planning") {
    w.maker("add '" + w.dst_db() + "' --agent researcher --count 2 --prefix old");
    const std::string before = world::dump(w.dst_db());
    cp::fs::posix backend;
    try {
      (void)im::plan_import(backend, w.import_opts("b", true));
      FAIL("an alias the store has was merged into");
    } catch (const cp::error& e) {
      CHECK(e.code() == cp::errc::destination_refused);
      CHECK(std::string(e.what()).find("--as") != std::string::npos);
    }
    CHECK(world::dump(w.dst_db()) == before);
    // Without --with-memory the agent imports; its memory is left out, and said so.
    const auto r = w.import(w.import_opts("b", false));
    CHECK_FALSE(r.plan.memory.has_value());
    bool left_out = false;
    for (const auto& t : r.plan.todo) left_out = left_out || t.kind == "memory_left_out";
    CHECK(left_out);
    CHECK(world::dump(w.dst_db()) == before);
  }
  SUBCASE("the merge fails at its last row: the transaction leaves nothing") {
    const std::string before = world::dump(w.dst_db());
    auto o = w.import_opts("b", true);
    const cp::memory::target real = cp::sqlite::import_target();
    o.memory.merge = [real](const std::string& path, const cp::memory::merge_request& req) {
      cp::memory::merge_request failing = req;
      failing.rows = [&req](const cp::memory::entry_visitor& visit) {
        std::size_t n = 0;
        req.rows([&](const cp::memory::entry& e) {
          if (++n == 3) throw cp::error(cp::errc::io, "killed at the last row", "");
          visit(e);
        });
      };
      return real.merge(path, failing);
    };
    CHECK_THROWS_AS(w.import(o), cp::error);
    CHECK(world::dump(w.dst_db()) == before);
    CHECK_FALSE(exists(w.root + "/dst/agents"));
    CHECK(rows_of(w.dst_db(), "researcher").empty());
  }
  SUBCASE("entries.jsonl changed after verify: the merge reads it again, refuses, leaves nothing") {
    // The merge streams the rows from the bundle's file (never a copy verify kept): bytes
    // that are not the ones verified roll the transaction back.
    const std::string before = world::dump(w.dst_db());
    auto o = w.import_opts("b", true);
    const cp::memory::target real = cp::sqlite::import_target();
    const std::string file = w.root + "/b/memory/entries.jsonl";
    o.memory.merge = [real, file](const std::string& path, const cp::memory::merge_request& req) {
      world::run("sed -i 's/\"pinned\":false/\"pinned\":true /' '" + file + "'");  // same size
      return real.merge(path, req);
    };
    try {
      (void)w.import(o);
      FAIL("rows that changed after verify were merged");
    } catch (const cp::error& e) {
      CHECK(e.code() == cp::errc::identity_changed);
      CHECK(e.subject() == "memory/entries.jsonl");
    }
    CHECK(world::dump(w.dst_db()) == before);
    CHECK(rows_of(w.dst_db(), "researcher").empty());
    CHECK_FALSE(exists(w.root + "/dst/agents"));
  }
  SUBCASE("a store this run created goes with the run that failed") {
    w.run("rm -rf '" + w.root + "/dst/data'");
    auto o = w.import_opts("b", true);
    cp::fs::posix backend;
    const std::string integrity = im::plan_import(backend, o).plan_integrity;
    im::apply_options a;
    a.sync = false;
    a.before_config = [] { throw cp::error(cp::errc::io, "killed before the config", ""); };
    CHECK_THROWS_AS(im::apply_import(backend, o, cp::plan::consented_to(integrity), a), cp::error);
    CHECK_FALSE(exists(w.root + "/dst/data"));
    CHECK_FALSE(exists(w.root + "/dst/agents"));
  }
}

TEST_CASE(
    "an agent on the Markdown backend: its files travel as memories, rows on a SQLite target") {
  world w;
  // The install's backend, not the agent's own (which would travel and keep it on Markdown):
  // the target's default, SQLite, then holds the imported agent's memory.
  w.run("sed -i '/^\\[agents.researcher.memory\\]$/,+1d' '" + w.root + "/src/config.toml'");
  w.run("printf '\\n[memory]\\nbackend = \"markdown\"\\n' >> '" + w.root + "/src/config.toml'");
  const std::string ws = w.root + "/src/agents/researcher/workspace";
  w.run(
      "printf '# Memory\\n\\n- **citation_style**: Cite (Author, Year).\\n- Prefers tea.\\n' > '" +
      ws + "/MEMORY.md'");
  w.run("printf -- '- **summary**: Three papers.\\n' > '" + ws + "/memory/2026-01-07.md'");
  w.run("printf -- '- **name**: Alice\\n' > '" + ws + "/USER.md'");
  SUBCASE("exported and merged") {
    w.export_memory("researcher", "b");
    std::ifstream in(w.root + "/b/memory/entries.jsonl");
    std::ostringstream text;
    text << in.rdbuf();
    CHECK(text.str().find("Alice") == std::string::npos);  // USER.md never travels
    CHECK(text.str().find("\"created\":\"2026-01-07T00:00:00+00:00\"") != std::string::npos);
    const auto r = w.import(w.import_opts("b", true));
    REQUIRE(r.plan.memory.has_value());
    CHECK(r.plan.memory->entries == 3);
    std::map<std::string, std::string> rows;
    for (const auto& e : rows_of(w.dst_db(), "researcher"))
      rows[e.key] = e.category + ": " + e.content;
    CHECK(rows ==
          std::map<std::string, std::string>{{"citation_style", "core: Cite (Author, Year)."},
                                             {"openclaw_openclaw_core_4", "core: Prefers tea."},
                                             {"summary", "daily: Three papers."}});
  }
  SUBCASE("a symlinked MEMORY.md is refused, never followed, nothing written") {
    w.run("printf -- '- **secret**: from elsewhere\\n' > '" + w.root + "/elsewhere.md'");
    w.run("rm '" + ws + "/MEMORY.md' && ln -s '" + w.root + "/elsewhere.md' '" + ws +
          "/MEMORY.md'");
    try {
      w.export_memory("researcher", "b");
      FAIL("a symlinked MEMORY.md was read");
    } catch (const cp::error& e) {
      CHECK(e.code() == cp::errc::unsupported);
      CHECK(e.subject() == "MEMORY.md");
    }
    CHECK_FALSE(exists(w.root + "/b"));
  }
}

TEST_CASE("import --with-memory into an install on the Markdown backend: files, never a store") {
  world w;
  w.export_memory("researcher", "b");
  w.run("printf '\\n[memory]\\nbackend = \"markdown\"\\n' >> '" + w.root + "/dst/config.toml'");
  const auto r = w.import(w.import_opts("b", true));
  REQUIRE(r.plan.memory.has_value());
  CHECK_FALSE(exists(w.root + "/dst/data"));  // no store made
  const std::string ws = w.root + "/dst/agents/researcher/workspace/";
  std::map<std::string, std::string> files;
  for (const std::string f : {"MEMORY.md", "memory/2026-01-07.md"}) {
    std::ifstream in(ws + f);
    std::ostringstream text;
    text << in.rdbuf();
    CHECK_MESSAGE(!text.str().empty(), f);
    files[f] = text.str();
  }
  CHECK(files["MEMORY.md"] ==
        "- **citation_style**: Cite sources as (Author, Year) with a link.\n"
        "- **preferred_sources**: Prefer peer-reviewed papers and official docs.\n");
  // Read back as ZeroClaw's Markdown backend reads them: the same keys and contents.
  const auto core = cp::memory::parse_markdown(files["MEMORY.md"], "core", cp::memory::core_stem,
                                               "2026-03-01T00:00:00+00:00");
  const auto daily = cp::memory::parse_markdown(files["memory/2026-01-07.md"], "daily",
                                                "2026-01-07", "2026-03-01T00:00:00+00:00");
  std::map<std::string, std::string> back, source;
  for (const auto& e : core) back[e.key] = e.content;
  for (const auto& e : daily) back[e.key] = e.content;
  for (const auto& e : rows_of(w.src_db(), "researcher"))
    if (e.category == "core" || e.category == "daily") source[e.key] = e.content;
  CHECK(back == source);
  bool noted = false;
  for (const auto& t : r.plan.todo) noted = noted || t.kind == "memory_markdown";
  CHECK(noted);
}

// ---- the kill sweep on fs::memory ---------------------------------------------------------

namespace {

/// A store kept in memory: alias -> (agent id, rows); a merge is all or nothing. While
/// `dead` says so (the process was killed) every call throws, as nothing runs after a kill.
struct fake_store {
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> agents;
  std::function<bool()> dead;
  void check_alive() const {
    if (dead && dead()) throw cp::fs::simulated_crash{};
  }
  cp::memory::target target() {
    cp::memory::target t;
    t.inspect = [this](const std::string&, std::string_view alias) {
      cp::memory::target_facts f;
      f.exists = true;
      const auto it = agents.find(std::string(alias));
      f.alias_taken = it != agents.end();
      f.alias_memories = f.alias_taken ? it->second.second.size() : 0;
      return f;
    };
    t.merge = [this](const std::string&, const cp::memory::merge_request& r) {
      check_alive();
      if (agents.count(r.alias)) throw cp::error(cp::errc::destination_refused, "taken", "");
      std::vector<std::string> rows;
      r.rows([&](const cp::memory::entry& e) { rows.push_back(e.key + "=" + e.content); });
      agents[r.alias] = {r.agent_id, rows};
      return rows.size();
    };
    t.remove_agent = [this](const std::string&, std::string_view id) {
      check_alive();
      for (auto it = agents.begin(); it != agents.end(); ++it)
        if (it->second.first == id) {
          const std::size_t n = it->second.second.size();
          agents.erase(it);
          return n;
        }
      return std::size_t{0};
    };
    return t;
  }
  /// alias -> rows, without the ids (each run mints its own).
  std::map<std::string, std::vector<std::string>> rows() const {
    std::map<std::string, std::vector<std::string>> out;
    for (const auto& [alias, a] : agents) out[alias] = a.second;
    return out;
  }
};

using cp::fs::faulty;
using cp::fs::memory;
using snapshot_t = std::map<std::string, std::string>;

void sweep_world(memory& m) {
  m.write_file("/src/config.toml",
               "schema_version = 3\n\n[providers.models.anthropic.main]\nmodel = \"m\"\n\n"
               "[risk_profiles.guarded]\n\n"
               "[agents.researcher]\nmodel_provider = \"anthropic.main\"\n"
               "risk_profile = \"guarded\"\n");
  m.write_file("/src/agents/researcher/workspace/IDENTITY.md", "# researcher\n");
  cp::export_options o;
  o.alias = "researcher";
  o.config_path = "/src/config.toml";
  o.out = "/b";
  o.sync = false;
  o.token = "export";
  o.exported_at = cp::timestamp{1786493040, 0};
  o.memory = [](const std::string&, std::string_view, const cp::memory::entry_visitor& visit) {
    for (int i = 0; i < 3; ++i) {
      cp::memory::entry e;
      e.key = "k" + std::to_string(i);
      e.content = "remembered " + std::to_string(i);
      e.created = e.updated = "2026-01-05T09:00:00+00:00";
      visit(e);
    }
    return cp::memory::store_facts{};
  };
  cp::basic_exporter<memory> ex(m);
  (void)ex.run(o);
  m.write_file("/dst/config.toml", "schema_version = 3\n");
}

im::import_options sweep_opts(fake_store& s) {
  im::import_options o;
  o.bundle = "/b";
  o.config_path = "/dst/config.toml";
  o.now = cp::timestamp{1786500000, 0};
  o.with_memory = true;
  o.memory = s.target();
  return o;
}

template <class Fs>
void sweep_import(Fs& fs, fake_store& s, const std::string& integrity) {
  im::apply_options a;
  a.sync = false;
  (void)im::apply_import(fs, sweep_opts(s), cp::plan::consented_to(integrity), a);
}

snapshot_t without_backups(snapshot_t s) {
  for (auto it = s.begin(); it != s.end();)
    it = it->first.rfind("config.toml.bak-", 0) == 0 ? s.erase(it) : std::next(it);
  return s;
}

void recover_all(memory& m, fake_store& s) {
  for (const auto& l : im::read_status(m, "/dst/config.toml").leftovers) {
    const std::string dest = l.command.str().substr(std::string("clawport recover ").size());
    const cp::recover_report rep = cp::recover_path(m, dest, dest, s.target());
    CHECK(rep.failed.empty());
  }
}

}  // namespace

TEST_CASE("import --with-memory killed at every step: the store unchanged or complete") {
  std::string integrity;
  snapshot_t imported;
  std::map<std::string, std::vector<std::string>> merged;
  fake_store s;  // each run's, made anew with its install
  const auto setup = [&s](memory& m) {
    s = fake_store();
    sweep_world(m);
  };
  const auto run = [&](faulty<memory>& f) {
    s.dead = [&f] { return f.crashed(); };
    sweep_import(f, s, integrity);
  };
  const std::size_t count = crash_sweep::count_operations(
      setup, run, [&](memory& m) { integrity = im::plan_import(m, sweep_opts(s)).plan_integrity; },
      [&](memory& m) {
        imported = m.snapshot("/dst");
        merged = s.rows();
      });
  REQUIRE(merged.at("researcher").size() == 3);
  bool saw_rows_uncommitted = false;  // rows merged, config not written: what recover undoes
  for (const bool by_recover : {false, true}) {
    CAPTURE(by_recover);
    crash_sweep::kill_at_each(count, setup, run, [&](memory& m, std::size_t) {
      s.dead = nullptr;  // the next process
      const bool written = m.read_file("/dst/config.toml") != "schema_version = 3\n";
      if (!written && !s.agents.empty()) saw_rows_uncommitted = true;
      if (by_recover) {
        recover_all(m, s);
        CHECK(im::read_status(m, "/dst/config.toml").leftovers.empty());
        if (!written) {
          CHECK(s.agents.empty());  // the store as it was
          CHECK_FALSE(m.exists("/dst/agents/researcher/workspace"));
        } else {
          CHECK(s.rows() == merged);  // complete
        }
      }
      if (!written) sweep_import(m, s, integrity);  // the same plan completes
      if (!by_recover) recover_all(m, s);
      CHECK(s.rows() == merged);
      CHECK(without_backups(m.snapshot("/dst")) == without_backups(imported));
    });
  }
  CHECK(saw_rows_uncommitted);
}

TEST_CASE("import --with-memory onto the Markdown backend killed at every step: none or all") {
  // The Markdown target's path (memory_step's `markdown`: MEMORY.md and the daily files
  // staged inside the new workspace, published or undone with it), killed after each
  // operation in turn, as the SQLite sweep above: the re-run or `recover` leaves the install
  // as it was (no workspace, no file) or complete; never a workspace without its memory.
  const std::string markdown_dst = "schema_version = 3\n\n[memory]\nbackend = \"markdown\"\n";
  const auto world_md = [&markdown_dst](memory& m) {
    sweep_world(m);
    m.write_file("/dst/config.toml", markdown_dst);
  };
  const auto opts = [] {
    im::import_options o;
    o.bundle = "/b";
    o.config_path = "/dst/config.toml";
    o.now = cp::timestamp{1786500000, 0};
    o.with_memory = true;  // no store target: the Markdown backend needs none
    return o;
  };
  const auto run = [&opts](auto& fs, const std::string& integrity) {
    im::apply_options a;
    a.sync = false;
    (void)im::apply_import(fs, opts(), cp::plan::consented_to(integrity), a);
  };
  const std::string memory_md = "/dst/agents/researcher/workspace/MEMORY.md";
  std::string integrity;
  snapshot_t imported;
  const auto recover_md = [](memory& m) {
    for (const auto& l : im::read_status(m, "/dst/config.toml").leftovers) {
      const std::string dest = l.command.str().substr(std::string("clawport recover ").size());
      CHECK(cp::recover_path(m, dest, dest).failed.empty());
    }
  };
  const auto run_f = [&](faulty<memory>& f) { run(f, integrity); };
  const std::size_t count = crash_sweep::count_operations(
      world_md, run_f,
      [&](memory& m) {
        const im::import_plan p = im::plan_import(m, opts());
        REQUIRE(p.memory.has_value());
        REQUIRE_FALSE(p.memory->markdown.empty());
        integrity = p.plan_integrity;
      },
      [&](memory& m) {
        imported = m.snapshot("/dst");
        REQUIRE(m.read_file(memory_md).find("- **k2**: remembered 2") != std::string::npos);
      });
  for (const bool by_recover : {false, true}) {
    CAPTURE(by_recover);
    crash_sweep::kill_at_each(count, world_md, run_f, [&](memory& m, std::size_t) {
      const bool written = m.read_file("/dst/config.toml") != markdown_dst;
      // Never a workspace placed without its memory files.
      CHECK(m.exists("/dst/agents/researcher/workspace") == m.exists(memory_md));
      if (by_recover) {
        recover_md(m);
        CHECK(im::read_status(m, "/dst/config.toml").leftovers.empty());
        CHECK(m.exists(memory_md) == written);  // as it was, or complete
      }
      if (!written) run(m, integrity);  // the same plan completes
      if (!by_recover) recover_md(m);
      CHECK(without_backups(m.snapshot("/dst")) == without_backups(imported));
    });
  }
}
