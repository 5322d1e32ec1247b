// SPDX-License-Identifier: MIT
// The Markdown memory backend's files as memories and back (memory/markdown.hpp, issue 47
// items 6-7): ZeroClaw's own mapping (`zeroclaw migrate openclaw`); the first cases mirror
// its tests in crates/zeroclaw-runtime/src/migration.rs (parse_structured_markdown_line,
// parse_unstructured_markdown_generates_key, parse_structured_markdown_rejects_empty_key,
// _empty_value, _no_stars). The round trips go through a real store made by sqlite::merge.
#include "support/test.hpp"

#include <clawport/sqlite.hpp>

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

namespace cp = clawport;
namespace mem = clawport::memory;
const std::string now = "2026-03-01T12:00:00+00:00";

std::map<std::string, std::string> by_key(const std::vector<mem::entry>& es) {
  std::map<std::string, std::string> out;
  for (const auto& e : es) out[e.key] = e.category + ": " + e.content;
  return out;
}

/// The memories of a workspace's Markdown files (path -> text), as an import reads them.
std::vector<mem::entry> parse_files(const std::map<std::string, std::string>& files) {
  std::vector<mem::entry> all;
  for (const auto& [path, text] : files) {
    const bool core = path == "MEMORY.md";
    const std::string stem =
        core ? std::string(mem::core_stem) : path.substr(7, path.size() - 7 - 3);
    for (auto& e : mem::parse_markdown(text, core ? "core" : "daily", stem, now))
      all.push_back(std::move(e));
  }
  std::size_t renamed = 0;
  return mem::unique_keys(std::move(all), renamed);
}

struct scratch {
  std::string root;
  scratch() {
    std::string tmpl = "/tmp/clawport-memmd-XXXXXX";
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    root = tmpl;
  }
  ~scratch() { (void)std::system(("rm -rf '" + root + "'").c_str()); }
};

/// `entries` merged as agent `alias` into the store at `db`, then read back.
std::vector<mem::entry> through_store(const std::string& db, const std::string& alias,
                                      const std::vector<mem::entry>& entries) {
  mem::merge_request r;
  r.agent_id = mem::new_uuid();
  r.alias = alias;
  r.created_at = now;
  r.rows = [&entries](const mem::entry_visitor& visit) {
    for (const auto& e : entries) visit(e);
  };
  CHECK(cp::sqlite::merge(db, r) == entries.size());
  cp::sqlite::store s(db);
  std::vector<mem::entry> out;
  (void)s.read_agent(alias, [&](const mem::entry& e) { out.push_back(e); });
  return out;
}

}  // namespace

TEST_CASE("markdown memory: ZeroClaw's line mapping (mirrors migration.rs's tests)") {
  // parse_structured_markdown_line
  auto es = mem::parse_markdown("**user_pref**: likes Rust", "core", mem::core_stem, now);
  REQUIRE(es.size() == 1);
  CHECK(es[0].key == "user_pref");
  CHECK(es[0].content == "likes Rust");
  // parse_unstructured_markdown_generates_key
  es = mem::parse_markdown("- plain note", "core", "core", now);
  REQUIRE(es.size() == 1);
  CHECK(es[0].key == "openclaw_core_1");
  CHECK(es[0].content == "plain note");
  // rejects_empty_key, rejects_empty_value, rejects_no_stars: the line keeps a made key
  for (const char* line : {"**  **: value", "**key**:   ", "key: value"}) {
    CAPTURE(line);
    es = mem::parse_markdown(line, "core", "core", now);
    REQUIRE(es.size() == 1);
    CHECK(es[0].key == "openclaw_core_1");
  }
  // headings and blank lines skipped, line numbers counted as the file's, CRLF read as LF
  es = mem::parse_markdown("# Notes\r\n\r\n- **a**: one\r\nsecond line\r\n## more\n", "daily",
                           "2026-01-05", now);
  REQUIRE(es.size() == 2);
  CHECK(es[0].key == "a");
  CHECK(es[0].content == "one");
  CHECK(es[1].key == "openclaw_2026-01-05_4");
  CHECK(es[1].content == "second line");
  CHECK(es[1].category == "daily");
  CHECK(es[1].created == "2026-01-05T00:00:00+00:00");  // the file's day (beyond upstream)
  CHECK(mem::parse_markdown("- x", "core", mem::core_stem, now)[0].created == now);
}

TEST_CASE("markdown memory: keys unique per agent (repeats dropped, clashes renamed)") {
  std::vector<mem::entry> es =
      mem::parse_markdown("- **k**: one\n- **k**: one\n- **k**: two\n- **k__openclaw_1**: three\n",
                          "core", mem::core_stem, now);
  std::size_t renamed = 0;
  es = mem::unique_keys(std::move(es), renamed);
  CHECK(by_key(es) ==
        std::map<std::string, std::string>{{"k", "core: one"},
                                           {"k__openclaw_1", "core: two"},
                                           {"k__openclaw_1__openclaw_1", "core: three"}});
  CHECK(renamed == 2);
}

TEST_CASE("markdown -> sqlite -> markdown keeps every key and content") {
  scratch t;
  const std::map<std::string, std::string> files = {
      {"MEMORY.md", "# Memory\n\n- **citation_style**: Cite (Author, Year).\n- Prefers tea.\n"},
      {"memory/2026-01-07.md", "- **summary**: Summarised three papers.\nAsked for brevity.\n"},
      {"memory/2026-01-08.md", "- **summary**: Another day, the same key.\n"}};
  const std::vector<mem::entry> parsed = parse_files(files);
  REQUIRE(parsed.size() == 5);
  const auto stored = through_store(t.root + "/brain.db", "researcher", parsed);
  CHECK(by_key(stored) == by_key(parsed));
  // and back to Markdown: the same memories when read again
  CHECK(by_key(parse_files(mem::to_markdown(stored))) == by_key(parsed));
  CHECK(mem::to_markdown(stored)
            .at("memory/2026-01-07.md")
            .find("- **summary**: Summarised three papers.\n") != std::string::npos);
}

TEST_CASE("sqlite -> markdown -> sqlite keeps every key and content of core and daily rows") {
  scratch t;
  cp::sqlite::store example(
      cp::testing::source_path("examples/zeroclaw-install/data/memory/brain.db"));
  std::vector<mem::entry> rows;
  (void)example.read_agent("researcher", [&](const mem::entry& e) {
    if (e.category == "core" || e.category == "daily") rows.push_back(e);
  });
  REQUIRE(rows.size() == 3);
  const std::map<std::string, std::string> md = mem::to_markdown(rows);
  CHECK(md.count("MEMORY.md") == 1);
  CHECK(md.count("memory/2026-01-07.md") == 1);
  const auto back = through_store(t.root + "/brain.db", "researcher", parse_files(md));
  CHECK(by_key(back) == by_key(rows));
  // A category that is not a plain name never becomes a path.
  mem::entry odd;
  odd.key = "k";
  odd.content = "line one\nline two";
  odd.category = "../../etc";
  const auto odd_md = mem::to_markdown({odd});
  REQUIRE(odd_md.size() == 1);
  CHECK(odd_md.begin()->first == "memory/imports/zeroclaw/other.md");
  CHECK(odd_md.begin()->second == "- **k**: line one line two\n");
}
