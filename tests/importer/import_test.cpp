// SPDX-License-Identifier: MIT
// `import`: verify first, plan against the target (renames, reuse, --map, --as), the merged
// config validated, apply only with the plan's integrity (consent), the required-secrets
// ledger, the placed files' modes; every refusal writes nothing.
#include "importer/rig.hpp"

#include <algorithm>
#include <cerrno>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

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

const im::todo_item* todo(const im::import_plan& p, const std::string& group,
                          const std::string& path) {
  for (const auto& t : p.todo)
    if (t.group == group && t.path == path) return &t;
  return nullptr;
}

TEST_CASE("issue 27 item 1: the plan carries the export's to-do list, paths as on the target") {
  const std::string source = R"(schema_version = 3

[providers.models.custom.gw]
uri = "https://llm.internal.example.com/v1"
api_key = "sk-gw-secret"
model = "m1"
tls_ca_cert_path = "/etc/ca/internal-root.pem"

[risk_profiles.guarded]

[channels.telegram.work]
enabled = true

[agents.researcher]
model_provider = "custom.gw"
risk_profile = "guarded"
channels = ["telegram.work"]
)";
  // The target has another `custom.gw`: the incoming one is renamed, and so are the
  // paths of its secret and of its host-local setting.
  import_rig r(
      "schema_version = 3\n\n[providers.models.custom.gw]\nuri = "
      "\"https://other.example.com/v1\"\nmodel = \"m2\"\n",
      {}, source);
  const auto p = r.plan(r.opts());
  REQUIRE(change(p, "model_provider", "custom.gw") != nullptr);
  REQUIRE(change(p, "model_provider", "custom.gw")->action == "rename");
  const std::string renamed = "providers.models.custom.gw_imported";
  const im::todo_item* secret = todo(p, "secret", renamed + ".api_key");
  REQUIRE(secret != nullptr);
  CHECK(secret->kind == "required_secret");
  CHECK(secret->command.str().find(renamed + ".api_key") != std::string::npos);
  const im::todo_item* ca = todo(p, "review", renamed + ".tls_ca_cert_path");
  REQUIRE(ca != nullptr);
  CHECK(ca->kind == "host_path");
  CHECK(ca->detail.find("/etc/ca/internal-root.pem") != std::string::npos);
  const im::todo_item* channels = todo(p, "recreate", "agents.researcher.channels");
  REQUIRE(channels != nullptr);
  CHECK(channels->kind == "host_specific");
  // Grouped in the order the operator works through them, in the text and the JSON: one
  // secret, one setting to review, then what was left behind (the channels among them).
  REQUIRE(p.todo.size() >= 3);
  CHECK(p.todo[0].group == "secret");
  CHECK(p.todo[1].group == "review");
  for (std::size_t i = 2; i < p.todo.size(); ++i) CHECK(p.todo[i].group == "recreate");
  const std::string text = im::render_plan(p);
  CHECK(text.find("1 credential(s) to supply") < text.find("1 host-local setting(s)"));
  CHECK(text.find("1 host-local setting(s)") < text.find("item(s) were left behind"));
  const auto j = im::to_json(p);
  REQUIRE(j["todo"].size() == p.todo.size());
  CHECK(j["todo"][1]["group"] == "review");
  CHECK(j["todo"][1]["path"] == renamed + ".tls_ca_cert_path");
  CHECK_FALSE(j["todo"][1].contains("command"));
  // The result repeats the list after the apply.
  CHECK(im::render_result(r.apply(r.opts())).find("[host_specific] agents.researcher.channels") !=
        std::string::npos);
}

TEST_CASE("issue 27 item 1: a host-local setting of a reused entry is not the operator's to redo") {
  // The target holds the same provider (secrets aside): it is reused, and its CA path is
  // the target's own, so nothing about it is listed.
  const std::string source = R"(schema_version = 3

[providers.models.custom.gw]
uri = "https://llm.internal.example.com/v1"
api_key = "sk-gw-secret"
model = "m1"
tls_ca_cert_path = "/etc/ca/internal-root.pem"

[risk_profiles.guarded]

[agents.researcher]
model_provider = "custom.gw"
risk_profile = "guarded"
)";
  import_rig r(source, {}, source);
  const auto p = r.plan(r.opts());
  REQUIRE(change(p, "model_provider", "custom.gw") != nullptr);
  CHECK(change(p, "model_provider", "custom.gw")->action == "reuse");
  for (const auto& t : p.todo) CHECK(t.path.find("custom.gw") == std::string::npos);
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
    im::apply_import(r.f, r.opts(), cp::plan::consented_to(p.plan_integrity), a);
    FAIL("applied a stale plan");
  } catch (const cp::error& e) {
    // Issue 43: the one consent path of plan/, as `claw add|update|remove` refuse it.
    CHECK(e.code() == cp::errc::plan_integrity_mismatch);
    // Issue 23: the one mismatch rendering of plan/, naming both integrities.
    const auto now = im::plan_import(r.f, r.opts()).plan_integrity;
    CHECK(std::string(e.what()).find(cp::plan::message(
              *cp::plan::check_integrity(p.plan_integrity, now),
              {"import", "the same command without --yes to see the new plan", true, ""})) !=
          std::string::npos);
    CHECK(std::string(e.what()).find(now) != std::string::npos);
  }
  CHECK(r.m().snapshot("/dst") == snap);
  // The bundle changed (re-signed, so it still verifies): refused the same way.
  const auto p2 = r.plan(r.opts());
  r.m().remove("/b/workspace/notes/plan.md");
  r.m().remove("/b/zeroclaw-agent.sha256");
  try {
    im::apply_import(r.f, r.opts(), cp::plan::consented_to(p2.plan_integrity), a);
    FAIL("applied a plan of another bundle");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::plan_integrity_mismatch);
  }
  CHECK(r.m().snapshot("/dst") == snap);
}

TEST_CASE("import consents through plan::consent: no --yes, or no integrity, writes nothing") {
  import_rig r;
  const auto p = r.plan(r.opts());
  const auto snap = r.m().snapshot("/dst");
  im::apply_options a;
  a.sync = false;
  const cp::plan::subject subject{"import", "the same command without --yes to see the new plan",
                                  true, ""};
  for (const cp::plan::consent& c :
       {cp::plan::consent{false, p.plan_integrity}, cp::plan::consent{true, std::nullopt}}) {
    const auto expected = cp::plan::check_given(c);
    REQUIRE(expected);
    try {
      im::apply_import(r.f, r.opts(), c, a);
      FAIL("applied without consent");
    } catch (const cp::error& e) {
      CHECK(e.code() == expected->code());
      CHECK(std::string(e.what()) == cp::plan::message(*expected, subject));
      CHECK(e.subject() == "plan_integrity");
    }
    CHECK(r.m().snapshot("/dst") == snap);
  }
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

TEST_CASE("issue 22 item 7: placed files get the bundle's bits less the umask, never setuid") {
  for (const std::uint32_t umask : {022u, 077u}) {
    CAPTURE(umask);
    import_rig r;
    r.m().chmod("/b/workspace/IDENTITY.md", 0666);
    r.m().chmod("/b/workspace/notes/plan.md", 06777);  // setuid, setgid, world-writable
    r.m().chmod("/b/skills/research_tools/web_search/SKILL.md", 01777);  // sticky
    auto o = r.opts();
    o.umask = umask;
    r.apply(o);
    const auto mode = [&](const char* path) { return r.m().lstat(path)->mode; };
    CHECK(mode("/dst/agents/researcher/workspace/IDENTITY.md") == (0666 & ~umask));
    CHECK(mode("/dst/agents/researcher/workspace/notes/plan.md") == (0777 & ~umask));
    CHECK(mode("/dst/shared/skills/research_tools/web_search/SKILL.md") == (0777 & ~umask));
    CHECK(r.m().read_file("/dst/agents/researcher/workspace/notes/plan.md") == "the plan\n");
  }
}
