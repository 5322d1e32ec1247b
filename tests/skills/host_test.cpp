// SPDX-License-Identifier: MIT
// The skills lifecycle commands' steps that used to live in the CLI: opening an install from
// the host environment (`load_install`), the private temporary directory, `skills install`
// from a local directory or a git source (`install_from_source`, git faked), which skills
// `skills test` selects and the audit it checks first.
#include "support/test.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace {

namespace cp = clawport;
namespace sk = clawport::skills;
using clawport::fs::memory;

cp::host_environment host_with(const cp::environment_map& vars) {
  return cp::gather_host(vars, "/cwd", cp::timestamp{0, 0});
}

const std::string skill_md = "---\nname: lint\ndescription: Lints\n---\n# Lint\n";

/// A git that "clones" by writing a skill and a `.git` into the target directory.
struct fake_git {
  memory* m;
  mutable std::vector<std::string> argv;
  sk::command_outcome run(const std::vector<std::string>& a, const std::string&,
                          std::chrono::milliseconds) const {
    argv = a;
    m->write_file(a.back() + "/SKILL.md", skill_md);
    m->write_file(a.back() + "/.git/HEAD", "ref: refs/heads/main\n");
    sk::command_outcome done;
    done.exit = 0;
    return done;
  }
};

}  // namespace

TEST_CASE("load_install: the config ZEROCLAW_CONFIG_DIR names, its root, ZEROCLAW_DATA_DIR") {
  memory m;
  m.write_file("/cwd/zc/config.toml", "[skills]\nallow_scripts = true\n[skill_bundles.ops]\n");
  const auto h = host_with(
      {{"HOME", "/home/u"}, {"ZEROCLAW_CONFIG_DIR", "zc"}, {"ZEROCLAW_DATA_DIR", "/data"}});
  const sk::install_context c = sk::load_install(m, h, "");
  CHECK(c.config_path == "/cwd/zc/config.toml");
  CHECK(c.cfg.allow_scripts);
  CHECK(c.where.install_root == "/cwd/zc");
  CHECK(c.where.data() == "/data");
  // --config wins; without ZEROCLAW_DATA_DIR the data directory is <install>/data.
  m.write_file("/elsewhere/config.toml", "");
  const sk::install_context d = sk::load_install(m, host_with({}), "/elsewhere/config.toml");
  CHECK(d.where.install_root == "/elsewhere");
  CHECK(d.where.data() == "/elsewhere/data");
  CHECK_FALSE(d.cfg.allow_scripts);
  CHECK_THROWS_AS(sk::load_install(m, host_with({{"HOME", "/nobody"}}), ""), cp::error);
}

TEST_CASE("temp_dir: a private directory under the root, removed at scope end") {
  memory m;
  m.mkdirs("/tmp");
  std::string path;
  {
    cp::fs::temp_dir<memory> t(m, "/tmp", "clawport-git-");
    path = t.path();
    CHECK(path.rfind("/tmp/clawport-git-", 0) == 0);
    CHECK(path.size() == std::string("/tmp/clawport-git-").size() + 6);
    const auto st = m.lstat(path);
    REQUIRE(st);
    CHECK(st->kind == cp::fs::file_kind::directory);
    CHECK((st->mode & 07777) == 0700);
    m.write_file(path + "/repo/x", "x");
  }
  CHECK_FALSE(m.exists(path));
  CHECK(m.snapshot("/tmp").empty());
  // A root that does not exist: the same refusal as mkdtemp's.
  try {
    cp::fs::temp_dir<memory> t(m, "/missing", "clawport-git-");
    FAIL("created a temporary directory in a missing root");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::io);
    CHECK(std::string(e.what()) ==
          "failed to create a temporary directory in /missing: No such file or directory (set "
          "TMPDIR to a writable directory)");
  }
}

TEST_CASE("install_from_source: a local directory, relative to the host's cwd") {
  memory m;
  m.write_file("/inst/config.toml", "[skill_bundles.ops]\n");
  m.write_file("/cwd/src/lint/SKILL.md", skill_md);
  const auto h = host_with({});
  const sk::install_context inst = sk::load_install(m, h, "/inst/config.toml");
  const sk::source_install r = sk::install_from_source(
      m, fake_git{&m, {}}, h, inst, sk::source_request{"src/lint", "ops", "", ""}, 022, {});
  CHECK(r.result.directory == "/inst/shared/skills/ops/lint");
  CHECK(m.read_file("/inst/shared/skills/ops/lint/SKILL.md") == skill_md);
  CHECK(r.notices.empty());
}

TEST_CASE("install_from_source: git clones into the host's temp root, drops .git, cleans up") {
  memory m;
  m.write_file("/inst/config.toml", "[skill_bundles.ops]\n");
  m.mkdirs("/scratch");
  const auto h = host_with({{"TMPDIR", "/scratch"}});
  const sk::install_context inst = sk::load_install(m, h, "/inst/config.toml");
  const fake_git git{&m, {}};
  const sk::source_install r = sk::install_from_source(
      m, git, h, inst, sk::source_request{"https://example.com/org/lint.git", "ops", "", ""}, 022,
      {});
  CHECK(r.result.name == "lint");
  CHECK(m.exists("/inst/shared/skills/ops/lint/SKILL.md"));
  CHECK_FALSE(m.exists("/inst/shared/skills/ops/lint/.git"));
  REQUIRE(!git.argv.empty());
  CHECK(git.argv.back().rfind("/scratch/clawport-git-", 0) == 0);
  CHECK(m.snapshot("/scratch").empty());  // the temporary directory is gone
}

TEST_CASE("install_from_source: a registry name is refused before anything is written") {
  memory m;
  m.write_file("/inst/config.toml", "[skill_bundles.ops]\n");
  const auto h = host_with({});
  const sk::install_context inst = sk::load_install(m, h, "/inst/config.toml");
  const auto before = m.snapshot("/");
  CHECK_THROWS_AS(sk::install_from_source(m, fake_git{&m, {}}, h, inst,
                                          sk::source_request{"lint", "ops", "", ""}, 022, {}),
                  cp::error);
  CHECK(m.snapshot("/") == before);
}

TEST_CASE("select_tests: a path is one skill; a name is looked up in the install") {
  memory m;
  m.write_file("/inst/config.toml", "[skills]\nallow_scripts = true\n[skill_bundles.ops]\n");
  m.write_file("/inst/shared/skills/ops/lint/SKILL.md", skill_md);
  const auto h = host_with({});
  CHECK(sk::names_a_path("./lint"));
  CHECK(sk::names_a_path("a/b"));
  CHECK_FALSE(sk::names_a_path("lint"));
  const sk::test_selection p = sk::select_tests(m, h, "", "./x/../lint", "");
  REQUIRE(p.targets.size() == 1);
  CHECK(p.targets[0].name == "lint");
  CHECK(p.targets[0].directory == "/cwd/lint");
  CHECK_FALSE(p.allow_scripts);  // no --config: the config is not read
  const sk::test_selection n = sk::select_tests(m, h, "/inst/config.toml", "lint", "");
  REQUIRE(n.targets.size() == 1);
  CHECK(n.targets[0].directory == "/inst/shared/skills/ops/lint");
  CHECK(n.allow_scripts);
}

TEST_CASE("audit_before_test: empty when clean, the reason otherwise") {
  memory m;
  m.write_file("/s/clean/SKILL.md", skill_md);
  m.write_file("/s/linked/SKILL.md", skill_md);
  m.symlink("/s/linked/x.md", "/etc/passwd");
  CHECK(sk::audit_before_test(m, "/s/clean", false).empty());
  CHECK_FALSE(sk::audit_before_test(m, "/s/linked", false).empty());
  CHECK_FALSE(sk::audit_before_test(m, "/s/missing", false).empty());
}
