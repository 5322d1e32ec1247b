// SPDX-License-Identifier: MIT
// Issue 41, "a kill -9 at any point leaves something the next run or `recover` finishes or
// undoes": a command that changes more than one thing records its intent before the first
// visible change, and `recover` (or a re-run) finishes or undoes it; `recover` never
// deletes a staging tree holding the only copy of something the user had. Each item has a
// test that failed before its fix; the sweeps crash at every operation (fs::faulty) and
// then check that the re-run or `recover` leaves the old state or the new one: skills
// install --upgrade (also on real files), import, claw update, claw remove, skills remove
// and skills restore.
#include "support/test.hpp"

#include "fs/fixture.hpp"
#include "support/crash_sweep.hpp"

#include <algorithm>
#include <cerrno>
#include <iterator>
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

/// A skill directory `dir` named `name` whose SKILL.md and notes say `version`.
void skill_at(memory& m, const std::string& dir, const std::string& version,
              const std::string& name = "lint") {
  m.write_file(dir + "/SKILL.md",
               "---\nname: " + name + "\ndescription: Lints\n---\n# Lint " + version + "\n");
  m.write_file(dir + "/refs/notes.md", version);
}

/// An install with bundle `ops` holding `lint` v1 (with the user's edit), and v2 at
/// /src/lint.
memory upgrade_install() {
  memory m;
  m.write_file(inst + "/config.toml", "[skill_bundles.ops]\n");
  skill_at(m, ops_dir + "/lint", "v1");
  m.write_file(ops_dir + "/lint/refs/mine.md", "the user's edit");
  skill_at(m, "/src/lint", "v2");
  return m;
}

sk::install_options upgrade_options() {
  sk::install_options o;
  o.upgrade = true;
  o.install_root = inst;
  o.now_secs = 7;
  return o;
}

sk::skills_dir_location ops() {
  return sk::bundle_location(sk::parse_skills_config("[skill_bundles.ops]\n"), inst, "ops");
}

std::vector<std::string> children(memory& m, const std::string& dir) {
  std::vector<std::string> out;
  auto d = m.open_root(dir);
  m.for_each_entry(d, [&](std::string_view n) { out.emplace_back(n); });
  return out;
}

/// The archives under _deleted/ whose content is `v`.
std::size_t archives_holding(memory& m, const snapshot_t& v) {
  if (!m.exists(archive_dir)) return 0;
  std::size_t n = 0;
  for (const std::string& a : children(m, archive_dir))
    if (m.snapshot(archive_dir + "/" + a) == v) ++n;
  return n;
}

bool said(const cp::recover_report& r, const std::string& text) {
  for (const std::string& a : r.actions)
    if (a.find(text) != std::string::npos) return true;
  return false;
}

/// The upgrade of `lint` v1 -> v2 killed at each operation (with or without
/// RENAME_EXCHANGE): `check(m, v1, v2)` on what each kill left.
template <class Check>
void upgrade_sweep(bool rename2, const Check& check) {
  const auto setup = [rename2](memory& m) {
    m = upgrade_install();
    m.settings().rename2_supported = rename2;
  };
  const auto run = [](faulty<memory>& f) {
    sk::install_skill_directory(f, "/src/lint", ops(), "lint", upgrade_options());
  };
  snapshot_t v1;
  snapshot_t v2;
  const std::size_t count = crash_sweep::count_operations(setup, run, [&](memory& m) {
    v1 = m.snapshot(ops_dir + "/lint");
    v2 = m.snapshot("/src/lint");
  });
  CAPTURE(rename2);
  crash_sweep::kill_at_each(count, setup, run, [&](memory& m, std::size_t) { check(m, v1, v2); });
}

}  // namespace

// ---- item 3: a killed `skills install --upgrade` never loses the previous version -------

TEST_CASE("issue 41 item 3: after a kill at any point of an upgrade, recover keeps v1") {
  for (const bool rename2 : {true, false}) {
    bool saw_window = false;  // the kill after the exchange, before the archive
    upgrade_sweep(rename2, [&](memory& m, const snapshot_t& v1, const snapshot_t& v2) {
      const bool present = m.exists(ops_dir + "/lint");
      if ((!present || m.snapshot(ops_dir + "/lint") != v1) && archives_holding(m, v1) == 0)
        saw_window = true;
      auto parent = m.open_root(ops_dir);
      const cp::recover_report rep = cp::recover(m, parent, "lint", ops_dir + "/lint");
      REQUIRE(m.exists(ops_dir + "/lint"));
      const snapshot_t now = m.snapshot(ops_dir + "/lint");
      CHECK((now == v1 || now == v2));
      // v1, with the user's edit, is never lost: in place, or archived (once).
      CHECK(((now == v1 && archives_holding(m, v1) == 0) ||
             (now == v2 && archives_holding(m, v1) == 1)));
      CHECK(children(m, ops_dir) == std::vector<std::string>{"lint"});
      CHECK(rep.failed.empty());
    });
    CHECK(saw_window);  // the sweep reached the state the issue describes
  }
}

TEST_CASE("issue 41 item 3: recover names the archive it made of the previous version") {
  faulty<memory> f;
  f.inner() = upgrade_install();
  const snapshot_t v1 = f.inner().snapshot(ops_dir + "/lint");
  // Crash at the first operation after the exchange: find it by running one op at a time.
  for (std::size_t n = 1;; ++n) {
    REQUIRE(n < 400);
    faulty<memory> g;
    g.inner() = upgrade_install();
    g.reset_counts();
    g.crash_after(n);
    try {
      sk::install_skill_directory(g, "/src/lint", ops(), "lint", upgrade_options());
    } catch (...) {
    }
    memory& m = g.inner();
    if (m.snapshot(ops_dir + "/lint") == v1) continue;
    REQUIRE(archives_holding(m, v1) == 0);
    auto parent = m.open_root(ops_dir);
    const cp::recover_report rep = cp::recover(m, parent, "lint", ops_dir + "/lint");
    CHECK(said(rep, "archived the previous version of skill 'ops/lint' to " + archive_dir +
                        "/ops-lint-7"));
    CHECK(m.snapshot(archive_dir + "/ops-lint-7") == v1);
    break;
  }
}

// ---- item 16: an archive name reads one way; an ambiguous one is decided by its manifest -

TEST_CASE("issue 41 item 16: restore x never restores the archive of x-5") {
  const auto cfg = sk::parse_skills_config("[skill_bundles.ops]\n");
  SUBCASE("archives made now: the name reads one way") {
    memory m;
    m.write_file(inst + "/config.toml", "");
    // x-5 removed twice in one second: the second archive takes a suffix.
    for (int i = 0; i < 2; ++i) {
      skill_at(m, ops_dir + "/x-5", "x-5 #" + std::to_string(i), "x-5");
      sk::remove_skill(m, ops(), inst, "x-5", false, 1700000000);
    }
    const auto names = children(m, archive_dir);
    CHECK(names == std::vector<std::string>{"ops-x-5-1700000000", "ops-x-5-1700000000.2"});
    const auto before = m.snapshot(inst);
    CHECK_THROWS_AS(sk::restore_skill(m, cfg, inst, "x", "", ""), cp::error);
    CHECK(m.snapshot(inst) == before);  // nothing written
    CHECK_FALSE(sk::parse_archive_name("ops-x-5-1700000000.2", "x"));
    const auto r = sk::restore_skill(m, cfg, inst, "x-5", "", "");
    CHECK(r.restored_from == archive_dir + "/ops-x-5-1700000000.2");
  }
  SUBCASE("an earlier version's `-n` archive: its manifest's name decides") {
    memory m;
    m.write_file(inst + "/config.toml", "");
    skill_at(m, archive_dir + "/ops-x-5-1700000000", "x-5's", "x-5");  // x-5's, or x's at 5?
    const auto before = m.snapshot(inst);
    CHECK_THROWS_AS(sk::restore_skill(m, cfg, inst, "x", "", ""), cp::error);
    CHECK(m.snapshot(inst) == before);
    CHECK_FALSE(m.exists(ops_dir + "/x"));
    const auto r = sk::restore_skill(m, cfg, inst, "x-5", "", "");
    CHECK(m.read_file(ops_dir + "/x-5/refs/notes.md") == "x-5's");
    CHECK(r.restored_from == archive_dir + "/ops-x-5-1700000000");
  }
  SUBCASE("an earlier version's `-n` archive of x itself is still restored as x") {
    memory m;
    m.write_file(inst + "/config.toml", "");
    skill_at(m, archive_dir + "/ops-x-5-2", "x's", "x");
    sk::restore_skill(m, cfg, inst, "x", "", "");
    CHECK(m.read_file(ops_dir + "/x/refs/notes.md") == "x's");
  }
}

// Status says which version a killed upgrade left in place and what recover will do (the
// reading recover acts on, skills::inspect_upgrade); recover then does exactly that.
TEST_CASE("issue 41 item 3: status names the version a killed upgrade left and what recover does") {
  for (const bool rename2 : {true, false}) {
    std::map<std::string, std::size_t> seen;  // what status said, how often
    upgrade_sweep(rename2, [&](memory& m, const snapshot_t& v1, const snapshot_t& v2) {
      const cp::importer::install_status st = cp::importer::read_status(m, inst + "/config.toml");
      std::string detail;
      for (const auto& l : st.leftovers)
        if (l.path.find("/.clawport-stage-") != std::string::npos) detail = l.detail;
      if (!detail.empty()) {
        CHECK(cp::importer::render_status(st).find(detail) != std::string::npos);
        CHECK(cp::importer::to_json(st)["leftovers"][0]["detail"] == detail);
      }
      auto parent = m.open_root(ops_dir);
      CHECK(cp::recover(m, parent, "lint", ops_dir + "/lint").failed.empty());
      if (detail.empty()) return;  // no intent recorded: only a staged copy, v1 untouched
      CAPTURE(detail);
      CHECK(detail.find("a killed upgrade of skill 'ops/lint': ") == 0);
      const snapshot_t now =
          m.exists(ops_dir + "/lint") ? m.snapshot(ops_dir + "/lint") : snapshot_t{};
      const auto says = [&](const char* t) { return detail.find(t) != std::string::npos; };
      if (says("recover puts it back") || says("the copy in place is the previous version")) {
        CHECK(now == v1);
        CHECK(archives_holding(m, v1) == 0);
      } else if (says("the copy in place is the new version")) {
        CHECK(now == v2);
        CHECK(archives_holding(m, v1) == 1);
        CHECK((says("recover archives the previous version") || says("already archived")));
      } else {
        FAIL("an unexpected detail: " << detail);
      }
      ++seen[detail.substr(0, detail.find(';'))];
    });
    // The sweep saw the window the issue names (the new version in place, the old one only
    // in the staging tree) and the one before the exchange.
    CHECK(seen.count("a killed upgrade of skill 'ops/lint': the copy in place is the new version"));
    CHECK(seen.count(
        "a killed upgrade of skill 'ops/lint': the copy in place is the previous version (it was "
        "not replaced)"));
  }
}

// ---- item 7: status and recover read one list of places where commands stage -------------

TEST_CASE("issue 41 item 7: status finds staging leftovers in every skills directory") {
  memory m;
  m.write_file(inst + "/config.toml",
               "schema_version = 3\n\n[skill_bundles.ops]\n\n[skill_bundles.docs]\n"
               "directory = \"shared/custom\"\n");
  const std::vector<std::string> planted = {
      "/data/skills/.clawport-stage-AbC123",               // the global skills directory
      inst + "/shared/custom/.clawport-stage-AbC123",      // a configured `directory`
      inst + "/shared/skills/ops/.clawport-stage-AbC123",  // a bundle's default directory
  };
  for (const std::string& p : planted) m.write_file(p + "/lint/SKILL.md", "half");
  m.write_file(inst + "/shared/skills/ops/lint/SKILL.md", "the installed skill");
  const cp::importer::install_status st =
      cp::importer::read_status(m, inst + "/config.toml", "/data");
  std::vector<std::string> found;
  for (const auto& l : st.leftovers) found.push_back(l.path);
  std::sort(found.begin(), found.end());
  CHECK(found == planted);
  CHECK(st.pending());
  // Each line status prints clears its leftover, and then status says nothing is left.
  for (const auto& l : st.leftovers) {
    const std::string prefix = "clawport recover ";
    REQUIRE(l.command.str().rfind(prefix, 0) == 0);
    const std::string dest = l.command.str().substr(prefix.size());
    const cp::recover_report rep = cp::recover_path(m, dest, dest);
    CHECK(rep.failed.empty());
  }
  for (const std::string& p : planted) CHECK_FALSE(m.exists(p));
  CHECK(m.read_file(inst + "/shared/skills/ops/lint/SKILL.md") == "the installed skill");
  CHECK(cp::importer::read_status(m, inst + "/config.toml", "/data").leftovers.empty());
}

// ---- item 5: a `claw update` killed between two renames is finished by the re-run --------

namespace {

namespace oc = clawport::openclaw;
const std::string oc_ws = "/state/workspace-demo";

/// The package at /pkg in version `v` (1.0.0 or 1.1.0): AGENTS.md, the body and the MCP
/// server change, ref/policy.md is dropped and notes/new.md new in 1.1.0.
void claw_package(memory& m, bool v2) {
  m.mkdirs("/pkg/ws/ref");
  m.mkdirs("/pkg/ws/notes");
  m.mkdirs("/home");
  m.write_file("/pkg/package.json", std::string("{\"name\": \"demo-claw\", \"version\": \"") +
                                        (v2 ? "1.1.0" : "1.0.0") +
                                        "\", \"openclaw\": {\"claw\": \"CLAW.md\"}}");
  m.write_file("/pkg/CLAW.md",
               std::string("---\nschemaVersion: 1\nagent:\n  id: demo\nworkspace:\n"
                           "  bootstrapFiles:\n    AGENTS.md: {source: ws/AGENTS.md}\n  files:\n") +
                   (v2 ? "    - {source: ws/notes/new.md, path: notes/new.md}\n"
                       : "    - {source: ws/ref/policy.md, path: ref/policy.md}\n") +
                   "mcpServers:\n  docs:\n    url: https://mcp" + (v2 ? "2" : "") +
                   ".example.com/mcp\n    transport: streamable-http\n---\n" +
                   (v2 ? "Be kinder.\n" : "Be kind.\n"));
  m.write_file("/pkg/ws/AGENTS.md", v2 ? "agents v2\n" : "agents\n");
  m.write_file("/pkg/ws/ref/policy.md", "policy\n");
  m.write_file("/pkg/ws/notes/new.md", "new\n");
}

oc::destination_request claw_request() {
  oc::destination_request r;
  r.home = "/home";
  r.cwd = "/";
  r.state_dir = "/state";
  return r;
}

oc::consent claw_yes(const std::string& integrity) {
  oc::consent c;
  c.yes = true;
  c.plan_integrity = integrity;
  return c;
}

const std::string claw_now = "2026-12-01T12:00:00+00:00";

/// An install of demo-claw 1.0.0, with 1.1.0 at /pkg.
memory claw_installed() {
  memory m;
  claw_package(m, false);
  oc::add_options o;
  o.without_packages = true;
  const auto pkg = oc::read_package(m, "/pkg");
  const std::string integrity =
      oc::to_json(oc::plan_add(m, pkg, claw_request(), o))["planIntegrity"].get<std::string>();
  REQUIRE(oc::apply_add(m, pkg, claw_request(), o, claw_yes(integrity), claw_now).ok);
  claw_package(m, true);
  return m;
}

/// Plans `claw update demo` and applies it with that plan's integrity.
template <class Fs>
oc::update_outcome claw_update(Fs& fs) {
  const oc::update_plan up = oc::plan_update(fs, claw_request(), "demo", std::nullopt);
  return oc::apply_update(fs, claw_request(), "demo", std::nullopt,
                          claw_yes(up.plan["planIntegrity"].get<std::string>()), claw_now);
}

}  // namespace

TEST_CASE("issue 41 item 5: a killed claw update is finished by the re-run, never blocked") {
  bool updated = false;
  const auto setup = [](memory& m) { m = claw_installed(); };
  const auto run = [&](faulty<memory>& f) { updated = claw_update(f).ok; };
  const std::size_t count = crash_sweep::count_operations(setup, run);
  REQUIRE(updated);
  REQUIRE(count > 20);
  bool saw_half = false;  // some files v2, the ledger v1: the state the issue describes
  crash_sweep::kill_at_each(count, setup, run, [&](memory& m, std::size_t) {
    const std::string ledger = m.read_file("/state/clawport-claws.json");
    if (ledger.find("\"1.0.0\"") != std::string::npos &&
        m.read_file(oc_ws + "/AGENTS.md") == "agents v2\n")
      saw_half = true;
    const oc::update_plan again = oc::plan_update(m, claw_request(), "demo", std::nullopt);
    INFO(again.plan.dump(2));
    CHECK_FALSE(again.blocked);
    const oc::update_outcome r = claw_update(m);
    INFO(oc::to_json(r).dump(2));
    REQUIRE(r.ok);
    CHECK(m.read_file("/state/clawport-claws.json").find("\"1.1.0\"") != std::string::npos);
    CHECK(m.read_file(oc_ws + "/AGENTS.md") == "agents v2\n");
    CHECK(m.read_file(oc_ws + "/notes/new.md") == "new\n");
    CHECK_FALSE(m.exists(oc_ws + "/ref/policy.md"));
    const oc::value st = oc::to_json(oc::claw_status(m, claw_request(), std::nullopt));
    CHECK(st["summary"]["driftedFiles"] == 0);
    CHECK(st["summary"]["driftedMcpServers"] == 0);
    CHECK(st["records"][0]["agentState"] == "present");
  });
  CHECK(saw_half);
}

// ---- item 4: an import killed after placing its trees is finished or undone --------------

namespace {

namespace im = clawport::importer;

/// A source install exported to /b, and an empty target install /dst.
void import_world(memory& m) {
  m.write_file("/src/config.toml",
               "schema_version = 3\n\n[providers.models.anthropic.main]\nmodel = \"m\"\n\n"
               "[risk_profiles.guarded]\n\n[skill_bundles.research_tools]\n\n"
               "[agents.researcher]\nmodel_provider = \"anthropic.main\"\n"
               "risk_profile = \"guarded\"\n"
               "skill_bundles = [\"research_tools\"]\n");
  m.write_file("/src/agents/researcher/workspace/IDENTITY.md", "# researcher\n");
  m.write_file("/src/agents/researcher/workspace/notes/plan.md", "the plan\n");
  m.write_file("/src/shared/skills/research_tools/web_search/SKILL.md", "# web search\n");
  cp::export_options o;
  o.alias = "researcher";
  o.config_path = "/src/config.toml";
  o.out = "/b";
  o.sync = false;
  o.token = "export";
  o.exported_at = cp::timestamp{1786493040, 0};
  cp::basic_exporter<memory> ex(m);
  ex.run(o);
  m.write_file("/dst/config.toml", "schema_version = 3\n");
}

im::import_options import_opts() {
  im::import_options o;
  o.bundle = "/b";
  o.config_path = "/dst/config.toml";
  o.now = cp::timestamp{1786500000, 0};
  return o;
}

template <class Fs>
im::import_result import_with(Fs& fs, const std::string& integrity) {
  im::apply_options a;
  a.sync = false;
  return im::apply_import(fs, import_opts(), cp::plan::consented_to(integrity), a);
}

snapshot_t without_backups(snapshot_t s) {
  for (auto it = s.begin(); it != s.end();)
    it = it->first.rfind("config.toml.bak-", 0) == 0 ? s.erase(it) : std::next(it);
  return s;
}

/// Clears every leftover `status` lists with the recover line it prints for it.
void recover_all(memory& m) {
  for (const auto& l : im::read_status(m, "/dst/config.toml").leftovers) {
    const std::string dest = l.command.str().substr(std::string("clawport recover ").size());
    const cp::recover_report rep = cp::recover_path(m, dest, dest);
    CHECK(rep.failed.empty());
  }
}

}  // namespace

TEST_CASE("issue 41 item 4: a killed import is finished by the re-run of its plan, or undone") {
  std::string integrity;
  snapshot_t imported;
  const auto setup = [](memory& m) { import_world(m); };
  const auto run = [&](faulty<memory>& f) { import_with(f, integrity); };
  const std::size_t count = crash_sweep::count_operations(
      setup, run, [&](memory& m) { integrity = im::plan_import(m, import_opts()).plan_integrity; },
      [&](memory& m) { imported = m.snapshot("/dst"); });
  REQUIRE(imported.count("agents/researcher/workspace/IDENTITY.md"));
  bool saw_orphans = false;  // trees in place, config not written: the issue's state
  for (const bool by_recover : {false, true}) {
    CAPTURE(by_recover);
    crash_sweep::kill_at_each(count, setup, run, [&](memory& m, std::size_t) {
      const bool written = m.read_file("/dst/config.toml") != "schema_version = 3\n";
      if (!written && m.exists("/dst/agents/researcher/workspace/IDENTITY.md")) saw_orphans = true;
      if (by_recover) {
        recover_all(m);
        CHECK(im::read_status(m, "/dst/config.toml").leftovers.empty());
        if (!written) {  // undone: the config and no tree of the import
          CHECK(m.read_file("/dst/config.toml") == "schema_version = 3\n");
          CHECK_FALSE(m.exists("/dst/agents/researcher/workspace"));
          CHECK_FALSE(m.exists("/dst/shared/skills/research_tools"));
        } else {
          CHECK(without_backups(m.snapshot("/dst")) == without_backups(imported));
        }
      }
      // The same plan, consented once, is not "changed" by the killed run: it completes.
      if (!written) {
        const auto r = import_with(m, integrity);
        CHECK(r.plan.alias == "researcher");
      }
      if (!by_recover) recover_all(m);  // the staging leftovers of the killed run
      // A kill while the config's backup was written leaves that file (a copy of the
      // previous config; the re-run writes its own): the install is compared without them.
      CHECK(without_backups(m.snapshot("/dst")) == without_backups(imported));
    });
  }
  CHECK(saw_orphans);
}

// ---- the crash sweeps: skills remove and restore, claw remove ----------------------------

TEST_CASE("issue 41 sweep: skills remove killed anywhere: the skill or its archive, once") {
  snapshot_t v1;
  const auto setup = [](memory& m) { m = upgrade_install(); };
  const auto run = [](faulty<memory>& f) { sk::remove_skill(f, ops(), inst, "lint", false, 7); };
  const std::size_t count = crash_sweep::count_operations(
      setup, run, [&](memory& m) { v1 = m.snapshot(ops_dir + "/lint"); });
  crash_sweep::kill_at_each(count, setup, run, [&](memory& m, std::size_t) {
    auto parent = m.open_root(ops_dir);
    CHECK(cp::recover(m, parent, "lint", ops_dir + "/lint").failed.empty());
    const bool installed = m.exists(ops_dir + "/lint");
    CHECK((installed ? m.snapshot(ops_dir + "/lint") == v1 : true));
    CHECK(archives_holding(m, v1) == (installed ? 0u : 1u));
    CHECK(cp::importer::read_status(m, inst + "/config.toml").leftovers.empty());
  });
}

TEST_CASE("issue 41 sweep: skills restore killed anywhere: the archive or the skill, once") {
  const auto cfg = sk::parse_skills_config("[skill_bundles.ops]\n");
  const auto setup = [](memory& m) {
    m.write_file(inst + "/config.toml", "[skill_bundles.ops]\n");
    skill_at(m, archive_dir + "/ops-lint-7", "v1");
  };
  snapshot_t v1;
  const auto run = [&cfg](faulty<memory>& f) { sk::restore_skill(f, cfg, inst, "lint", "", ""); };
  const std::size_t count = crash_sweep::count_operations(
      setup, run, [&](memory& m) { v1 = m.snapshot(archive_dir + "/ops-lint-7"); });
  crash_sweep::kill_at_each(count, setup, run, [&](memory& m, std::size_t) {
    const bool restored = m.exists(ops_dir + "/lint");
    CHECK((restored ? m.snapshot(ops_dir + "/lint") == v1 : true));
    CHECK(archives_holding(m, v1) == (restored ? 0u : 1u));
  });
}

TEST_CASE("issue 41 sweep: claw remove killed anywhere is finished by the re-run") {
  oc::value plan;  // planned on each fresh install, before the counted run
  const auto setup = [&plan](memory& m) {
    m = claw_installed();
    claw_package(m, false);
    plan = oc::plan_remove(m, claw_request(), "demo");
  };
  bool removed = false;
  const auto run = [&](faulty<memory>& f) {
    removed =
        oc::apply_remove(f, claw_request(), "demo", claw_yes(plan["planIntegrity"]), claw_now).ok;
  };
  const std::size_t count = crash_sweep::count_operations(setup, run);
  REQUIRE(removed);
  crash_sweep::kill_at_each(count, setup, run, [&](memory& m, std::size_t) {
    const oc::value ledger = oc::value::parse(m.read_file("/state/clawport-claws.json"));
    if (!ledger["installs"].contains("demo")) {
      CHECK_FALSE(m.exists(oc_ws + "/AGENTS.md"));
      return;
    }
    const oc::value again = oc::plan_remove(m, claw_request(), "demo");
    INFO(again.dump(2));
    const auto r =
        oc::apply_remove(m, claw_request(), "demo", claw_yes(again["planIntegrity"]), claw_now);
    INFO(oc::to_json(r).dump(2));
    CHECK(r.ok);
    const oc::value after = oc::value::parse(m.read_file("/state/clawport-claws.json"));
    CHECK_FALSE(after["installs"].contains("demo"));
    CHECK_FALSE(m.exists(oc_ws + "/AGENTS.md"));
  });
}

// ---- issue 43 item 4: the same three fail at every operation; a failure leaves the old state
// (their rollbacks are publish::undo_journal's steps) ---------------------------------------

TEST_CASE(
    "issue 43 item 4 fault sweep: skills remove fails anywhere: the skill stays, or it is gone") {
  for (const bool purge : {false, true}) {
    std::size_t count = 0;
    snapshot_t v1;
    {
      faulty<memory> f;
      f.inner() = upgrade_install();
      v1 = f.inner().snapshot(ops_dir + "/lint");
      f.reset_counts();
      sk::remove_skill(f, ops(), inst, "lint", purge, 7);
      count = f.count();
    }
    for (std::size_t n = 1; n <= count + 1; ++n) {
      CAPTURE(purge);
      CAPTURE(n);
      faulty<memory> f;
      f.inner() = upgrade_install();
      f.reset_counts();
      f.fail_at(n, EIO);
      bool failed = false;
      try {
        sk::remove_skill(f, ops(), inst, "lint", purge, 7);
      } catch (const cp::error&) {
        failed = true;
      }
      memory& m = f.inner();
      // A failure is the old state: the skill in place, no archive of it.
      CHECK(m.exists(ops_dir + "/lint") == failed);
      if (failed) CHECK(m.snapshot(ops_dir + "/lint") == v1);
      CHECK(archives_holding(m, v1) == (failed || purge ? 0u : 1u));
    }
  }
}

TEST_CASE(
    "issue 43 item 4 fault sweep: skills restore fails anywhere: the archive stays, or the skill "
    "is back") {
  // Failed before the fix: a failing look at the restored skill (its identity check) threw
  // with the skill already restored and its archive gone.
  const auto cfg = sk::parse_skills_config("[skill_bundles.ops]\n");
  const auto setup = [](memory& m) {
    m.write_file(inst + "/config.toml", "[skill_bundles.ops]\n");
    skill_at(m, archive_dir + "/ops-lint-7", "v1");
  };
  std::size_t count = 0;
  snapshot_t v1;
  {
    faulty<memory> f;
    setup(f.inner());
    v1 = f.inner().snapshot(archive_dir + "/ops-lint-7");
    f.reset_counts();
    sk::restore_skill(f, cfg, inst, "lint", "", "");
    count = f.count();
  }
  for (std::size_t n = 1; n <= count + 1; ++n) {
    CAPTURE(n);
    faulty<memory> f;
    setup(f.inner());
    f.reset_counts();
    f.fail_at(n, EIO);
    bool failed = false;
    try {
      sk::restore_skill(f, cfg, inst, "lint", "", "");
    } catch (const cp::error&) {
      failed = true;
    }
    memory& m = f.inner();
    CHECK(m.exists(ops_dir + "/lint") == !failed);
    if (!failed) CHECK(m.snapshot(ops_dir + "/lint") == v1);
    CHECK(archives_holding(m, v1) == (failed ? 1u : 0u));
  }
}

TEST_CASE(
    "issue 43 item 4 fault sweep: claw remove fails anywhere: nothing removed, or the re-run "
    "finishes") {
  std::size_t count = 0;
  std::string ledger_before, config_before;
  {
    faulty<memory> f;
    f.inner() = claw_installed();
    ledger_before = f.inner().read_file("/state/clawport-claws.json");
    config_before = f.inner().read_file("/state/openclaw.json");
    const oc::value plan = oc::plan_remove(f, claw_request(), "demo");
    f.reset_counts();
    REQUIRE(
        oc::apply_remove(f, claw_request(), "demo", claw_yes(plan["planIntegrity"]), claw_now).ok);
    count = f.count();
  }
  for (std::size_t n = 1; n <= count + 1; ++n) {
    CAPTURE(n);
    faulty<memory> f;
    f.inner() = claw_installed();
    const oc::value plan = oc::plan_remove(f, claw_request(), "demo");
    f.reset_counts();
    f.fail_at(n, EIO);
    oc::remove_outcome r;
    try {
      r = oc::apply_remove(f, claw_request(), "demo", claw_yes(plan["planIntegrity"]), claw_now);
    } catch (const cp::error&) {
      continue;  // before the first change (the plan's reads): nothing was written
    }
    memory& m = f.inner();
    if (r.ok) continue;
    if (r.failed) {
      // Stopped before a file went: the ledger and openclaw.json are as they were.
      INFO(oc::to_json(*r.failed).dump(2));
      CHECK(m.read_file("/state/clawport-claws.json") == ledger_before);
      CHECK(m.read_file("/state/openclaw.json") == config_before);
      CHECK(m.exists(oc_ws + "/AGENTS.md"));
      continue;
    }
    // Partial: the ledger names what is left, and the re-run finishes (or the last ledger
    // write landed before its flush failed: the remove is whole).
    const oc::value ledger = oc::value::parse(m.read_file("/state/clawport-claws.json"));
    if (!ledger["installs"].contains("demo")) {
      CHECK_FALSE(m.exists(oc_ws + "/AGENTS.md"));
      continue;
    }
    const oc::value again = oc::plan_remove(m, claw_request(), "demo");
    const auto second =
        oc::apply_remove(m, claw_request(), "demo", claw_yes(again["planIntegrity"]), claw_now);
    INFO(oc::to_json(second).dump(2));
    CHECK(second.ok);
    CHECK_FALSE(m.exists(oc_ws + "/AGENTS.md"));
  }
}

// ---- the same on real files (fs::posix under fs::faulty) ----------------------------------

TEST_CASE("issue 41 item 3 on real files: a killed upgrade's previous version is archived") {
  using posix_faulty = faulty<cp::fs::posix>;
  const auto setup = [](clawport::testing::posix_fixture& fx) {
    fx.write("inst/config.toml", "[skill_bundles.ops]\n");
    for (const auto& [dir, v] :
         {std::pair<std::string, std::string>{"inst/shared/skills/ops/lint", "v1"},
          {"src/lint", "v2"}}) {
      fx.write(dir + "/SKILL.md", "---\nname: lint\ndescription: Lints\n---\n# " + v + "\n");
      fx.write(dir + "/refs/notes.md", v);
    }
    fx.write("inst/shared/skills/ops/lint/refs/mine.md", "the user's edit");
  };
  const auto run = [](posix_faulty& f, const std::string& root) {
    sk::install_options o;
    o.upgrade = true;
    o.install_root = root + "/inst";
    o.now_secs = 7;
    const auto loc = sk::bundle_location(sk::parse_skills_config("[skill_bundles.ops]\n"),
                                         o.install_root, "ops");
    sk::install_skill_directory(f, root + "/src/lint", loc, "lint", o);
  };
  std::size_t count = 0;
  {
    clawport::testing::posix_fixture fx;
    setup(fx);
    posix_faulty f;
    run(f, fx.root_path());
    count = f.count();
  }
  std::size_t archived = 0;
  for (std::size_t n = 0; n <= count; ++n) {
    CAPTURE(n);
    clawport::testing::posix_fixture fx;
    setup(fx);
    const auto v1 = fx.snapshot("inst/shared/skills/ops/lint");
    {
      posix_faulty f;
      f.crash_after(n);
      try {
        run(f, fx.root_path());
      } catch (...) {
      }
    }
    cp::fs::posix p;
    const std::string dest = fx.root_path() + "/inst/shared/skills/ops/lint";
    CHECK(cp::recover_path(p, dest, dest).failed.empty());
    const bool old_in_place = fx.snapshot("inst/shared/skills/ops/lint") == v1;
    const bool in_archive = fx.exists("inst/shared/skills/_deleted/ops-lint-7") &&
                            fx.snapshot("inst/shared/skills/_deleted/ops-lint-7") == v1;
    CHECK(old_in_place != in_archive);  // exactly one copy of v1, with the user's edit
    archived += in_archive;
  }
  CHECK(archived > 0);
}
