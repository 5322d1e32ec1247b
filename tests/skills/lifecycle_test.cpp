// SPDX-License-Identifier: MIT
// The skills lifecycle: TEST.sh parsing and running (§9.11), scaffold and references
// (§9.7, §9.8), install destinations (§1.8), install, remove and the service listing
// (§9.9), hostile sources, and fault and crash sweeps of install and remove.
#include "support/test.hpp"

#include "fs/fixture.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

namespace cp = clawport;
namespace sk = clawport::skills;
using clawport::fs::faulty;
using clawport::fs::memory;
using snapshot_t = std::map<std::string, std::string>;

sk::skills_config config_of(const std::string& toml) { return sk::parse_skills_config(toml); }

sk::skills_config config_with_bundles(std::initializer_list<const char*> aliases) {
  std::string t;
  for (const char* a : aliases) t += std::string("[skill_bundles.") + a + "]\n";
  return config_of(t);
}

const std::string inst = "/inst";

sk::install_paths where() { return sk::install_paths{inst, ""}; }

/// A memory filesystem holding an install root (the directory of config.toml).
memory with_install() {
  memory m;
  m.write_file(inst + "/config.toml", "");
  return m;
}

/// The install as it is before anything was written.
const snapshot_t untouched{{"config.toml", "f:"}};

/// The runner the upstream tests use: the real `sh`, a tiny environment.
sk::posix_runner real_runner() { return sk::posix_runner({"PATH=/usr/bin:/bin"}); }

/// A runner that never starts anything: it answers from a table (for memory backends).
struct table_runner {
  std::map<std::string, sk::command_outcome> answers;
  mutable std::vector<std::string> seen;
  sk::command_outcome run(const std::vector<std::string>& argv, const std::string& cwd,
                          std::chrono::milliseconds) const {
    seen.push_back(cwd + ": " + argv.back());
    const auto it = answers.find(argv.back());
    return it == answers.end() ? sk::command_outcome{127, "not found", false, {}} : it->second;
  }
};

/// Absolute path of `rel` in a posix fixture.
std::string at(const clawport::testing::posix_fixture& f, const std::string& rel) {
  return f.root_path() + "/" + rel;
}

bool has_error(const std::function<void()>& f, cp::errc code, const std::string& text) {
  try {
    f();
  } catch (const cp::error& e) {
    CAPTURE(e.what());
    return e.code() == code && std::string(e.what()).find(text) != std::string::npos;
  }
  return false;
}

/// Like has_error, for refusals whose code depends on the backend's errno mapping.
bool refused_with(const std::function<void()>& f, const std::string& text) {
  try {
    f();
  } catch (const cp::error& e) {
    CAPTURE(e.what());
    return std::string(e.what()).find(text) != std::string::npos;
  }
  return false;
}

}  // namespace

// ---- §9.11 testing.rs -------------------------------------------------------------------

TEST_CASE("truncate_output_does_not_panic_on_multibyte_boundary") {
  const std::string out =
      sk::truncate_output("\xF0\x9F\xA6\x80\xF0\x9F\xA6\x80\xF0\x9F\xA6\x80", 2);
  CHECK(out == "...");
  CHECK(cp::detail::valid_utf8(out));
  const std::string out2 = sk::truncate_output(
      "h\xC3\xA9llo w\xC3\xB6rld with \xC3\xA1"
      "ccents",
      2);
  CHECK(out2 == "h...");
  CHECK(cp::detail::valid_utf8(out2));
  CHECK(sk::truncate_output("ok\nfine", 100) == "ok fine");
}

TEST_CASE("parse_comment_and_empty_lines") {
  CHECK_FALSE(sk::parse_test_line(""));
  CHECK_FALSE(sk::parse_test_line("   "));
  CHECK_FALSE(sk::parse_test_line("# this is a comment"));
  CHECK_FALSE(sk::parse_test_line("  # indented comment"));
}

TEST_CASE("parse_valid_test_line") {
  const auto c = sk::parse_test_line("echo hello | 0 | hello");
  REQUIRE(c);
  CHECK(c->command == "echo hello");
  CHECK(c->expected_exit == 0);
  CHECK(c->pattern == "hello");
}

TEST_CASE("parse_line_with_spaces_in_pattern") {
  const auto c = sk::parse_test_line("echo 'hello world' | 0 | hello world");
  REQUIRE(c);
  CHECK(c->command == "echo 'hello world'");
  CHECK(c->pattern == "hello world");
  // A pattern holding ` | ` is rejoined; a bare shell pipe stays in the command.
  const auto p = sk::parse_test_line("printf 'a|b' | 0 | a | b");
  REQUIRE(p);
  CHECK(p->command == "printf 'a|b'");
  CHECK(p->pattern == "a | b");
  const auto bare = sk::parse_test_line("echo x|2|x");
  REQUIRE(bare);
  CHECK(bare->command == "echo x");
  CHECK(bare->expected_exit == 2);
  CHECK(bare->pattern == "x");
}

TEST_CASE("parse_invalid_line_missing_parts") {
  CHECK_FALSE(sk::parse_test_line("just a command"));
  CHECK_FALSE(sk::parse_test_line("cmd | notanumber | pattern"));
  CHECK_FALSE(sk::parse_test_line("cmd | 99999999999 | pattern"));
  CHECK(sk::parse_test_line("cmd | -1 | ")->expected_exit == -1);
  const auto all = sk::parse_test_script("# t\necho a | 0 | a\n\nbad line\nfalse | 1 |\n");
  REQUIRE(all.size() == 2);
  CHECK(all[0].line == 2);
  CHECK(all[1].line == 5);
}

TEST_CASE("pattern_matches_empty") { CHECK(sk::pattern_matches("anything", "")); }

TEST_CASE("pattern_matches_substring") {
  CHECK(sk::pattern_matches("hello world", "hello"));
  CHECK(sk::pattern_matches("hello world", "world"));
  CHECK_FALSE(sk::pattern_matches("hello world", "missing"));
  // Not a valid regex: the substring test decides.
  CHECK(sk::pattern_matches("a (b", "(b"));
  CHECK_FALSE(sk::pattern_matches("a b", "(b"));
}

TEST_CASE("pattern_matches_regex") {
  CHECK(sk::pattern_matches("hello world 42", R"(world \d+)"));
  CHECK(sk::pattern_matches("/usr/bin/bash", "/"));
  CHECK_FALSE(sk::pattern_matches("hello", R"(^\d+$)"));
}

TEST_CASE(
    "pattern_matches: 64 KiB of output against a backtracking pattern neither crashes nor hangs") {
  // std::regex recursed once per character here and overflowed the stack (found by fuzzing)
  std::string output(sk::test_output_matched_bytes, 'a');
  output += "tail";
  CHECK_FALSE(sk::pattern_matches(output, ".*tail"));  // only the first 64 KiB are searched
  CHECK(sk::pattern_matches(output, "(a|a)*"));
  CHECK_FALSE(sk::pattern_matches(output, "(a|a)*b"));
  CHECK(sk::pattern_matches("x (?=y) z", "(?=y)"));  // not a Rust regex: the substring decides
}

TEST_CASE("test_truncate_output") {
  const std::string long_text(500, 'x');
  const std::string out = sk::truncate_output(long_text, 200);
  CHECK(out.size() == 203);
  CHECK(out.substr(200) == "...");
}

TEST_CASE("test_result_aggregation") {
  std::vector<sk::skill_test_result> results(2);
  results[0].skill_name = "a";
  results[0].tests_run = 3;
  results[0].tests_passed = 3;
  results[1].skill_name = "b";
  results[1].tests_run = 2;
  results[1].tests_passed = 1;
  results[1].directory = "/i/shared/skills/ops/b";
  results[1].failures.push_back({"false", 4, 0, 1, "", "", false});
  const sk::test_totals t = sk::aggregate(results);
  CHECK(t.run == 5);
  CHECK(t.passed == 4);
  CHECK(t.failed() == 1);
  const std::string text = sk::render_test_results(results);
  CHECK(text.find("  \u2713 a \u2014 3/3 passed") != std::string::npos);
  CHECK(text.find("  \u2717 b \u2014 1/2 passed") != std::string::npos);
  CHECK(text.find("1 of 5 test(s) failed across 2 skill(s).") != std::string::npos);
  // The failing test's TEST.sh line, as file:line.
  CHECK(text.find("    command:  false\n    at:       /i/shared/skills/ops/b/TEST.sh:4\n") !=
        std::string::npos);
  CHECK(sk::render_test_results({}) == "No skills with TEST.sh found.\n");
}

TEST_CASE("TEST.sh runner on the real shell (upstream testing.rs)") {
  clawport::testing::posix_fixture f;
  const auto runner = real_runner();

  SUBCASE("test_skill_with_echo") {
    f.write("echo-skill/TEST.sh", "# Echo test\necho hello | 0 | hello\n");
    const auto r = sk::test_skill(f.fs, runner, at(f, "echo-skill"), "echo-skill");
    CHECK(r.tests_run == 1);
    CHECK(r.tests_passed == 1);
    CHECK(r.failures.empty());
  }
  SUBCASE("test_skill_without_test_file") {
    f.mkdir("no-tests");
    const auto r = sk::test_skill(f.fs, runner, at(f, "no-tests"), "no-tests");
    CHECK(r.tests_run == 0);
    CHECK_FALSE(r.has_test_file);
  }
  SUBCASE("test_skill_with_failing_test") {
    f.write("fail-skill/TEST.sh", "echo hello | 1 | goodbye\n");
    const auto r = sk::test_skill(f.fs, runner, at(f, "fail-skill"), "fail-skill");
    CHECK(r.tests_run == 1);
    CHECK(r.tests_passed == 0);
    REQUIRE(r.failures.size() == 1);
    CHECK(r.failures[0].expected_exit == 1);
    CHECK(r.failures[0].actual_exit == 0);
  }
  SUBCASE("test_skill_exit_code_mismatch") {
    f.write("exit-mismatch/TEST.sh", "false | 0 | \n");
    const auto r = sk::test_skill(f.fs, runner, at(f, "exit-mismatch"), "exit-mismatch");
    REQUIRE(r.failures.size() == 1);
    CHECK(r.failures[0].actual_exit == 1);
  }
  SUBCASE("test_all_skills_finds_skills_with_tests") {
    f.write("skills/skill-a/TEST.sh", "echo ok | 0 | ok\n");
    f.mkdir("skills/skill-b");
    f.write("skills/loose.txt", "x");
    const auto targets = sk::skills_with_tests(f.fs, at(f, "skills"));
    REQUIRE(targets.size() == 1);
    CHECK(targets[0].name == "skill-a");
  }
  SUBCASE("commands run in the skill's directory, with only the runner's environment") {
    ::setenv("CLAWPORT_LEAK_PROBE", "secret", 1);
    f.write("s/SKILL.md", "# s");
    f.write("s/TEST.sh",
            "test -f SKILL.md | 0 |\n"
            "echo \"[${CLAWPORT_LEAK_PROBE:-unset}]\" | 0 | ^\\[unset\\]\n"
            "echo out; echo err >&2 | 0 | out\\nerr\n");
    const auto r = sk::test_skill(f.fs, runner, at(f, "s"), "s");
    ::unsetenv("CLAWPORT_LEAK_PROBE");
    CHECK(r.tests_run == 3);
    CHECK(r.tests_passed == 3);
  }
  SUBCASE("a command past its timeout is killed and fails") {
    f.write("slow/TEST.sh", "sleep 30 | 0 |\n");
    sk::test_options opt;
    opt.timeout = std::chrono::milliseconds(200);
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = sk::test_skill(f.fs, runner, at(f, "slow"), "slow", opt);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
    REQUIRE(r.failures.size() == 1);
    CHECK(r.failures[0].timed_out);
  }
  SUBCASE("a symlinked TEST.sh is never followed") {
    f.write("elsewhere.sh", "echo hi | 0 | hi\n");
    f.symlink("linked/TEST.sh", "../elsewhere.sh");
    const auto r = sk::test_skill(f.fs, runner, at(f, "linked"), "linked");
    CHECK_FALSE(r.has_test_file);
    CHECK(r.tests_run == 0);
  }
}

TEST_CASE("skills test targets: by name across bundles and global, ambiguity refused") {
  memory m = with_install();
  m.write_file(inst + "/shared/skills/a/lint/TEST.sh", "true | 0 |\n");
  m.write_file(inst + "/shared/skills/b/lint/TEST.sh", "true | 0 |\n");
  m.write_file(inst + "/shared/skills/b/fmt/TEST.sh", "true | 0 |\n");
  m.mkdirs(inst + "/shared/skills/b/notests");
  const auto cfg = config_with_bundles({"a", "b"});
  const auto all = sk::test_targets(m, cfg, where(), "", "");
  REQUIRE(all.size() == 3);
  CHECK(all[0].bundle == "a");
  CHECK(all[1].name == "fmt");
  CHECK(sk::test_targets(m, cfg, where(), "fmt", "").front().directory ==
        inst + "/shared/skills/b/fmt");
  CHECK(has_error([&] { sk::test_targets(m, cfg, where(), "lint", ""); },
                  cp::errc::invalid_argument, "pass --bundle"));
  CHECK(sk::test_targets(m, cfg, where(), "lint", "b").front().bundle == "b");
  CHECK(has_error([&] { sk::test_targets(m, cfg, where(), "ghost", ""); }, cp::errc::not_found,
                  "Skill not found: ghost"));
  table_runner runner;
  runner.answers["true"] = {0, "", false, {}};
  const auto r = sk::test_skill(m, runner, all[1].directory, "fmt");
  CHECK(r.tests_passed == 1);
  CHECK(runner.seen == std::vector<std::string>{inst + "/shared/skills/b/fmt: true"});
}

// ---- §9.7 reference.rs, §9.8 scaffold.rs --------------------------------------------------

TEST_CASE("errors_when_no_bundles_configured") {
  CHECK(has_error([] { sk::resolve_skill_ref(config_of(""), "x", ""); }, cp::errc::not_found,
                  "no skill bundles are configured; create one before adding skills"));
}

TEST_CASE("errors_on_unknown_bundle_when_qualified") {
  CHECK(has_error([] { sk::resolve_skill_ref(config_with_bundles({"a"}), "x", "ghost"); },
                  cp::errc::not_found, "skill bundle 'ghost' is not configured"));
}

TEST_CASE("auto_resolves_when_single_bundle") {
  const auto r = sk::resolve_skill_ref(config_with_bundles({"only"}), "x", "");
  CHECK(r.bundle == "only");
  CHECK(r.display() == "only/x");
}

TEST_CASE("errors_on_ambiguity_when_multiple_bundles_and_no_qualifier") {
  CHECK(has_error(
      [] {
        sk::resolve_skill_ref(config_with_bundles({"a", "b"}), "x", "");
      },
      cp::errc::invalid_argument,
      // upstream says "ambiguous across bundles"; nothing was chosen, so clawport names the fix
      "several skill bundles are configured (a, b): choose one with --bundle"));
}

TEST_CASE("qualified_resolves_in_multi_bundle_config") {
  CHECK(sk::resolve_skill_ref(config_with_bundles({"a", "b"}), "x", "b").bundle == "b");
}

TEST_CASE("title_from_name_capitalizes_hyphen_segments") {
  CHECK(sk::title_from_name("code-review") == "Code Review");
  CHECK(sk::title_from_name("x") == "X");
  CHECK(sk::title_from_name("a--b2") == "A B2");
}

TEST_CASE("scaffold (upstream scaffold.rs)") {
  memory m = with_install();
  const auto cfg = config_with_bundles({"alpha"});
  SUBCASE("scaffold_creates_full_canonical_layout") {
    sk::scaffold_options opt;
    opt.description = "Review code";
    const auto r = sk::scaffold_skill(m, cfg, inst, "alpha", "code-review", opt);
    CHECK(r.directory == inst + "/shared/skills/alpha/code-review");
    const auto doc = sk::skill_document::parse(m.read_file(r.directory + "/SKILL.md"), "SKILL.md");
    CHECK(doc.frontmatter.name == "code-review");
    CHECK(doc.frontmatter.description == "Review code");
    CHECK(doc.body == "# Code Review\n");
    CHECK(m.snapshot(inst + "/shared/skills/alpha") ==
          snapshot_t{{"code-review", "d"},
                     {"code-review/SKILL.md", "f:" + m.read_file(r.directory + "/SKILL.md")},
                     {"code-review/assets", "d"},
                     {"code-review/references", "d"},
                     {"code-review/scripts", "d"}});
  }
  SUBCASE("scaffold_skips_optional_subdirs_when_disabled") {
    sk::scaffold_options opt;
    opt.create_subdirs = false;
    sk::scaffold_skill(m, cfg, inst, "alpha", "plain", opt);
    CHECK(m.snapshot(inst + "/shared/skills/alpha").size() == 2);
  }
  SUBCASE("scaffold_errors_when_skill_already_exists") {
    sk::scaffold_skill(m, cfg, inst, "alpha", "dup");
    const snapshot_t before = m.snapshot(inst);
    CHECK(has_error([&] { sk::scaffold_skill(m, cfg, inst, "alpha", "dup"); },
                    cp::errc::destination_refused, "skill 'alpha/dup' already exists at"));
    CHECK(m.snapshot(inst) == before);
  }
  SUBCASE("scaffold_errors_when_bundle_unknown") {
    CHECK(has_error([&] { sk::scaffold_skill(m, cfg, inst, "ghost", "x"); }, cp::errc::not_found,
                    "skill bundle 'ghost' is not configured"));
    CHECK(m.snapshot(inst) == untouched);
  }
  SUBCASE("rejects_invalid_skill_names at scaffold, before anything is written") {
    for (const char* bad : {"", "-leading", "trailing-", "Upper", "with_underscore", "has space"}) {
      CHECK(has_error([&] { sk::scaffold_skill(m, cfg, inst, "alpha", bad); },
                      cp::errc::invalid_argument, "must use lowercase letters"));
    }
    CHECK(m.snapshot(inst) == untouched);
  }
  SUBCASE("a bundle directory escaping shared/ or reached through a symlink is refused") {
    const auto esc = config_of("[skill_bundles.out]\ndirectory = \"../elsewhere\"\n");
    CHECK(has_error([&] { sk::scaffold_skill(m, esc, inst, "out", "x"); }, cp::errc::unsafe_path,
                    "escapes the shared workspace"));
    m.mkdirs("/outside");
    m.mkdirs(inst + "/shared/skills");
    m.symlink(inst + "/shared/skills/alpha", "/outside");
    CHECK(has_error([&] { sk::scaffold_skill(m, cfg, inst, "alpha", "x"); }, cp::errc::unsafe_path,
                    "is a symlink"));
    CHECK(m.snapshot("/outside").empty());
  }
}

// ---- §1.8 install destinations (src/skills/mod.rs install_location_tests) ----------------

TEST_CASE("install destinations (§1.8)") {
  const auto bundles = config_with_bundles({"official"});
  SUBCASE("explicit_bundle_wins") {
    const auto d = sk::resolve_install_destination(bundles, where(), "official", "");
    CHECK(d.location.bundle == "official");
    CHECK(d.location.path == inst + "/shared/skills/official");
    CHECK_FALSE(d.notice);
  }
  SUBCASE("explicit_unknown_bundle_errors") {
    CHECK(has_error([&] { sk::resolve_install_destination(bundles, where(), "ghost", ""); },
                    cp::errc::not_found, "skill bundle 'ghost' is not configured"));
  }
  SUBCASE("unknown_agent_errors") {
    CHECK(has_error([&] { sk::resolve_install_destination(bundles, where(), "", "nobody"); },
                    cp::errc::unknown_agent, "agent 'nobody' is not configured"));
    CHECK(
        has_error([&] { sk::resolve_install_destination(bundles, where(), "official", "nobody"); },
                  cp::errc::unknown_agent, "nobody"));
  }
  SUBCASE("no_agent_no_bundle_falls_back_to_global") {
    const auto d = sk::resolve_install_destination(bundles, where(), "", "");
    CHECK(d.location.global());
    CHECK(d.location.path == inst + "/data/skills");
    REQUIRE(d.notice);
    CHECK(d.notice->find("no agent loads") != std::string::npos);
  }
  SUBCASE("default_agent_single_bundle_is_used") {
    const auto c =
        config_of("[skill_bundles.team]\n[agents.default]\nskill_bundles = [\"team\"]\n");
    CHECK(sk::resolve_install_destination(c, where(), "", "").location.bundle == "team");
  }
  SUBCASE("agent_with_multiple_bundles_requires_flag") {
    const auto c = config_of(
        "[skill_bundles.a]\n[skill_bundles.b]\n[agents.default]\nskill_bundles = [\"a\", \"b\"]\n");
    CHECK(has_error([&] { sk::resolve_install_destination(c, where(), "", ""); },
                    cp::errc::invalid_argument, "several skill bundles (a, b)"));
  }
  SUBCASE("explicit_agent_without_bundle_falls_back_to_global") {
    const auto c = config_of("[agents.worker]\nskill_bundles = []\n");
    CHECK(sk::resolve_install_destination(c, where(), "", "worker").location.global());
  }
  SUBCASE("a data directory outside the install is anchored at its own parent") {
    const auto d =
        sk::resolve_install_destination(bundles, sk::install_paths{inst, "/var/zc"}, "", "");
    CHECK(d.location.anchor == "/var/zc");
    CHECK(d.location.relative == "skills");
  }
}

TEST_CASE("registry and git source classification (§6.3)") {
  for (const char* s : {"auto-coder", "data_analyst", "x1"}) CHECK(sk::is_registry_source(s));
  for (const char* s : {"", "./x", "../x", "/abs", "a/b", "a\\b", "~/x", "..", "foo..bar",
                        ".hidden", "~tilde", "external:x", "https://h/x"}) {
    CHECK_FALSE(sk::is_registry_source(s));
  }
  CHECK(sk::is_extra_registry_source("registry:myreg/auto-coder"));
  for (const char* s : {"registry:", "registry:/x", "registry:r/", "registry:r/a/b",
                        "registry:r/..", "registry:r/a b", "registry:R/x", "auto-coder"}) {
    CHECK_FALSE(sk::is_extra_registry_source(s));
  }
  for (const char* s : {"https://example.com/x.git", "http://h/x", "ssh://git@h/x", "git://h/x",
                        "git@github.com:org/repo.git", "file:///tmp/repo"}) {
    CHECK(sk::classify_source(s) == sk::source_kind::git);
  }
  for (const char* s : {"https://", "git://", "./local", "/abs/dir", "dir/with:colon"}) {
    CHECK(sk::classify_source(s) != sk::source_kind::git);
  }
  CHECK(sk::classify_source("release-check") == sk::source_kind::registry);
  CHECK(sk::git_source_name("https://example.com/org/release-check.git/") == "release-check");
  CHECK(sk::git_source_name("git@host:org/tool.git") == "tool");
  const auto argv = sk::git_clone_argv("file:///r", "/tmp/x/repo");
  CHECK(std::find(argv.begin(), argv.end(), "core.hooksPath=/dev/null") != argv.end());
  CHECK(std::find(argv.begin(), argv.end(), "--no-recurse-submodules") != argv.end());
  CHECK(std::find(argv.begin(), argv.end(), "--depth") != argv.end());
  const auto env = sk::git_env({"PATH=/bin", "HOME=/h", "AWS_SECRET=x"});
  CHECK(std::find(env.begin(), env.end(), "GIT_TERMINAL_PROMPT=0") != env.end());
  CHECK(std::find(env.begin(), env.end(), "AWS_SECRET=x") == env.end());
}

// ---- install ------------------------------------------------------------------------------

namespace {

void source_skill(memory& m, const std::string& dir) {
  m.write_file(dir + "/SKILL.md",
               "---\nname: lint\ndescription: Lints\n---\n# Lint\nSee [g](refs/guide.md).\n");
  m.write_file(dir + "/refs/guide.md", "guide");
  m.write_file(dir + "/scripts/check.py", "#!/usr/bin/env python3\nprint(1)\n", 0755);
}

sk::skills_dir_location ops(const sk::skills_config& cfg) {
  return sk::bundle_location(cfg, inst, "ops");
}

}  // namespace

TEST_CASE("install from a local directory: audited copy, staged and published") {
  memory m = with_install();
  source_skill(m, "/src/lint");
  const auto cfg = config_with_bundles({"ops"});
  const auto r = sk::install_skill_directory(m, "/src/lint", ops(cfg), "lint");
  CHECK(r.directory == inst + "/shared/skills/ops/lint");
  CHECK(r.tally.files == 3);
  CHECK(m.snapshot(inst + "/shared/skills/ops/lint") == m.snapshot("/src/lint"));
  CHECK(m.snapshot(inst + "/shared/skills/ops").size() == 6);  // nothing beside it
  // install_command_then_runtime_loads_the_skill / default_install_destination_is_loaded.
  const auto c2 = config_of("[skill_bundles.ops]\n[agents.default]\nskill_bundles = [\"ops\"]\n");
  const auto view = sk::agent_skills(m, c2, where(), "default");
  REQUIRE(view.entries.size() == 1);
  CHECK(view.entries[0].loaded());
  CHECK(view.entries[0].name == "lint");
  // skills_install_bundle_then_list_agent_shows_runtime_view: into the global dir, not loaded.
  const auto g = sk::install_skill_directory(m, "/src/lint", sk::global_location(where()), "lint");
  CHECK(g.directory == inst + "/data/skills/lint");
  const auto view2 = sk::agent_skills(m, c2, where(), "default");
  REQUIRE(view2.entries.size() == 2);
  CHECK(view2.entries[1].status == sk::skill_status::global_only);
}

TEST_CASE("install refusals leave nothing behind") {
  memory m = with_install();
  source_skill(m, "/src/lint");
  const auto cfg = config_with_bundles({"ops"});
  m.mkdirs(inst + "/shared/skills/ops");
  const snapshot_t empty = m.snapshot(inst);

  SUBCASE("an existing destination is refused") {
    m.write_file(inst + "/shared/skills/ops/lint/SKILL.md", "mine");
    const snapshot_t before = m.snapshot(inst);
    CHECK(has_error([&] { sk::install_skill_directory(m, "/src/lint", ops(cfg), "lint"); },
                    cp::errc::destination_refused, "skill 'ops/lint' already exists"));
    CHECK(m.snapshot(inst) == before);
  }
  SUBCASE("a symlink in the source is a hard error (audit before the copy)") {
    m.symlink("/src/lint/refs/link.md", "/etc/passwd");
    CHECK(has_error([&] { sk::install_skill_directory(m, "/src/lint", ops(cfg), "lint"); },
                    cp::errc::audit_blocked, "symlinks are not allowed in installed skills"));
    CHECK(m.snapshot(inst) == empty);
  }
  SUBCASE("a script is blocked unless allow_scripts") {
    m.write_file("/src/lint/run.sh", "echo", 0755);
    CHECK(has_error([&] { sk::install_skill_directory(m, "/src/lint", ops(cfg), "lint"); },
                    cp::errc::audit_blocked,
                    "Skill security audit failed: run.sh: script-like files are blocked"));
    CHECK(m.snapshot(inst) == empty);
    sk::install_options allow;
    allow.audit.allow_scripts = true;
    CHECK(sk::install_skill_directory(m, "/src/lint", ops(cfg), "lint", allow).tally.files == 4);
  }
  SUBCASE("a symlink swapped in during the copy is refused and nothing remains") {
    faulty<memory&> f(m);
    bool staging = false;
    bool swapped = false;
    f.on_op([&](memory&, std::string_view op, std::string_view name) {
      if (op == "make_dir_at" && name.substr(0, 16) == ".clawport-stage-") staging = true;
    });
    f.before_open([&](memory& inner, const memory::dir&, std::string_view name) {
      if (staging && name == "guide.md" && !swapped) {
        swapped = true;
        inner.remove("/src/lint/refs/guide.md");
        inner.symlink("/src/lint/refs/guide.md", "/etc/shadow");
      }
    });
    CHECK(refused_with([&] { sk::install_skill_directory(f, "/src/lint", ops(cfg), "lint"); },
                       "/src/lint/refs/guide.md: it is a symbolic link"));
    CHECK(swapped);
    CHECK(m.snapshot(inst) == empty);
  }
  SUBCASE("a symlink planted between the audit and the copy is a hard error") {
    faulty<memory&> f(m);
    bool planted = false;
    f.on_op([&](memory& inner, std::string_view op, std::string_view name) {
      if (!planted && op == "make_dir_at" && name.substr(0, 16) == ".clawport-stage-") {
        planted = true;
        inner.symlink("/src/lint/refs/late.md", "/etc/shadow");
      }
    });
    CHECK(has_error([&] { sk::install_skill_directory(f, "/src/lint", ops(cfg), "lint"); },
                    cp::errc::unsafe_path, "Refusing to copy symlink within skill source"));
    CHECK(planted);
    CHECK(m.snapshot(inst) == empty);
  }
  SUBCASE("an audit failure after the copy leaves nothing") {
    // The source changes after its audit: a script appears, only the copy's audit sees it.
    faulty<memory&> f(m);
    bool added = false;
    f.on_op([&](memory& inner, std::string_view op, std::string_view name) {
      if (!added && op == "make_dir_at" && name.substr(0, 16) == ".clawport-stage-") {
        added = true;
        inner.write_file("/src/lint/late.sh", "rm -rf ~", 0755);
      }
    });
    CHECK(has_error([&] { sk::install_skill_directory(f, "/src/lint", ops(cfg), "lint"); },
                    cp::errc::audit_blocked, "late.sh: script-like files are blocked"));
    CHECK(added);
    CHECK(m.snapshot(inst) == empty);
  }
  SUBCASE("a source holding the destination is refused") {
    m.write_file(inst + "/SKILL.md", "# the whole install");
    CHECK(has_error([&] { sk::install_skill_directory(m, inst, ops(cfg), "inst"); },
                    cp::errc::overlap, "lies inside it"));
    m.remove(inst + "/SKILL.md");
    CHECK(m.snapshot(inst) == empty);
  }
  SUBCASE("a skill without a manifest is refused") {
    m.mkdirs("/src/nothing/docs");
    CHECK(has_error([&] { sk::install_skill_directory(m, "/src/nothing", ops(cfg), "nothing"); },
                    cp::errc::audit_blocked, "Skill root must include SKILL.md"));
    CHECK(m.snapshot(inst) == empty);
  }
}

TEST_CASE("catalogue repositories: --skill picks skills/<name>/") {
  memory m = with_install();
  source_skill(m, "/clone/skills/lint");
  source_skill(m, "/clone/skills/other");
  CHECK(sk::catalogue_skill(m, "/clone", "lint", "repo") == "/clone/skills/lint");
  CHECK(has_error([&] { sk::catalogue_skill(m, "/clone", "a/b", "repo"); },
                  cp::errc::invalid_argument, "bare skill name"));
  CHECK(has_error([&] { sk::catalogue_skill(m, "/clone", "ghost", "repo"); }, cp::errc::not_found,
                  "available: lint, other"));
  m.symlink("/clone/skills/linked", "/clone/skills/lint");
  CHECK(has_error([&] { sk::catalogue_skill(m, "/clone", "linked", "repo"); },
                  cp::errc::unsafe_path, "is a symlink"));
  m.mkdirs("/elsewhere/skills/x");
  m.mkdirs("/clone2");
  m.symlink("/clone2/skills", "/elsewhere/skills");
  CHECK(has_error([&] { sk::catalogue_skill(m, "/clone2", "x", "repo"); }, cp::errc::not_found,
                  "(it is a symlink)"));
}

TEST_CASE("install from a file:// git repository with the system git") {
  clawport::testing::posix_fixture f;
  f.write("inst/config.toml", "");
  f.write("repo/lint/SKILL.md", "---\nname: lint\ndescription: Lints\n---\n# Lint\n");
  f.write("repo/lint/refs/a.md", "a");
  const std::string repo = at(f, "repo/lint");
  const std::string git = "git -C '" + repo + "' -c user.email=t@t -c user.name=t ";
  if (std::system((git + "init -q && " + git + "add . && " + git + "commit -qm i").c_str()) != 0) {
    MESSAGE("git is not available; skipped");
    return;
  }
  const sk::posix_runner runner(sk::git_env({"PATH=/usr/bin:/bin", "HOME=" + f.root_path()}));
  sk::git_clone(runner, "file://" + repo, at(f, "clone"));
  auto root = f.fs.open_root(at(f, "clone"));
  f.fs.remove_tree_at(root, ".git");
  const auto cfg = config_with_bundles({"ops"});
  const auto r = sk::install_skill_directory(f.fs, at(f, "clone"),
                                             sk::bundle_location(cfg, at(f, "inst"), "ops"),
                                             sk::git_source_name("file://" + repo));
  CHECK(r.name == "lint");
  CHECK(f.snapshot("inst/shared/skills/ops/lint") ==
        snapshot_t{{"SKILL.md", "f:" + f.read("repo/lint/SKILL.md")},
                   {"refs", "d"},
                   {"refs/a.md", "f:a"}});
  CHECK(has_error([&] { sk::git_clone(runner, "file://" + at(f, "missing"), at(f, "c2")); },
                  cp::errc::io, "git clone of file://"));
}

TEST_CASE("hostile sources") {
  SUBCASE("FIFO, device and hard link on the host filesystem") {
    clawport::testing::posix_fixture f;
    f.write("inst/config.toml", "");
    f.write("src/s/SKILL.md", "---\nname: s\ndescription: d\n---\n");
    f.write("src/s/data.txt", "shared");
    f.hardlink("src/s/data.txt", "src/s/alias.txt");
    f.fifo("src/s/pipe");
    bool device = ::geteuid() == 0 &&
                  ::mknod(at(f, "src/s/null").c_str(), S_IFCHR | 0600, makedev(1, 3)) == 0;
    const auto cfg = config_with_bundles({"ops"});
    const auto r = sk::install_skill_directory(f.fs, at(f, "src/s"),
                                               sk::bundle_location(cfg, at(f, "inst"), "ops"), "s");
    CHECK(r.tally.others_skipped == (device ? 2u : 1u));
    CHECK(r.tally.hard_links_skipped == 2);
    CHECK(f.snapshot("inst/shared/skills/ops/s") ==
          snapshot_t{{"SKILL.md", "f:---\nname: s\ndescription: d\n---\n"}});
    CHECK(r.warnings.size() == 2);
  }
  SUBCASE("a 4,096-deep tree is refused before anything is written") {
    memory m = with_install();
    m.write_file("/src/deep/SKILL.md", "# deep");
    std::string p = "/src/deep";
    for (int i = 0; i < 4096; ++i) p += "/d";
    m.mkdirs(p);
    const auto cfg = config_with_bundles({"ops"});
    CHECK(has_error([&] { sk::install_skill_directory(m, "/src/deep", ops(cfg), "deep"); },
                    cp::errc::limit_exceeded, "nested deeper than"));
    CHECK(m.snapshot(inst) == untouched);
  }
  SUBCASE("100,000 entries are copied") {
    memory m = with_install();
    m.write_file("/src/big/SKILL.md", "# big");
    for (int d = 0; d < 100; ++d) {
      for (int i = 0; i < 1000; ++i) {
        m.write_file("/src/big/d" + std::to_string(d) + "/f" + std::to_string(i) + ".txt", "x");
      }
    }
    const auto cfg = config_with_bundles({"ops"});
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = sk::install_skill_directory(m, "/src/big", ops(cfg), "big");
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    MESSAGE("install of 100,001 files on fs::memory: " << ms << " ms");
    CHECK(r.tally.files == 100001);
    CHECK(r.files_scanned == r.tally.files);  // files, not the 101 directories
  }
}

// ---- remove and the service listing (§9.9 service.rs) -----------------------------------

TEST_CASE("service listing (upstream service.rs)") {
  memory m = with_install();
  SUBCASE("list_bundles_includes_default_directory_for_unset_field") {
    CHECK(sk::bundle_location(config_with_bundles({"alpha"}), inst, "alpha").path ==
          inst + "/shared/skills/alpha");
  }
  SUBCASE("list_skills_returns_empty_when_bundle_dir_absent") {
    CHECK(sk::bundle_skills(m, config_with_bundles({"alpha"}), where(), "alpha").entries.empty());
  }
  SUBCASE("scaffold_then_list_round_trip / list_skills_filters_by_bundle") {
    const auto cfg = config_with_bundles({"alpha", "beta"});
    sk::scaffold_options opt;
    opt.description = "stub";
    sk::scaffold_skill(m, cfg, inst, "alpha", "a-skill", opt);
    sk::scaffold_skill(m, cfg, inst, "beta", "b-skill", opt);
    const auto alpha = sk::bundle_skills(m, cfg, where(), "alpha");
    REQUIRE(alpha.entries.size() == 1);
    CHECK(alpha.entries[0].name == "a-skill");
    CHECK(alpha.entries[0].bundle == "alpha");
    CHECK(sk::all_skills(m, cfg, where()).entries.size() == 2);
  }
  SUBCASE("read_and_write_round_trip_preserves_frontmatter") {
    const auto cfg = config_with_bundles({"alpha"});
    const auto r = sk::scaffold_skill(m, cfg, inst, "alpha", "rw");
    auto doc = sk::skill_document::parse(m.read_file(r.directory + "/SKILL.md"));
    doc.frontmatter.description = "edited";
    doc.frontmatter.license = "MIT";
    const auto again = sk::skill_document::parse(doc.serialize());
    CHECK(again.frontmatter.description == "edited");
    CHECK(again.frontmatter.license == std::optional<std::string>("MIT"));
  }
  SUBCASE("derive_origin / resolve_effective_skills_unions_workspace_and_bundle / records_shadow") {
    const auto cfg = config_of("[skill_bundles.core]\n[agents.a]\nskill_bundles = [\"core\"]\n");
    m.write_file(inst + "/agents/a/workspace/skills/foo/SKILL.md", "# foo");
    m.write_file(inst + "/shared/skills/core/foo/SKILL.md", "# foo");
    m.write_file(inst + "/shared/skills/core/bar/SKILL.md", "# bar");
    const auto v = sk::agent_skills(m, cfg, where(), "a");
    REQUIRE(v.entries.size() == 3);
    CHECK(v.entries[0].origin == sk::skill_origin::workspace);
    CHECK(v.entries[1].origin == sk::skill_origin::bundle);
    CHECK(v.entries[1].bundle == "core");
    CHECK(v.entries[2].status == sk::skill_status::shadowed);
  }
  SUBCASE("resolve_effective_skills_reports_dropped / empty_vs_all_dropped") {
    const auto cfg = config_of("[agents.a]\n");
    CHECK(sk::agent_skills(m, cfg, where(), "a").entries.empty());
    m.write_file(inst + "/agents/a/workspace/skills/bad/SKILL.toml", "[skill]\nname = 1\n");
    const auto v = sk::agent_skills(m, cfg, where(), "a");
    REQUIRE(v.entries.size() == 1);
    CHECK_FALSE(v.entries[0].loaded());
  }
}

TEST_CASE("remove (upstream service.rs remove_*)") {
  memory m = with_install();
  const auto cfg = config_with_bundles({"alpha"});
  sk::scaffold_skill(m, cfg, inst, "alpha", "doomed");
  const auto loc = sk::bundle_location(cfg, inst, "alpha");
  const snapshot_t skill = m.snapshot(inst + "/shared/skills/alpha/doomed");

  SUBCASE("remove_archive_moves_to_deleted_root_and_leaves_no_trace") {
    const auto r = sk::remove_skill(m, loc, inst, "doomed", false, 1700000000);
    CHECK(r.archived_to == inst + "/shared/skills/_deleted/alpha-doomed-1700000000");
    CHECK(m.snapshot(inst + "/shared/skills/alpha").empty());
    CHECK(m.snapshot(r.archived_to) == skill);
    // One entry per removal, never clobbering an earlier archive.
    sk::scaffold_skill(m, cfg, inst, "alpha", "doomed");
    const auto r2 = sk::remove_skill(m, loc, inst, "doomed", false, 1700000000);
    CHECK(r2.archived_to == inst + "/shared/skills/_deleted/alpha-doomed-1700000000.2");
    CHECK(m.snapshot(r.archived_to) == skill);
  }
  SUBCASE("remove_purge_deletes_outright") {
    const auto r = sk::remove_skill(m, loc, inst, "doomed", true, 0);
    CHECK(r.archived_to.empty());
    CHECK(m.snapshot(inst + "/shared/skills").size() == 1);  // alpha, empty
    CHECK_FALSE(m.exists(inst + "/shared/skills/_deleted"));
  }
  SUBCASE("read_skill_errors_with_not_found_for_missing_skill") {
    CHECK(has_error([&] { sk::remove_skill(m, loc, inst, "ghost", false, 0); }, cp::errc::not_found,
                    "Skill not found: alpha/ghost"));
  }
  SUBCASE("remove_skill_rejects_non_bundle_skill") {
    m.write_file(inst + "/shared/skills/alpha/loose/notes.txt", "n");
    const snapshot_t before = m.snapshot(inst);
    CHECK(has_error([&] { sk::remove_skill(m, loc, inst, "loose", false, 0); },
                    cp::errc::skill_invalid, "is not editable: it is a non-bundle skill"));
    CHECK(has_error([&] { sk::remove_skill(m, loc, inst, "loose", true, 0); },
                    cp::errc::skill_invalid, "non-bundle skill"));
    CHECK(m.snapshot(inst) == before);
  }
  SUBCASE("traversal names and symlinks are refused") {
    for (const char* bad : {"..", "a/b", "a\\b", "x..y"}) {
      CHECK(has_error([&] { sk::remove_skill(m, loc, inst, bad, true, 0); },
                      cp::errc::invalid_argument, "Invalid skill name"));
    }
    m.write_file("/victim/SKILL.md", "keep");
    m.symlink(inst + "/shared/skills/alpha/link", "/victim");
    CHECK(has_error([&] { sk::remove_skill(m, loc, inst, "link", true, 0); }, cp::errc::unsafe_path,
                    "is a symlink"));
    CHECK(m.read_file("/victim/SKILL.md") == "keep");
  }
  SUBCASE("locate_skill across bundles, an agent's bundles and the global directory") {
    const auto c2 = config_of(
        "[skill_bundles.alpha]\n[skill_bundles.beta]\n[agents.a]\nskill_bundles = [\"beta\"]\n");
    CHECK(sk::locate_skill(m, c2, where(), "doomed", "", "").bundle == "alpha");
    CHECK(has_error([&] { sk::locate_skill(m, c2, where(), "doomed", "", "a"); },
                    cp::errc::not_found, "bundles of agent 'a'"));
    m.write_file(inst + "/data/skills/doomed/SKILL.md", "# g");
    CHECK(has_error([&] { sk::locate_skill(m, c2, where(), "doomed", "", ""); },
                    cp::errc::invalid_argument, "(bundle alpha, global)"));
    const auto g = sk::global_location(where());
    CHECK(sk::remove_skill(m, g, inst, "doomed", false, 0).archived_to.empty());  // deleted
    CHECK_FALSE(m.exists(inst + "/data/skills/doomed"));
  }
}

// ---- fault and crash sweeps -----------------------------------------------------------

namespace {

/// Names in `dir` that are staging leftovers, and whether each is inert (no manifest at
/// its root, so the loader never loads it).
bool only_inert_leftovers(memory& m, const std::string& dir, const std::string& skill) {
  if (!m.exists(dir)) return true;
  for (const auto& [k, v] : m.snapshot(dir)) {
    if (k.find('/') != std::string::npos) continue;
    if (k == skill) continue;
    if (k.rfind(".clawport-stage-", 0) != 0) return false;
    for (const char* man : {"SKILL.md", "SKILL.toml", "manifest.toml"}) {
      if (m.exists(dir + "/" + k + "/" + man)) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("fault sweep of install: every operation fails in turn (ENOSPC, EIO)") {
  const auto cfg = config_with_bundles({"ops"});
  const auto setup = [](memory& m) {
    m.write_file(inst + "/config.toml", "");
    source_skill(m, "/src/lint");
    m.mkdirs(inst + "/shared/skills/ops");
  };
  std::size_t ops_count = 0;
  snapshot_t installed;
  {
    faulty<memory> f;
    setup(f.inner());
    f.reset_counts();
    sk::install_skill_directory(f, "/src/lint", ops(cfg), "lint");
    ops_count = f.count();
    installed = f.inner().snapshot(inst);
  }
  std::size_t refused = 0;
  std::size_t warned = 0;
  for (const int err : {ENOSPC, EIO}) {
    for (std::size_t n = 1; n <= ops_count; ++n) {
      CAPTURE(err);
      CAPTURE(n);
      faulty<memory> f;
      setup(f.inner());
      const snapshot_t before = f.inner().snapshot(inst);
      f.reset_counts();
      f.fail_at(n, err);
      try {
        const auto r = sk::install_skill_directory(f, "/src/lint", ops(cfg), "lint");
        // Only the removal of the empty staging directory may fail after publishing.
        ++warned;
        CHECK(r.warnings.size() == 1);
        CHECK(f.inner().snapshot(inst + "/shared/skills/ops/lint") ==
              f.inner().snapshot("/src/lint"));
        CHECK(only_inert_leftovers(f.inner(), inst + "/shared/skills/ops", "lint"));
      } catch (const cp::error& e) {
        ++refused;
        CHECK(f.inner().snapshot(inst) == before);
        CHECK(e.sys_errno() == err);
      }
    }
  }
  MESSAGE("install fault sweep: " << ops_count << " operations, " << refused << " refused cleanly, "
                                  << warned << " published with a cleanup warning");
  CHECK(refused > 0);
  (void)installed;
}

TEST_CASE("crash sweep of install: the skill is absent or complete, never partial") {
  const auto cfg = config_with_bundles({"ops"});
  std::size_t ops_count = 0;
  {
    faulty<memory> f;
    f.inner().write_file(inst + "/config.toml", "");
    source_skill(f.inner(), "/src/lint");
    f.reset_counts();
    sk::install_skill_directory(f, "/src/lint", ops(cfg), "lint");
    ops_count = f.count();
  }
  const auto c2 = config_of("[skill_bundles.ops]\n[agents.default]\nskill_bundles = [\"ops\"]\n");
  for (std::size_t n = 0; n <= ops_count; ++n) {
    CAPTURE(n);
    faulty<memory> f;
    f.inner().write_file(inst + "/config.toml", "");
    source_skill(f.inner(), "/src/lint");
    f.reset_counts();
    f.crash_after(n);
    try {
      sk::install_skill_directory(f, "/src/lint", ops(cfg), "lint");
    } catch (...) {
    }
    memory& m = f.inner();
    const std::string dir = inst + "/shared/skills/ops";
    if (m.exists(dir + "/lint")) CHECK(m.snapshot(dir + "/lint") == m.snapshot("/src/lint"));
    CHECK(only_inert_leftovers(m, dir, "lint"));
    // What the runtime would load: nothing, or the one complete skill.
    if (m.exists(inst)) {
      for (const auto& e : sk::agent_skills(m, c2, where(), "default").entries) {
        if (e.loaded()) CHECK(e.name == "lint");
      }
    }
  }
}

TEST_CASE("fault and crash sweeps of remove: in place or gone, never half-removed") {
  const auto cfg = config_with_bundles({"alpha"});
  for (const bool purge : {false, true}) {
    const auto setup = [&](memory& m) {
      m.write_file(inst + "/config.toml", "");
      sk::scaffold_skill(m, cfg, inst, "alpha", "doomed");
      m.write_file(inst + "/shared/skills/alpha/doomed/references/r.md", "ref");
    };
    std::size_t ops_count = 0;
    snapshot_t skill;
    {
      faulty<memory> f;
      setup(f.inner());
      skill = f.inner().snapshot(inst + "/shared/skills/alpha/doomed");
      f.reset_counts();
      sk::remove_skill(f, sk::bundle_location(cfg, inst, "alpha"), inst, "doomed", purge, 7);
      ops_count = f.count();
    }
    const std::string dir = inst + "/shared/skills/alpha";
    const std::string archived = inst + "/shared/skills/_deleted/alpha-doomed-7";
    for (std::size_t n = 1; n <= ops_count; ++n) {
      CAPTURE(purge);
      CAPTURE(n);
      faulty<memory> f;
      setup(f.inner());
      f.reset_counts();
      f.fail_at(n, EIO);
      bool ok = true;
      try {
        sk::remove_skill(f, sk::bundle_location(cfg, inst, "alpha"), inst, "doomed", purge, 7);
      } catch (const cp::error& e) {
        ok = false;
        CHECK(e.sys_errno() == EIO);
      }
      memory& m = f.inner();
      if (ok) {
        CHECK_FALSE(m.exists(dir + "/doomed"));
        if (!purge) CHECK(m.snapshot(archived) == skill);
      } else {
        CHECK(m.snapshot(dir + "/doomed") == skill);
        CHECK_FALSE(m.exists(archived));
      }
      CHECK(only_inert_leftovers(m, dir, "doomed"));
    }
    for (std::size_t n = 0; n <= ops_count; ++n) {
      CAPTURE(purge);
      CAPTURE(n);
      faulty<memory> f;
      setup(f.inner());
      f.reset_counts();
      f.crash_after(n);
      try {
        sk::remove_skill(f, sk::bundle_location(cfg, inst, "alpha"), inst, "doomed", purge, 7);
      } catch (...) {
      }
      memory& m = f.inner();
      const bool here = m.exists(dir + "/doomed");
      if (here) CHECK(m.snapshot(dir + "/doomed") == skill);
      if (!purge) CHECK(here != m.exists(archived));
      if (!purge && !here) CHECK(m.snapshot(archived) == skill);
      CHECK(only_inert_leftovers(m, dir, "doomed"));
    }
  }
}

// ---- skills bundle add: the append-only config writer ------------------------------------

TEST_CASE("config_with_appended and config_backup_name") {
  CHECK(cp::zeroclaw::config_with_appended("", "[a]\n") == "[a]\n");
  CHECK(cp::zeroclaw::config_with_appended("x = 1", "[a]") == "x = 1\n\n[a]\n");
  CHECK(cp::zeroclaw::config_with_appended("x = 1\n", "[a]\n") == "x = 1\n\n[a]\n");
  CHECK(cp::zeroclaw::config_with_appended("x = 1\n\n", "[a]\n") == "x = 1\n\n[a]\n");
  CHECK(cp::zeroclaw::config_backup_name("config.toml", cp::timestamp{1700000000, 5}) ==
        "config.toml.bak-20231114T221320Z");
  CHECK(sk::bundle_table_text("ops", std::nullopt) == "[skill_bundles.ops]\n");
  CHECK(sk::bundle_table_text("ops", std::string("shared/x \"y\"")) ==
        "[skill_bundles.ops]\ndirectory = \"shared/x \\\"y\\\"\"\n");
}

TEST_CASE("skills bundle add appends a table, keeps a backup, creates the directory") {
  memory m;
  const std::string original =
      "# my install\n[agents.default] # keep this comment\nskill_bundles = []\n";
  m.write_file(inst + "/config.toml", original, 0600);
  const cp::timestamp now{1700000000, 0};
  const auto r = sk::add_skill_bundle(m, inst + "/config.toml", "ops", std::nullopt, now);
  CHECK(r.created);
  CHECK(r.directory == inst + "/shared/skills/ops");
  CHECK(r.backup == inst + "/config.toml.bak-20231114T221320Z");
  CHECK(m.read_file(inst + "/config.toml") == original + "\n[skill_bundles.ops]\n");
  CHECK(m.read_file(r.backup) == original);
  CHECK(m.lstat(inst + "/config.toml")->mode == 0600);
  CHECK(m.lstat(inst + "/shared/skills/ops")->kind == cp::fs::file_kind::directory);
  // Again: already configured, nothing changes.
  const snapshot_t once = m.snapshot(inst);
  CHECK_FALSE(sk::add_skill_bundle(m, inst + "/config.toml", "ops", std::nullopt, now).created);
  CHECK(m.snapshot(inst) == once);
  // A second bundle in the same second gets a numbered backup.
  const auto r2 =
      sk::add_skill_bundle(m, inst + "/config.toml", "docs_team", std::string("shared/docs"), now);
  CHECK(r2.backup == inst + "/config.toml.bak-20231114T221320Z-2");
  CHECK(r2.directory == inst + "/shared/docs");
  const auto cfg = sk::parse_skills_config(m.read_file(inst + "/config.toml"));
  CHECK(cfg.bundles.count("ops") == 1);
  CHECK(cfg.bundles.at("docs_team").directory == std::optional<std::string>("shared/docs"));
}

TEST_CASE("skills bundle add refusals write nothing") {
  memory m;
  m.write_file(inst + "/config.toml", "[skill_bundles.ops]\n");
  const snapshot_t before = m.snapshot(inst);
  const std::string c = inst + "/config.toml";
  const cp::timestamp now{0, 0};
  for (const char* bad :
       {"", "Upper", "_x", "x_", "a__b", "has-dash",
        "way_too_long_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}) {
    CHECK(has_error([&] { sk::add_skill_bundle(m, c, bad, std::nullopt, now); },
                    cp::errc::invalid_argument, "must be 1-63 characters"));
  }
  CHECK(has_error([&] { sk::add_skill_bundle(m, c, "out", std::string("../etc"), now); },
                  cp::errc::unsafe_path, "escapes the shared workspace"));
  CHECK(has_error([&] { sk::add_skill_bundle(m, c, "dup", std::string("shared/skills/ops"), now); },
                  cp::errc::config_invalid, "both resolve to directory"));
  CHECK(m.snapshot(inst) == before);
  m.write_file(c, "skill_bundles = { ops = {} }\n");
  const snapshot_t inline_before = m.snapshot(inst);
  CHECK(has_error([&] { sk::add_skill_bundle(m, c, "docs", std::nullopt, now); },
                  cp::errc::config_parse, "would make it invalid TOML"));
  CHECK(m.snapshot(inst) == inline_before);
  memory l;
  l.write_file("/real/config.toml", "");
  l.mkdirs(inst);
  l.symlink(inst + "/config.toml", "/real/config.toml");
  CHECK(
      refused_with([&] { sk::add_skill_bundle(l, c, "docs", std::nullopt, now); }, "config.toml"));
  CHECK(l.read_file("/real/config.toml").empty());
}

TEST_CASE("fault sweep of the config append: config.toml is old or new, nothing beside it") {
  const std::string original = "[agents.default]\nskill_bundles = [\"ops\"]\n";
  const auto setup = [&](memory& m) {
    m.write_file(inst + "/config.toml", original);
    m.mkdirs(inst + "/shared/skills/ops");
  };
  std::size_t ops_count = 0;
  {
    faulty<memory> f;
    setup(f.inner());
    f.reset_counts();
    sk::add_skill_bundle(f, inst + "/config.toml", "ops", std::nullopt, cp::timestamp{9, 0});
    ops_count = f.count();
  }
  std::size_t refused = 0;
  for (const int err : {ENOSPC, EIO}) {
    for (std::size_t n = 1; n <= ops_count; ++n) {
      CAPTURE(err);
      CAPTURE(n);
      faulty<memory> f;
      setup(f.inner());
      const snapshot_t before = f.inner().snapshot(inst);
      f.reset_counts();
      f.fail_at(n, err);
      try {
        const auto r = sk::add_skill_bundle(f, inst + "/config.toml", "ops", std::nullopt,
                                            cp::timestamp{9, 0});
        CHECK(f.inner().read_file(inst + "/config.toml") == original + "\n[skill_bundles.ops]\n");
        CHECK(f.inner().read_file(r.backup) == original);
      } catch (const cp::error& e) {
        ++refused;
        CHECK(f.inner().snapshot(inst) == before);
        CHECK(e.sys_errno() == err);
      }
    }
  }
  MESSAGE("config append fault sweep: " << ops_count << " operations, " << refused
                                        << " refused cleanly");
  CHECK(refused > 0);
}
