// SPDX-License-Identifier: MIT
// `import`: verify first, plan against the target (renames, reuse, --map, --as), the merged
// config validated, apply only with the plan's integrity, config written last and
// append-only; every refusal writes nothing; a fault sweep over every operation.
#include "support/test.hpp"

#include <algorithm>
#include <cerrno>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
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
/// install (/dst) whose config is given. `notes`: more workspace files, in nested
/// directories (for the copies with jobs).
struct import_rig {
  cp::fs::faulty<cp::fs::memory> f;
  cp::fs::memory& m() { return f.inner(); }

  explicit import_rig(const std::string& target_config = "schema_version = 3\n",
                      const cp::fs::memory::options& mo = {}, const std::string& source = kSource,
                      std::size_t notes = 0)
      : f(mo) {
    m().write_file("/src/config.toml", source);
    m().write_file("/src/agents/researcher/workspace/IDENTITY.md", "# researcher\n");
    m().write_file("/src/agents/researcher/workspace/notes/plan.md", "the plan\n");
    for (std::size_t i = 0; i < notes; ++i)
      m().write_file("/src/agents/researcher/workspace/notes/d" + std::to_string(i % 4) + "/n" +
                         std::to_string(i) + ".md",
                     std::string(i * 97 % 5000, static_cast<char>('a' + i % 26)));
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
    return im::apply_import(f, o, cp::plan::consented_to(p.plan_integrity), a);
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
              {"import", "clawport import --dry-run", true})) != std::string::npos);
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
  const cp::plan::subject subject{"import", "clawport import --dry-run", true};
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

TEST_CASE("plan file: the one reader of a plan kept by --plan-out, import's and OpenClaw's") {
  namespace pl = cp::plan;
  CHECK(pl::integrity_in_plan_document(R"({"plan_integrity": "sha256:ab"})", "", "F") ==
        "sha256:ab");
  CHECK(pl::integrity_in_plan_document(
            R"({"schemaVersion": "openclaw.claws.add-plan.v1", "planIntegrity": "sha256:cd"})",
            "openclaw.claws.add-plan.v1", "F") == "sha256:cd");
  for (const char* wrong : {R"({"plan_integrity": "sha256:ab", "schemaVersion": "x"})",
                            R"({"schemaVersion": 1, "plan_integrity": "sha256:ab"})",
                            R"({"plan_integrity": 1})", "[]", "not json"}) {
    CAPTURE(wrong);
    try {
      (void)pl::integrity_in_plan_document(wrong, "", "plan.json");
      FAIL("read a document that is not an import plan");
    } catch (const cp::error& e) {
      CHECK(e.code() == cp::errc::invalid_argument);
      CHECK(e.subject() == "plan.json");
    }
  }
  import_rig r;
  r.m().write_file("/plan.json", R"({"plan_integrity": "sha256:ef"})");
  CHECK(pl::read_plan_file(r.f, "/plan.json", "", "plan.json") == "sha256:ef");
  CHECK_THROWS_AS(pl::read_plan_file(r.f, "/missing.json", "", "missing.json"), cp::error);
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

namespace {

/// Runs `tamper` on the bundle once the apply has verified it again and is about to copy
/// the `nth` tree (its staging directory is being made): the window item 8 closes.
void tamper_before_copy(import_rig& r, std::size_t nth, std::function<void()> tamper) {
  auto seen = std::make_shared<std::size_t>(0);
  r.f.on_op([seen, nth, tamper](cp::fs::memory&, std::string_view op, std::string_view name) {
    if (op == "make_dir_at" && name.rfind(".clawport-import-", 0) == 0 && ++*seen == nth) tamper();
  });
}

/// Plans `r`'s import with `o`, runs `change` (which alters the bundle, or arms a hook that
/// does during the apply), then applies: refused as `identity_changed`, the message holding
/// each of `fragments` (and naming `subject` when given), and /dst as it was (nothing
/// written, nothing lost).
void refused_after_plan(import_rig& r, const im::import_options& o,
                        const std::function<void()>& change,
                        const std::vector<std::string>& fragments,
                        const std::string& subject = {}) {
  const auto p = r.plan(o);
  const auto snap = r.m().snapshot("/dst");
  change();
  im::apply_options a;
  a.sync = false;
  try {
    im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a);
    FAIL("installed bytes the plan and its digest list do not vouch for");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::identity_changed);
    for (const std::string& f : fragments)
      CHECK(std::string(e.what()).find(f) != std::string::npos);
    if (!subject.empty()) CHECK(e.subject() == subject);
  }
  CHECK(r.m().snapshot("/dst") == snap);
}

/// A bundle changed after its verify: refused naming `names`.
void refused_as_changed(import_rig& r, const im::import_options& o,
                        const std::function<void()>& change, const std::string& names) {
  refused_after_plan(r, o, change, {names, "changed after it was verified"});
}

}  // namespace

TEST_CASE("issue 22 item 8: a bundle file changed between verify and copy is never installed") {
  struct tamper_case {
    const char* what;
    std::size_t tree;  // staged in path order: 1 = the skill bundle, 2 = the workspace
    std::function<void(cp::fs::memory&)> act;
    const char* names;
  };
  const std::vector<tamper_case> cases = {
      {"rewritten in place, same size", 1,
       [](cp::fs::memory& m) { m.write_file("/b/workspace/notes/plan.md", "the PLAN\n"); },
       "workspace/notes/plan.md"},
      {"grown", 1,
       [](cp::fs::memory& m) {
         m.write_file("/b/workspace/IDENTITY.md", "# researcher, longer\n");
       },
       "workspace/IDENTITY.md"},
      {"removed", 1, [](cp::fs::memory& m) { m.remove("/b/workspace/notes/plan.md"); },
       "workspace/notes/plan.md"},
      {"a file the list does not name", 1,
       [](cp::fs::memory& m) { m.write_file("/b/workspace/smuggled.sh", "rm -rf ~\n"); },
       "workspace/smuggled.sh"},
      {"the second tree, after the first was staged", 2,
       [](cp::fs::memory& m) { m.write_file("/b/workspace/notes/plan.md", "the PLAN\n"); },
       "workspace/notes/plan.md"},
      {"a skill file, before its tree is staged", 1,
       [](cp::fs::memory& m) {
         m.write_file("/b/skills/research_tools/web_search/SKILL.md", "# evil search\n");
       },
       "skills/research_tools/web_search/SKILL.md"},
  };
  // One thread, then the copy with jobs (issue 25): each tree's files are still checked
  // against the digest list in its order.
  for (const unsigned jobs : {1u, 3u})
    for (const tamper_case& c : cases) {
      CAPTURE(jobs);
      CAPTURE(c.what);
      import_rig r("schema_version = 3\n", {}, kSource, jobs > 1 ? 24 : 0);
      auto o = r.opts();
      o.jobs = jobs;
      refused_as_changed(
          r, o, [&r, &c] { tamper_before_copy(r, c.tree, [&r, &c] { c.act(r.m()); }); }, c.names);
    }
}

TEST_CASE("issue 25: apply reads each bundle file once, checking it as it copies it") {
  import_rig r;
  const auto o = r.opts();
  const auto p = r.plan(o);
  std::map<std::string, int> opened;
  r.f.on_op([&opened](cp::fs::memory&, std::string_view op, std::string_view name) {
    if (op == "open_file_at") ++opened[std::string(name)];
  });
  im::apply_options a;
  a.sync = false;
  im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a);
  CHECK(opened["plan.md"] == 1);  // the verify and the copy were one read
  CHECK(opened["IDENTITY.md"] == 1);
  CHECK(opened["SKILL.md"] == 1);
  CHECK(opened["zeroclaw-agent.toml"] == 1);  // the files verify parses, read by it
  CHECK(r.m().read_file("/dst/agents/researcher/workspace/notes/plan.md") == "the plan\n");
}

TEST_CASE("issue 25: bytes changed after the shown plan, never read before the copy, refused") {
  // The apply's own verify leaves the trees' bytes to the copy (read once): a file rewritten
  // at its size after the plan was shown plans to the same integrity and is caught by the
  // copy (a size that changes changes the plan's integrity: refused before anything).
  struct change_case {
    const char* what;
    std::vector<std::string> maps;  // a mapped skill bundle is not placed, still checked
    const char* path;
    const char* bytes;
  };
  const std::vector<change_case> cases = {
      {"a workspace file, same size", {}, "/b/workspace/notes/plan.md", "the PLAN\n"},
      {"another workspace file", {}, "/b/workspace/IDENTITY.md", "# RESEARCHER\n"},
      {"a placed skill file", {}, "/b/skills/research_tools/web_search/SKILL.md", "# evil searc\n"},
      {"a skill bundle mapped to a local one",
       {"skill_bundle.research_tools=mine"},
       "/b/skills/research_tools/web_search/SKILL.md",
       "# evil searc\n"},
  };
  for (const unsigned jobs : {1u, 3u})
    for (const change_case& c : cases) {
      CAPTURE(jobs);
      CAPTURE(c.what);
      import_rig r("schema_version = 3\n\n[skill_bundles.mine]\n", {}, kSource, jobs > 1 ? 24 : 0);
      auto o = r.opts();
      o.maps = c.maps;
      o.jobs = jobs;
      refused_as_changed(
          r, o, [&r, &c] { r.m().write_file(c.path, c.bytes); }, std::string(c.path).substr(3));
      // Planned again, the full verify refuses the bundle outright.
      try {
        (void)r.plan(o);
        FAIL("a bundle that does not match its digest list was planned");
      } catch (const cp::error& e) {
        CHECK(e.code() == cp::errc::bundle_invalid);
      }
    }
}

TEST_CASE("issue 25: the plan carries the digest of the file stream, not the files") {
  // The canonical text names the bundle's files by the digest of their digest-list lines in
  // path order: for a list clawport wrote, the digest of the list file itself.
  import_rig r;
  const auto p = r.plan(r.opts());
  CHECK(p.files.streamed);
  CHECK(p.files.kept.empty());  // nothing per file held
  const std::string list = r.m().read_file("/b/zeroclaw-agent.sha256");
  CHECK(p.files.sha256 == cp::digest::sha256_hex(list));
  const std::string text = im::detail::canonical(p);
  CHECK(p.plan_integrity == cp::plan::integrity_of(text));
  const auto j = nlohmann::json::parse(text);
  CHECK(j["format"] == "clawport-import-plan-2");
  CHECK(j["files_sha256"] == p.files.sha256);
  CHECK_FALSE(j.contains("files"));
  CHECK(cp::json::dump(j, -1) == text);  // one JSON text, keys in order
  // A list a person wrote in another order names the same stream: the same digest (its
  // entries kept, sorted, to check the copy against), and the import applies.
  {
    import_rig hand;
    std::vector<std::string> lines;
    std::string rest = hand.m().read_file("/b/zeroclaw-agent.sha256");
    for (std::size_t nl; (nl = rest.find('\n')) != std::string::npos; rest.erase(0, nl + 1))
      lines.push_back(rest.substr(0, nl + 1));
    REQUIRE(lines.size() > 2);
    std::string reversed;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) reversed += *it;
    hand.m().write_file("/b/zeroclaw-agent.sha256", reversed);
    const auto q = hand.plan(hand.opts());
    CHECK_FALSE(q.files.streamed);
    CHECK(q.files.kept.size() == lines.size());
    CHECK(q.files.sha256 == p.files.sha256);
    hand.apply(hand.opts());
    CHECK(hand.m().read_file("/dst/agents/researcher/workspace/notes/plan.md") == "the plan\n");
  }
  // A bundle without a list (upstream's): its files as verify hashed them, the same stream.
  {
    import_rig bare;
    bare.m().remove("/b/zeroclaw-agent.sha256");
    const auto q = bare.plan(bare.opts());
    CHECK_FALSE(q.files.streamed);
    CHECK(q.files.sha256 == p.files.sha256);
    bare.apply(bare.opts());
    CHECK(bare.m().read_file("/dst/shared/skills/research_tools/web_search/SKILL.md") ==
          "# web search\n");
  }
}

namespace {

/// The bundle's digest list with `edit` applied to its lines (each with its newline).
void edit_list(cp::fs::memory& m, const std::function<void(std::vector<std::string>&)>& edit) {
  std::vector<std::string> lines;
  std::string rest = m.read_file("/b/zeroclaw-agent.sha256");
  for (std::size_t nl; (nl = rest.find('\n')) != std::string::npos; rest.erase(0, nl + 1))
    lines.push_back(rest.substr(0, nl + 1));
  edit(lines);
  std::string text;
  for (const std::string& l : lines) text += l;
  m.write_file("/b/zeroclaw-agent.sha256", text);
}

std::string list_line(const std::string& path, const std::string& bytes) {
  return cp::digest::sha256_hex(bytes) + "  " + path + "\n";
}

/// Runs `tamper` just before the apply opens the bundle's digest list to copy against it:
/// after as many opens of the list as a plan makes (the apply's own plan).
void tamper_before_list_copy(import_rig& r, const im::import_options& o,
                             std::function<void()> tamper) {
  auto opens = std::make_shared<std::size_t>(0);
  const auto count = [opens](cp::fs::memory&, std::string_view op, std::string_view name) {
    if (op == "open_file_at" && name == "zeroclaw-agent.sha256") ++*opens;
  };
  r.f.on_op(count);
  (void)r.plan(o);
  const std::size_t planned = *opens;
  *opens = 0;
  r.f.on_op([opens, planned, count, tamper](cp::fs::memory& m, std::string_view op,
                                            std::string_view name) {
    count(m, op, name);
    if (op == "open_file_at" && name == "zeroclaw-agent.sha256" && *opens == planned + 1) tamper();
  });
}

}  // namespace

TEST_CASE("issue 25: a digest list rewritten between the apply's verify and its copy is refused") {
  // Each file the copy meets matches its line, but the list is not the stream the plan
  // (and the operator) hashed: refused once the list is read to its end, nothing published.
  struct list_case {
    const char* what;
    std::function<void(cp::fs::memory&)> act;
  };
  const std::vector<list_case> cases = {
      {"a file and its line removed",
       [](cp::fs::memory& m) {
         m.remove("/b/workspace/notes/plan.md");
         edit_list(m, [](std::vector<std::string>& lines) {
           lines.erase(std::remove_if(lines.begin(), lines.end(),
                                      [](const std::string& l) {
                                        return l.find("workspace/notes/plan.md") !=
                                               std::string::npos;
                                      }),
                       lines.end());
         });
       }},
      {"a file and its line added",
       [](cp::fs::memory& m) {
         m.write_file("/b/workspace/notes/extra.md", "more\n");
         edit_list(m, [](std::vector<std::string>& lines) {
           lines.push_back(list_line("workspace/notes/extra.md", "more\n"));
           std::sort(lines.begin(), lines.end(), [](const std::string& a, const std::string& b) {
             return a.substr(66) < b.substr(66);
           });
         });
       }},
      {"a file rewritten and its line with it",
       [](cp::fs::memory& m) {
         m.write_file("/b/workspace/IDENTITY.md", "# evil\n");
         edit_list(m, [](std::vector<std::string>& lines) {
           for (std::string& l : lines)
             if (l.find("workspace/IDENTITY.md") != std::string::npos)
               l = list_line("workspace/IDENTITY.md", "# evil\n");
         });
       }},
      {"a line of a file at the root changed",
       [](cp::fs::memory& m) {
         edit_list(m, [](std::vector<std::string>& lines) {
           for (std::string& l : lines)
             if (l.find("  config.toml") != std::string::npos) l = list_line("config.toml", "x");
         });
       }},
  };
  for (const list_case& c : cases) {
    CAPTURE(c.what);
    import_rig r;
    const auto o = r.opts();
    refused_after_plan(
        r, o, [&r, &o, &c] { tamper_before_list_copy(r, o, [&r, &c] { c.act(r.m()); }); },
        {"not the one the plan was made with"}, "zeroclaw-agent.sha256");
    im::apply_options a;
    a.sync = false;
    // The same change before the apply's verify: the plan itself changed, refused before
    // anything is copied.
    import_rig early;
    const auto q = early.plan(o);
    c.act(early.m());
    const auto before = early.m().snapshot("/dst");
    try {
      im::apply_import(early.f, o, cp::plan::consented_to(q.plan_integrity), a);
      FAIL("applied a plan of another bundle");
    } catch (const cp::error& e) {
      CHECK(
          (e.code() == cp::errc::plan_integrity_mismatch || e.code() == cp::errc::bundle_invalid));
    }
    CHECK(early.m().snapshot("/dst") == before);
  }
}

TEST_CASE("issue 22 item 9: a reuse that lends the target's credential is a capability grant") {
  import_rig r;
  const auto p = r.plan(r.opts("/src/config.toml"));  // the install it came from: key set
  REQUIRE(change(p, "model_provider", "anthropic.main")->action == "reuse");
  REQUIRE(change(p, "risk_profile", "guarded")->action == "reuse");
  std::vector<const cp::verify::finding*> grants;
  for (const auto& f : p.risk_flags)
    if (f.code == "reuses_credential") grants.push_back(&f);
  REQUIRE(grants.size() == 1);  // the risk profile holds no credential
  CHECK(grants[0]->path == "providers.models.anthropic.main");
  CHECK(grants[0]->detail.find("api_key") != std::string::npos);
  CHECK(grants[0]->detail.find("sk-ant") == std::string::npos);  // never the secret itself
  const std::string text = im::render_plan(p);
  CHECK(text.find("capability grant(s) to accept") != std::string::npos);
  CHECK(text.find("reuses_credential providers.models.anthropic.main") != std::string::npos);
  bool in_json = false;
  const auto doc = im::to_json(p);
  for (const auto& f : doc["risk_flags"])
    in_json |= f["kind"] == "reuses_credential" && f["path"] == "providers.models.anthropic.main";
  CHECK(in_json);
  // The integrity covers every grant: a plan showing fewer grants hashes differently.
  auto fewer = p;
  fewer.risk_flags.clear();
  CHECK(im::detail::canonical(fewer) != im::detail::canonical(p));
  // A target entry without a credential lends none.
  import_rig blank(
      "schema_version = 3\n\n[providers.models.anthropic.main]\nmodel = "
      "\"claude-opus-5\"\n");
  const auto q = blank.plan(blank.opts());
  CHECK(change(q, "model_provider", "anthropic.main")->action == "reuse");
  for (const auto& f : q.risk_flags) CHECK(f.code != "reuses_credential");
}

namespace {

/// A target whose agent `other` has its workspace at `path` (not created).
std::string other_agent(const std::string& path) {
  return "schema_version = 3\n\n[providers.models.openai.other]\nmodel = \"gpt\"\n\n"
         "[risk_profiles.calm]\n\n[agents.other]\nmodel_provider = \"openai.other\"\n"
         "risk_profile = \"calm\"\n\n[agents.other.workspace]\n"
         "path = \"" +
         path + "\"\n";
}

}  // namespace

TEST_CASE(
    "issue 22 item 11: another agent's configured workspace counts as taken, created or not") {
  for (const std::string& path :
       {std::string("agents/researcher/workspace"), std::string("/dst/agents/researcher/workspace"),
        std::string("/dst/agents/researcher"), std::string("agents/researcher/workspace/inner")}) {
    CAPTURE(path);
    import_rig r(other_agent(path));
    const auto p = r.plan(r.opts());
    CHECK(p.alias == "researcher_imported");
    REQUIRE_FALSE(p.placements.empty());
    CHECK(p.placements[0].to == "agents/researcher_imported/workspace");
    auto as = r.opts();
    as.as = "researcher";
    const auto snap = r.m().snapshot("/dst");
    CHECK(r.refusal(as, cp::errc::destination_refused).find("assigns to another agent") !=
          std::string::npos);
    CHECK(r.m().snapshot("/dst") == snap);
  }
  // A skill bundle's configured directory too.
  import_rig r(
      "schema_version = 3\n\n[skill_bundles.mine]\ndirectory = "
      "\"shared/skills/research_tools\"\n");
  const auto p = r.plan(r.opts());
  CHECK(change(p, "skill_bundle", "research_tools")->to == "research_tools_imported");
}

TEST_CASE("issue 22 item 14: a linked or file agents/ or shared/ is refused, the search bounded") {
  struct layout {
    const char* what;
    std::function<void(cp::fs::memory&)> make;
    const char* names;
  };
  const std::vector<layout> layouts = {
      {"agents/ a symlink",
       [](cp::fs::memory& m) {
         m.mkdirs("/elsewhere");
         m.symlink("/dst/agents", "/elsewhere");
       },
       "/dst/agents is a symlink"},
      {"agents/ a file", [](cp::fs::memory& m) { m.write_file("/dst/agents", "x"); },
       "/dst/agents is not a directory"},
      {"shared/ a symlink",
       [](cp::fs::memory& m) {
         m.mkdirs("/elsewhere");
         m.symlink("/dst/shared", "/elsewhere");
       },
       "/dst/shared is a symlink"},
      {"shared/skills a file", [](cp::fs::memory& m) { m.write_file("/dst/shared/skills", "x"); },
       "/dst/shared/skills is not a directory"},
  };
  for (const layout& l : layouts) {
    CAPTURE(l.what);
    import_rig r;
    l.make(r.m());
    const auto snap = r.m().snapshot("/");
    try {
      r.plan(r.opts());  // the dry run plans exactly this
      FAIL("planned through a link or a file");
    } catch (const cp::error& e) {
      CHECK(e.code() == cp::errc::unsafe_path);
      CHECK(std::string(e.what()).find(l.names) != std::string::npos);
    }
    CHECK(r.m().snapshot("/") == snap);
  }
  // Every search for a free name ends: a target where every candidate is taken.
  import_rig r(other_agent("agents"));
  try {
    r.plan(r.opts());
    FAIL("the search did not end");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::limit_exceeded);
    CHECK(std::string(e.what()).find("no free name for the agent `researcher`") !=
          std::string::npos);
  }
}

TEST_CASE("issue 22 item 17: a re-run of a killed import recognises its own leftovers") {
  import_rig r;
  const auto o = r.opts();
  const auto p = r.plan(o);
  const std::string token = p.plan_integrity.substr(7, 12);
  // What kill -9 during the copy leaves: half-copied staging trees beside both places.
  const std::string ws = "/dst/agents/researcher/.clawport-import-" + token + "-workspace";
  const std::string sk = "/dst/shared/skills/.clawport-import-" + token + "-research_tools";
  r.m().write_file(ws + "/IDENTITY.md", "# resea");
  r.m().write_file(sk + "/web_search/SKILL.md", "");
  CHECK(r.plan(o).plan_integrity == p.plan_integrity);  // leftovers do not change the plan
  im::apply_options a;
  a.sync = false;
  const auto res = im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a);
  // In the order the trees are staged: their bundle paths' (skills/ before workspace/).
  CHECK(res.recovered ==
        std::vector<std::string>{"shared/skills/.clawport-import-" + token + "-research_tools",
                                 "agents/researcher/.clawport-import-" + token + "-workspace"});
  CHECK(r.m().read_file("/dst/agents/researcher/workspace/IDENTITY.md") == "# researcher\n");
  for (const auto& e : r.m().snapshot("/dst"))
    CHECK(e.first.find(".clawport-import-") == std::string::npos);
  CHECK(im::render_result(res).find("left by an earlier run of this plan that was killed") !=
        std::string::npos);

  // A staging directory another run of this plan holds locked is never touched.
  import_rig busy;
  busy.m().write_file(ws + "/IDENTITY.md", "# resea");
  auto parent = busy.m().open_root("/dst/agents/researcher");
  auto held = busy.m().open_dir_at(parent, ".clawport-import-" + token + "-workspace");
  REQUIRE(busy.m().try_lock(held));
  const auto snap = busy.m().snapshot("/dst");
  try {
    im::apply_import(busy.f, o, cp::plan::consented_to(p.plan_integrity), a);
    FAIL("worked in a staging directory another run holds");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::destination_refused);
    CHECK(std::string(e.what()).find("another import of this plan is running") !=
          std::string::npos);
  }
  CHECK(busy.m().snapshot("/dst") == snap);
}

TEST_CASE("issue 22 item 17: fault sweep of a re-run that removes a killed run's leftovers") {
  std::size_t total = 0;
  std::string integrity;
  std::string left;
  const auto with_leftover = [&](import_rig& r) {
    r.m().write_file(left + "/IDENTITY.md", "# resea");
    r.m().write_file(left + "/notes/plan.md", "");
  };
  {
    import_rig r;
    integrity = r.plan(r.opts()).plan_integrity;
    left = "/dst/agents/researcher/.clawport-import-" + integrity.substr(7, 12) + "-workspace";
    with_leftover(r);
    r.f.reset_counts();
    im::apply_options a;
    a.sync = false;
    CHECK(im::apply_import(r.f, r.opts(), cp::plan::consented_to(integrity), a).recovered.size() ==
          1);
    total = r.f.count();
  }
  for (std::size_t n = 1; n <= total; ++n) {
    CAPTURE(n);
    import_rig r;
    with_leftover(r);
    auto snap = r.m().snapshot("/dst");
    r.f.reset_counts();
    r.f.fail_at(n, EIO);
    im::apply_options a;
    a.sync = false;
    try {
      im::apply_import(r.f, r.opts(), cp::plan::consented_to(integrity), a);
      continue;
    } catch (const cp::error&) {
    }
    // Failed: the install as it was, but for the leftover, which may be gone.
    auto after = r.m().snapshot("/dst");
    const std::string rel = left.substr(5);  // below /dst
    for (auto* m : {&snap, &after})
      for (auto it = m->begin(); it != m->end();)
        it = it->first.rfind(rel, 0) == 0 ? m->erase(it) : std::next(it);
    CHECK(after == snap);
  }
}

/// The import fault sweep of a bundle with `notes` more files, copied on `jobs` threads (on
/// several, the points `swept` picks).
void import_sweep(unsigned jobs, std::size_t notes) {
  CAPTURE(jobs);
  const auto opts = [jobs](import_rig& r) {
    auto o = r.opts();
    o.jobs = jobs;
    return o;
  };
  std::size_t total = 0;
  std::string integrity;
  {
    import_rig r("schema_version = 3\n", {}, kSource, notes);
    integrity = r.plan(opts(r)).plan_integrity;
    r.f.reset_counts();
    im::apply_options a;
    a.sync = false;
    im::apply_import(r.f, opts(r), cp::plan::consented_to(integrity), a);
    total = r.f.count();
  }
  REQUIRE(total > 20);
  for (int err : {ENOSPC, EIO}) {
    for (std::size_t n = 1; n <= total; ++n) {
      if (!cp::testing::swept(n, jobs)) continue;
      CAPTURE(err);
      CAPTURE(n);
      import_rig r("schema_version = 3\n", {}, kSource, notes);
      const auto snap = r.m().snapshot("/dst");
      r.f.reset_counts();
      r.f.fail_at(n, err);
      im::apply_options a;
      a.sync = false;
      bool failed = false;
      try {
        im::apply_import(r.f, opts(r), cp::plan::consented_to(integrity), a);
      } catch (const cp::error&) {
        failed = true;
      }
      if (failed) CHECK(r.m().snapshot("/dst") == snap);
    }
  }
  // A crash after each operation: the config is the old bytes or the whole new file, and
  // with the old config, removing the leftovers the docs name restores the install.
  for (std::size_t n = 0; n < total; ++n) {
    if (!cp::testing::swept(n, jobs)) continue;
    CAPTURE(n);
    import_rig r("schema_version = 3\n", {}, kSource, notes);
    const auto snap = r.m().snapshot("/dst");
    r.f.reset_counts();
    r.f.crash_after(n);
    im::apply_options a;
    a.sync = false;
    try {
      im::apply_import(r.f, opts(r), cp::plan::consented_to(integrity), a);
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
    // Item 17: the same command, run again, recognises what the killed run left: it
    // applies, or (trees already published) refuses the changed plan; never "File exists".
    r.f.clear_crash();
    try {
      im::apply_import(r.f, opts(r), cp::plan::consented_to(integrity), a);
      for (const auto& e : r.m().snapshot("/dst"))
        CHECK(e.first.find(".clawport-import-") == std::string::npos);
    } catch (const cp::error& e) {
      CAPTURE(e.what());
      CHECK(e.code() == cp::errc::plan_integrity_mismatch);  // the plan changed: plan/'s refusal
    }
  }
}

TEST_CASE("import fault sweep: every operation failing (ENOSPC, EIO) or crashing") {
  import_sweep(1, 0);
}

TEST_CASE("issue 25: import fault sweep with jobs: the copies on 3 threads fail cleanly too") {
  import_sweep(3, 12);
}

TEST_CASE("issue 25: an import with jobs is the import of one thread") {
  // Plan (text, JSON, integrity), result (text, JSON) and the installed tree of N threads
  // are those of one.
  struct outcome {
    std::string plan_json, plan_text, integrity, result_json, result_text;
    std::map<std::string, std::string> installed;  ///< memory::snapshot: with the bytes
  };
  const auto run = [](unsigned jobs) {
    import_rig r("schema_version = 3\n", {}, kSource, 40);
    auto o = r.opts();
    o.jobs = jobs;
    const auto p = r.plan(o);
    im::apply_options a;
    a.sync = false;
    const auto res = im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a);
    return outcome{im::to_json(p).dump(),   im::render_plan(p),     p.plan_integrity,
                   im::to_json(res).dump(), im::render_result(res), r.m().snapshot("/dst")};
  };
  const outcome one = run(1);
  CHECK(one.installed.size() > 40);
  for (const unsigned jobs : {2u, 4u}) {
    CAPTURE(jobs);
    const outcome many = run(jobs);
    CHECK(many.plan_json == one.plan_json);
    CHECK(many.plan_text == one.plan_text);
    CHECK(many.integrity == one.integrity);
    CHECK(many.result_json == one.result_json);
    CHECK(many.result_text == one.result_text);
    CHECK(many.installed == one.installed);
  }
}

TEST_CASE("issue 23: an empty directory an import replaced is put back with its own mode") {
  // The undo journal restores what the import removed as it was: the old rollback of a
  // published tree made the empty directory again with 0755.
  import_rig r;
  r.m().mkdirs("/dst/agents/researcher/workspace", 0700);
  const auto o = r.opts();
  const auto p = r.plan(o);
  const auto snap = r.m().snapshot("/dst");
  im::apply_options a;
  a.sync = false;
  a.before_config = [] { throw cp::error(cp::errc::io, "injected", "config.toml"); };
  CHECK_THROWS_AS(im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a), cp::error);
  CHECK(r.m().snapshot("/dst") == snap);
  REQUIRE(r.m().lstat("/dst/agents/researcher/workspace"));
  CHECK(r.m().lstat("/dst/agents/researcher/workspace")->mode == 0700);
}

TEST_CASE("issue 23: a directory appearing at a place before it is published is never replaced") {
  // Without renameat2 the publish probes before its plain rename (publish::rename_noreplace):
  // the old import renamed over an empty directory that appeared after staging.
  cp::fs::memory::options mo;
  mo.rename2_supported = false;
  import_rig r("schema_version = 3\n", mo);
  const auto o = r.opts();
  const auto p = r.plan(o);
  r.f.on_op([](cp::fs::memory& m, std::string_view op, std::string_view name) {
    const std::string_view tail = "-> workspace";
    if (op == "rename_at" && name.size() > tail.size() &&
        name.substr(name.size() - tail.size()) == tail)
      m.mkdirs("/dst/agents/researcher/workspace");
  });
  im::apply_options a;
  a.sync = false;
  try {
    im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a);
    FAIL("published over a directory that appeared");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::destination_refused);
    CHECK(std::string(e.what()) ==
          "agents/researcher/workspace appeared since the import was planned; nothing was "
          "written");
  }
  CHECK(r.m().read_file("/dst/config.toml") == "schema_version = 3\n");
  CHECK(r.m().snapshot("/dst/agents/researcher") ==
        std::map<std::string, std::string>{{"workspace", "d"}});
  CHECK_FALSE(r.m().exists("/dst/shared"));
}

TEST_CASE("issue 27 item 2: status after an import: provenance, blank secrets, nothing written") {
  import_rig r;
  const auto p = r.plan(r.opts());
  r.apply(r.opts());
  const auto before = r.m().snapshot("/dst");
  const im::install_status st = im::read_status(r.f, "/dst/config.toml");
  CHECK(r.m().snapshot("/dst") == before);
  REQUIRE(st.agents.size() == 1);
  CHECK(st.agents[0].alias == "researcher");
  REQUIRE(st.agents[0].imported.has_value());
  CHECK(st.agents[0].imported->manifest_sha256 == cp::digest::prefixed(p.manifest_sha256));
  CHECK(st.agents[0].imported->source_alias == "researcher");
  CHECK(st.agents[0].imported->bundle == "/b");
  CHECK(st.agents[0].imported->producer == p.producer);
  REQUIRE(st.blank_secrets.size() == 1);
  CHECK(st.blank_secrets[0].path == "providers.models.anthropic.main.api_key");
  CHECK(st.blank_secrets[0].source == "import");
  CHECK_FALSE(st.invalid);
  CHECK(st.leftovers.empty());
  CHECK(st.pending());

  // Supplied: nothing pending.
  std::string config = r.m().read_file("/dst/config.toml");
  const std::size_t blank = config.find("api_key = \"\"");
  REQUIRE(blank != std::string::npos);
  config.replace(blank, 12, "api_key = \"sk-set\"");
  r.m().write_file("/dst/config.toml", config);
  CHECK_FALSE(im::read_status(r.f, "/dst/config.toml").pending());
}

TEST_CASE("issue 27 item 2: status lists leftovers with their recover line, not look-alikes") {
  import_rig r;
  r.m().mkdirs("/dst/agents/a/.clawport-import-0123456789ab-workspace");
  r.m().mkdirs("/dst/agents/.clawport-import-notatoken");  // not a name an import makes
  r.m().write_file("/dst/.config.toml.tmp-AbC123", "x");
  r.m().write_file("/dst/.notes.tmp-AbC123", "x");  // beside some other file: not ours
  const im::install_status st = im::read_status(r.f, "/dst/config.toml");
  REQUIRE(st.leftovers.size() == 2);
  CHECK(st.leftovers[0].path == "/dst/.config.toml.tmp-AbC123");
  CHECK(st.leftovers[0].command.str() == "clawport recover /dst/config.toml");
  CHECK(st.leftovers[1].path == "/dst/agents/a/.clawport-import-0123456789ab-workspace");
  CHECK(st.leftovers[1].command.str() == "clawport recover /dst/agents/a/workspace");
  CHECK(st.pending());
}

TEST_CASE("issue 27 item 2: status of an invalid config names the problem; no config refused") {
  import_rig r(
      "schema_version = 3\n\n# Imported by clawport by hand: agent `mine`\n"
      "[agents.mine]\nrisk_profile = \"missing\"\n");
  const im::install_status st = im::read_status(r.f, "/dst/config.toml");
  REQUIRE(st.invalid.has_value());
  CHECK(st.invalid->path.rfind("agents.mine.", 0) == 0);
  REQUIRE(st.agents.size() == 1);
  CHECK_FALSE(st.agents[0].imported.has_value());  // a hand-written look-alike is not read
  CHECK(st.pending());
  CHECK(im::to_json(st)["valid"] == false);
  try {
    (void)im::read_status(r.f, "/dst/none.toml");
    FAIL("a missing config was accepted");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::not_found);
  }
}

/// A stand-in for the cipher policy in unit tests, so they need no libsodium: the real one
/// is checked by tests/cli/secrets.sh against an independent decryptor. "Sealing" reverses
/// the text and appends a zero tag; random bytes count up.
struct fake_cipher {
  static constexpr std::size_t key_bytes = 32;
  static constexpr std::size_t nonce_bytes = 12;
  unsigned char next = 0;
  void random(unsigned char* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = next++;
  }
  std::string seal(std::string_view plain, const unsigned char*, const unsigned char*) {
    return std::string(plain.rbegin(), plain.rend()) + std::string(16, '\0');
  }
};

std::string hex_of(std::string_view bytes) {
  static constexpr char d[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    out += d[static_cast<unsigned char>(c) >> 4];
    out += d[static_cast<unsigned char>(c) & 0xF];
  }
  return out;
}

TEST_CASE("issue 27 item 3: secrets set writes enc2: in place, creates the key, keeps the rest") {
  import_rig r;
  r.apply(r.opts());
  r.m().chmod("/dst/config.toml", 0640);
  const std::string before = r.m().read_file("/dst/config.toml");
  const std::string path = "providers.models.anthropic.main.api_key";
  CHECK(im::list_secrets(cp::zeroclaw::parse_toml(before, "c"))[0].state ==
        im::secret_state::blank);
  fake_cipher cipher;
  const auto res =
      im::set_secret(r.f, cipher, "/dst/config.toml", path, "sk-1", cp::timestamp{1786600000, 0});
  CHECK(res.stored == im::secret_state::encrypted);
  CHECK(res.key_created);
  // The key: 32 random bytes (0..31 here) as hex, mode 0600; the nonce the next 12.
  std::string key_bytes, nonce_bytes;
  for (int i = 0; i < 32; ++i) key_bytes += static_cast<char>(i);
  for (int i = 32; i < 44; ++i) nonce_bytes += static_cast<char>(i);
  CHECK(r.m().read_file("/dst/.secret_key") == hex_of(key_bytes));
  CHECK(r.m().lstat("/dst/.secret_key")->mode == 0600);
  const std::string stored =
      "enc2:" + hex_of(nonce_bytes) + hex_of(std::string("1-ks") + std::string(16, '\0'));
  // Only the value's bytes changed; mode kept; the previous bytes kept as the backup.
  std::string expected = before;
  const std::size_t at = expected.find("api_key = \"\"");
  REQUIRE(at != std::string::npos);
  expected.replace(at, 12, "api_key = \"" + stored + "\"");
  CHECK(r.m().read_file("/dst/config.toml") == expected);
  CHECK(r.m().lstat("/dst/config.toml")->mode == 0640);
  CHECK(r.m().read_file(res.backup) == before);
  const auto listed = im::list_secrets(cp::zeroclaw::parse_toml(expected, "c"));
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].state == im::secret_state::encrypted);

  // A second secret reuses the key (not created again).
  const auto again =
      im::set_secret(r.f, cipher, "/dst/config.toml", path, "sk-2", cp::timestamp{1786600001, 0});
  CHECK_FALSE(again.key_created);
  CHECK(r.m().read_file("/dst/.secret_key") == hex_of(key_bytes));
}

TEST_CASE("issue 27 item 3: a reference is kept, plain text where encrypt = false, no key") {
  import_rig r(
      "schema_version = 3\n\n[secrets]\nencrypt = false\n\n"
      "[providers.models.anthropic.work]\napi_key = ''  # later\nmodel = \"m\"\n");
  fake_cipher cipher;
  const std::string path = "providers.models.anthropic.work.api_key";
  im::set_secret(r.f, cipher, "/dst/config.toml", path, "sk \"q\"", cp::timestamp{1786600000, 0});
  CHECK(r.m().read_file("/dst/config.toml").find("api_key = \"sk \\\"q\\\"\"  # later\n") !=
        std::string::npos);
  const auto ref = im::set_secret(r.f, cipher, "/dst/config.toml", path, "op://v/i/f",
                                  cp::timestamp{1786600001, 0});
  CHECK(ref.stored == im::secret_state::reference);
  CHECK(r.m().read_file("/dst/config.toml").find("api_key = \"op://v/i/f\"  # later\n") !=
        std::string::npos);
  CHECK_FALSE(r.m().lstat("/dst/.secret_key").has_value());
}

// Issue 43 item 6: `secrets list` only reads, so it follows a symlinked config (as export
// and the skills commands do); `secrets set` replaces it, so it refuses one, naming why.
TEST_CASE("secrets list follows a symlinked config; secrets set refuses it, writing nothing") {
  import_rig r;
  r.apply(r.opts());
  const std::string text = r.m().read_file("/dst/config.toml");
  r.m().write_file("/real.toml", text);
  r.m().remove("/dst/config.toml");
  r.m().symlink("/dst/config.toml", "/real.toml");
  const auto listed = im::read_secrets(r.f, "/dst/config.toml");
  REQUIRE_FALSE(listed.empty());
  CHECK(listed[0].path == im::list_secrets(cp::zeroclaw::parse_toml(text, "c"))[0].path);
  const auto snap = r.m().snapshot("/");
  fake_cipher cipher;
  try {
    im::set_secret(r.f, cipher, "/dst/config.toml", listed[0].path, "sk-1", cp::timestamp{1, 0});
    FAIL("replaced a symlinked config");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::unsafe_path);
  }
  CHECK(r.m().snapshot("/") == snap);
  // Absent, both name the one missing-config refusal.
  CHECK_THROWS_WITH(im::read_secrets(r.f, "/none/config.toml"),
                    cp::zeroclaw::missing_config_error("/none/config.toml").what());
}

TEST_CASE("issue 27 item 3: secrets set refusals write nothing") {
  import_rig r(
      "schema_version = 3\n\n[providers.models.anthropic.work]\n"
      "api_key = \"\"\"\n\"\"\"\nmodel = \"m\"\n\n"
      "[providers.models.anthropic.main]\napi_key = \"\"\nmodel = \"m\"\n");
  fake_cipher cipher;
  const auto before = r.m().snapshot("/dst");
  const auto refused = [&](const std::string& path, const std::string& value, cp::errc want) {
    try {
      im::set_secret(r.f, cipher, "/dst/config.toml", path, value, cp::timestamp{1786600000, 0});
      FAIL("accepted " << path);
    } catch (const cp::error& e) {
      CHECK(e.code() == want);
    }
    CHECK(r.m().snapshot("/dst") == before);
  };
  refused("providers.models.anthropic.main.api_key", "", cp::errc::invalid_argument);
  refused("providers.models.anthropic.main.api_key", "enc2:00", cp::errc::invalid_argument);
  refused("providers.models.anthropic.main.model", "x", cp::errc::not_found);
  refused("providers.models.anthropic.nope.api_key", "x", cp::errc::not_found);
  // A multi-line string: clawport cannot replace just its value.
  refused("providers.models.anthropic.work.api_key", "x", cp::errc::config_invalid);
  r.m().write_file("/dst/.secret_key", "not hex\n", 0600);
  const auto with_bad_key = r.m().snapshot("/dst");
  try {
    im::set_secret(r.f, cipher, "/dst/config.toml", "providers.models.anthropic.main.api_key", "x",
                   cp::timestamp{1786600000, 0});
    FAIL("a bad key file was accepted");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::config_invalid);
  }
  CHECK(r.m().snapshot("/dst") == with_bad_key);
}

TEST_CASE("issue 44 item 8: secrets set adds a missing api_key line; no backup when asked") {
  import_rig r(
      "schema_version = 3\n\n[providers.models.openai.main]\nmodel = \"m\"\n\n"
      "[providers.models.anthropic.main]\napi_key = \"\"\nmodel = \"m\"\n");
  const std::string path = "providers.models.openai.main.api_key";
  // Not listed (status does not count an absent optional key as blank), yet a secret field.
  const std::string before = r.m().read_file("/dst/config.toml");
  for (const auto& e : im::list_secrets(cp::zeroclaw::parse_toml(before, "c")))
    CHECK(e.path != path);
  CHECK_NOTHROW(im::require_secret_field(r.f, "/dst/config.toml", path));
  fake_cipher cipher;
  const auto res = im::set_secret(r.f, cipher, "/dst/config.toml", path, "sk-1",
                                  cp::timestamp{1786600000, 0}, false);
  CHECK(res.backup.empty());  // keep_backup false: the caller kept one for its run
  const std::string after = r.m().read_file("/dst/config.toml");
  CHECK(after.find("[providers.models.openai.main]\napi_key = \"enc2:") != std::string::npos);
  CHECK(after.find("model = \"m\"") != std::string::npos);
  bool listed = false;
  for (const auto& e : im::list_secrets(cp::zeroclaw::parse_toml(after, "c")))
    listed = listed || (e.path == path && e.state == im::secret_state::encrypted);
  CHECK(listed);
  CHECK_FALSE(r.m().exists(
      "/dst/" + cp::zeroclaw::config_backup_name("config.toml", cp::timestamp{1786600000, 0})));
  // A field the schema does not mark secret is still refused.
  CHECK_THROWS_AS(
      im::require_secret_field(r.f, "/dst/config.toml", "providers.models.openai.main.nope"),
      cp::error);
}

TEST_CASE("issue 41 items 11, 12, 14: the field first, no second key, channel tokens listed") {
  import_rig r(
      "schema_version = 3\n\n[providers.models.anthropic.main]\n"
      "api_key = \"enc2:00112233\"\nmodel = \"m\"\n\n[providers.models.openai.cheap]\n"
      "api_key = \"\"\nmodel = \"m\"\n\n[channels.telegram.work]\nenabled = true\nbot_token = "
      "\"\"\n");
  fake_cipher cipher;
  const auto before = r.m().snapshot("/dst");
  // 12: a wrong field is named even with an empty value (it is checked first).
  try {
    im::require_secret_field(r.f, "/dst/config.toml", "providers.nope.api_key");
    FAIL("a wrong field was accepted");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::not_found);
    CHECK(e.subject() == "providers.nope.api_key");
  }
  try {
    im::set_secret(r.f, cipher, "/dst/config.toml", "providers.nope.api_key", "",
                   cp::timestamp{1786600000, 0});
    FAIL("a wrong field was accepted");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::not_found);
  }
  // 11: enc2: values and no key: refused naming the key file; no key made.
  try {
    im::set_secret(r.f, cipher, "/dst/config.toml", "providers.models.openai.cheap.api_key", "x",
                   cp::timestamp{1786600000, 0});
    FAIL("a second key was made");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::not_found);
    CHECK(e.subject() == "/dst/.secret_key");
    CHECK(std::string(e.what()).find("1 value(s) of the config are encrypted") == 0);
  }
  CHECK(r.m().snapshot("/dst") == before);
  const im::install_status st = im::read_status(r.f, "/dst/config.toml");
  CHECK(st.encrypted_without_key == 1);
  CHECK(st.pending());
  CHECK(im::render_status(st).find("1 value(s) are encrypted and the key is missing") !=
        std::string::npos);
  // 14: the blank channel token is a secret field for list, set and status alike.
  bool listed = false;
  for (const auto& e :
       im::list_secrets(cp::zeroclaw::parse_toml(r.m().read_file("/dst/config.toml"), "c")))
    listed |= e.path == "channels.telegram.work.bot_token" && e.state == im::secret_state::blank;
  CHECK(listed);
  bool reported = false;
  for (const auto& b : st.blank_secrets) reported |= b.path == "channels.telegram.work.bot_token";
  CHECK(reported);
}
