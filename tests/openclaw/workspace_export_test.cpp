// SPDX-License-Identifier: MIT
// `workspace resolve|bootstrap|doctor` and `claw export` offline, on fs::memory (the
// fixture: lifecycle_fixture.hpp): the workspace rules, the export back into a package that
// inspects clean and plans the same, its refusals and its fault sweep.
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
