// SPDX-License-Identifier: MIT
// The OpenClaw write side offline: `claw add` (consent, plan-integrity recompute, staged
// materialization, the adopt rule, the ledger, openclaw.json keep-or-refuse), `claw
// status` (drift) and `claw remove`, on fs::memory, with fs::faulty sweeps proving that a
// failing add leaves nothing behind and a failing remove leaves the ledger consistent with
// the disk. Test names follow openclaw-claws.md §9 where an upstream test exists.
#include "openclaw/plan_documents.hpp"
#include "support/test.hpp"

#include <cerrno>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

namespace oc = clawport::openclaw;
using clawport::fs::faulty;
using clawport::fs::memory;
using oc::value;

const std::string now = "2026-12-01T12:00:00+00:00";

/// A small package: CLAW.md with a body (→ SOUL.md), a bootstrap file, a nested extra
/// file, one MCP server, one skill package and one cron job.
void package(memory& m, const std::string& soul = "Be kind.\n") {
  m.mkdirs("/pkg/ws/ref");
  m.mkdirs("/home");
  m.write_file("/pkg/package.json",
               "{\"name\": \"demo-claw\", \"version\": \"1.0.0\", \"openclaw\": {\"claw\": "
               "\"CLAW.md\"}}");
  m.write_file("/pkg/CLAW.md",
               "---\nschemaVersion: 1\nagent:\n  id: demo\nworkspace:\n  bootstrapFiles:\n"
               "    AGENTS.md: {source: ws/AGENTS.md}\n  files:\n"
               "    - {source: ws/ref/policy.md, path: ref/policy.md}\n"
               "packages:\n  - {kind: skill, source: clawhub, ref: demo-skill, version: 1.0.0}\n"
               "mcpServers:\n  docs:\n    url: https://mcp.example.com/mcp\n"
               "    transport: streamable-http\n"
               "cronJobs:\n  - id: digest\n    schedule: {cron: \"0 9 * * 1\", timezone: UTC}\n"
               "    session: isolated\n    message: Summarize.\n---\n" +
                   soul);
  m.write_file("/pkg/ws/AGENTS.md", "agents\n");
  m.write_file("/pkg/ws/ref/policy.md", "policy\n");
}

oc::destination_request request() {
  oc::destination_request r;
  r.home = "/home";
  r.cwd = "/";
  r.state_dir = "/state";
  return r;
}

oc::add_options without_packages() {
  oc::add_options o;
  o.without_packages = true;
  return o;
}

template <class Fs>
std::string integrity_of(Fs& fs, const oc::destination_request& req = request(),
                         const oc::add_options& opt = without_packages()) {
  const auto pkg = oc::read_package(fs, "/pkg");
  const oc::value plan = oc::to_json(oc::plan_add(fs, pkg, req, opt));
  return plan["planIntegrity"].get<std::string>();
}

oc::consent yes(const std::string& integrity) {
  oc::consent c;
  c.yes = true;
  c.plan_integrity = integrity;
  return c;
}

template <class Fs>
oc::add_outcome add(Fs& fs, const oc::consent& c, const oc::destination_request& req = request(),
                    const oc::add_options& opt = without_packages()) {
  const auto pkg = oc::read_package(fs, "/pkg");
  return oc::apply_add(fs, pkg, req, opt, c, now);
}

template <class Fs>
oc::add_outcome add_consented(Fs& fs, const oc::destination_request& req = request(),
                              const oc::add_options& opt = without_packages()) {
  return add(fs, yes(integrity_of(fs, req, opt)), req, opt);
}

/// Everything outside the package: the state directory and the home (workspaces).
std::map<std::string, std::string> world(memory& m) {
  std::map<std::string, std::string> all;
  for (const char* root : {"/state", "/home"}) {
    if (!m.lstat(root)) continue;
    for (const auto& e : m.snapshot(root)) all[std::string(root) + "/" + e.first] = e.second;
  }
  return all;
}

// A new agent's workspace by the one rule (agent_workspace): <state-dir>/workspace-<id>.
const std::string ws = "/state/workspace-demo";

value ledger_of(memory& m) { return value::parse(m.read_file("/state/clawport-claws.json")); }

value status_of(memory& m, const std::optional<std::string>& target = std::nullopt) {
  return oc::to_json(oc::claw_status(m, request(), target));
}

const value* action_of(const value& plan, const std::string& kind, const std::string& id) {
  for (const auto& a : plan["actions"])
    if (a["kind"] == kind && a["id"] == id) return &a;
  return nullptr;
}

}  // namespace

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

namespace {

oc::environment ws_env() {
  oc::environment e;
  e.home = "/home/u";
  e.cwd = "/cwd";
  return e;
}

std::string resolved_ws(const value& cfg, const oc::environment& e,
                        const std::optional<std::string>& id = std::nullopt) {
  return oc::resolve_workspace(cfg, e, id)["workspace"].get<std::string>();
}

}  // namespace

TEST_SUITE("openclaw workspace") {
  TEST_CASE("resolve: the default is ~/.openclaw/workspace") {
    const value r = oc::resolve_workspace(value::object(), ws_env(), std::nullopt);
    CHECK(r["workspace"] == "/home/u/.openclaw/workspace");
    CHECK(r["rule"] == "default (~/.openclaw/workspace)");
    CHECK(r["agentId"] == "main");
  }
  TEST_CASE("resolve: OPENCLAW_PROFILE other than default gives ~/.openclaw-<profile>/workspace") {
    // openclaw 2026.9.6 (tests/oracle/cases/workspace_resolution.sh); it was
    // ~/.openclaw/workspace-<profile> in the metadata-pointer era.
    auto e = ws_env();
    e.profile = "work";
    CHECK(resolved_ws(value::object(), e) == "/home/u/.openclaw-work/workspace");
    e.profile = "default";
    CHECK(resolved_ws(value::object(), e) == "/home/u/.openclaw/workspace");
  }
  TEST_CASE("resolve: OPENCLAW_WORKSPACE_DIR overrides the profile, with ~ expanded") {
    auto e = ws_env();
    e.profile = "work";
    e.workspace_dir = "~/ws";
    const value r = oc::resolve_workspace(value::object(), e, std::nullopt);
    CHECK(r["workspace"] == "/home/u/ws");
    CHECK(r["rule"] == "OPENCLAW_WORKSPACE_DIR");
    e.workspace_dir = "rel/ws";
    CHECK(resolved_ws(value::object(), e) == "/cwd/rel/ws");
  }
  TEST_CASE("resolve: a given OPENCLAW_STATE_DIR keeps the default at <state-dir>/workspace") {
    auto e = ws_env();
    e.state_dir_env = "/srv/oc";
    e.profile = "work";
    const value r = oc::resolve_workspace(value::object(), e, std::nullopt);
    CHECK(r["workspace"] == "/srv/oc/workspace");
    CHECK(r["stateDir"] == "/srv/oc");
    // The default state directory named explicitly counts as given (upstream: any
    // OPENCLAW_STATE_DIR), so the profile does not decide.
    e.state_dir_env = "/home/u/.openclaw";
    CHECK(resolved_ws(value::object(), e) == "/home/u/.openclaw/workspace");
  }
  TEST_CASE("resolve: agents.defaults.workspace from openclaw.json wins for the default agent") {
    auto e = ws_env();
    e.workspace_dir = "/env/ws";
    const value cfg = value::parse(R"({"agents":{"defaults":{"workspace":"~/.openclaw/mine"}}})");
    const value r = oc::resolve_workspace(cfg, e, std::nullopt);
    CHECK(r["workspace"] == "/home/u/.openclaw/mine");
    CHECK(r["rule"] == "agents.defaults.workspace");
  }
  TEST_CASE("resolve: agents.entries.<id>.workspace, else <state-dir>/workspace-<agentId>") {
    auto e = ws_env();
    const value cfg = value::parse(
        R"({"agents":{"defaults":{"workspace":"/shared"},"entries":{"ops":{"workspace":"/w/ops"},"dev":{}}}})");
    const value ops = oc::resolve_workspace(cfg, e, std::string("ops"));
    CHECK(ops["workspace"] == "/w/ops");
    CHECK(ops["rule"] == "agents.entries.ops.workspace");
    const value dev = oc::resolve_workspace(cfg, e, std::string("dev"));
    // dev is not the default agent (ops, the first entry): <agents.defaults.workspace>/dev.
    CHECK(dev["workspace"] == "/shared/dev");
    e.state_dir = "/st";
    CHECK(resolved_ws(value::parse(R"({"agents":{"entries":{"ops":{},"dev":{}}}})"), e,
                      std::string("dev")) == "/st/workspace-dev");
  }
  TEST_CASE("resolve reads openclaw.json as JSON5") {
    memory m;
    m.write_file("/st/openclaw.json", "// mine\n{agents: {defaults: {workspace: '/x/ws',},},}\n");
    const value cfg = oc::read_openclaw_config(m, "/st");
    CHECK(resolved_ws(cfg, ws_env()) == "/x/ws");
    m.write_file("/st/openclaw.json", "{agents: ");
    CHECK_THROWS_AS(oc::read_openclaw_config(m, "/st"), clawport::error);
    memory empty;
    CHECK(oc::read_openclaw_config(empty, "/none").empty());
  }

  TEST_CASE("bootstrap seeds a brand-new workspace with BOOTSTRAP.md and the .gitignore") {
    memory m;
    m.mkdirs("/home/u");
    const value r = oc::bootstrap_workspace(m, "/home/u/.openclaw/workspace", false);
    CHECK(r["brandNew"] == true);
    for (const char* f : {"AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md",
                          "HEARTBEAT.md", "BOOTSTRAP.md"})
      CHECK(m.lstat(std::string("/home/u/.openclaw/workspace/") + f));
    CHECK(m.read_file("/home/u/.openclaw/workspace/.gitignore") ==
          ".DS_Store\n.env\n**/*.key\n**/*.pem\n**/secrets*\n");
  }
  TEST_CASE("bootstrap never overwrites, and seeds BOOTSTRAP.md while there is no marker") {
    memory m;
    m.write_file("/w/SOUL.md", "mine\n");
    m.write_file("/w/.gitignore", "node_modules\n");
    const oc::setup_marker_store marker{"/st", now};
    const value r = oc::bootstrap_workspace(m, "/w", false, marker);
    CHECK(r["brandNew"] == false);
    CHECK(m.read_file("/w/SOUL.md") == "mine\n");
    CHECK(m.read_file("/w/.gitignore") == "node_modules\n");
    CHECK(m.lstat("/w/BOOTSTRAP.md"));  // not empty, but no setup marker yet
    CHECK(m.lstat("/w/AGENTS.md"));
    std::set<std::string> kept;
    for (const auto& k : r["kept"]) kept.insert(k.get<std::string>());
    CHECK(kept == std::set<std::string>{"SOUL.md", ".gitignore"});
    CHECK(oc::read_workspace_setup(m, "/st")["workspaces"]["/w"]["bootstrapSeededAt"] == now);
    // Once marked, a deleted BOOTSTRAP.md (the ritual is done) is not seeded again, and a
    // second run changes nothing else.
    m.remove("/w/BOOTSTRAP.md");
    const auto before = m.snapshot("/w");
    const auto marker_before = m.read_file("/st/clawport-workspaces.json");
    const value again = oc::bootstrap_workspace(m, "/w", false, marker);
    CHECK(again["created"].empty());
    CHECK(m.snapshot("/w") == before);
    CHECK(m.read_file("/st/clawport-workspaces.json") == marker_before);
  }
  TEST_CASE("bootstrap honours agents.defaults.skipBootstrap") {
    memory m;
    m.mkdirs("/w");
    const value r = oc::bootstrap_workspace(m, "/w", true);
    CHECK(r["created"].empty());
    CHECK(m.snapshot("/w").empty());
  }

  TEST_CASE("doctor reports each finding with a code, the path and what to do") {
    memory m;
    m.mkdirs("/home/u/openclaw");  // a second workspace directory
    const std::string w = "/home/u/.openclaw/workspace";
    m.write_file(w + "/AGENTS.md", std::string(20001, 'a'));
    m.write_file(w + "/SOUL.md", std::string(20000, 's'));
    m.write_file(w + "/TOOLS.md", std::string(20000, 't'));
    m.write_file(w + "/IDENTITY.md", "id\n");
    m.write_file(w + "/openclaw.json", "{}");
    m.write_file(w + "/agents/main/agent/auth-profiles.json", "{}");
    m.write_file(w + "/credentials/whatsapp.json", "{}");
    m.write_file(w + "/.env", "TOKEN=x\n");
    m.write_file(w + "/keys/server.pem", "---\n");
    m.write_file(w + "/secrets.txt", "x\n");
    m.write_file(w + "/openclaw-workspace-state.json", "{}");
    m.write_file(w + "/.openclaw/workspace-state.json", "{}");
    m.write_file(w + "/notes.md.attested", "");
    const auto before = m.snapshot("/home/u");
    const value d = oc::doctor_workspace(m, w, "/home/u");
    CHECK(m.snapshot("/home/u") == before);  // read-only
    CHECK(d["ok"] == false);
    std::multimap<std::string, std::string> got;
    for (const auto& f : d["findings"]) {
      got.emplace(f["code"].get<std::string>(), f["path"].get<std::string>());
      CHECK_FALSE(f["message"].get<std::string>().empty());
    }
    const auto has = [&](const std::string& code, const std::string& path) {
      const auto range = got.equal_range(code);
      for (auto it = range.first; it != range.second; ++it)
        if (it->second == path) return true;
      return false;
    };
    CHECK(has("state_file_in_workspace", "openclaw.json"));
    CHECK(has("state_file_in_workspace", "agents/main/agent/auth-profiles.json"));
    CHECK(has("credentials_in_workspace", "credentials/whatsapp.json"));
    CHECK(has("secret_not_ignored", ".env"));
    CHECK(has("secret_not_ignored", "keys/server.pem"));
    CHECK(has("secret_not_ignored", "secrets.txt"));
    CHECK(has("legacy_state_file", "openclaw-workspace-state.json"));
    CHECK(has("legacy_state_file", ".openclaw/workspace-state.json"));
    CHECK(has("legacy_state_file", "notes.md.attested"));
    CHECK(has("extra_workspace", "/home/u/openclaw"));
    CHECK(has("bootstrap_file_missing", "HEARTBEAT.md"));
    CHECK(has("bootstrap_file_too_large", "AGENTS.md"));
    CHECK_FALSE(has("bootstrap_file_too_large", "SOUL.md"));  // exactly at the limit
    CHECK(has("bootstrap_total_too_large", "."));
    // The suggested .gitignore covers the secrets.
    m.write_file(w + "/.gitignore", oc::workspace_gitignore);
    const value ignored = oc::doctor_workspace(m, w, "/home/u");
    for (const auto& f : ignored["findings"]) CHECK(f["code"] != "secret_not_ignored");
  }
  TEST_CASE("doctor on a clean seeded workspace finds nothing") {
    memory m;
    m.mkdirs("/home/u");
    (void)oc::bootstrap_workspace(m, "/home/u/.openclaw/workspace", false);
    const value d = oc::doctor_workspace(m, "/home/u/.openclaw/workspace", "/home/u");
    INFO(d.dump());
    CHECK(d["ok"] == true);
  }
}

// ---------------------------------------------------------------------------------------
// export (§6.5)
// ---------------------------------------------------------------------------------------

namespace {

/// The state directory, the home and the export destination.
std::map<std::string, std::string> world_out(memory& m) {
  std::map<std::string, std::string> all = world(m);
  if (m.lstat("/out"))
    for (const auto& e : m.snapshot("/out")) all["/out/" + e.first] = e.second;
  if (m.lstat("/out")) all["/out"] = "dir";
  return all;
}

oc::export_request export_to(const std::string& out = "/out/demo") {
  oc::export_request x;
  x.agent = "demo";
  x.out = out;
  return x;
}

/// `kind:id:action` of every action of a plan, in order.
std::vector<std::string> action_keys(const value& plan) {
  std::vector<std::string> k;
  for (const auto& a : plan["actions"])
    k.push_back(a["kind"].get<std::string>() + ":" + a["id"].get<std::string>() + ":" +
                a["action"].get<std::string>());
  return k;
}

oc::destination_request elsewhere() {
  oc::destination_request r = request();
  r.state_dir = "/state2";
  r.home = "/home2";
  return r;
}

void with_profile(memory& m) {
  m.mkdirs("/pkg/profiles");
  m.write_file("/pkg/profiles/openclaw.yml",
               "schemaVersion: 1\nagent:\n  tools:\n    profile: coding\n    allow: [read]\n"
               "    deny: [exec]\n    fs:\n      workspaceOnly: true\n"
               "  humanDelay:\n    mode: natural\n");
}

}  // namespace

TEST_SUITE("openclaw export") {
  TEST_CASE("exports a workspace back into a package that inspects clean and plans the same") {
    memory m;
    package(m, "\n# Demo\n\nBe kind.\n");
    with_profile(m);
    REQUIRE(add_consented(m).ok);
    const auto original = oc::read_package(m, "/pkg");
    const value original_plan =
        oc::to_json(oc::plan_add(m, original, elsewhere(), without_packages()));
    const auto r = oc::export_claw(m, request(), export_to());
    INFO(oc::to_json(r).dump(2));
    REQUIRE(r.ok);
    CHECK(oc::to_json(r)["schemaVersion"] == "openclaw.clawExportResult.v1");
    CHECK(oc::to_json(r)["outputDirectory"] == "/out/demo");
    CHECK(oc::to_json(r)["filesWritten"] ==
          value::array({"CLAW.md", "package.json", "profiles/openclaw.yml", "workspace/AGENTS.md",
                        "workspace/ref/policy.md"}));
    const auto pkg = oc::read_package(m, "/out/demo");
    INFO(oc::to_json(pkg.diagnostics).dump());
    REQUIRE(pkg.ok());
    CHECK(pkg.diagnostics.empty());
    for (const auto& s : pkg.sources) CHECK_FALSE(s.problem);
    // The SOUL.md body is the CLAW.md body again, byte for byte.
    REQUIRE(pkg.body);
    CHECK(*pkg.body == "\n# Demo\n\nBe kind.\n");
    // Named as OpenClaw 2026.9.6 names every export (issue 42 §2.5; issue 27 item 7d kept
    // the installed identity): a derivative package, the installed one named in the note.
    CHECK(pkg.source.name == "openclaw-claw-demo");
    CHECK(pkg.source.version.rfind("0.0.0-export.", 0) == 0);
    CHECK(oc::to_json(r)["package"]["naming"] == "generated");
    CHECK(oc::to_json(r)["package"]["namingNote"].get<std::string>().find(
              "exported from demo-claw@1.0.0") != std::string::npos);
    REQUIRE(pkg.profile);
    CHECK(pkg.profile->agent["tools"]["deny"] == value::array({"exec"}));
    CHECK(pkg.profile->agent["humanDelay"]["mode"] == "natural");
    const value exported_plan = oc::to_json(oc::plan_add(m, pkg, elsewhere(), without_packages()));
    CHECK(action_keys(exported_plan) == action_keys(original_plan));
    // Same file digests, same agent settings.
    for (const auto& a : original_plan["actions"]) {
      if (!a.contains("digest")) continue;
      const value* b = action_of(exported_plan, a["kind"], a["id"]);
      REQUIRE(b);
      CHECK(b->at("digest") == a["digest"]);
    }
    CHECK(exported_plan["agent"]["config"]["tools"] == original_plan["agent"]["config"]["tools"]);
    // Deterministic: a second export is byte-identical.
    REQUIRE(oc::export_claw(m, request(), export_to("/out/again")).ok);
    CHECK(m.snapshot("/out/again") == m.snapshot("/out/demo"));
    // No staging directory is left beside it.
    for (const auto& e : m.snapshot("/out"))
      CHECK(e.first.find(".clawport-claw-") == std::string::npos);
  }

  TEST_CASE("export refusals write nothing") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    const auto refused = [&](const std::string& code, const oc::export_request& x = export_to()) {
      CAPTURE(code);
      const auto before = world_out(m);
      const auto r = oc::export_claw(m, request(), x);
      INFO(oc::to_json(r).dump());
      CHECK_FALSE(r.ok);
      CHECK(oc::to_json(r)["status"] == "failed");
      CHECK(oc::to_json(r)["error"]["code"] == code);
      CHECK(world_out(m) == before);
    };
    oc::export_request nobody = export_to();
    nobody.agent = "nobody";
    refused("claw_not_found", nobody);
    m.mkdirs("/out/demo");
    refused("output_collision");
    m.write_file("/out/file", "x");
    refused("output_collision", export_to("/out/file"));
    oc::export_request bad_boot = export_to();
    bad_boot.bootstrap = "/nowhere/BOOTSTRAP.md";
    refused("export_bootstrap_invalid", bad_boot);
    // Drift of a managed file, then of the agent entry, then of an MCP server.
    const std::string agents = m.read_file(ws + "/AGENTS.md");
    m.write_file(ws + "/AGENTS.md", "edited\n");
    refused("workspace_files_drifted", export_to("/out/new"));
    m.write_file(ws + "/AGENTS.md", agents);
    const std::string cfg = m.read_file("/state/openclaw.json");
    value c = value::parse(cfg);
    c["mcp"]["servers"]["docs"]["url"] = "https://other.example.com/mcp";
    m.write_file("/state/openclaw.json", c.dump());
    refused("mcp_servers_unavailable", export_to("/out/new"));
    c = value::parse(cfg);
    c["agents"]["entries"]["demo"]["name"] = "Renamed";
    m.write_file("/state/openclaw.json", c.dump());
    refused("agent_drifted", export_to("/out/new"));
    c = value::parse(cfg);
    c["agents"]["entries"].erase("demo");
    m.write_file("/state/openclaw.json", c.dump());
    refused("agent_missing", export_to("/out/new"));
    c = value::parse(cfg);
    c["agents"]["entries"]["demo"]["workspace"] = "/elsewhere";
    m.write_file("/state/openclaw.json", c.dump());
    refused("workspace_changed", export_to("/out/new"));
    m.write_file("/state/openclaw.json", cfg);
    value l = ledger_of(m);
    l["installs"]["demo"]["status"] = "partial";
    const std::string ledger_text = m.read_file("/state/clawport-claws.json");
    m.write_file("/state/clawport-claws.json", l.dump());
    refused("install_incomplete", export_to("/out/new"));
    m.write_file("/state/clawport-claws.json", ledger_text);
    CHECK(oc::export_claw(m, request(), export_to("/out/new")).ok);
  }

  TEST_CASE("export never carries a secret or a state file (the workspace doctor's rule)") {
    memory m;
    package(m);
    m.write_file("/pkg/ws/secrets.txt", "token\n");
    std::string claw = m.read_file("/pkg/CLAW.md");
    const std::string at = "    - {source: ws/ref/policy.md, path: ref/policy.md}\n";
    claw.insert(claw.find(at) + at.size(), "    - {source: ws/secrets.txt, path: secrets.txt}\n");
    m.write_file("/pkg/CLAW.md", claw);
    REQUIRE(add_consented(m).ok);
    const auto before = world_out(m);
    const auto r = oc::export_claw(m, request(), export_to());
    CHECK(oc::to_json(r)["error"]["code"] == "export_forbidden_file");
    CHECK(oc::to_json(r)["error"]["message"].get<std::string>().find("secrets.txt") !=
          std::string::npos);
    CHECK(world_out(m) == before);
  }

  TEST_CASE("--bootstrap carries a Markdown file as the package's BOOTSTRAP.md") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    m.write_file("/home/boot.md", "# Hello\n\nIntroduce yourself.\n");
    oc::export_request x = export_to();
    x.bootstrap = "/home/boot.md";
    const auto r = oc::export_claw(m, request(), x);
    INFO(oc::to_json(r).dump());
    REQUIRE(r.ok);
    const auto pkg = oc::read_package(m, "/out/demo");
    REQUIRE(pkg.bootstrap);
    CHECK(*pkg.bootstrap == "# Hello\n\nIntroduce yourself.\n");
  }

  TEST_CASE("an export is a new Claw: it adds elsewhere, and is not an update of its source") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    REQUIRE(oc::export_claw(m, request(), export_to()).ok);
    const auto exported = oc::read_package(m, "/out/demo");
    REQUIRE(exported.ok());
    // Added to another install, the ledger there records the export's own identity.
    const value plan = oc::to_json(oc::plan_add(m, exported, elsewhere(), without_packages()));
    REQUIRE(plan["blockers"].empty());
    const auto added = oc::apply_add(m, exported, elsewhere(), without_packages(),
                                     yes(plan["planIntegrity"].get<std::string>()), now);
    INFO(oc::to_json(added).dump());
    REQUIRE(added.ok);
    const value there = value::parse(m.read_file("/state2/clawport-claws.json"));
    CHECK(there["installs"]["demo"]["claw"]["name"] == "openclaw-claw-demo");
    CHECK(there["installs"]["demo"]["claw"]["version"] == exported.source.version);
    // The Claw it came from refuses it as an update source: another package's identity
    // (as upstream names exports, issue 42 §2.5).
    const oc::update_plan up = oc::plan_update(m, request(), "demo", std::string("/out/demo"));
    INFO(up.plan.dump());
    CHECK(up.blocked);
    CHECK(up.plan["blockers"][0]["code"] == "claw_identity_mismatch");
  }

  TEST_CASE("a Claw added from a development manifest is exported under upstream's naming") {
    memory m;
    package(m);
    const auto dev = oc::read_package(m, "/pkg/CLAW.md");
    REQUIRE(dev.ok());
    REQUIRE(dev.source.kind == "development");
    const value plan = oc::to_json(oc::plan_add(m, dev, request(), without_packages()));
    REQUIRE(oc::apply_add(m, dev, request(), without_packages(),
                          yes(plan["planIntegrity"].get<std::string>()), now)
                .ok);
    const auto r = oc::export_claw(m, request(), export_to());
    INFO(oc::to_json(r).dump());
    REQUIRE(r.ok);
    CHECK(oc::to_json(r)["package"]["name"] == "openclaw-claw-demo");
    CHECK(oc::to_json(r)["package"]["naming"] == "generated");
    CHECK_FALSE(oc::to_json(r)["package"].contains("namingNote"));  // no package to name
    const std::string version = oc::to_json(r)["package"]["version"].get<std::string>();
    CHECK(version.rfind("0.0.0-export.", 0) == 0);
    CHECK(version.size() == 13 + 64);
    CHECK(oc::result_text(r).find("  note:") == std::string::npos);
    const auto pkg = oc::read_package(m, "/out/demo");
    CHECK(pkg.source.name == "openclaw-claw-demo");
    CHECK(pkg.source.version == version);
  }

  TEST_CASE("fault sweep: a failing export leaves no package directory and changes nothing") {
    std::size_t ops = 0;
    {
      faulty<memory> f;
      package(f.inner());
      REQUIRE(add_consented(f).ok);
      f.reset_counts();
      REQUIRE(oc::export_claw(f, request(), export_to()).ok);
      ops = f.count();
    }
    REQUIRE(ops > 10);
    std::size_t failed = 0;
    for (std::size_t n = 1; n <= ops; ++n) {
      CAPTURE(n);
      faulty<memory> f;
      package(f.inner());
      REQUIRE(add_consented(f).ok);
      const auto before = world_out(f.inner());
      f.reset_counts();
      f.fail_at(n, EIO);
      bool ok = false;
      try {
        ok = oc::export_claw(f, request(), export_to()).ok;
      } catch (const clawport::error&) {
      }
      if (ok) {
        CHECK(oc::read_package(f.inner(), "/out/demo").ok());
        continue;
      }
      ++failed;
      CHECK(world_out(f.inner()) == before);
    }
    CHECK(failed > ops / 2);
  }
}

// ---------------------------------------------------------------------------------------
// update (§6.3)
// ---------------------------------------------------------------------------------------

namespace {

/// Version 1.1.0 of the package: AGENTS.md and the body changed, ref/policy.md dropped,
/// notes/new.md new, the MCP server moved; the skill package and the cron job as before
/// unless `skill_version` / `cron_message` change them.
void package_v2(memory& m, const std::string& skill_version = "1.0.0",
                const std::string& cron_message = "Summarize.") {
  m.mkdirs("/pkg/ws/notes");
  m.write_file("/pkg/package.json",
               "{\"name\": \"demo-claw\", \"version\": \"1.1.0\", \"openclaw\": {\"claw\": "
               "\"CLAW.md\"}}");
  m.write_file("/pkg/CLAW.md",
               "---\nschemaVersion: 1\nagent:\n  id: demo\nworkspace:\n  bootstrapFiles:\n"
               "    AGENTS.md: {source: ws/AGENTS.md}\n  files:\n"
               "    - {source: ws/notes/new.md, path: notes/new.md}\n"
               "packages:\n  - {kind: skill, source: clawhub, ref: demo-skill, version: " +
                   skill_version +
                   "}\n"
                   "mcpServers:\n  docs:\n    url: https://mcp2.example.com/mcp\n"
                   "    transport: streamable-http\n"
                   "cronJobs:\n  - id: digest\n    schedule: {cron: \"0 9 * * 1\", timezone: "
                   "UTC}\n    session: isolated\n    message: " +
                   cron_message + "\n---\nBe kinder.\n");
  m.write_file("/pkg/ws/AGENTS.md", "agents v2\n");
  m.write_file("/pkg/ws/notes/new.md", "new\n");
}

template <class Fs>
oc::update_plan update_plan_of(Fs& fs, const std::optional<std::string>& from = std::nullopt) {
  return oc::plan_update(fs, request(), "demo", from);
}

template <class Fs>
oc::update_outcome update_consented(Fs& fs, const std::optional<std::string>& from = std::nullopt) {
  const oc::update_plan up = update_plan_of(fs, from);
  const std::string integrity = up.plan["planIntegrity"].get<std::string>();
  return oc::apply_update(fs, request(), "demo", from, yes(integrity), now);
}

std::string verb_of(const value& plan, const std::string& kind, const std::string& id) {
  const value* a = action_of(plan, kind, id);
  return a ? a->at("action").get<std::string>() : "(none)";
}

}  // namespace

TEST_SUITE("openclaw update") {
  TEST_CASE("plans added, changed, removed and unchanged actions with its own integrity") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    package_v2(m);
    const auto before = world(m);
    const oc::update_plan up = update_plan_of(m);
    const value& p = up.plan;
    INFO(p.dump(2));
    CHECK(p["schemaVersion"] == "openclaw.clawUpdatePlan.v1");
    CHECK(p["found"] == true);
    CHECK_FALSE(up.blocked);
    CHECK(p["currentClaw"]["version"] == "1.0.0");
    CHECK(p["targetClaw"]["version"] == "1.1.0");
    CHECK(verb_of(p, "agent", "demo") == "unchanged");
    CHECK(verb_of(p, "workspaceFile", "AGENTS.md") == "change");
    CHECK(verb_of(p, "workspaceFile", "SOUL.md") == "change");
    CHECK(verb_of(p, "workspaceFile", "ref/policy.md") == "remove");
    CHECK(verb_of(p, "workspaceFile", "notes/new.md") == "add");
    CHECK(verb_of(p, "mcpServer", "docs") == "change");
    CHECK(verb_of(p, "package", "skill:demo-skill") == "unchanged");
    CHECK(verb_of(p, "cronJob", "digest") == "unchanged");
    CHECK(p["summary"]["added"] == 1);
    CHECK(p["summary"]["changed"] == 3);
    CHECK(p["summary"]["removed"] == 1);
    CHECK(p["summary"]["manual"] == 0);
    REQUIRE(p["capabilityChanges"].size() == 1);
    CHECK(p["capabilityChanges"][0]["classification"] == "escalation");
    // Its own integrity: sha256(stableStringify(plan without planIntegrity)); stable.
    value bound = p;
    bound.erase("planIntegrity");
    CHECK(p["planIntegrity"] ==
          "sha256:" + clawport::digest::sha256_hex(clawport::json::stable_stringify(bound)));
    CHECK(update_plan_of(m).plan["planIntegrity"] == p["planIntegrity"]);
    // Sorted by "<kind>:<id>".
    for (std::size_t k = 1; k < p["actions"].size(); ++k) {
      const auto key = [&](std::size_t i) {
        return p["actions"][i]["kind"].get<std::string>() + ":" +
               p["actions"][i]["id"].get<std::string>();
      };
      CHECK_FALSE(oc::detail::locale_less(key(k), key(k - 1)));
    }
    CHECK(world(m) == before);  // the dry run wrote nothing
  }

  TEST_CASE("round trip: add, clean, drift, update refused, restore, update, remove") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    CHECK(status_of(m)["summary"]["driftedFiles"] == 0);
    const std::string agents = m.read_file(ws + "/AGENTS.md");
    m.write_file(ws + "/AGENTS.md", "my edit\n");
    CHECK(status_of(m)["summary"]["driftedFiles"] == 1);
    package_v2(m);
    // Drift is refused: the edited file is a manual action and blocks the update.
    const oc::update_plan drifted = update_plan_of(m);
    CHECK(drifted.blocked);
    CHECK(verb_of(drifted.plan, "workspaceFile", "AGENTS.md") == "manual");
    CHECK(drifted.plan["blockers"][0]["code"] == "workspace_file_drift");
    const auto before = world(m);
    const auto refused = oc::apply_update(m, request(), "demo", std::nullopt,
                                          yes(drifted.plan["planIntegrity"]), now);
    CHECK_FALSE(refused.ok);
    CHECK(oc::to_json(refused)["error"]["code"] == "update_blocked");
    CHECK(world(m) == before);
    CHECK(m.read_file(ws + "/AGENTS.md") == "my edit\n");  // never overwritten
    // Restored, the update applies.
    m.write_file(ws + "/AGENTS.md", agents);
    const auto r = update_consented(m);
    INFO(oc::to_json(r).dump(2));
    REQUIRE(r.ok);
    CHECK(oc::to_json(r)["schemaVersion"] == "openclaw.clawUpdateResult.v1");
    CHECK(oc::to_json(r)["status"] == "complete");
    CHECK(oc::to_json(r)["previousClaw"]["version"] == "1.0.0");
    CHECK(oc::to_json(r)["targetClaw"]["version"] == "1.1.0");
    CHECK(m.read_file(ws + "/AGENTS.md") == "agents v2\n");
    CHECK(m.read_file(ws + "/SOUL.md") == "Be kinder.\n");
    CHECK(m.read_file(ws + "/notes/new.md") == "new\n");
    CHECK_FALSE(m.lstat(ws + "/ref/policy.md"));
    const value cfg = value::parse(m.read_file("/state/openclaw.json"));
    CHECK(cfg["mcp"]["servers"]["docs"]["url"] == "https://mcp2.example.com/mcp");
    const value rec = ledger_of(m)["installs"]["demo"];
    CHECK(rec["claw"]["version"] == "1.1.0");
    CHECK(rec["planIntegrity"] == oc::to_json(r)["planIntegrity"]);
    CHECK(rec["addedAt"] == now);
    CHECK(rec["workspaceFiles"].size() == 3);
    // Clean again; a second plan has nothing left to do.
    const value s = status_of(m);
    CHECK(s["summary"]["driftedFiles"] == 0);
    CHECK(s["summary"]["driftedMcpServers"] == 0);
    CHECK(s["records"][0]["agentState"] == "present");
    const value again = update_plan_of(m).plan;
    CHECK(again["summary"]["totalActions"] == again["summary"]["unchanged"]);
    for (const auto& e : m.snapshot(ws))
      CHECK(e.first.find(".clawport-update-") == std::string::npos);
    // And it removes cleanly.
    const value rp = oc::plan_remove(m, request(), "demo");
    REQUIRE(oc::apply_remove(m, request(), "demo", yes(rp["planIntegrity"]), now).ok);
    CHECK_FALSE(m.lstat(ws));
    CHECK(status_of(m)["records"].empty());
  }

  TEST_CASE("update refusals write nothing") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    package_v2(m);
    const std::string good = update_plan_of(m).plan["planIntegrity"].get<std::string>();
    const auto refused = [&](const std::string& code, const std::string& target,
                             const oc::consent& c,
                             const std::optional<std::string>& from = std::nullopt) {
      CAPTURE(code);
      const auto before = world(m);
      const auto r = oc::apply_update(m, request(), target, from, c, now);
      INFO(oc::to_json(r).dump());
      CHECK_FALSE(r.ok);
      CHECK(oc::to_json(r)["error"]["code"] == code);
      CHECK(world(m) == before);
      return oc::to_json(r);
    };
    refused("consent_required", "demo", oc::consent{});
    oc::consent bare;
    bare.yes = true;
    refused("plan_integrity_required", "demo", bare);
    refused("plan_integrity_mismatch", "demo", yes("sha256:00"));
    const value nf = oc::plan_update(m, request(), "nobody").plan;
    CHECK(nf["found"] == false);
    CHECK(nf["blockers"][0]["code"] == "claw_not_found");
    refused("update_blocked", "nobody", yes(nf["planIntegrity"]));
    // Another package's name.
    m.mkdirs("/other");
    m.write_file("/other/package.json",
                 "{\"name\": \"other-claw\", \"version\": \"1.0.0\", \"openclaw\": {\"claw\": "
                 "\"CLAW.md\"}}");
    m.write_file("/other/CLAW.md", "---\nschemaVersion: 1\nagent:\n  id: demo\n---\nHi.\n");
    const value other = update_plan_of(m, std::string("/other")).plan;
    CHECK(other["blockers"][0]["code"] == "claw_identity_mismatch");
    refused("update_blocked", "demo", yes(other["planIntegrity"]), std::string("/other"));
    // An unmanaged file where the new version puts a file.
    m.mkdirs(ws + "/notes");
    m.write_file(ws + "/notes/new.md", "mine\n");
    const value occupied = update_plan_of(m).plan;
    CHECK(verb_of(occupied, "workspaceFile", "notes/new.md") == "manual");
    CHECK(occupied["blockers"][0]["code"] == "workspace_file_collision");
    refused("update_blocked", "demo", yes(occupied["planIntegrity"]));
    CHECK(m.read_file(ws + "/notes/new.md") == "mine\n");
    m.remove(ws + "/notes");
    // The agent entry changed by hand.
    const std::string cfg = m.read_file("/state/openclaw.json");
    value c = value::parse(cfg);
    c["agents"]["entries"]["demo"]["name"] = "Mine";
    m.write_file("/state/openclaw.json", c.dump());
    const value modified = update_plan_of(m).plan;
    CHECK(verb_of(modified, "agent", "demo") == "manual");
    refused("update_blocked", "demo", yes(modified["planIntegrity"]));
    m.write_file("/state/openclaw.json", cfg);
    // The recorded source is gone.
    m.rename("/pkg", "/pkg-moved");
    const value gone = update_plan_of(m).plan;
    CHECK(gone["blockers"][0]["code"] == "recorded_source_unavailable");
    refused("update_blocked", "demo", yes(gone["planIntegrity"]));
    m.rename("/pkg-moved", "/pkg");
    // The consented plan still applies after all of that.
    CHECK(oc::apply_update(m, request(), "demo", std::nullopt, yes(good), now).ok);
  }

  TEST_CASE("issue 23: one plan module: add, update and remove hash and refuse through plan/") {
    namespace pl = clawport::plan;
    memory m;
    package(m);
    const auto pkg = oc::read_package(m, "/pkg");
    const value add_doc = oc::to_json(oc::plan_add(m, pkg, request(), without_packages()));
    CHECK(add_doc["planIntegrity"] == plan_documents::add_integrity(add_doc));
    REQUIRE(add_consented(m).ok);
    package_v2(m);
    const value up = update_plan_of(m).plan;
    CHECK(up["planIntegrity"] == plan_documents::update_integrity(up));
    const value rm = oc::plan_remove(m, request(), "demo");
    CHECK(rm["planIntegrity"] == plan_documents::remove_integrity(rm));
    // A remove plan of nothing binds an undefined agent id (stableStringify keeps it).
    const value none = oc::plan_remove(m, request(), "nobody");
    CHECK_FALSE(none.contains("agentId"));
    CHECK(plan_documents::remove_text(none).find("\"agentId\":undefined") != std::string::npos);
    // One refusal, one rendering: every command's mismatch document is plan::message's.
    const pl::refusal r = *pl::check_integrity("sha256:00", up["planIntegrity"]);
    CHECK(r.code() == clawport::errc::plan_integrity_mismatch);
    const auto u = oc::apply_update(m, request(), "demo", std::nullopt, yes("sha256:00"), now);
    CHECK(oc::to_json(u)["error"]["message"] == pl::message(r, {"update", "update --dry-run"}));
    CHECK(oc::to_json(u)["planIntegrity"] == up["planIntegrity"]);
    const auto d = oc::apply_remove(m, request(), "demo", yes("sha256:00"), now);
    CHECK(oc::to_json(d)["error"]["message"] ==
          "The consented remove plan no longer matches; run remove --dry-run again.");
    CHECK(oc::to_json(d)["planIntegrity"] == rm["planIntegrity"]);
    // --yes semantics: consent first, then the integrity, then the plan.
    CHECK(pl::check_given(oc::consent{})->kind == pl::refusal_kind::consent_required);
    CHECK(pl::check(yes("x"), "x") == std::nullopt);
    oc::consent bare;
    bare.yes = true;
    CHECK(pl::check(bare, "x")->code() == clawport::errc::plan_integrity_required);
  }

  TEST_CASE("issue 23: the remove and update plans are typed; their documents are renderings") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    package_v2(m);
    const oc::update_plan up = update_plan_of(m);
    CHECK(up.agent_id == "demo");
    CHECK(up.integrity == up.plan["planIntegrity"]);
    REQUIRE(up.action(oc::update_kind::workspace_file, "AGENTS.md") != nullptr);
    CHECK(up.action(oc::update_kind::workspace_file, "AGENTS.md")->verb == oc::update_verb::change);
    CHECK(up.action(oc::update_kind::workspace_file, "ref/policy.md")->verb ==
          oc::update_verb::remove);
    CHECK(up.action(oc::update_kind::workspace_file, "ref/policy.md")->current_present);
    CHECK(up.action(oc::update_kind::workspace_file, "notes/new.md")->verb == oc::update_verb::add);
    REQUIRE(up.actions.size() == up.plan["actions"].size());
    for (std::size_t k = 0; k < up.actions.size(); ++k) {
      CHECK(up.plan["actions"][k]["kind"] == std::string(oc::to_string(up.actions[k].kind)));
      CHECK(up.plan["actions"][k]["id"] == up.actions[k].id);
      CHECK(up.plan["actions"][k]["action"] == std::string(oc::to_string(up.actions[k].verb)));
    }
    const oc::remove_plan rp = oc::build_remove_plan(m, request(), "demo");
    CHECK(oc::to_json(rp) == oc::plan_remove(m, request(), "demo"));
    CHECK(rp.agent_id == std::optional<std::string>("demo"));
    CHECK(rp.blockers.empty());
    CHECK(rp.ids(oc::remove_kind::agent, oc::remove_verb::remove) ==
          std::vector<std::string>{"demo"});
    CHECK(rp.ids(oc::remove_kind::install_record, oc::remove_verb::erase) ==
          std::vector<std::string>{"demo"});
    const oc::remove_plan none = oc::build_remove_plan(m, request(), "nobody");
    REQUIRE(none.blockers.size() == 1);
    CHECK(none.blockers[0].code == clawport::errc::claw_not_found);
    CHECK_FALSE(none.agent_id);
  }

  TEST_CASE("a JSON5 openclaw.json is left byte-identical and the workspace is put back") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    value c = value::parse(m.read_file("/state/openclaw.json"));
    const std::string json5 = "// mine\n" + c.dump(2) + "\n";
    m.write_file("/state/openclaw.json", json5);
    package_v2(m);
    const auto before = world(m);
    const auto r = update_consented(m);
    INFO(oc::to_json(r).dump());
    CHECK_FALSE(r.ok);
    CHECK(oc::to_json(r)["error"]["code"] == "mcp_update_failed");
    CHECK(oc::to_json(r)["error"]["snippet"].get<std::string>().find("mcp2.example.com") !=
          std::string::npos);
    CHECK(world(m) == before);
  }

  TEST_CASE("ClawHub packages and cron jobs cannot be applied offline: update_partial") {
    memory m;
    package(m);
    REQUIRE(add_consented(m).ok);
    package_v2(m, "2.0.0", "Summarize twice.");
    const oc::update_plan up = update_plan_of(m);
    CHECK(verb_of(up.plan, "package", "skill:demo-skill") == "change");
    CHECK(verb_of(up.plan, "cronJob", "digest") == "change");
    const auto r = update_consented(m);
    INFO(oc::to_json(r).dump(2));
    CHECK_FALSE(r.ok);
    CHECK(oc::to_json(r)["status"] == "partial");
    CHECK(oc::to_json(r)["error"]["code"] == "update_partial");
    std::set<std::string> codes;
    const value doc = oc::to_json(r);
    for (const auto& n : doc["notApplied"]) codes.insert(n["code"].get<std::string>());
    CHECK(codes == std::set<std::string>{"package_not_installed", "cron_gateway_required"});
    // The human form opens with the error (after the banner) and names each part left undone.
    REQUIRE(r.result);
    const std::string text = oc::result_text(*r.result);
    CHECK(text.find("ERROR update_partial: ") == text.find('\n') + 1);
    CHECK(text.find("Updated agent demo (partial): 1.0.0 -> 1.1.0") != std::string::npos);
    CHECK(text.find("  not applied: package skill:demo-skill (package_not_installed): openclaw "
                    "skills install clawhub:") != std::string::npos);
    CHECK(text.find("  not applied: cronJob digest (cron_gateway_required)\n") !=
          std::string::npos);
    // Everything that can be done offline was done, and the ledger says what is not.
    CHECK(m.read_file(ws + "/AGENTS.md") == "agents v2\n");
    const value rec = ledger_of(m)["installs"]["demo"];
    CHECK(rec["packages"][0]["version"] == "2.0.0");
    CHECK(rec["packages"][0]["status"] == "not_installed");
    CHECK(rec["cronJobs"][0]["status"] == "not_applied");
    CHECK(rec["cronJobs"][0]["job"]["message"] == "Summarize twice.");
    CHECK(status_of(m)["summary"]["driftedFiles"] == 0);
  }

  TEST_CASE("an update failing at its last step, the ledger write, puts back config and files") {
    // Where a successful update publishes the ledger: its last rename.
    std::size_t ledger_rename = 0;
    std::size_t ops = 0;
    std::string integrity;
    {
      faulty<memory> f;
      package(f.inner());
      REQUIRE(add_consented(f).ok);
      package_v2(f.inner());
      const auto before = world(f.inner());
      integrity = update_plan_of(f).plan["planIntegrity"].get<std::string>();
      f.reset_counts();
      REQUIRE(oc::apply_update(f, request(), "demo", std::nullopt, yes(integrity), now).ok);
      ops = f.count();
      const std::string to = " -> clawport-claws.json";
      for (std::size_t i = 0; i < f.log().size(); ++i) {
        const std::string& name = f.log()[i].name;
        if (f.log()[i].op == "rename_at" && name.size() > to.size() &&
            name.compare(name.size() - to.size(), to.size(), to) == 0)
          ledger_rename = i + 1;
      }
      // The steps before it changed openclaw.json and the workspace.
      const auto after = world(f.inner());
      CHECK(after.at("/state/openclaw.json") != before.at("/state/openclaw.json"));
      CHECK(after.at(ws + "/AGENTS.md") != before.at(ws + "/AGENTS.md"));
      CHECK_FALSE(after.count(ws + "/ref/policy.md"));
    }
    REQUIRE(ledger_rename > 0);
    // The rename fails, or the flush after it (the ledger is replaced by then).
    for (const std::size_t n : {ledger_rename, ledger_rename + 1}) {
      if (n > ops) continue;
      CAPTURE(n);
      faulty<memory> f;
      package(f.inner());
      REQUIRE(add_consented(f).ok);
      package_v2(f.inner());
      const auto before = world(f.inner());
      f.reset_counts();
      f.fail_at(n, EIO);
      const auto r = oc::apply_update(f, request(), "demo", std::nullopt, yes(integrity), now);
      INFO(oc::to_json(r).dump(2));
      CHECK_FALSE(r.ok);
      CHECK(oc::to_json(r)["error"]["code"] == "provenance_update_failed");
      const std::string message = oc::to_json(r)["error"]["message"].get<std::string>();
      CHECK(message.find("; everything this update did was undone") != std::string::npos);
      CHECK(world(f.inner()) == before);  // openclaw.json, the workspace and the ledger
    }
  }

  TEST_CASE("fault sweep: every failing operation of update leaves the previous state intact") {
    std::size_t ops = 0;
    std::string integrity;
    {
      faulty<memory> f;
      package(f.inner());
      REQUIRE(add_consented(f).ok);
      package_v2(f.inner());
      integrity = update_plan_of(f).plan["planIntegrity"].get<std::string>();
      f.reset_counts();
      REQUIRE(oc::apply_update(f, request(), "demo", std::nullopt, yes(integrity), now).ok);
      ops = f.count();
    }
    REQUIRE(ops > 20);
    std::size_t failed = 0;
    for (std::size_t n = 1; n <= ops; ++n) {
      CAPTURE(n);
      faulty<memory> f;
      package(f.inner());
      REQUIRE(add_consented(f).ok);
      package_v2(f.inner());
      const auto before = world(f.inner());
      f.reset_counts();
      f.fail_at(n, EIO);
      bool ok = false;
      try {
        ok = oc::apply_update(f, request(), "demo", std::nullopt, yes(integrity), now).ok;
      } catch (const clawport::error&) {
      }
      memory& m = f.inner();
      // Either way the ledger accounts for the disk exactly.
      CHECK(status_of(m)["summary"]["driftedFiles"] == 0);
      CHECK(status_of(m)["summary"]["driftedMcpServers"] == 0);
      CHECK(status_of(m)["records"][0]["agentState"] == "present");
      if (ok) {
        CHECK(ledger_of(m)["installs"]["demo"]["claw"]["version"] == "1.1.0");
        continue;
      }
      ++failed;
      CHECK(world(m) == before);
    }
    CHECK(failed > ops / 2);
  }
}
