// SPDX-License-Identifier: MIT
// `claw update` offline, on fs::memory (the fixture: lifecycle_fixture.hpp): the update plan
// and its integrity, drift refused, the apply and its undo at every failing step; one plan
// module for add, update and remove (issue 23).
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
