// SPDX-License-Identifier: MIT
// Issue 22 items 1-4 and 10, issue 30: what `export` writes, `verify` accepts and `import` can
// apply. Each case exports on the real filesystem (and, where a limit is lowered, on fs::memory
// too), then verifies and plans an import of the result with the same functions the CLI uses,
// and checks that nothing else was written or lost.
#include "harness.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

using clawport::testing::children;
using clawport::testing::harness;
using clawport::testing::memory_rig;
using clawport::testing::posix_rig;
namespace cp = clawport;
namespace zc = clawport::zeroclaw;
using strings = std::vector<std::string>;

namespace {

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

const zc::dropped_item* find_drop(const cp::export_result& r, const std::string& path) {
  for (const auto& d : r.plan.dropped)
    if (d.path == path) return &d;
  return nullptr;
}

template <class H>
cp::verify::report verify_out(H& h, const cp::bundle::limits& lim = {}) {
  return cp::verify::verify_bundle(h.fsys(), h.path("out/bundle"), lim);
}

std::string findings_of(const cp::verify::report& rep) {
  std::string s;
  for (const auto& f : rep.findings) s += f.code + " " + f.path + ": " + f.detail + "\n";
  return s;
}

/// The bundle's regular files, by bundle path, as the digest list names them.
template <class H>
std::set<std::string> bundle_paths(H& h) {
  std::set<std::string> out;
  for (const auto& f : h.bundle_files()) out.insert(f.first);
  return out;
}

/// The message of the refusal the export throws with `code` (fails the test otherwise).
template <class H>
std::string refused(H& h, const cp::export_options& o, cp::errc code) {
  try {
    h.run(o);
  } catch (const cp::error& e) {
    CHECK(e.code() == code);
    return e.what();
  }
  FAIL("the export succeeded but was expected to be refused");
  return {};
}

/// Plans importing the exported bundle into a fresh install beside it.
template <class H>
cp::importer::import_plan plan_import_of(H& h, const cp::bundle::limits& lim = {}) {
  h.write("target/config.toml", "schema_version = 3\n");
  cp::importer::import_options o;
  o.bundle = h.path("out/bundle");
  o.config_path = h.path("target/config.toml");
  o.now = cp::timestamp{1786406400, 0};
  o.limits = lim;
  return cp::importer::plan_import(h.fsys(), o);
}

}  // namespace

#define RIGS memory_rig, posix_rig

// ---- item 1: one closure rule for fallback chains -----------------------------------------

TEST_CASE_TEMPLATE("issue22 item1: a five-deep fallback chain exports a bundle that verifies", R,
                   RIGS) {
  harness<R> h;
  h.config =
      "schema_version = 3\n[risk_profiles.guarded]\n[agents.researcher]\n"
      "model_provider = \"openai.l0\"\nrisk_profile = \"guarded\"\n";
  for (int i = 0; i <= 4; ++i)
    h.config += "[providers.models.openai.l" + std::to_string(i) + "]\nmodel = \"m\"\n" +
                (i < 4 ? "fallback = [\"openai.l" + std::to_string(i + 1) + "\"]\n" : "");
  h.write(h.ws + "/notes.md", "n");
  const auto r = h.run();
  const zc::dropped_item* d = find_drop(r, "providers.models.openai.l3.fallback[0]");
  REQUIRE(d != nullptr);
  CHECK(d->reason == zc::drop_reason::depth_limit);
  const std::string config = h.read("out/bundle/config.toml");
  CHECK_FALSE(has(config, "openai.l4"));
  CHECK(has(h.read("out/bundle/zeroclaw-agent.toml"), "reason = \"depth_limit\""));
  const auto rep = verify_out(h);
  CHECK_MESSAGE(rep.ok(), findings_of(rep));
  CHECK(rep.authenticated);
  CHECK(bundle_paths(h) == std::set<std::string>{"config.toml", "workspace/notes.md",
                                                 "zeroclaw-agent.sha256", "zeroclaw-agent.toml"});
  const auto plan = plan_import_of(h);
  CHECK(plan.alias == "researcher");
}

// ---- item 2: one limits definition ----------------------------------------------------------

TEST_CASE_TEMPLATE("issue22 item2: tree depth: the export at the limit verifies, one past refuses",
                   R, RIGS) {
  harness<R> h;
  cp::bundle::limits lim;
  lim.max_depth = 4;  // workspace (1) / a (2) / b (3) / c (4)
  h.write(h.ws + "/a/b/c/deep.md", "at the limit");
  auto o = h.opts();
  o.limits = lim;
  const auto r = h.run(o);
  CHECK(r.workspace.files == 1);
  const auto rep = verify_out(h, lim);
  CHECK_MESSAGE(rep.ok(), findings_of(rep));
  CHECK(plan_import_of(h, lim).alias == "researcher");

  h.write(h.ws + "/a/b/c/d/deeper.md", "one past");
  const auto before = h.snapshot("out");
  auto forced = h.opts(true);
  forced.limits = lim;
  CHECK(has(refused(h, forced, cp::errc::limit_exceeded), "workspace/a/b/c/d"));
  CHECK(h.snapshot("out") == before);  // the bundle as it was, no staging directory left
}

TEST_CASE("issue22 item2: the default depth limit: 64 levels export and verify, 65 refuse") {
  harness<posix_rig> h;
  std::string dir = h.ws;
  for (int i = 2; i <= 64; ++i) dir += "/d";  // workspace is level 1
  h.write(dir + "/leaf.md", "deep");
  h.run();
  const auto rep = verify_out(h);
  CHECK_MESSAGE(rep.ok(), findings_of(rep));
  h.write(dir + "/d/leaf.md", "too deep");
  const auto before = h.snapshot("out");
  const std::string m = refused(h, h.opts(true), cp::errc::limit_exceeded);
  CHECK(has(m, "nested deeper than 63"));
  CHECK(h.snapshot("out") == before);  // the published bundle is as it was; no staging left
}

TEST_CASE_TEMPLATE("issue22 item2: file count: at the limit verifies, one past is refused", R,
                   RIGS) {
  harness<R> h;
  cp::bundle::limits lim;
  lim.max_files = 5;  // config.toml, the manifest, the digest list and two files
  h.write(h.ws + "/one.md", "1");
  h.write(h.ws + "/two.md", "2");
  auto o = h.opts();
  o.limits = lim;
  h.run(o);
  CHECK(verify_out(h, lim).ok());
  h.write(h.ws + "/three.md", "3");
  const auto before = h.snapshot("out");
  auto forced = h.opts(true);
  forced.limits = lim;
  CHECK(has(refused(h, forced, cp::errc::limit_exceeded), "more than 2 files"));
  CHECK(h.snapshot("out") == before);
  // The skills share the budget: a skill file past it is refused the same way.
  h.remove(h.ws + "/three.md");
  h.with_skill_bundle();
  h.write(h.skills_dir + "/web/SKILL.md", "---\nname: web\ndescription: d\n---\nx\n");
  CHECK(has(refused(h, forced, cp::errc::limit_exceeded), "skills/research_tools/web/SKILL.md"));
  CHECK(h.snapshot("out") == before);
}

TEST_CASE_TEMPLATE("issue22 item2: config.toml and manifest sizes: at the limit, one past", R,
                   RIGS) {
  harness<R> h;
  h.write(h.ws + "/one.md", "1");
  h.run();
  const std::uint64_t config = h.read("out/bundle/config.toml").size();
  const std::uint64_t manifest = h.read("out/bundle/zeroclaw-agent.toml").size();
  for (const bool past : {false, true}) {
    cp::bundle::limits lim;
    lim.max_config_bytes = config - (past ? 1 : 0);
    auto o = h.opts(true);
    o.limits = lim;
    if (!past) {
      h.run(o);
      CHECK(verify_out(h, lim).ok());
    } else {
      const auto before = h.snapshot("out");
      CHECK(has(refused(h, o, cp::errc::limit_exceeded), "config.toml would be"));
      CHECK(h.snapshot("out") == before);
      CHECK_FALSE(verify_out(h, lim).ok());  // verify refuses that bundle with that limit
    }
  }
  for (const bool past : {false, true}) {
    cp::bundle::limits lim;
    lim.max_manifest_bytes = manifest - (past ? 1 : 0);
    auto o = h.opts(true);
    o.limits = lim;
    if (!past) {
      h.run(o);
      CHECK(verify_out(h, lim).ok());
    } else {
      const auto before = h.snapshot("out");
      CHECK(has(refused(h, o, cp::errc::limit_exceeded), "zeroclaw-agent.toml would be"));
      CHECK(h.snapshot("out") == before);
    }
  }
}

TEST_CASE_TEMPLATE("issue22 item2: digest list and total bytes: at the limit, one past", R, RIGS) {
  harness<R> h;
  h.write(h.ws + "/one.md", "1");
  h.run();
  std::uint64_t total = 0;
  for (const auto& f : h.bundle_files()) total += f.second.size();
  const std::uint64_t list = h.read("out/bundle/zeroclaw-agent.sha256").size();
  const auto attempt = [&](cp::bundle::limits lim, bool past) {
    auto o = h.opts(true);
    o.limits = lim;
    if (!past) {
      h.run(o);
      CHECK(verify_out(h, lim).ok());
      return;
    }
    const auto before = h.snapshot("out");
    (void)refused(h, o, cp::errc::limit_exceeded);
    CHECK(h.snapshot("out") == before);
  };
  for (const bool past : {false, true}) {
    cp::bundle::limits lim;
    lim.max_digest_list_bytes = list - (past ? 1 : 0);
    attempt(lim, past);
    cp::bundle::limits bytes;
    bytes.max_total_bytes = total - (past ? 1 : 0);
    attempt(bytes, past);
  }
}

// ---- item 3: names a bundle cannot carry are skipped and listed ----------------------------

TEST_CASE(
    "issue22 item3: a Latin-1 name and a newline are skipped, listed, and the bundle "
    "verifies") {
  harness<posix_rig> h;
  h.with_skill_bundle();
  h.write(h.ws + "/notes.md", "kept");
  h.write(h.ws + "/caf\xe9.md", "latin-1");
  h.write(h.ws + "/sub/new\nline.md", "newline");
  h.write(h.skills_dir + "/web/SKILL.md", "---\nname: web\ndescription: d\n---\nx\n");
  h.write(h.skills_dir + "/web/r\xe9sum\xe9.txt", "skill latin-1");
  h.write(h.skills_dir + "/odd\tskill/SKILL.md", "---\nname: odd\ndescription: d\n---\nx\n");
  const auto r = h.run();
  CHECK(r.workspace.names == 2);
  CHECK(r.skills.names == 2);
  for (const char* p :
       {"workspace/caf\\xe9.md", "workspace/sub/new\\x0aline.md",
        "skills/research_tools/web/r\\xe9sum\\xe9.txt", "skills/research_tools/odd\\x09skill"}) {
    const zc::dropped_item* d = find_drop(r, p);
    REQUIRE_MESSAGE(d != nullptr, p);
    CHECK(d->reason == zc::drop_reason::unportable_name);
  }
  // Nothing else was lost, nothing else was written.
  CHECK(bundle_paths(h) == std::set<std::string>{"config.toml",
                                                 "skills/research_tools/web/SKILL.md",
                                                 "workspace/notes.md", "zeroclaw-agent.sha256",
                                                 "zeroclaw-agent.toml"});
  CHECK(has(h.read("out/bundle/zeroclaw-agent.toml"), "caf\\\\xe9.md"));
  const auto rep = verify_out(h);
  CHECK_MESSAGE(rep.ok(), findings_of(rep));
  CHECK(rep.authenticated);
  const std::string text = cp::render_report(r);
  CHECK(has(text, "4 entry/entries skipped for their name"));
  const std::string json = cp::render_json(r);
  CHECK((has(json, "\"names\":4") || has(json, "\"names\": 4")));
}

// ---- item 4: verify refuses what import cannot apply ---------------------------------------

TEST_CASE("issue22 item4: a control character in exported_at is refused by verify and import") {
  harness<posix_rig> h;
  h.write(h.ws + "/notes.md", "n");
  h.run();
  std::string manifest = h.read("out/bundle/zeroclaw-agent.toml");
  const std::size_t key = manifest.find("exported_at = \"");
  REQUIRE(key != std::string::npos);
  manifest.insert(manifest.find('"', key + 15), "\\r\\u001b[2J");
  h.write("out/bundle/zeroclaw-agent.toml", manifest);
  h.remove("out/bundle/zeroclaw-agent.sha256");  // an upstream-style bundle: no digest list
  const auto rep = verify_out(h);
  CHECK_FALSE(rep.ok());
  bool named = false;
  for (const auto& f : rep.findings)
    named = named ||
            (f.code == "manifest_invalid" &&
             f.path == "zeroclaw-agent.toml:provenance.exported_at" && has(f.detail, "U+000D"));
  CHECK_MESSAGE(named, findings_of(rep));
  h.write("target/config.toml", "schema_version = 3\n");
  cp::importer::import_options o;
  o.bundle = h.path("out/bundle");
  o.config_path = h.path("target/config.toml");
  CHECK_THROWS_AS(cp::importer::plan_import(h.fsys(), o), cp::error);
  CHECK(h.read("target/config.toml") == "schema_version = 3\n");
  CHECK(children(h, "target") == strings{"config.toml"});
  // The rule is the config writer's own: the append refuses that comment the same way.
  CHECK(zc::comment_problem("a\rb").has_value());
  CHECK_FALSE(zc::comment_problem("line one\nline\ttwo \xc3\xa9").has_value());
}

// ---- item 10: workspace/skills/ is a risk flag everywhere ----------------------------------

TEST_CASE("issue22 item10: a workspace skill is flagged by export, verify and the import plan") {
  harness<posix_rig> h;
  h.write(h.ws + "/skills/helper/SKILL.md", "---\nname: helper\ndescription: d\n---\nrun me\n");
  const auto r = h.run();
  const auto flagged = [](const auto& flags, auto kind_of) {
    return std::count_if(flags.begin(), flags.end(),
                         [&](const auto& f) { return kind_of(f) == "carried_workspace_skills"; });
  };
  const auto plan_kind = [](const zc::risk_flag& f) { return std::string(zc::to_string(f.kind)); };
  const auto finding_kind = [](const cp::verify::finding& f) { return f.code; };
  CHECK(flagged(r.plan.risk_flags, plan_kind) == 1);
  CHECK(has(h.read("out/bundle/zeroclaw-agent.toml"), "kind = \"carried_workspace_skills\""));
  const auto rep = verify_out(h);
  CHECK(rep.ok());
  CHECK(flagged(rep.risk_flags, finding_kind) == 1);
  CHECK(flagged(plan_import_of(h).risk_flags, finding_kind) == 1);

  // A bundle whose manifest hides it: verify derives the flag from the files and warns.
  std::string manifest = h.read("out/bundle/zeroclaw-agent.toml");
  std::string kept;
  for (std::size_t at = 0; at < manifest.size();) {  // every block but the risk flags
    const std::size_t end = std::min(manifest.find("\n\n", at), manifest.size());
    const std::string block = manifest.substr(at, end - at);
    if (block.rfind("[[risk_flags]]", 0) != 0) kept += block + "\n\n";
    at = end + 2;
  }
  REQUIRE(kept.size() < manifest.size());
  manifest = kept;
  manifest.insert(manifest.find("[provenance]"), "risk_flags = []\n\n");
  h.write("out/bundle/zeroclaw-agent.toml", manifest);
  h.remove("out/bundle/zeroclaw-agent.sha256");
  const auto hidden = verify_out(h);
  CHECK_MESSAGE(hidden.ok(), findings_of(hidden));
  CHECK(flagged(hidden.risk_flags, finding_kind) == 1);
  CHECK(has(findings_of(hidden), "risk_unlisted workspace/skills"));
  CHECK(flagged(plan_import_of(h).risk_flags, finding_kind) == 1);
}

// ---- issue 30: memory stays home ------------------------------------------------------------

TEST_CASE_TEMPLATE("issue30: MEMORY.md, memory.md, USER.md and memory/ stay home, each reported", R,
                   RIGS) {
  harness<R> h;
  h.config += "[agents.researcher.memory]\nbackend = \"markdown\"\n";
  h.write(h.ws + "/notes.md", "kept");
  h.write(h.ws + "/MEMORY.md", "- **pref**: MEMORY-SENTINEL-1");
  h.write(h.ws + "/memory.md", "MEMORY-SENTINEL-2");
  h.write(h.ws + "/USER.md", "MEMORY-SENTINEL-3");
  h.write(h.ws + "/memory/2026-01-01.md", "MEMORY-SENTINEL-4");
  h.write(h.ws + "/MEMORY_SNAPSHOT.md", "MEMORY-SENTINEL-5");
  h.write(h.ws + "/docs/MEMORY.md", "a document about memory, not the memory");
  const auto r = h.run();
  CHECK_FALSE(h.bundle_contains("MEMORY-SENTINEL"));
  CHECK(bundle_paths(h) == std::set<std::string>{"config.toml", "workspace/docs/MEMORY.md",
                                                 "workspace/notes.md", "zeroclaw-agent.sha256",
                                                 "zeroclaw-agent.toml"});
  for (const char* p : {"workspace/MEMORY.md", "workspace/memory.md", "workspace/USER.md",
                        "workspace/memory", "workspace/MEMORY_SNAPSHOT.md"})
    REQUIRE_MESSAGE(find_drop(r, p) != nullptr, p);
  CHECK(find_drop(r, "workspace/MEMORY.md")->reason == zc::drop_reason::private_data);
  CHECK(has(find_drop(r, "workspace/MEMORY.md")->detail,
            "`markdown` (agents.researcher.memory.backend)"));
  CHECK(find_drop(r, "workspace/USER.md")->reason == zc::drop_reason::private_data);
  CHECK_FALSE(has(cp::render_report(r) + cp::render_json(r), "MEMORY-SENTINEL"));
  const auto rep = verify_out(h);
  CHECK_MESSAGE(rep.ok(), findings_of(rep));
}

TEST_CASE("issue30: verify warns about a carried MEMORY.md or USER.md and refuses memory/") {
  harness<posix_rig> h;
  h.write(h.ws + "/notes.md", "n");
  h.run();
  h.remove("out/bundle/zeroclaw-agent.sha256");  // an upstream bundle: it carries them
  h.write("out/bundle/workspace/MEMORY.md", "remembered");
  h.write("out/bundle/workspace/user.md", "who");
  auto rep = verify_out(h);
  CHECK_MESSAGE(rep.ok(), findings_of(rep));
  CHECK(has(findings_of(rep), "private_data workspace/MEMORY.md"));
  CHECK(has(findings_of(rep), "private_data workspace/user.md"));
  h.write("out/bundle/workspace/memory/brain.db", "x");
  rep = verify_out(h);
  CHECK_FALSE(rep.ok());
  CHECK(has(findings_of(rep), "memory_store workspace/memory/"));
}

TEST_CASE(
    "export: a digest list past the spill buffer is in path order, as render_list writes it") {
  // The workspace's lines are spilled to a staged file as the walk (in path order) goes and
  // the list assembled around them: the same bytes as rendering every entry at once, and
  // nothing but the bundle's own files left in it. `a.txt` sorts before `a/` by path.
  harness<posix_rig> h;
  for (int i = 0; i < 800; ++i) {
    const std::string n = std::to_string(i);
    h.write(h.ws + "/a/" + n + ".md", n);
    if (i % 100 == 0) h.write(h.ws + "/a." + n + ".txt", n);
  }
  h.run();
  const std::string list = h.read("out/bundle/zeroclaw-agent.sha256");
  REQUIRE(list.size() > CLAWPORT_COPY_BUFFER_SIZE);
  const auto entries = cp::digest::parse_list(list, "zeroclaw-agent.sha256");
  CHECK(entries.size() == 800 + 8 + 2);  // the workspace, config.toml, the manifest
  CHECK(cp::digest::render_list(entries) == list);
  CHECK(children(h, "out/bundle") ==
        strings{"config.toml", "workspace", "zeroclaw-agent.sha256", "zeroclaw-agent.toml"});
  const auto rep = verify_out(h);
  CHECK_MESSAGE(rep.ok(), findings_of(rep));
  CHECK(rep.authenticated);
}
