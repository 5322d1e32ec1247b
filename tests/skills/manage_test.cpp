// SPDX-License-Identifier: MIT
// Managing installed skills (issue 27 item 8): `skills install --upgrade` (a staged
// replace, the old version archived as `skills remove` archives it), `skills restore` from
// `_deleted/`, `skills bundle list` and `skills bundle remove`. Every refusal is checked to
// leave the install byte-identical; the upgrade is swept for faults and crashes.
#include "support/test.hpp"

#include "fs/fixture.hpp"
#include "support/crash_sweep.hpp"

#include <cerrno>
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

const std::string inst = "/inst";
const std::string ops_dir = inst + "/shared/skills/ops";
const std::string archive_dir = inst + "/shared/skills/_deleted";

sk::skills_config config_of(const std::string& toml) { return sk::parse_skills_config(toml); }

bool has_error(const std::function<void()>& f, cp::errc code, const std::string& text) {
  try {
    f();
  } catch (const cp::error& e) {
    CAPTURE(e.what());
    return e.code() == code && std::string(e.what()).find(text) != std::string::npos;
  }
  return false;
}

/// A skill directory `dir` whose SKILL.md says `version`.
void skill_at(memory& m, const std::string& dir, const std::string& version) {
  m.write_file(dir + "/SKILL.md",
               "---\nname: lint\ndescription: Lints\n---\n# Lint " + version + "\n");
  m.write_file(dir + "/refs/notes.md", version);
}

/// An install with bundle `ops` holding `lint` v1, and v2 at /src/lint.
memory upgrade_install() {
  memory m;
  m.write_file(inst + "/config.toml", "[skill_bundles.ops]\n");
  skill_at(m, ops_dir + "/lint", "v1");
  skill_at(m, "/src/lint", "v2");
  return m;
}

sk::install_options upgrade_options(std::int64_t now = 1700000000) {
  sk::install_options o;
  o.upgrade = true;
  o.install_root = inst;
  o.now_secs = now;
  return o;
}

sk::skills_dir_location ops() {
  return sk::bundle_location(config_of("[skill_bundles.ops]\n"), inst, "ops");
}

/// Only the skill and inert staging directories (no manifest at their root) in `dir`.
bool only_inert_leftovers(memory& m, const std::string& dir) {
  for (const auto& [k, v] : m.snapshot(dir)) {
    if (k.find('/') != std::string::npos || k == "lint") continue;
    if (k.rfind(".clawport-stage-", 0) != 0) return false;
    if (m.exists(dir + "/" + k + "/SKILL.md")) return false;
  }
  return true;
}

}  // namespace

// ---- install --upgrade ------------------------------------------------------------------

TEST_CASE("install --upgrade swaps the staged copy in and archives the old version") {
  for (const bool rename2 : {true, false}) {
    CAPTURE(rename2);
    memory m = upgrade_install();
    m.settings().rename2_supported = rename2;  // false: the two-rename fallback
    const snapshot_t v1 = m.snapshot(ops_dir + "/lint");
    const auto r = sk::install_skill_directory(m, "/src/lint", ops(), "lint", upgrade_options());
    CHECK(r.upgraded);
    CHECK(r.archived_to == archive_dir + "/ops-lint-1700000000");
    CHECK(m.snapshot(ops_dir + "/lint") == m.snapshot("/src/lint"));
    CHECK(m.snapshot(r.archived_to) == v1);
    CHECK(m.snapshot(ops_dir).size() == m.snapshot("/src/lint").size() + 1);  // nothing beside
    // A second upgrade in the same second never clobbers the first archive.
    skill_at(m, "/src/lint", "v3");
    const auto r2 = sk::install_skill_directory(m, "/src/lint", ops(), "lint", upgrade_options());
    CHECK(r2.archived_to == archive_dir + "/ops-lint-1700000000.2");
    CHECK(m.snapshot(r.archived_to) == v1);
  }
}

TEST_CASE("install --upgrade of an absent skill installs it; of a global skill deletes the old") {
  memory m;
  m.write_file(inst + "/config.toml", "");
  skill_at(m, "/src/lint", "v2");
  const auto fresh = sk::install_skill_directory(m, "/src/lint", ops(), "lint", upgrade_options());
  CHECK_FALSE(fresh.upgraded);
  CHECK(fresh.archived_to.empty());
  const auto g = sk::global_location(sk::install_paths{inst, ""});
  skill_at(m, g.path + "/lint", "v1");
  const auto r = sk::install_skill_directory(m, "/src/lint", g, "lint", upgrade_options());
  CHECK(r.upgraded);
  CHECK(r.archived_to.empty());
  CHECK(m.snapshot(g.path + "/lint") == m.snapshot("/src/lint"));
  CHECK(m.snapshot(g.path).size() == m.snapshot("/src/lint").size() + 1);
  CHECK_FALSE(m.exists(archive_dir));
}

TEST_CASE("install refusals around --upgrade leave the install byte-identical") {
  memory m = upgrade_install();
  const snapshot_t before = m.snapshot(inst);
  SUBCASE("without --upgrade a taken name is refused, naming --upgrade") {
    CHECK(has_error([&] { sk::install_skill_directory(m, "/src/lint", ops(), "lint"); },
                    cp::errc::destination_refused, "--upgrade replaces it"));
  }
  SUBCASE("a directory without a manifest is not a skill to upgrade") {
    m.remove(ops_dir + "/lint/SKILL.md");
    const snapshot_t no_manifest = m.snapshot(inst);
    CHECK(has_error(
        [&] { sk::install_skill_directory(m, "/src/lint", ops(), "lint", upgrade_options()); },
        cp::errc::skill_invalid, "not editable"));
    CHECK(m.snapshot(inst) == no_manifest);
    return;
  }
  SUBCASE("a new version that fails the audit changes nothing") {
    m.write_file("/src/lint/run.sh", "#!/bin/sh\n");
    CHECK(has_error(
        [&] { sk::install_skill_directory(m, "/src/lint", ops(), "lint", upgrade_options()); },
        cp::errc::audit_blocked, "script-like files are blocked"));
  }
  SUBCASE("a symlink where the skill was is refused") {
    m.remove(ops_dir + "/lint");
    skill_at(m, "/elsewhere/lint", "v1");
    m.symlink(ops_dir + "/lint", "/elsewhere/lint");
    const snapshot_t linked = m.snapshot(inst);
    CHECK(has_error(
        [&] { sk::install_skill_directory(m, "/src/lint", ops(), "lint", upgrade_options()); },
        cp::errc::unsafe_path, "is a symlink"));
    CHECK(m.snapshot(inst) == linked);
    return;
  }
  CHECK(m.snapshot(inst) == before);
}

TEST_CASE("fault and crash sweeps of install --upgrade: the old or the new, never neither") {
  for (const bool rename2 : {true, false}) {
    std::size_t ops_count = 0;
    snapshot_t v1;
    snapshot_t v2;
    {
      faulty<memory> f;
      f.inner() = upgrade_install();
      f.inner().settings().rename2_supported = rename2;
      v1 = f.inner().snapshot(ops_dir + "/lint");
      v2 = f.inner().snapshot("/src/lint");
      f.reset_counts();
      sk::install_skill_directory(f, "/src/lint", ops(), "lint", upgrade_options(7));
      ops_count = f.count();
    }
    const std::string archived = archive_dir + "/ops-lint-7";
    for (std::size_t n = 1; n <= ops_count; ++n) {
      CAPTURE(rename2);
      CAPTURE(n);
      faulty<memory> f;
      f.inner() = upgrade_install();
      f.inner().settings().rename2_supported = rename2;
      f.reset_counts();
      f.fail_at(n, EIO);
      bool ok = true;
      try {
        sk::install_skill_directory(f, "/src/lint", ops(), "lint", upgrade_options(7));
      } catch (const cp::error& e) {
        ok = false;
        CHECK(e.sys_errno() == EIO);
      }
      memory& m = f.inner();
      if (ok) {
        CHECK(m.snapshot(ops_dir + "/lint") == v2);
        CHECK(m.snapshot(archived) == v1);
      } else {
        CHECK(m.snapshot(ops_dir + "/lint") == v1);
        CHECK_FALSE(m.exists(archived));
      }
      CHECK(only_inert_leftovers(m, ops_dir));
    }
    if (!rename2) continue;  // without RENAME_EXCHANGE a crash may leave the name vacant
    crash_sweep::kill_at_each(
        ops_count, [](memory& m) { m = upgrade_install(); },
        [](faulty<memory>& f) {
          sk::install_skill_directory(f, "/src/lint", ops(), "lint", upgrade_options(7));
        },
        [&](memory& m, std::size_t) {
          const snapshot_t now = m.snapshot(ops_dir + "/lint");
          CHECK((now == v1 || now == v2));
          CHECK(only_inert_leftovers(m, ops_dir));
        });
  }
}

// ---- restore ----------------------------------------------------------------------------

TEST_CASE("parse_archive_name reads <bundle>-<name>-<secs>[-n]") {
  const auto a = sk::parse_archive_name("ops-release-check-1700000000-3", "release-check");
  REQUIRE(a);
  CHECK(a->bundle == "ops");
  CHECK(a->removed_at == 1700000000);
  CHECK(a->sequence == 3);
  CHECK(sk::parse_archive_name("ops-lint-12", "lint")->sequence == 1);
  CHECK_FALSE(sk::parse_archive_name("ops-lint-12", "release-check"));
  CHECK_FALSE(sk::parse_archive_name("ops-lint-", "lint"));
  CHECK_FALSE(sk::parse_archive_name("ops-lint-12x", "lint"));
  CHECK_FALSE(sk::parse_archive_name("-lint-12", "lint"));
  CHECK_FALSE(sk::parse_archive_name("ops-lint-old-12", "lint"));
}

TEST_CASE("restore puts the newest archive back into its bundle") {
  memory m;
  m.write_file(inst + "/config.toml", "");
  const auto cfg = config_of("[skill_bundles.ops]\n[skill_bundles.docs]\n");
  skill_at(m, archive_dir + "/ops-lint-100", "old");
  skill_at(m, archive_dir + "/ops-lint-200", "newer");
  skill_at(m, archive_dir + "/ops-lint-200-2", "newest");
  skill_at(m, archive_dir + "/ops-other-300", "x");
  const snapshot_t newest = m.snapshot(archive_dir + "/ops-lint-200-2");
  const auto r = sk::restore_skill(m, cfg, inst, "lint", "", "");
  CHECK(r.bundle == "ops");
  CHECK(r.directory == ops_dir + "/lint");
  CHECK(r.restored_from == archive_dir + "/ops-lint-200-2");
  CHECK(r.other_archives == std::vector<std::string>{"ops-lint-200", "ops-lint-100"});
  CHECK(m.snapshot(ops_dir + "/lint") == newest);
  CHECK_FALSE(m.exists(archive_dir + "/ops-lint-200-2"));
  // --from picks another one (the name must be free again first).
  m.remove(ops_dir + "/lint");
  const snapshot_t old = m.snapshot(archive_dir + "/ops-lint-100");
  CHECK(sk::restore_skill(m, cfg, inst, "lint", "", "ops-lint-100").other_archives.size() == 1);
  CHECK(m.snapshot(ops_dir + "/lint") == old);
}

TEST_CASE("restore refusals write nothing") {
  memory m;
  m.write_file(inst + "/config.toml", "");
  const auto cfg = config_of("[skill_bundles.ops]\n[skill_bundles.docs]\n");
  CHECK(has_error([&] { sk::restore_skill(m, cfg, inst, "lint", "", ""); }, cp::errc::not_found,
                  "no archived skills"));
  skill_at(m, archive_dir + "/ops-lint-100", "a");
  skill_at(m, archive_dir + "/docs-lint-200", "b");
  skill_at(m, archive_dir + "/gone-lint-300", "c");
  m.write_file(archive_dir + "/ops-bare-1/notes.txt", "no manifest");
  skill_at(m, ops_dir + "/taken", "installed");
  skill_at(m, archive_dir + "/ops-taken-5", "archived");
  const snapshot_t before = m.snapshot(inst);
  CHECK(has_error([&] { sk::restore_skill(m, cfg, inst, "lint", "", ""); },
                  cp::errc::invalid_argument, "archived from several bundles"));
  CHECK(has_error([&] { sk::restore_skill(m, cfg, inst, "lint", "gone", ""); }, cp::errc::not_found,
                  "no longer configured"));
  CHECK(has_error([&] { sk::restore_skill(m, cfg, inst, "ghost", "", ""); }, cp::errc::not_found,
                  "no archive of skill 'ghost'"));
  CHECK(has_error([&] { sk::restore_skill(m, cfg, inst, "lint", "ops", "docs-lint-200"); },
                  cp::errc::not_found, "is not an archive of skill 'lint'"));
  CHECK(has_error([&] { sk::restore_skill(m, cfg, inst, "taken", "", ""); },
                  cp::errc::destination_refused, "remove it first"));
  CHECK(has_error([&] { sk::restore_skill(m, cfg, inst, "bare", "", ""); }, cp::errc::skill_invalid,
                  "has no SKILL.md"));
  CHECK(has_error([&] { sk::restore_skill(m, cfg, inst, "../x", "", ""); },
                  cp::errc::invalid_argument, "Invalid skill name"));
  CHECK(m.snapshot(inst) == before);
  // With --bundle the choice is made.
  CHECK(sk::restore_skill(m, cfg, inst, "lint", "docs", "").directory ==
        inst + "/shared/skills/docs/lint");
}

// ---- bundle list and bundle remove ---------------------------------------------------------

TEST_CASE("list_bundles: directories, skills with a manifest, the agents listing each") {
  memory m;
  m.write_file(inst + "/config.toml", "");
  const auto cfg = config_of(
      "[skill_bundles.ops]\n[skill_bundles.docs]\n[agents.a]\nskill_bundles = [\" ops \"]\n"
      "[agents.b]\nskill_bundles = [\"ops\", \"docs\"]\n");
  skill_at(m, ops_dir + "/lint", "v1");
  m.write_file(ops_dir + "/loose/notes.txt", "no manifest");
  m.write_file(ops_dir + "/file.txt", "");
  const auto list = sk::list_bundles(m, cfg, inst);
  REQUIRE(list.size() == 2);
  CHECK(list[0].alias == "docs");
  CHECK_FALSE(list[0].exists);
  CHECK(list[0].agents == std::vector<std::string>{"b"});
  CHECK(list[1].alias == "ops");
  CHECK(list[1].exists);
  CHECK(list[1].directory == ops_dir);
  CHECK(list[1].skills == std::vector<std::string>{"lint"});
  CHECK(list[1].agents == std::vector<std::string>{"a", "b"});
}

TEST_CASE("config_without_bundle removes the table and its sub-tables only") {
  const std::string text =
      "# top\n[agents.default]\nskill_bundles = []\n\n[skill_bundles.ops]\ndirectory = "
      "\"shared/ops\"\n\n[skill_bundles.ops.extra]\nx = 1\n\n# docs bundle\n"
      "[skill_bundles.docs]\n";
  CHECK(sk::config_without_bundle(text, "ops") ==
        "# top\n[agents.default]\nskill_bundles = []\n\n\n# docs bundle\n[skill_bundles.docs]\n");
  CHECK(sk::config_without_bundle(text, "docs") ==
        "# top\n[agents.default]\nskill_bundles = []\n\n[skill_bundles.ops]\ndirectory = "
        "\"shared/ops\"\n\n[skill_bundles.ops.extra]\nx = 1\n\n# docs bundle\n");  // comments stay
  CHECK(sk::config_without_bundle("[ skill_bundles . \"ops\" ]\n[skills]\n", "ops") ==
        "[skills]\n");
  CHECK(sk::config_without_bundle("[skill_bundles.opsx]\n[skill_bundles.ops]\n", "ops") ==
        "[skill_bundles.opsx]\n");
  CHECK(has_error([] { sk::config_without_bundle("skill_bundles = { ops = {} }\n", "ops"); },
                  cp::errc::config_invalid, "remove it from config.toml by hand"));
}

TEST_CASE("remove_skill_bundle: the table goes, backup and mode kept, directory stays") {
  memory m;
  const std::string original =
      "[agents.default]\nskill_bundles = [\"docs\"]\n\n"
      "[skill_bundles.ops]\n\n[skill_bundles.docs]\n";
  m.write_file(inst + "/config.toml", original, 0600);
  skill_at(m, ops_dir + "/lint", "v1");
  const cp::timestamp now{1700000000, 0};
  const auto r = sk::remove_skill_bundle(m, inst + "/config.toml", "ops", now);
  CHECK(r.backup == inst + "/config.toml.bak-20231114T221320Z");
  CHECK(r.directory == ops_dir);
  CHECK(r.skills_left == std::vector<std::string>{"lint"});
  CHECK(m.read_file(inst + "/config.toml") ==
        "[agents.default]\nskill_bundles = [\"docs\"]\n\n\n[skill_bundles.docs]\n");
  CHECK(m.read_file(r.backup) == original);
  CHECK(m.lstat(inst + "/config.toml")->mode == 0600);
  CHECK(m.exists(ops_dir + "/lint/SKILL.md"));
}

TEST_CASE("remove_skill_bundle refusals write nothing") {
  memory m;
  const std::string c = inst + "/config.toml";
  m.write_file(c,
               "[agents.default]\nskill_bundles = [\"ops\"]\n[skill_bundles.ops]\n"
               "[skill_bundles.odd]\nnote = \"\"\"\n[skill_bundles.x]\n\"\"\"\n");
  const cp::timestamp now{0, 0};
  const snapshot_t before = m.snapshot(inst);
  CHECK(has_error([&] { sk::remove_skill_bundle(m, c, "ops", now); }, cp::errc::destination_refused,
                  "agents.default.skill_bundles"));
  CHECK(has_error([&] { sk::remove_skill_bundle(m, c, "ghost", now); }, cp::errc::not_found,
                  "configured: odd, ops"));
  CHECK(m.snapshot(inst) == before);
  // A header-like line inside a multi-line string is not a header.
  sk::remove_skill_bundle(m, c, "odd", now);
  CHECK(m.read_file(c) == "[agents.default]\nskill_bundles = [\"ops\"]\n[skill_bundles.ops]\n");
  m.write_file(c, "skill_bundles = { ops = {} }\n");
  const snapshot_t inline_before = m.snapshot(inst);
  CHECK(has_error([&] { sk::remove_skill_bundle(m, c, "ops", now); }, cp::errc::config_invalid,
                  "by hand"));
  CHECK(m.snapshot(inst) == inline_before);
  memory none;
  CHECK(has_error([&] { sk::remove_skill_bundle(none, c, "ops", now); }, cp::errc::not_found,
                  "config.toml"));
}
