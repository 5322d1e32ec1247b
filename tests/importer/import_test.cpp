// SPDX-License-Identifier: MIT
// `import`: verify first, plan against the target (renames, reuse, --map, --as), the merged
// config validated, apply only with the plan's integrity, config written last and
// append-only; every refusal writes nothing; a fault sweep over every operation.
#include "support/test.hpp"

#include <cerrno>
#include <string>
#include <vector>

namespace cp = clawport;
namespace im = clawport::importer;

namespace {

const char* const kSource = R"(schema_version = 3

[providers.models.anthropic.main]
api_key = "sk-ant-import-test-secret"
model = "claude-opus-5"

[risk_profiles.guarded]

[skill_bundles.research_tools]

[agents.researcher]
model_provider = "anthropic.main"
risk_profile = "guarded"
skill_bundles = ["research_tools"]
)";

/// One memory filesystem holding a source install (/src), its bundle (/b) and a target
/// install (/dst) whose config is given.
struct import_rig {
  cp::fs::faulty<cp::fs::memory> f;
  cp::fs::memory& m() { return f.inner(); }

  explicit import_rig(const std::string& target_config = "schema_version = 3\n") {
    m().write_file("/src/config.toml", kSource);
    m().write_file("/src/agents/researcher/workspace/IDENTITY.md", "# researcher\n");
    m().write_file("/src/agents/researcher/workspace/notes/plan.md", "the plan\n");
    m().write_file("/src/shared/skills/research_tools/web_search/SKILL.md", "# web search\n");
    cp::export_options o;
    o.alias = "researcher";
    o.config_path = "/src/config.toml";
    o.out = "/b";
    o.sync = false;
    o.token = "export";
    o.exported_at = cp::timestamp{1786493040, 0};
    cp::basic_exporter<cp::fs::memory> ex(m());
    ex.run(o);
    m().mkdirs("/dst");
    if (!target_config.empty()) m().write_file("/dst/config.toml", target_config);
  }

  im::import_options opts(const std::string& config = "/dst/config.toml") {
    im::import_options o;
    o.bundle = "/b";
    o.config_path = config;
    o.now = cp::timestamp{1786500000, 0};
    return o;
  }
  im::import_plan plan(const im::import_options& o) { return im::plan_import(f, o); }
  im::import_result apply(const im::import_options& o) {
    const auto p = plan(o);
    im::apply_options a;
    a.sync = false;
    return im::apply_import(f, o, p.plan_integrity, a);
  }
  std::string refusal(const im::import_options& o, cp::errc want) {
    try {
      apply(o);
    } catch (const cp::error& e) {
      CHECK(e.code() == want);
      return e.what();
    }
    return "accepted";
  }
};

const im::entry_change* change(const im::import_plan& p, const std::string& kind,
                               const std::string& from) {
  for (const auto& e : p.entries)
    if (e.kind == kind && e.from == from) return &e;
  return nullptr;
}

}  // namespace

TEST_CASE("import into an empty install: everything is added and placed, config appended") {
  import_rig r;
  const auto p = r.plan(r.opts());
  CHECK(p.alias == "researcher");
  REQUIRE(change(p, "agent", "researcher") != nullptr);
  CHECK(change(p, "agent", "researcher")->action == "add");
  CHECK(change(p, "model_provider", "anthropic.main")->action == "add");
  CHECK(p.secrets == std::vector<std::string>{"providers.models.anthropic.main.api_key"});
  REQUIRE(p.placements.size() == 2);
  CHECK(p.placements[0].to == "agents/researcher/workspace");
  CHECK(p.placements[1].to == "shared/skills/research_tools");
  CHECK(p.plan_integrity.rfind("sha256:", 0) == 0);
  CHECK(r.plan(r.opts()).plan_integrity == p.plan_integrity);  // deterministic
  // Planning wrote nothing.
  CHECK(r.m().snapshot("/dst").size() == 1);

  const auto res = r.apply(r.opts());
  const std::string config = r.m().read_file("/dst/config.toml");
  CHECK(config.rfind("schema_version = 3\n", 0) == 0);
  CHECK(config.find("# Imported by clawport") != std::string::npos);
  CHECK(config.find("[agents.researcher]") != std::string::npos);
  CHECK(r.m().read_file("/dst/agents/researcher/workspace/notes/plan.md") == "the plan\n");
  CHECK(r.m().read_file("/dst/shared/skills/research_tools/web_search/SKILL.md") ==
        "# web search\n");
  CHECK(r.m().read_file(res.backup) == "schema_version = 3\n");
  // The merged config validates, and the import can be exported again.
  CHECK_FALSE(cp::zeroclaw::validate_config<cp::zeroclaw::schema_v3>(
      cp::zeroclaw::parse_toml(config, "config.toml")));
}

TEST_CASE("import into an install without a config is refused, nothing written") {
  import_rig r("");
  const auto snap = r.m().snapshot("/dst");
  CHECK(r.refusal(r.opts(), cp::errc::not_found).find("does not exist") != std::string::npos);
  CHECK(r.m().snapshot("/dst") == snap);
}

TEST_CASE("import into the install it came from: every collision renamed or reused") {
  import_rig r;
  const std::string before = r.m().read_file("/src/config.toml");
  const auto p = r.plan(r.opts("/src/config.toml"));
  CHECK(p.alias == "researcher_imported");
  CHECK(change(p, "agent", "researcher")->to == "researcher_imported");
  // Identical after normalisation (the key is a secret, ignored): reused, no secret line.
  CHECK(change(p, "model_provider", "anthropic.main")->action == "reuse");
  CHECK(change(p, "risk_profile", "guarded")->action == "reuse");
  // A skill bundle with content is never reused: renamed, placed beside the original.
  CHECK(change(p, "skill_bundle", "research_tools")->to == "research_tools_imported");
  CHECK(p.secrets.empty());
  r.apply(r.opts("/src/config.toml"));
  const std::string after = r.m().read_file("/src/config.toml");
  CHECK(after.rfind(before, 0) == 0);  // the user's bytes, byte for byte
  const auto merged = cp::zeroclaw::parse_toml(after, "config.toml");
  const auto* agent = merged.find("agents")->find("researcher_imported");
  REQUIRE(agent != nullptr);
  CHECK(agent->find("model_provider")->text == "anthropic.main");
  CHECK(agent->find("skill_bundles")->items[0].text == "research_tools_imported");
  CHECK(merged.find("skill_bundles")->find("research_tools_imported") != nullptr);
  CHECK(r.m().exists("/src/shared/skills/research_tools_imported/web_search/SKILL.md"));
  CHECK(r.m().read_file("/src/agents/researcher/workspace/IDENTITY.md") == "# researcher\n");
  // Importing a second time takes the next free names.
  const auto again = r.plan(r.opts("/src/config.toml"));
  CHECK(again.alias == "researcher_imported_2");
}

TEST_CASE("a colliding provider that differs is renamed and every reference rewritten") {
  import_rig r(
      "schema_version = 3\n\n[providers.models.anthropic.main]\nmodel = \"claude-other\"\n");
  const auto p = r.plan(r.opts());
  CHECK(change(p, "model_provider", "anthropic.main")->to == "anthropic.main_imported");
  CHECK(p.secrets == std::vector<std::string>{"providers.models.anthropic.main_imported.api_key"});
  r.apply(r.opts());
  const auto merged = cp::zeroclaw::parse_toml(r.m().read_file("/dst/config.toml"), "c");
  CHECK(merged.find("agents")->find("researcher")->find("model_provider")->text ==
        "anthropic.main_imported");
  CHECK(merged.find("providers")
            ->find("models")
            ->find("anthropic")
            ->find("main")
            ->find("model")
            ->text == "claude-other");
}

TEST_CASE("--map points a reference at a local entry; --as names the agent") {
  import_rig r(
      "schema_version = 3\n\n[providers.models.anthropic.work]\nmodel = \"claude-opus-5\"\n");
  auto o = r.opts();
  o.maps = {"model_provider.anthropic.main=anthropic.work"};
  o.as = "scout";
  const auto p = r.plan(o);
  CHECK(p.alias == "scout");
  CHECK(change(p, "model_provider", "anthropic.main")->action == "map");
  CHECK(p.secrets.empty());  // the local entry has its own credentials
  r.apply(o);
  const auto merged = cp::zeroclaw::parse_toml(r.m().read_file("/dst/config.toml"), "c");
  CHECK(merged.find("agents")->find("scout")->find("model_provider")->text == "anthropic.work");
  CHECK(merged.find("providers")->find("models")->find("anthropic")->find("main") == nullptr);
  CHECK(r.m().exists("/dst/agents/scout/workspace/IDENTITY.md"));

  const auto snap = r.m().snapshot("/dst");
  auto bad = r.opts();
  bad.maps = {"model_provider.anthropic.main=anthropic.nowhere"};
  CHECK(r.refusal(bad, cp::errc::not_found).find("anthropic.nowhere") != std::string::npos);
  bad.maps = {"nonsense"};
  r.refusal(bad, cp::errc::invalid_argument);
  auto taken = r.opts();
  taken.as = "scout";
  r.refusal(taken, cp::errc::destination_refused);
  taken.as = "Bad-Alias";
  r.refusal(taken, cp::errc::invalid_argument);
  CHECK(r.m().snapshot("/dst") == snap);
}

TEST_CASE("a stale --plan-integrity (install or bundle changed) is refused, nothing written") {
  import_rig r;
  const auto p = r.plan(r.opts());
  r.m().write_file("/dst/config.toml", "schema_version = 3\n# edited\n");
  const auto snap = r.m().snapshot("/dst");
  im::apply_options a;
  a.sync = false;
  try {
    im::apply_import(r.f, r.opts(), p.plan_integrity, a);
    FAIL("applied a stale plan");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::identity_changed);
  }
  CHECK(r.m().snapshot("/dst") == snap);
  // The bundle changed (re-signed, so it still verifies): refused the same way.
  const auto p2 = r.plan(r.opts());
  r.m().remove("/b/workspace/notes/plan.md");
  r.m().remove("/b/zeroclaw-agent.sha256");
  try {
    im::apply_import(r.f, r.opts(), p2.plan_integrity, a);
    FAIL("applied a plan of another bundle");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::identity_changed);
  }
  CHECK(r.m().snapshot("/dst") == snap);
}

TEST_CASE("a bundle that does not verify is refused before anything is planned or written") {
  import_rig r;
  r.m().write_file("/b/workspace/extra.md", "smuggled");
  const auto snap = r.m().snapshot("/dst");
  CHECK(r.refusal(r.opts(), cp::errc::bundle_invalid).find("workspace/extra.md") !=
        std::string::npos);
  CHECK(r.m().snapshot("/dst") == snap);
}

TEST_CASE("a target config that does not validate on its own is refused naming its problem") {
  import_rig r("schema_version = 3\n\n[agents.mine]\nrisk_profile = \"missing\"\n");
  const auto snap = r.m().snapshot("/dst");
  CHECK(r.refusal(r.opts(), cp::errc::config_invalid).find("does not validate on its own") !=
        std::string::npos);
  CHECK(r.m().snapshot("/dst") == snap);
}

TEST_CASE("issue 22 item 20: required secrets survive import then export before they are set") {
  import_rig r;
  r.m().write_file("/dst/config.toml", "schema_version = 3\n", 0600);
  const auto res = r.apply(r.opts());
  CHECK(res.ledger == "/dst/clawport-required-secrets.json");
  CHECK(res.ledger_problem.empty());
  CHECK(r.m().read_file("/dst/clawport-required-secrets.json") ==
        "{\n  \"schemaVersion\": \"clawport.requiredSecrets.v1\",\n  \"configs\": {\n"
        "    \"config.toml\": [\n      \"providers.models.anthropic.main.api_key\"\n    ]\n"
        "  }\n}\n");
  // Exported again before the key is supplied: the blank key is still required, and the
  // bundle verifies without the `secret_unlisted` warning.
  cp::export_options o;
  o.alias = "researcher";
  o.config_path = "/dst/config.toml";
  o.out = "/b2";
  o.sync = false;
  o.token = "export";
  o.exported_at = cp::timestamp{1786493040, 0};
  cp::basic_exporter<cp::fs::memory> ex(r.m());
  const cp::export_result x = ex.run(o);
  CHECK(x.plan.required_secrets ==
        std::vector<std::string>{"providers.models.anthropic.main.api_key"});
  const cp::verify::report rep = cp::verify::verify_bundle(r.m(), "/b2");
  CHECK(rep.ok());
  CHECK(rep.required_secrets == x.plan.required_secrets);
  for (const cp::verify::finding& f : rep.findings) CHECK(f.code != "secret_unlisted");
  // A second import into the same install adds to the ledger and keeps what it held.
  const auto res2 = r.apply(r.opts());
  const std::string ledger = r.m().read_file("/dst/clawport-required-secrets.json");
  CHECK(ledger.find("providers.models.anthropic.main.api_key") != std::string::npos);
  for (const std::string& s : res2.plan.secrets) CHECK(ledger.find(s) != std::string::npos);
}

TEST_CASE("issue 22 item 20: a ledger that is not clawport's document is refused naming it") {
  import_rig r;
  r.apply(r.opts());
  r.m().write_file("/dst/clawport-required-secrets.json", "{\"schemaVersion\": \"other\"}\n");
  cp::export_options o;
  o.alias = "researcher";
  o.config_path = "/dst/config.toml";
  o.out = "/b2";
  o.sync = false;
  cp::basic_exporter<cp::fs::memory> ex(r.m());
  try {
    ex.run(o);
    FAIL("exported");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::config_parse);
    CHECK(e.subject() == "/dst/clawport-required-secrets.json");
  }
  CHECK_FALSE(r.m().exists("/b2"));
}

TEST_CASE("import fault sweep: every operation failing (ENOSPC, EIO) or crashing") {
  std::size_t total = 0;
  std::string integrity;
  {
    import_rig r;
    integrity = r.plan(r.opts()).plan_integrity;
    r.f.reset_counts();
    im::apply_options a;
    a.sync = false;
    im::apply_import(r.f, r.opts(), integrity, a);
    total = r.f.count();
  }
  REQUIRE(total > 20);
  for (int err : {ENOSPC, EIO}) {
    for (std::size_t n = 1; n <= total; ++n) {
      CAPTURE(err);
      CAPTURE(n);
      import_rig r;
      const auto snap = r.m().snapshot("/dst");
      r.f.reset_counts();
      r.f.fail_at(n, err);
      im::apply_options a;
      a.sync = false;
      bool failed = false;
      try {
        im::apply_import(r.f, r.opts(), integrity, a);
      } catch (const cp::error&) {
        failed = true;
      }
      if (failed) CHECK(r.m().snapshot("/dst") == snap);
    }
  }
  // A crash after each operation: the config is the old bytes or the whole new file, and
  // with the old config, removing the leftovers the docs name restores the install.
  for (std::size_t n = 0; n < total; ++n) {
    CAPTURE(n);
    import_rig r;
    const auto snap = r.m().snapshot("/dst");
    r.f.reset_counts();
    r.f.crash_after(n);
    im::apply_options a;
    a.sync = false;
    try {
      im::apply_import(r.f, r.opts(), integrity, a);
    } catch (...) {
    }
    const std::string config = r.m().read_file("/dst/config.toml");
    if (config == "schema_version = 3\n") {
      for (const auto& e : r.m().snapshot("/dst")) {
        const std::string& path = e.first;
        const bool leftover = path.find(".clawport-import-") != std::string::npos ||
                              path.find(".config.toml.tmp-") != std::string::npos ||
                              path.find("config.toml.bak-") != std::string::npos ||
                              path.rfind("agents", 0) == 0 || path.rfind("shared", 0) == 0;
        if (!snap.count(path)) CHECK(leftover);
      }
    } else {
      CHECK(config.find("[agents.researcher]") != std::string::npos);
    }
  }
}
