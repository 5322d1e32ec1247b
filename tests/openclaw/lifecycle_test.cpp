// SPDX-License-Identifier: MIT
// The OpenClaw write side offline: `claw add` (consent, plan-integrity recompute, staged
// materialization, the adopt rule, the ledger, openclaw.json keep-or-refuse), `claw
// status` (drift) and `claw remove`, on fs::memory (the fixture: lifecycle_fixture.hpp), with
// fs::faulty sweeps proving that a failing add leaves nothing behind and a failing remove leaves
// the ledger consistent with the disk. Test names follow openclaw-claws.md §9 where an upstream
// test exists.
#include "openclaw/lifecycle_fixture.hpp"
#include "openclaw/plan_documents.hpp"
#include "support/test.hpp"

#include <cerrno>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace lifecycle_fixture;  // NOLINT: the shared fixture's names, as they were here

TEST_SUITE("openclaw lifecycle") {
  TEST_CASE("creates canonical bootstrap and supporting files and records their hashes") {
    memory m;
    package(m);
    const auto r = add_consented(m);
    INFO(oc::to_json(r).dump());
    REQUIRE(r.ok);
    CHECK(oc::to_json(r)["schemaVersion"] == "openclaw.clawAddResult.v1");
    CHECK(oc::to_json(r)["status"] == "complete");
    CHECK(m.read_file(ws + "/AGENTS.md") == "agents\n");
    CHECK(m.read_file(ws + "/ref/policy.md") == "policy\n");
    const value rec = ledger_of(m)["installs"]["demo"];
    CHECK(rec["status"] == "complete");
    CHECK(rec["workspaceOrigin"] == "created");
    CHECK(rec["claw"]["name"] == "demo-claw");
    CHECK(rec["planIntegrity"] == oc::to_json(r)["planIntegrity"]);
    REQUIRE(rec["workspaceFiles"].size() == 3);
    CHECK(rec["workspaceFiles"][1]["path"] == "AGENTS.md");
    CHECK(rec["workspaceFiles"][1]["sourcePath"] == "ws/AGENTS.md");
    CHECK(rec["workspaceFiles"][1]["contentDigest"] == oc::sha256_digest("agents\n"));
    CHECK(rec["workspaceFiles"][1]["status"] == "complete");
    CHECK(rec["addedAt"] == now);
    // No staging directory is left beside the workspace.
    for (const auto& e : m.snapshot("/state"))
      CHECK(e.first.find(".clawport-claw-") == std::string::npos);
  }

  TEST_CASE("materializes the CLAW.md body as managed SOUL.md content") {
    memory m;
    package(m, "You are calm.\n");
    REQUIRE(add_consented(m).ok);
    CHECK(m.read_file(ws + "/SOUL.md") == "You are calm.\n");
    const value rec = ledger_of(m)["installs"]["demo"];
    CHECK(rec["workspaceFiles"][0]["path"] == "SOUL.md");
    CHECK(rec["workspaceFiles"][0]["sourcePath"] == "CLAW.md");
    CHECK(rec["workspaceFiles"][0]["relationship"] == "managed");
  }

  TEST_CASE("registers the agent and its MCP servers in a new openclaw.json") {
    memory m;
    package(m);
    const auto r = add_consented(m);
    REQUIRE(r.ok);
    const value cfg = value::parse(m.read_file("/state/openclaw.json"));
    CHECK(cfg["agents"]["entries"]["demo"]["workspace"] == ws);
    // The implicit main becomes the explicit owner of the roster, as OpenClaw 2026.9.6
    // writes it (issue 42 §2.4): its workspace pinned, ownership explicit, the heartbeat,
    // system agent and talk owned by it; the new entry carries no `id` (its key is the id).
    CHECK(cfg["agents"]["entries"]["main"] == value::parse(R"({"workspace": "/state/workspace"})"));
    CHECK(cfg["agents"]["ownership"] == "explicit");
    CHECK(cfg["agents"]["defaults"] == value::parse(R"({"heartbeat": {"agentId": "main"},
      "systemAgent": {"agentId": "main"}})"));
    CHECK(cfg["talk"] == value::parse(R"({"agentId": "main"})"));
    CHECK_FALSE(cfg["agents"]["entries"]["demo"].contains("id"));
    CHECK(cfg.begin().key() == "agents");
    CHECK(cfg["mcp"]["servers"]["docs"]["url"] == "https://mcp.example.com/mcp");
    CHECK(oc::to_json(r)["configRegistered"] == true);
    // Not applied offline, each with its code: nothing is skipped silently.
    std::set<std::string> codes;
    const value doc = oc::to_json(r);
    for (const auto& n : doc["notApplied"]) codes.insert(n["code"].get<std::string>());
    CHECK(codes == std::set<std::string>{"package_not_installed", "cron_gateway_required"});
    CHECK(oc::to_json(r)["notApplied"][0]["install"] ==
          "openclaw skills install clawhub:demo-skill@1.0.0");
  }

  TEST_CASE("an existing strict-JSON openclaw.json keeps everything but the new entry") {
    memory m;
    package(m);
    m.write_file("/state/openclaw.json",
                 "{\"gateway\": {\"port\": 18789}, \"agents\": {\"defaults\": {\"model\": \"x\"}, "
                 "\"entries\": {\"other\": {\"workspace\": \"/w/other\"}}}}");
    REQUIRE(add_consented(m).ok);
    const value cfg = value::parse(m.read_file("/state/openclaw.json"));
    CHECK(cfg["gateway"]["port"] == 18789);
    CHECK(cfg["agents"]["defaults"]["model"] == "x");
    CHECK(cfg["agents"]["entries"]["other"]["workspace"] == "/w/other");
    CHECK_FALSE(cfg["agents"]["entries"].contains("main"));  // entries existed: none invented
    CHECK(cfg["agents"]["entries"]["demo"]["workspace"] == ws);
    // The sole agent `other` becomes the roster's owner (its workspace was already written).
    CHECK(cfg["agents"]["ownership"] == "explicit");
    CHECK(cfg["agents"]["defaults"]["heartbeat"]["agentId"] == "other");
    CHECK(cfg["agents"]["defaults"]["systemAgent"]["agentId"] == "other");
    CHECK(cfg.begin().key() == "gateway");  // order kept
  }

  TEST_CASE("an openclaw.json with comments is left byte-identical and the add is partial") {
    memory m;
    package(m);
    const std::string json5 = "// mine\n{agents: {entries: {other: {workspace: '/w/o'}}},}\n";
    m.write_file("/state/openclaw.json", json5);
    const auto r = add_consented(m);
    CHECK_FALSE(r.ok);
    CHECK(oc::to_json(r)["status"] == "partial");
    CHECK(oc::to_json(r)["error"]["code"] == "config_commit_failed");
    CHECK(oc::to_json(r)["error"]["snippet"].get<std::string>().find("\"demo\"") !=
          std::string::npos);
    CHECK(m.read_file("/state/openclaw.json") == json5);
    CHECK(ledger_of(m)["installs"]["demo"]["status"] == "partial");
    CHECK(ledger_of(m)["installs"]["demo"]["config"] == "refused");
    // Status reports it; the workspace exists.
    const value s = status_of(m);
    CHECK(s["summary"]["partial"] == 1);
    CHECK(s["records"][0]["agentState"] == "missing");
  }

  TEST_CASE("consent: missing, wrong or stale plan integrity writes nothing") {
    memory m;
    package(m);
    const auto before = world(m);
    oc::consent none;
    auto r = add(m, none);
    CHECK(oc::to_json(r)["error"]["code"] == "consent_required");
    CHECK(oc::to_json(r)["ok"] == false);
    oc::consent only_yes;
    only_yes.yes = true;
    r = add(m, only_yes);
    CHECK(oc::to_json(r)["error"]["code"] == "plan_integrity_required");
    r = add(m, yes("sha256:" + std::string(64, '0')));
    CHECK(oc::to_json(r)["error"]["code"] == "plan_integrity_mismatch");
    CHECK(oc::to_json(r)["status"] == "failed");
    CHECK(oc::to_json(r)["planIntegrity"] == integrity_of(m));
    // Stale: the source changed after the plan was reviewed.
    const std::string reviewed = integrity_of(m);
    m.write_file("/pkg/ws/AGENTS.md", "changed\n");
    r = add(m, yes(reviewed));
    CHECK(oc::to_json(r)["error"]["code"] == "plan_integrity_mismatch");
    // --agent-id feeds the integrity: the preview's digest does not cover another id.
    oc::destination_request other = request();
    other.agent_id = "demo-two";
    r = add(m, yes(integrity_of(m)), other);
    CHECK(oc::to_json(r)["error"]["code"] == "plan_integrity_mismatch");
    CHECK_FALSE(r.ok);
    CHECK(world(m) == before);
  }

  TEST_CASE("a refusal is a typed failure; its document and its text come from it") {
    memory m;
    package(m);
    const auto before = world(m);
    const auto r = add(m, oc::consent{});
    REQUIRE(r.failed);
    CHECK_FALSE(r.result);
    CHECK(r.failed->at == oc::failure::stage::consent);
    CHECK(r.failed->code == clawport::errc::consent_required);
    CHECK_FALSE(r.failed->plan_integrity);  // nothing was planned
    const std::string refused = oc::result_text(r);
    CHECK(refused.find("ERROR consent_required: ") != std::string::npos);
    CHECK(refused.find("current plan integrity") == std::string::npos);
    const auto stale = add(m, yes("sha256:" + std::string(64, '0')));
    REQUIRE(stale.failed);
    CHECK(stale.failed->at == oc::failure::stage::plan_mismatch);
    CHECK(stale.failed->plan_integrity == integrity_of(m));
    CHECK(oc::result_text(stale).find("\n  current plan integrity: " + integrity_of(m) + "\n") !=
          std::string::npos);
    // The mismatch document shows the fresh integrity right after the error.
    const value d = oc::to_json(stale);
    std::vector<std::string> keys;
    for (auto it = d.begin(); it != d.end(); ++it) keys.push_back(it.key());
    CHECK(keys == std::vector<std::string>{"schemaVersion", "stability", "status", "error",
                                           "planIntegrity"});
    CHECK(world(m) == before);
  }

  TEST_CASE("a blocked plan writes nothing (packages unresolved offline)") {
    memory m;
    package(m);
    const auto before = world(m);
    const oc::add_options with_packages;
    const auto r = add_consented(m, request(), with_packages);
    CHECK_FALSE(r.ok);
    CHECK(oc::to_json(r)["schemaVersion"] == "openclaw.clawAddPlan.v1");
    CHECK(oc::to_json(r)["blockers"][0]["code"] == "skill_preflight_failed");
    CHECK(world(m) == before);
  }

  TEST_CASE("--without-packages records each package as a consented not-installed action") {
    memory m;
    package(m);
    const auto pkg = oc::read_package(m, "/pkg");
    const auto plan = oc::to_json(oc::plan_add(m, pkg, request(), without_packages()));
    CHECK_FALSE(plan["blockers"].size());
    const value* a = action_of(plan, "package", "skill:demo-skill");
    REQUIRE(a);
    CHECK((*a)["action"] == "skip");
    CHECK((*a)["details"]["expectedState"] == "not-installed");
    REQUIRE(plan["notices"].size() == 1);
    CHECK(plan["notices"][0]["code"] == "package_not_installed");
    // The notices are bound: the same plan without them hashes differently.
    value unbound = plan;
    unbound["notices"] = value::array();
    CHECK(plan_documents::add_integrity(unbound) != plan["planIntegrity"].get<std::string>());
    // Cron jobs are disclosed as not applied offline (a warning, not a blocker).
    bool cron = false;
    for (const auto& d : plan["diagnostics"]) cron = cron || d["code"] == "cron_gateway_required";
    CHECK(cron);
  }

  TEST_CASE("an existing workspace is never adopted: identical, differing or empty, it collides") {
    // Issue 42 §2 item 3, as openclaw 2026.9.6 (tests/oracle/cases/workspace_collision.sh):
    // the workspace, BOOTSTRAP.md and the declared files block; the add writes nothing.
    for (const char* content : {"agents\n", "the user's own\n", ""}) {
      memory m;
      package(m);
      m.mkdirs(ws);
      if (*content) m.write_file(ws + "/AGENTS.md", content);
      const auto before = world(m);
      const auto pkg = oc::read_package(m, "/pkg");
      const auto plan = oc::to_json(oc::plan_add(m, pkg, request(), without_packages()));
      INFO(plan.dump());
      REQUIRE(plan["blockers"].size() == 1);
      CHECK(plan["blockers"][0]["code"] == "workspace_collision");
      CHECK(action_of(plan, "workspace", "demo")->at("action") == "create");
      CHECK(action_of(plan, "workspaceFile", "AGENTS.md")->at("blocked") == true);
      CHECK(action_of(plan, "workspaceFile", "AGENTS.md")->at("action") == "write");
      CHECK_FALSE(add_consented(m).ok);
      CHECK(world(m) == before);
    }
  }

  TEST_CASE("an agent id that collides keeps the new agent's own workspace") {
    // Upstream keeps ~/.openclaw/workspace-<id> (here <state-dir>/workspace-<id>) rather than
    // the configured agent's workspace; the agent action blocks, the blocker says why.
    memory m;
    package(m);
    m.write_file("/state/openclaw.json",
                 R"({"agents": {"entries": {"demo": {"workspace": "/w"}}}})");
    const auto pkg = oc::read_package(m, "/pkg");
    const auto plan = oc::to_json(oc::plan_add(m, pkg, request(), without_packages()));
    CHECK(plan["agent"]["workspace"] == ws);
    REQUIRE(plan["blockers"].size() == 1);
    CHECK(plan["blockers"][0]["code"] == "agent_id_collision");
    CHECK(plan["blockers"][0]["message"] ==
          "Agent id \"demo\" already exists; Claws never merge into existing agents.");
    CHECK(action_of(plan, "agent", "demo")->at("blocked") == true);
    CHECK_FALSE(action_of(plan, "agent", "demo")->contains("reason"));
  }

  TEST_CASE("a second add never overwrites a file changed by the user") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    m.write_file(ws + "/AGENTS.md", "edited by the user\n");
    const auto before = world(m);
    // Same id: recorded, collides. Another id into the same workspace: recorded workspace.
    CHECK_FALSE(add_consented(m).ok);
    oc::destination_request other = request();
    other.agent_id = "demo-two";
    other.workspace = ws;
    const auto r = add_consented(m, other);
    CHECK_FALSE(r.ok);
    CHECK(oc::to_json(r)["blockers"][0]["code"] == "workspace_collision");
    CHECK(world(m) == before);
    CHECK(m.read_file(ws + "/AGENTS.md") == "edited by the user\n");
  }

  TEST_CASE("persists earlier files when a later destination collides") {
    // clawport's counterpart is stricter: a destination that appears between plan and apply
    // rolls the whole add back (earlier files are removed again), so nothing half-written.
    faulty<memory> f;
    package(f.inner());
    const std::string integrity = integrity_of(f);
    const auto before = world(f.inner());
    f.on_op([&](memory& inner, std::string_view op, std::string_view name) {
      if (op == "create_file_at" && name == "SOUL.md")
        inner.write_file(ws + "/ref/policy.md", "raced in\n");
    });
    const auto r = add(f, yes(integrity));
    f.on_op(nullptr);
    CHECK_FALSE(r.ok);
    CHECK(oc::to_json(r)["error"]["code"] == "workspace_files_failed");
    auto after = world(f.inner());
    after.erase(ws + "/ref/policy.md");  // the racer's, kept
    after.erase(ws + "/ref");
    after.erase(ws);
    auto expect = before;
    CHECK(after == expect);
    CHECK_FALSE(f.inner().lstat(ws + "/SOUL.md"));
  }

  TEST_CASE("rejects a source replaced by a symlink after planning") {
    memory m;
    package(m);
    const std::string integrity = integrity_of(m);
    const auto before = world(m);
    m.rename("/pkg/ws/AGENTS.md", "/pkg/real-agents.md");
    m.symlink("/pkg/ws/AGENTS.md", "../real-agents.md");
    const auto r = add(m, yes(integrity));
    CHECK_FALSE(r.ok);
    CHECK(world(m) == before);
  }

  TEST_CASE("fault sweep: every failing operation of add leaves nothing behind") {
    std::size_t ops = 0;
    std::string integrity;
    {
      faulty<memory> f;
      package(f.inner());
      integrity = integrity_of(f);
      f.reset_counts();
      REQUIRE(add(f, yes(integrity)).ok);
      ops = f.count();
    }
    REQUIRE(ops > 20);
    std::size_t failed = 0;
    for (const bool existing_config : {false, true}) {
      for (std::size_t n = 1; n <= ops; ++n) {
        CAPTURE(existing_config);
        CAPTURE(n);
        faulty<memory> f;
        package(f.inner());
        if (existing_config)
          f.inner().write_file("/state/openclaw.json", "{\"agents\": {\"entries\": {}}}");
        const auto before = world(f.inner());
        f.reset_counts();
        f.fail_at(n, EIO);
        bool ok = false;
        try {
          ok = add(f, yes(integrity)).ok;   // a refusal is a document...
        } catch (const clawport::error&) {  // ...or an error (e.g. the package unreadable)
        }
        if (ok) {
          // The failure hit a step whose failure does not matter (a size probe before
          // the real read): the add completed, and completely.
          CHECK(ledger_of(f.inner())["installs"]["demo"]["status"] == "complete");
          CHECK(status_of(f.inner())["summary"]["driftedFiles"] == 0);
          continue;
        }
        ++failed;
        CHECK(world(f.inner()) == before);
      }
    }
    CHECK(failed >= ops);  // most operations matter
  }

  TEST_CASE("crash sweep: after a crash at any point the ledger accounts for what is on disk") {
    std::size_t ops = 0;
    std::string integrity;
    {
      faulty<memory> f;
      package(f.inner());
      integrity = integrity_of(f);
      f.reset_counts();
      REQUIRE(add(f, yes(integrity)).ok);
      ops = f.count();
    }
    for (std::size_t n = 0; n < ops; ++n) {
      CAPTURE(n);
      faulty<memory> f;
      package(f.inner());
      const auto before = world(f.inner());
      f.reset_counts();
      f.crash_after(n);
      try {
        (void)add(f, yes(integrity));
      } catch (const clawport::fs::simulated_crash&) {
      }
      memory& m = f.inner();
      const bool recorded =
          m.lstat("/state/clawport-claws.json") && ledger_of(m)["installs"].contains("demo");
      if (!recorded) {
        // No record: nothing of the Claw may exist (a crashed temporary file aside).
        CHECK_FALSE(m.lstat(ws));
        if (m.lstat("/state/openclaw.json"))
          CHECK_FALSE(
              value::parse(m.read_file("/state/openclaw.json"))["agents"]["entries"].contains(
                  "demo"));
      } else if (ledger_of(m)["installs"]["demo"]["status"] == "complete") {
        CHECK(status_of(m)["summary"]["driftedFiles"] == 0);
      } else {
        CHECK(ledger_of(m)["installs"]["demo"]["status"] == "pending");
        CHECK(status_of(m)["summary"]["partial"] == 1);
      }
      (void)before;
    }
  }

  TEST_CASE("reports installed agent, managed files, and package references") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    value s = status_of(m);
    CHECK(s["schemaVersion"] == "openclaw.clawStatus.v1");
    REQUIRE(s["records"].size() == 1);
    const value& rec = s["records"][0];
    CHECK(rec["agentState"] == "present");
    CHECK(rec["install"]["status"] == "complete");
    for (const auto& f : rec["workspaceFiles"]) CHECK(f["state"] == "unchanged");
    CHECK(rec["packages"][0]["state"] == "not-installed");
    CHECK(rec["mcpServers"][0]["state"] == "present");
    CHECK(rec["cronJobs"][0]["state"] == "not-applied");
    CHECK(s["summary"]["claws"] == 1);
    CHECK(s["summary"]["driftedFiles"] == 0);
    // The text is the typed status's: one line per install, then one per row.
    const std::string text = oc::result_text(oc::claw_status(m, request(), std::nullopt));
    CHECK(text.find("Claw demo-claw as agent demo: install complete, agent present\n") !=
          std::string::npos);
    CHECK(text.find("  unchanged SOUL.md\n") != std::string::npos);
    CHECK(text.find("No Claws installed.") == std::string::npos);
    memory none;
    CHECK(oc::result_text(oc::claw_status(none, request(), std::nullopt))
              .find("No Claws installed.") != std::string::npos);
    CHECK(oc::claw_status(m, request(), std::string("demo-claw")).ok);   // by package name
    CHECK_FALSE(oc::claw_status(m, request(), std::string("nope")).ok);  // no match: exit 1
  }

  TEST_CASE("status lists unmanaged files 32 directories deep and refuses a deeper workspace") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    std::string deep = ws;
    for (int i = 0; i < 32; ++i) deep += "/d";
    m.mkdirs(deep);
    m.write_file(deep + "/at32.txt", "x");
    const value s = status_of(m);
    std::string rel;
    for (int i = 0; i < 32; ++i) rel += "d/";
    bool listed = false;
    for (const auto& u : s["records"][0]["unmanagedFiles"])
      listed = listed || u == rel + "at32.txt";
    CHECK(listed);
    // One more level: the walk fails loudly, naming the directory, instead of leaving
    // its files out of `unmanagedFiles` as it once did.
    m.mkdirs(deep + "/d");
    m.write_file(deep + "/d/at33.txt", "x");
    const auto before = world(m);
    try {
      (void)status_of(m);
      FAIL("claw status listed a workspace nested deeper than 32 directories");
    } catch (const clawport::error& e) {
      CHECK(e.code() == clawport::errc::limit_exceeded);
      CHECK(e.subject() == ws + "/" + rel + "d");
      CHECK(std::string(e.what()).find(ws) != std::string::npos);
      CHECK(std::string(e.what()).find("deeper than 32 directories") != std::string::npos);
    }
    CHECK(world(m) == before);
  }

  TEST_CASE(
      "status reports missing, modified, unmanaged and ownership conflicts, changing nothing") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    m.write_file(ws + "/AGENTS.md", "edited\n");
    m.remove(ws + "/ref/policy.md");
    m.write_file(ws + "/scratch.md", "mine\n");
    value cfg = value::parse(m.read_file("/state/openclaw.json"));
    cfg["agents"]["entries"]["demo"]["name"] = "renamed";
    cfg["mcp"]["servers"]["docs"]["url"] = "https://elsewhere.example/mcp";
    m.write_file("/state/openclaw.json", cfg.dump());
    // A second record claiming the same file is an ownership conflict.
    value l = ledger_of(m);
    l["installs"]["twin"] = l["installs"]["demo"];
    m.write_file("/state/clawport-claws.json", l.dump());
    const auto before = world(m);
    const value s = status_of(m, std::string("demo"));
    CHECK(world(m) == before);
    const value& rec = s["records"][0];
    std::map<std::string, std::string> states;
    for (const auto& f : rec["workspaceFiles"])
      states[f["path"].get<std::string>()] = f["state"].get<std::string>();
    CHECK(states["AGENTS.md"] == "modified");
    CHECK(states["ref/policy.md"] == "missing");
    CHECK(states["SOUL.md"] == "unchanged");
    CHECK(rec["unmanagedFiles"] == value::array({"scratch.md"}));
    CHECK(rec["agentState"] == "modified");
    CHECK(rec["mcpServers"][0]["state"] == "modified");
    CHECK(rec["workspaceFiles"][0]["ownershipConflict"] == true);
    CHECK(s["summary"]["driftedFiles"] == 2);
    CHECK(s["summary"]["ownershipConflicts"] == 3);
  }

  TEST_CASE("counts every non-complete root install as partial") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    value l = ledger_of(m);
    l["installs"]["demo"]["status"] = "pending";
    m.write_file("/state/clawport-claws.json", l.dump());
    CHECK(status_of(m)["summary"]["partial"] == 1);
  }

  TEST_CASE("removes unchanged managed files; modified and unmanaged files stay") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    m.write_file(ws + "/AGENTS.md", "edited\n");
    m.write_file(ws + "/scratch.md", "mine\n");
    const value plan = oc::plan_remove(m, request(), "demo");
    CHECK(plan["schemaVersion"] == "openclaw.clawRemovePlan.v1");
    CHECK(plan["blockers"].empty());
    CHECK(action_of(plan, "workspaceFile", "AGENTS.md")->at("action") == "retain");
    CHECK(action_of(plan, "workspaceFile", "SOUL.md")->at("action") == "delete");
    CHECK(action_of(plan, "workspaceFile", "scratch.md")->at("action") == "retain");
    CHECK(plan["actions"].back()["kind"] == "installRecord");
    const auto r = oc::apply_remove(m, request(), "demo", yes(plan["planIntegrity"]), now);
    INFO(oc::to_json(r).dump());
    REQUIRE(r.ok);
    CHECK(m.read_file(ws + "/AGENTS.md") == "edited\n");
    CHECK(m.read_file(ws + "/scratch.md") == "mine\n");
    CHECK_FALSE(m.lstat(ws + "/SOUL.md"));
    CHECK_FALSE(m.lstat(ws + "/ref"));  // emptied directory removed
    CHECK_FALSE(ledger_of(m)["installs"].contains("demo"));
    const value cfg = value::parse(m.read_file("/state/openclaw.json"));
    CHECK_FALSE(cfg["agents"]["entries"].contains("demo"));
    CHECK_FALSE(cfg["mcp"]["servers"].contains("docs"));
  }

  TEST_CASE("a clean remove leaves no workspace; the round trip restores the state") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    const value plan = oc::plan_remove(m, request(), "demo-claw");
    REQUIRE(oc::apply_remove(m, request(), "demo-claw", yes(plan["planIntegrity"]), now).ok);
    CHECK_FALSE(m.lstat(ws));
    CHECK(status_of(m)["records"].empty());
    // And it can be added again.
    CHECK(add_consented(m).ok);
  }

  TEST_CASE("remove refusals write nothing") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    const auto before = world(m);
    oc::consent none;
    CHECK(oc::to_json(oc::apply_remove(m, request(), "demo", none, now))["error"]["code"] ==
          "consent_required");
    CHECK(oc::to_json(oc::apply_remove(m, request(), "demo", yes("sha256:00"),
                                       now))["error"]["code"] == "plan_integrity_mismatch");
    const value missing = oc::plan_remove(m, request(), "nope");
    CHECK(missing["blockers"][0]["code"] == "claw_not_found");
    CHECK(oc::to_json(oc::apply_remove(m, request(), "nope", yes(missing["planIntegrity"]),
                                       now))["error"]["code"] == "remove_blocked");
    // An agent changed in openclaw.json blocks (agent_modified).
    value cfg = value::parse(m.read_file("/state/openclaw.json"));
    cfg["agents"]["entries"]["demo"]["model"] = "mine";
    m.write_file("/state/openclaw.json", cfg.dump());
    const auto edited = world(m);
    const value plan = oc::plan_remove(m, request(), "demo");
    CHECK(plan["blockers"][0]["code"] == "agent_modified");
    CHECK_FALSE(oc::apply_remove(m, request(), "demo", yes(plan["planIntegrity"]), now).ok);
    CHECK(world(m) == edited);
    (void)before;
  }

  TEST_CASE("remove with a JSON5 openclaw.json refuses and removes nothing") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    const value cfg = value::parse(m.read_file("/state/openclaw.json"));
    m.write_file("/state/openclaw.json", "// commented\n" + cfg.dump());
    const auto before = world(m);
    const value plan = oc::plan_remove(m, request(), "demo");
    const auto r = oc::apply_remove(m, request(), "demo", yes(plan["planIntegrity"]), now);
    CHECK_FALSE(r.ok);
    CHECK(oc::to_json(r)["error"]["code"] == "config_commit_failed");
    CHECK(world(m) == before);
  }

  TEST_CASE("fault sweep: a failing remove leaves the ledger consistent with the disk") {
    std::size_t ops = 0;
    const auto setup = [](memory& m) {
      package(m);
      REQUIRE(add_consented(m).ok);
    };
    {
      faulty<memory> f;
      setup(f.inner());
      const value plan = oc::plan_remove(f, request(), "demo");
      f.reset_counts();
      REQUIRE(oc::apply_remove(f, request(), "demo", yes(plan["planIntegrity"]), now).ok);
      ops = f.count();
    }
    REQUIRE(ops > 10);
    for (std::size_t n = 1; n <= ops; ++n) {
      CAPTURE(n);
      faulty<memory> f;
      setup(f.inner());
      const value plan = oc::plan_remove(f, request(), "demo");
      const auto before = world(f.inner());
      f.reset_counts();
      f.fail_at(n, EIO);
      oc::remove_outcome r;
      try {
        r = oc::apply_remove(f, request(), "demo", yes(plan["planIntegrity"]), now);
      } catch (const clawport::error&) {
        CHECK(world(f.inner()) == before);  // refused while reading: nothing written
        continue;
      }
      memory& m = f.inner();
      const value l = ledger_of(m);
      if (l["installs"].contains("demo")) {
        // Every file the ledger still names is on disk, unchanged, but those it marks
        // `removing` (the remove's intent, issue 41: a re-run finishes it).
        for (const auto& row : l["installs"]["demo"]["workspaceFiles"])
          if (row["status"] != "removing")
            CHECK(m.read_file(ws + "/" + row["path"].get<std::string>()).size() > 0);
        CHECK(status_of(m)["summary"]["driftedFiles"] == 0);
        if (!r.ok && oc::to_json(r).contains("error") &&
            oc::to_json(r)["error"]["message"].get<std::string>().find("nothing was removed") !=
                std::string::npos)
          CHECK(world(m) == before);
      } else {
        // Gone from the ledger: gone from the disk and the config.
        CHECK_FALSE(m.lstat(ws + "/SOUL.md"));
        CHECK_FALSE(value::parse(m.read_file("/state/openclaw.json"))["agents"]["entries"].contains(
            "demo"));
      }
    }
  }
}

TEST_CASE("issue 44: an add with items not applied says so in its summary line") {
  oc::add_result r;
  r.agent_id = "triage";
  r.config_registered = true;
  const std::string whole = oc::result_text(r);
  CHECK(whole.find("Added agent triage (") != std::string::npos);
  CHECK(whole.find("not applied") == std::string::npos);
  r.not_applied.push_back(
      {"package", "npm:x", clawport::errc::package_not_installed, "npm i x", ""});
  const std::string text = oc::result_text(r);
  CHECK(text.find("; 1 item(s) not applied, listed below)\n") != std::string::npos);
  CHECK(text.find("Added agent") < text.find("  not applied: package npm:x"));
}
