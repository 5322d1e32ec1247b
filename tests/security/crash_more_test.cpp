// SPDX-License-Identifier: MIT
// Issue 41, the crash sweeps tests/security/crash_test.cpp does not hold: `secrets set`,
// `claw migrate`, `convert` both ways between a bundle and a Claw, and a fresh `skills
// install`. Each runs once to count its operations, then again killed after every one of
// them (fs::faulty's crash_after), and checks that what the kill left, after the re-run or
// `recover`, is the old state or the new one byte for byte, and that `status` named the
// leftover `recover` cleared (and names nothing afterwards).
#include "support/crash_sweep.hpp"
#include "support/test.hpp"

#include <map>
#include <string>
#include <vector>

namespace {

namespace cp = clawport;
namespace im = clawport::importer;
namespace sk = clawport::skills;
namespace oc = clawport::openclaw;
namespace cv = clawport::convert;
using clawport::fs::faulty;
using clawport::fs::memory;
using snapshot_t = std::map<std::string, std::string>;

/// Every regular file and symlink under `roots` (absolute path -> bytes).
snapshot_t world(memory& m, const std::vector<std::string>& roots) {
  snapshot_t all;
  for (const std::string& root : roots) {
    if (!m.lstat(root)) continue;
    for (const auto& e : m.snapshot(root)) all[root + "/" + e.first] = e.second;
  }
  return all;
}

/// Clears every leftover `status` lists for the config `config` with the recover line it
/// prints for it; returns how many it listed.
std::size_t recover_listed(memory& m, const std::string& config) {
  const auto listed = im::read_status(m, config).leftovers;
  for (const auto& l : listed) {
    const std::string dest = l.command.str().substr(std::string("clawport recover ").size());
    CHECK(cp::recover_path(m, dest, dest).failed.empty());
  }
  return listed.size();
}

/// The names in `dir` that are staging names of some command (of a tree, or beside one of
/// the files `files` a command replaces).
std::size_t staging_names(memory& m, const std::string& dir,
                          const std::vector<std::string>& files = {}) {
  if (!m.exists(dir)) return 0;
  std::size_t n = 0;
  auto d = m.open_root(dir);
  m.for_each_entry(d, [&](std::string_view name) {
    bool staged = cp::publish::match_staging(name).family != nullptr;
    for (const std::string& f : files)
      staged = staged || cp::publish::match_staging(name, f).family;
    if (staged) ++n;
  });
  return n;
}

}  // namespace

// ---- secrets set ---------------------------------------------------------------------------

namespace {

const std::string dst_config = "/dst/config.toml";
const std::string secret_path = "providers.models.anthropic.main.api_key";

/// The cipher policy's shape without libsodium (as tests/importer/import_test.cpp's):
/// "sealing" reverses the text. Its random bytes are all 7, so the key and the nonce are the
/// same whichever run makes them: the new state is one set of bytes.
struct constant_cipher {
  static constexpr std::size_t key_bytes = 32;
  static constexpr std::size_t nonce_bytes = 12;
  void random(unsigned char* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = 7;
  }
  std::string seal(std::string_view plain, const unsigned char*, const unsigned char*) {
    return std::string(plain.rbegin(), plain.rend()) + std::string(16, '\0');
  }
};

void secrets_install(memory& m) {
  m.write_file(dst_config,
               "schema_version = 3\n\n[providers.models.anthropic.main]\n"
               "api_key = \"\"  # set me\nmodel = \"m\"\n");
}

template <class Fs>
void set_it(Fs& fs) {
  constant_cipher c;
  im::set_secret(fs, c, dst_config, secret_path, "sk-new", cp::timestamp{1786600000, 0});
}

snapshot_t without_backups(snapshot_t s) {
  for (auto it = s.begin(); it != s.end();)
    it = it->first.find("config.toml.bak-") != std::string::npos ? s.erase(it) : std::next(it);
  return s;
}

}  // namespace

TEST_CASE("issue 41 sweep: secrets set killed anywhere: the old value or the new, and its key") {
  snapshot_t before;
  snapshot_t after;
  const auto setup = [](memory& m) { secrets_install(m); };
  const auto run = [](faulty<memory>& f) { set_it(f); };
  const std::size_t count = crash_sweep::count_operations(
      setup, run, [&](memory& m) { before = world(m, {"/dst"}); },
      [&](memory& m) { after = without_backups(world(m, {"/dst"})); });
  REQUIRE(after.count("/dst/.secret_key") == 1);
  bool saw_key_alone = false;  // the key made, the config not yet written
  bool saw_staged = false;     // a staged key or config, which status lists
  crash_sweep::kill_at_each(count, setup, run, [&](memory& m, std::size_t) {
    // status names every staging leftover the kill left beside the config; recover clears it.
    const std::size_t staged = staging_names(m, "/dst", {"config.toml", ".secret_key"});
    saw_staged = saw_staged || staged > 0;
    CHECK(recover_listed(m, dst_config) == staged);
    CHECK(im::read_status(m, dst_config).leftovers.empty());
    const snapshot_t now = without_backups(world(m, {"/dst"}));
    const bool written = now.at(dst_config) != before.at(dst_config);
    if (!written) {
      // The old config; a key made before the kill is the one the re-run uses.
      snapshot_t old = now;
      if (old.erase("/dst/.secret_key") == 1) saw_key_alone = true;
      CHECK(old == before);
      set_it(m);  // the re-run
    }
    CHECK(without_backups(world(m, {"/dst"})) == after);
    const auto st = im::read_status(m, dst_config);
    CHECK(st.blank_secrets.empty());
    CHECK(st.encrypted_without_key == 0);
    CHECK(st.leftovers.empty());
  });
  CHECK(saw_key_alone);
  CHECK(saw_staged);
}

// ---- skills install (a new skill, not an upgrade) ----------------------------------------

namespace {

const std::string inst = "/inst";
const std::string ops_dir = inst + "/shared/skills/ops";

void fresh_install(memory& m) {
  m.write_file(inst + "/config.toml", "[skill_bundles.ops]\n");
  m.write_file(ops_dir + "/other/SKILL.md", "---\nname: other\ndescription: Other\n---\n");
  m.write_file("/src/lint/SKILL.md", "---\nname: lint\ndescription: Lints\n---\n# Lint\n");
  m.write_file("/src/lint/refs/notes.md", "notes\n");
}

template <class Fs>
void install_lint(Fs& fs) {
  sk::install_options o;
  o.install_root = inst;
  o.now_secs = 7;
  const auto where =
      sk::bundle_location(sk::parse_skills_config("[skill_bundles.ops]\n"), inst, "ops");
  sk::install_skill_directory(fs, "/src/lint", where, "lint", o);
}

}  // namespace

TEST_CASE("issue 41 sweep: a fresh skills install killed anywhere: no skill, or the whole one") {
  snapshot_t before;
  snapshot_t after;
  const auto setup = [](memory& m) { fresh_install(m); };
  const auto run = [](faulty<memory>& f) { install_lint(f); };
  const std::size_t count = crash_sweep::count_operations(
      setup, run, [&](memory& m) { before = world(m, {inst}); },
      [&](memory& m) { after = world(m, {inst}); });
  REQUIRE(after.count(ops_dir + "/lint/refs/notes.md") == 1);
  bool saw_staged = false;  // a staged copy beside the bundle, which status lists
  crash_sweep::kill_at_each(count, setup, run, [&](memory& m, std::size_t) {
    const std::size_t staged = staging_names(m, ops_dir);
    saw_staged = saw_staged || staged > 0;
    CHECK(recover_listed(m, inst + "/config.toml") == staged);
    CHECK(im::read_status(m, inst + "/config.toml").leftovers.empty());
    if (!m.exists(ops_dir + "/lint")) {
      CHECK(world(m, {inst}) == before);
      install_lint(m);  // the re-run
    }
    CHECK(world(m, {inst}) == after);
  });
  CHECK(saw_staged);
}

// ---- claw migrate --------------------------------------------------------------------------

namespace {

const std::string oc_now = "2026-12-02T12:00:00+00:00";
const std::string package_root = "/state/claws/local/worker";

/// An OpenClaw agent no package made (as tests/openclaw/migrate_test.cpp's).
void oc_agent(memory& m) {
  m.write_file("/home/ws/AGENTS.md", "# Existing agent\n");
  m.write_file("/home/ws/SOUL.md", "Use the current voice.\n");
  m.write_file("/home/ws/unrelated.json", "{\"keep\":true}\n");
  m.write_file("/state/openclaw.json",
               "{\"agents\": {\"entries\": {\"worker\": {\"workspace\": \"/home/ws\", "
               "\"name\": \"Existing worker\"}}}}");
}

oc::destination_request oc_request() {
  oc::destination_request r;
  r.home = "/home";
  r.cwd = "/";
  r.state_dir = "/state";
  return r;
}

template <class Fs>
oc::migration_outcome migrate_worker(Fs& fs) {
  oc::consent c;
  c.yes = true;
  c.plan_integrity = oc::plan_migration(fs, oc_request(), "worker").integrity;
  return oc::apply_migration(fs, oc_request(), "worker", c, oc_now);
}

}  // namespace

/// `world` without empty directories: the parents a killed migration created for its
/// package (`claws/local/`) hold nothing of it, and the undo a kill skips only removes them.
snapshot_t files_of(const snapshot_t& w) {
  snapshot_t out;
  for (const auto& e : w)
    if (e.second != "d") out.insert(e);
  return out;
}

// A kill after the package is published under <state>/claws/local/worker and before the
// ledger recorded it once left the package alone: the re-run refused it
// (package_destination_exists) and `recover` did not clear it. The migration now records
// its intent first, a `pending` install record (as `claw add` does), so a kill leaves the
// old state, the new one, or that record (with or without the package): the re-run of the
// same plan (its integrity unchanged) finishes it.
TEST_CASE("issue 41 sweep: claw migrate killed anywhere: not migrated, or migrated whole") {
  snapshot_t before;
  snapshot_t after;
  std::string integrity;
  bool migrated = false;
  const auto setup = [](memory& m) { oc_agent(m); };
  const auto run = [&](faulty<memory>& f) { migrated = migrate_worker(f).ok; };
  const std::size_t count = crash_sweep::count_operations(
      setup, run,
      [&](memory& m) {
        before = world(m, {"/state", "/home"});
        integrity = oc::plan_migration(m, oc_request(), "worker").integrity;
      },
      [&](memory& m) {
        after = world(m, {"/state", "/home"});
      });
  REQUIRE(migrated);
  REQUIRE(count > 10);
  std::vector<std::size_t> stuck;  // kills after which the re-run cannot finish
  std::size_t resumed = 0;
  crash_sweep::kill_at_each(count, setup, run, [&](memory& m, std::size_t n) {
    // The staging the kill left beside the package and the ledger: recover clears it.
    for (const std::string& dest : {package_root, std::string("/state/clawport-claws.json")}) {
      if (m.exists(cp::paths::parent(dest))) CHECK(cp::recover_path(m, dest, dest).failed.empty());
    }
    CHECK(staging_names(m, "/state/claws/local") == 0);
    CHECK(staging_names(m, "/state", {"clawport-claws.json"}) == 0);
    const snapshot_t now = world(m, {"/state", "/home"});
    if (now != after) {
      const bool old_state = files_of(now) == files_of(before);
      const bool intent =
          !old_state &&
          oc::value::parse(m.read_file(
              "/state/clawport-claws.json"))["installs"]["worker"]["status"] == "pending";
      if (intent) {
        ++resumed;
        // status names it: an install not complete
        const oc::value st = oc::to_json(oc::claw_status(m, oc_request(), std::nullopt));
        CHECK(st["summary"]["partial"] == 1);
      }
      const oc::migration_plan again = oc::plan_migration(m, oc_request(), "worker");
      CHECK(again.integrity == integrity);  // the consent given before the kill still holds
      CHECK(again.resuming == intent);
      const oc::migration_outcome r = migrate_worker(m);  // the re-run
      if (!(old_state || intent) || !r.ok) {
        stuck.push_back(n);
        return;
      }
    }
    CHECK(world(m, {"/state", "/home"}) == after);
    const oc::value st = oc::to_json(oc::claw_status(m, oc_request(), std::nullopt));
    CHECK(st["summary"]["driftedFiles"] == 0);
    CHECK(st["summary"]["partial"] == 0);
  });
  CHECK(resumed > 0);  // the sweep reached the window the intent covers
  std::string where;
  for (const std::size_t n : stuck) where += " " + std::to_string(n);
  INFO("killed after these operations (of ", count,
       "), neither state and the re-run blocked:", where);
  CHECK(stuck.empty());
}

// ---- convert, bundle -> claw and claw -> bundle --------------------------------------------

namespace {

constexpr cp::timestamp convert_at{1796083200, 0};

void convert_world(memory& m) {
  m.write_file("/src/config.toml",
               "schema_version = 3\n\n[providers.models.anthropic.main]\nmodel = \"m\"\n\n"
               "[risk_profiles.careful]\nlevel = \"readonly\"\n\n"
               "[skill_bundles.research_tools]\n\n"
               "[agents.researcher]\nmodel_provider = \"anthropic.main\"\n"
               "risk_profile = \"careful\"\nskill_bundles = [\"research_tools\"]\n");
  m.write_file("/src/agents/researcher/workspace/IDENTITY.md", "# researcher\n");
  m.write_file("/src/agents/researcher/workspace/AGENTS.md", "Read papers.\n");
  m.write_file("/src/agents/researcher/workspace/notes/plan.md", "the plan\n");
  m.write_file("/src/shared/skills/research_tools/web_search/SKILL.md",
               "---\nname: web_search\ndescription: Search the web.\n---\n# web search\n");
  cp::export_options o;
  o.alias = "researcher";
  o.config_path = "/src/config.toml";
  o.out = "/b";
  o.sync = false;
  o.token = "export";
  o.exported_at = convert_at;
  cp::basic_exporter<memory> ex(m);
  ex.run(o);
  m.mkdirs("/out");
}

cv::options convert_opts(const std::string& source, const std::string& out, cv::direction to) {
  cv::options o;
  o.source = source;
  o.out = out;
  o.to = to;
  o.sync = false;
  o.at = convert_at;
  o.token = "cnvert";
  return o;
}

/// Converts /b to a claw at /out/claw, or (`back`) that claw to a bundle at /out/b.
void convert_sweep(bool back) {
  const auto setup = [back](memory& m) {
    convert_world(m);
    if (back) cv::run(m, convert_opts("/b", "/claw", cv::direction::to_claw));
  };
  const cv::options o = back ? convert_opts("/claw", "/out/b", cv::direction::to_zeroclaw)
                             : convert_opts("/b", "/out/claw", cv::direction::to_claw);
  snapshot_t after;
  const auto run = [&o](faulty<memory>& f) { cv::run(f, o); };
  const std::size_t count = crash_sweep::count_operations(
      setup, run, crash_sweep::nothing{}, [&](memory& m) { after = world(m, {"/out"}); });
  REQUIRE(count > 10);
  CAPTURE(back);
  crash_sweep::kill_at_each(count, setup, run, [&](memory& m, std::size_t) {
    CHECK(cp::recover_path(m, o.out, o.out).failed.empty());
    CHECK(staging_names(m, "/out") == 0);
    if (!m.exists(o.out)) {
      CHECK(world(m, {"/out"}).empty());
      cv::run(m, o);  // the re-run
    }
    CHECK(world(m, {"/out"}) == after);
  });
}

}  // namespace

TEST_CASE("issue 41 sweep: convert bundle -> claw killed anywhere: no package, or the whole one") {
  convert_sweep(false);
}

TEST_CASE("issue 41 sweep: convert claw -> bundle killed anywhere: no bundle, or the whole one") {
  convert_sweep(true);
}
