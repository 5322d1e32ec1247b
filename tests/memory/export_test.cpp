// SPDX-License-Identifier: MIT
// `export --with-memory` (issue 47): the exporter with memory::as_source<sqlite::store>() on a
// copy of the example install, whose data/memory/brain.db tools/make_example_memory.py made.
// The agent's rows travel as memory/entries.jsonl, digest-listed, in a format-2 bundle;
// other agents' rows, embeddings, session ids, redacted categories and credential-shaped
// content never do; without the option the bundle is format 1.
#include "support/test.hpp"

#include "../exporter/harness.hpp"

#include <clawport/sqlite.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace {

using clawport::testing::source_path;

struct install_copy {
  std::string root;
  install_copy() {
    std::string tmpl = "/tmp/clawport-memexport-XXXXXX";
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    root = tmpl;
    run("cp -a '" + source_path("examples/zeroclaw-install") + "' '" + root + "/install'");
  }
  ~install_copy() { (void)std::system(("rm -rf '" + root + "'").c_str()); }
  static void run(const std::string& cmd) { REQUIRE_MESSAGE(std::system(cmd.c_str()) == 0, cmd); }
  std::string db() const { return root + "/install/data/memory/brain.db"; }
  void maker(const std::string& args) const {
    run("python3 '" + source_path("tools/make_example_memory.py") + "' " + args);
  }
  void append_config(const std::string& text) const {
    std::ofstream(root + "/install/config.toml", std::ios::app) << text;
  }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

std::size_t lines_of(const std::string& text) {
  std::size_t n = 0;
  for (const char c : text) n += c == '\n' ? 1 : 0;
  return n;
}

clawport::export_options options(const install_copy& t, const std::string& alias, bool memory) {
  clawport::export_options o;
  o.alias = alias;
  o.config_path = t.root + "/install/config.toml";
  o.out = t.root + "/bundle";
  o.sync = false;
  o.exported_at = clawport::timestamp{1700000000, 0};
  if (memory) o.memory = clawport::memory::as_source<clawport::sqlite::store>();
  return o;
}

clawport::export_result export_with(const install_copy&, const clawport::export_options& o) {
  clawport::fs::posix backend;
  clawport::exporter exporter(backend);
  return exporter.run(o);
}

}  // namespace

TEST_CASE("export --with-memory: the agent's rows travel, format 2, digest-listed") {
  install_copy t;
  const auto res = export_with(t, options(t, "researcher", true));
  const std::string jsonl = slurp(t.root + "/bundle/memory/entries.jsonl");
  REQUIRE(res.memory.has_value());
  // Five rows of researcher: the api_key row and the conversation row stay home, three
  // travel.
  CHECK(res.memory->entries == 3);
  CHECK(lines_of(jsonl) == 3);
  CHECK(res.memory->skipped.at(clawport::memory::skip_reason::redacted_category) == 1);
  CHECK(res.memory->skipped.at(clawport::memory::skip_reason::conversation) == 1);
  CHECK(jsonl.find("\"key\":\"citation_style\"") != std::string::npos);
  CHECK(jsonl.find("\"pinned\":true") != std::string::npos);
  // Never: other agents' rows, the redacted row, conversation rows, session ids, ids,
  // embeddings.
  CHECK(jsonl.find("home_timezone") == std::string::npos);
  CHECK(jsonl.find("install_note") == std::string::npos);
  CHECK(jsonl.find("lab_token") == std::string::npos);
  CHECK(jsonl.find("discord_home_42") == std::string::npos);
  CHECK(jsonl.find("session") == std::string::npos);  // session_note, a conversation row
  CHECK(jsonl.find("conversation") == std::string::npos);
  CHECK(jsonl.find("embedding") == std::string::npos);
  CHECK(jsonl.find("00000000-0000-4000-8000") == std::string::npos);
  const std::string manifest = slurp(t.root + "/bundle/zeroclaw-agent.toml");
  CHECK(manifest.find("format_version = 2") != std::string::npos);
  CHECK(manifest.find("[memory]") != std::string::npos);
  CHECK(manifest.find("entries = 3") != std::string::npos);
  CHECK(manifest.find("left_home = 2") != std::string::npos);
  const std::string list = slurp(t.root + "/bundle/zeroclaw-agent.sha256");
  CHECK(list.find(clawport::digest::sha256_hex(jsonl) + "  memory/entries.jsonl\n") !=
        std::string::npos);
  // The store was read, never copied, and left as it was (no -wal or -shm beside it).
  CHECK_FALSE(exists(t.db() + "-wal"));
  CHECK_FALSE(exists(t.db() + "-shm"));
  const std::string report = clawport::render_report(res);
  CHECK(report.find("MEMORY TRAVELS: 3") != std::string::npos);
  CHECK(report.find("personal data") != std::string::npos);
  CHECK(report.find("1 memory left home (conversation)") != std::string::npos);
  CHECK(clawport::to_json(res)["memory"]["entries"] == 3);
}

TEST_CASE("export without --with-memory: format 1, no memory/, no memory in the documents") {
  install_copy t;
  const auto res = export_with(t, options(t, "researcher", false));
  CHECK_FALSE(res.memory.has_value());
  CHECK_FALSE(exists(t.root + "/bundle/memory"));
  const std::string manifest = slurp(t.root + "/bundle/zeroclaw-agent.toml");
  CHECK(manifest.find("format_version = 1") != std::string::npos);
  CHECK(manifest.find("[memory]") == std::string::npos);
  CHECK(slurp(t.root + "/bundle/zeroclaw-agent.sha256").find("  memory/") == std::string::npos);
  CHECK_FALSE(clawport::to_json(res).contains("memory"));
  CHECK(clawport::render_report(res).find("MEMORY TRAVELS") == std::string::npos);
}

TEST_CASE("export --with-memory: redact_categories and credential-shaped content stay home") {
  install_copy t;
  t.append_config("\n[memory.policy]\nredact_categories = [\"daily\"]\n");
  t.maker("add '" + t.db() +
          "' --agent researcher --count 2 --prefix leak --content "
          "'the key is sk-abcdefghijklmnopqrstuvwxyz012345'");
  t.maker("add '" + t.db() +
          "' --agent researcher --count 1 --prefix task --content "
          "'task-management-and-planning is fine'");
  const auto res = export_with(t, options(t, "researcher", true));
  const std::string jsonl = slurp(t.root + "/bundle/memory/entries.jsonl");
  using clawport::memory::skip_reason;
  CHECK(res.memory->skipped.at(skip_reason::redacted_category) == 2);  // api_key, daily
  CHECK(res.memory->skipped.at(skip_reason::credential_shape) == 2);
  CHECK(jsonl.find("sk-abc") == std::string::npos);
  CHECK(jsonl.find("openclaw_2026-01-07_1") == std::string::npos);  // the daily row
  CHECK(jsonl.find("task-management-and-planning") != std::string::npos);
  CHECK(res.memory->entries == 3);  // two core rows and the task row
}

TEST_CASE("export --with-memory: an agent with no memories gets an empty entries.jsonl") {
  install_copy t;
  (void)std::system(("rm -f '" + t.db() + "'").c_str());
  t.maker("create '" + t.db() + "'");
  const auto res = export_with(t, options(t, "researcher", true));
  CHECK(res.memory->entries == 0);
  CHECK(slurp(t.root + "/bundle/memory/entries.jsonl").empty());
  CHECK(slurp(t.root + "/bundle/zeroclaw-agent.toml").find("format_version = 2") !=
        std::string::npos);
}

TEST_CASE("export --with-memory: refusals write nothing") {
  SUBCASE("no store") {
    install_copy t;
    (void)std::system(("rm -f '" + t.db() + "'").c_str());
    CHECK_THROWS_AS(export_with(t, options(t, "researcher", true)), clawport::error);
    CHECK_FALSE(exists(t.root + "/bundle"));
    CHECK_FALSE(exists(t.db()));  // nothing created in the install
  }
  SUBCASE("a backend other than sqlite") {
    install_copy t;
    install_copy::run("sed -i 's/^backend = \"sqlite\"$/backend = \"lucid\"/' '" + t.root +
                      "/install/config.toml'");
    try {
      (void)export_with(t, options(t, "researcher", true));
      FAIL("a lucid agent's memory was read as SQLite");
    } catch (const clawport::error& e) {
      CHECK(e.code() == clawport::errc::unsupported);
      CHECK(std::string(e.what()).find("lucid") != std::string::npos);
    }
    CHECK_FALSE(exists(t.root + "/bundle"));
  }
}

TEST_CASE("export --with-memory --dry-run counts the memory and writes nothing") {
  install_copy t;
  clawport::fs::posix backend;
  clawport::basic_exporter<clawport::fs::posix, clawport::zeroclaw::schema_v3,
                           clawport::publish::none>
      exporter(backend);
  const auto res = exporter.run(options(t, "researcher", true));
  REQUIRE(res.memory.has_value());
  CHECK(res.memory->entries == 3);
  CHECK_FALSE(exists(t.root + "/bundle"));
  CHECK(clawport::render_report(res).find("would be") != std::string::npos);
}

namespace {

clawport::verify::report verify_at(const std::string& path) {
  clawport::fs::posix backend;
  return clawport::verify::verify_bundle(backend, path);
}

bool has_finding(const clawport::verify::report& r, const std::string& code,
                 const std::string& path_prefix) {
  for (const auto& f : r.findings)
    if (f.code == code && f.path.rfind(path_prefix, 0) == 0) return true;
  return false;
}

// The bundle's entries.jsonl replaced by `text`, the digest list removed (so the memory
// checks, not the digests, are what fails).
void tamper(const install_copy& t, const std::string& text) {
  install_copy::run("rm '" + t.root + "/bundle/zeroclaw-agent.sha256'");
  std::ofstream(t.root + "/bundle/memory/entries.jsonl", std::ios::trunc | std::ios::binary)
      << text;
}

}  // namespace

TEST_CASE("verify: a format-2 bundle verifies and says what memory travels") {
  install_copy t;
  (void)export_with(t, options(t, "researcher", true));
  const auto r = verify_at(t.root + "/bundle");
  CHECK(r.ok());
  CHECK(r.authenticated);
  CHECK(r.format_version == 2);
  REQUIRE(r.memory.has_value());
  CHECK(r.memory->entries == 3);
  CHECK(r.memory->categories.at("core") == 2);
  CHECK(clawport::verify::render_report(r).find("memory travels (format 2): 3") !=
        std::string::npos);
  CHECK(clawport::verify::to_json(r)["memory"]["entries"] == 3);
  // A format-1 bundle's documents say nothing of memory.
  install_copy plain;
  (void)export_with(plain, options(plain, "researcher", false));
  const auto p = verify_at(plain.root + "/bundle");
  CHECK(p.ok());
  CHECK_FALSE(p.memory.has_value());
  CHECK_FALSE(clawport::verify::to_json(p).contains("memory"));
  CHECK_FALSE(clawport::verify::to_json(p).contains("format_version"));
}

TEST_CASE("verify: entries.jsonl is checked (shape, UTF-8, duplicate keys, count)") {
  const std::string good =
      R"({"category":"core","content":"c","created":"t","importance":0.5,"key":"k","kind":null,"namespace":"default","pinned":false,"updated":"t"})";
  struct bad_case {
    const char* name;
    std::string text;
    std::string path;
  };
  const bad_case cases[] = {
      {"duplicate key", good + "\n" + good + "\n", "memory/entries.jsonl:2"},
      {"not JSON", "{\n", "memory/entries.jsonl:1"},
      {"not UTF-8", std::string("{\"key\":\"\xff\"}\n"), "memory/entries.jsonl:1"},
      {"a field missing",
       R"({"key":"k"})"
       "\n",
       "memory/entries.jsonl:1"},
      {"no final newline", good, "memory/entries.jsonl"},
      {"count differs from the manifest", good + "\n", "memory/entries.jsonl"},
  };
  for (const bad_case& c : cases) {
    CAPTURE(c.name);
    install_copy t;
    (void)export_with(t, options(t, "researcher", true));
    tamper(t, c.text);
    const auto r = verify_at(t.root + "/bundle");
    CHECK_FALSE(r.ok());
    CHECK(has_finding(r, "memory_invalid", c.path));
  }
}

TEST_CASE("verify: the entries.jsonl check streams: any cut of the bytes, the same findings") {
  // verify checks memory/entries.jsonl as the walk reads it (memory::jsonl_checker), holding
  // one line, never the file (100,000 memories at flat memory use, issue 47): cut anywhere,
  // the findings and counts are those of the whole text.
  namespace mem = clawport::memory;
  const auto line = [](const std::string& key, const std::string& category) {
    return R"({"category":")" + category +
           R"(","content":"c","created":"t","importance":0.5,"key":")" + key +
           R"(","kind":null,"namespace":"default","pinned":false,"updated":"t"})" + "\n";
  };
  const std::string long_line(mem::max_line_bytes + 10, 'x');
  std::string many;  // 25 duplicates after 5 good lines: 20 problems kept, in line order
  for (int i = 0; i < 5; ++i) many += line("k" + std::to_string(i), "core");
  for (int i = 0; i < 25; ++i) many += i % 7 == 3 ? "{\n" : line("k1", "daily");
  const std::string texts[] = {
      line("a", "core") + line("b", "daily") + line("a", "daily") + line("c", "core"),
      line("a", "core") + long_line + "\n" + line("b", "core"),
      line("a", "core") + long_line,
      line("a", "core") + line("b", "core").substr(0, 40),
      "\n\n" + line("a", "core"),
      many,
      std::string(),
  };
  for (const std::string& text : texts) {
    const mem::jsonl_check whole = mem::check_jsonl(text);
    for (const std::size_t cut : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
      CAPTURE(cut);
      mem::jsonl_checker c;
      for (std::size_t at = 0; at < text.size(); at += cut)
        c.feed(std::string_view(text).substr(at, cut));
      const mem::jsonl_check part = c.finish();
      CHECK(part.entries == whole.entries);
      CHECK(part.categories == whole.categories);
      CHECK(part.problems == whole.problems);
    }
  }
  // What the whole text gives: a duplicate is not counted, in its category either.
  const mem::jsonl_check dup = mem::check_jsonl(texts[0]);
  CHECK(dup.entries == 3);
  CHECK(dup.categories == std::map<std::string, std::size_t>{{"core", 2}, {"daily", 1}});
  REQUIRE(dup.problems.size() == 1);
  CHECK(dup.problems[0].first == 3);
  CHECK(mem::check_jsonl(texts[1]).problems ==
        std::vector<std::pair<std::size_t, std::string>>{
            {2, "longer than " + std::to_string(mem::max_line_bytes) + " bytes"}});
  CHECK(mem::check_jsonl(texts[2]).problems.front().first == 0);  // no final newline
  const mem::jsonl_check capped = mem::check_jsonl(many);
  CHECK(capped.problems.size() == mem::max_problems);
  CHECK(capped.problems.front().first == 6);
  CHECK(capped.entries == 5);
}

TEST_CASE("verify: memory outside format 2, and a newer format, are refused") {
  SUBCASE("memory/ in a format-1 bundle") {
    install_copy t;
    (void)export_with(t, options(t, "researcher", false));
    install_copy::run("rm '" + t.root + "/bundle/zeroclaw-agent.sha256' && mkdir '" + t.root +
                      "/bundle/memory' && touch '" + t.root + "/bundle/memory/entries.jsonl'");
    const auto r = verify_at(t.root + "/bundle");
    CHECK(has_finding(r, "unexpected_entry", "memory/"));
    CHECK_FALSE(r.ok());
  }
  SUBCASE("format_version 3") {
    install_copy t;
    (void)export_with(t, options(t, "researcher", true));
    install_copy::run("rm '" + t.root + "/bundle/zeroclaw-agent.sha256' && sed -i " +
                      "'s/^format_version = 2$/format_version = 3/' '" + t.root +
                      "/bundle/zeroclaw-agent.toml'");
    const auto r = verify_at(t.root + "/bundle");
    CHECK(has_finding(r, "format_newer", "zeroclaw-agent.toml"));
  }
  SUBCASE("a stray file under memory/") {
    install_copy t;
    (void)export_with(t, options(t, "researcher", true));
    install_copy::run("rm '" + t.root + "/bundle/zeroclaw-agent.sha256' && touch '" + t.root +
                      "/bundle/memory/brain.db'");
    CHECK(has_finding(verify_at(t.root + "/bundle"), "unexpected_entry", "memory/brain.db"));
  }
}

TEST_CASE("import of a format-2 bundle: everything but memory, and the to-do says so") {
  install_copy t;
  (void)export_with(t, options(t, "researcher", true));
  install_copy::run("mkdir '" + t.root + "/dst' && printf 'schema_version = 3\\n' > '" + t.root +
                    "/dst/config.toml'");
  clawport::importer::import_options o;
  o.bundle = t.root + "/bundle";
  o.config_path = t.root + "/dst/config.toml";
  o.now = clawport::timestamp{1786500000, 0};
  clawport::fs::posix backend;
  const auto plan = clawport::importer::plan_import(backend, o);
  bool said = false;
  for (const auto& item : plan.todo)
    if (item.kind == "memory_left_out" && item.path == "memory/entries.jsonl" &&
        item.detail.find("3 memories") != std::string::npos)
      said = true;
  CHECK(said);
}

namespace {

// A memory source of three rows, for an export on fs::faulty<fs::memory> (no SQLite there).
clawport::memory::source three_rows() {
  return [](const std::string&, std::string_view, const clawport::memory::entry_visitor& v) {
    for (const char* key : {"a", "b", "c"}) {
      clawport::memory::entry e;
      e.key = key;
      e.content = std::string("memory ") + key;
      v(e);
    }
    return clawport::memory::store_facts{};
  };
}

}  // namespace

TEST_CASE("export --with-memory: every operation fails in turn; the previous bundle stays") {
  using clawport::testing::harness;
  using clawport::testing::memory_rig;
  using clawport::testing::swept;
  auto setup = [](harness<memory_rig>& h) {
    h.write(h.ws + "/notes/plan.md", "the plan");
    h.write("out/bundle/config.toml", "# the previous bundle");
    h.write("out/bundle/zeroclaw-agent.toml", "format_version = 1");
  };
  auto opts = [](harness<memory_rig>& h) {
    clawport::export_options o = h.opts(true);
    o.memory = three_rows();
    return o;
  };
  std::size_t ops = 0;
  std::map<std::string, std::string> fresh;
  {
    harness<memory_rig> h;
    setup(h);
    h.fsys().reset_counts();
    (void)h.run(opts(h));
    ops = h.fsys().count();
    fresh = h.snapshot("out/bundle");
    REQUIRE(fresh.count("memory/entries.jsonl") == 1);
  }
  std::size_t refused = 0;
  for (std::size_t n = 1; n <= ops; ++n) {
    if (!swept(n, 1)) continue;
    CAPTURE(n);
    harness<memory_rig> h;
    setup(h);
    const auto before = h.snapshot("out");
    h.fsys().reset_counts();
    h.fsys().fail_at(n, ENOSPC);
    try {
      (void)h.run(opts(h));
      CHECK(h.snapshot("out/bundle") == fresh);  // only post-commit cleanup failed
    } catch (const clawport::error& e) {
      ++refused;
      CHECK(e.sys_errno() == ENOSPC);
      CHECK(h.snapshot("out") == before);  // the previous bundle, nothing beside it
    }
  }
  CHECK(refused > 0);
}

TEST_CASE("export --with-memory: entries.jsonl past max_memory_bytes is refused, nothing written") {
  install_copy t;
  clawport::export_options o = options(t, "researcher", true);
  o.limits.max_memory_bytes = 300;  // the example's four lines are about 900 bytes
  try {
    (void)export_with(t, o);
    FAIL("a memory file past its limit was written");
  } catch (const clawport::error& e) {
    CHECK(e.code() == clawport::errc::limit_exceeded);
    CHECK(e.subject() == "memory/entries.jsonl");
  }
  CHECK_FALSE(exists(t.root + "/bundle"));
  install_copy::run("test -z \"$(ls -A '" + t.root + "' | grep -v '^install$')\"");
}
