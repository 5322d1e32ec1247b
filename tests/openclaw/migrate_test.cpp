// SPDX-License-Identifier: MIT
// `claw migrate` offline on fs::memory: the plan (openclaw.clawMigrationPlan.v1) is stable
// and read-only, binds the generated package's files and what stays unmanaged; refusals
// write nothing; apply publishes the package and records the install; an fs::faulty sweep
// proves a failing migration leaves the state directory and the workspace as they were.
// Cases that mirror upstream's src/claws/migrate.test.ts (openclaw/openclaw) say so.
#include "support/test.hpp"

#include <cerrno>
#include <map>
#include <string>

namespace {

namespace oc = clawport::openclaw;
using clawport::fs::faulty;
using clawport::fs::memory;
using oc::value;

const std::string now = "2026-12-02T12:00:00+00:00";
const std::string ws = "/home/ws";
const std::string package_root = "/state/claws/local/worker";

/// An agent that never came from a package: its entry in openclaw.json and a workspace
/// with two prompt files and one file no Claw manages.
void agent(memory& m, const std::string& entry =
                          "{\"workspace\": \"/home/ws\", \"name\": "
                          "\"Existing worker\"}") {
  m.mkdirs(ws);
  m.mkdirs("/state");
  m.write_file(ws + "/AGENTS.md", "# Existing agent\n");
  m.write_file(ws + "/SOUL.md", "Use the current voice.\n");
  m.write_file(ws + "/unrelated.json", "{\"keep\":true}\n");
  m.write_file("/state/openclaw.json", "{\"agents\": {\"entries\": {\"worker\": " + entry + "}}}");
}

oc::destination_request request() {
  oc::destination_request r;
  r.home = "/home";
  r.cwd = "/";
  r.state_dir = "/state";
  return r;
}

template <class Fs>
oc::migration_plan plan(Fs& fs, const std::string& id = "worker") {
  return oc::plan_migration(fs, request(), id);
}

oc::consent yes(const std::string& integrity) {
  oc::consent c;
  c.yes = true;
  c.plan_integrity = integrity;
  return c;
}

template <class Fs>
oc::migration_outcome migrate(Fs& fs, const oc::consent& c) {
  return oc::apply_migration(fs, request(), "worker", c, now);
}

template <class Fs>
oc::migration_outcome migrate_consented(Fs& fs) {
  return migrate(fs, yes(plan(fs).integrity));
}

std::map<std::string, std::string> world(memory& m) {
  std::map<std::string, std::string> all;
  for (const char* root : {"/state", "/home"}) {
    if (!m.lstat(root)) continue;
    for (const auto& e : m.snapshot(root)) all[std::string(root) + "/" + e.first] = e.second;
  }
  return all;
}

std::string first_blocker(const oc::migration_plan& p) {
  return p.blockers.empty() ? std::string() : std::string(to_string(p.blockers[0].code));
}

}  // namespace

TEST_SUITE("openclaw migrate") {
  TEST_CASE("builds a stable read-only plan without creating a package or ledger") {
    // upstream: migrate.test.ts "builds a stable read-only plan without creating a package
    // or state database"
    memory m;
    agent(m);
    const auto before = world(m);
    const oc::migration_plan first = plan(m);
    const oc::migration_plan second = plan(m);
    REQUIRE_FALSE(first.blocked());
    CHECK(first.integrity == second.integrity);
    CHECK(first.integrity.rfind("sha256:", 0) == 0);
    CHECK(world(m) == before);
    const value doc = oc::to_json(first);
    CHECK(doc["schemaVersion"] == "openclaw.clawMigrationPlan.v1");
    CHECK(doc["dryRun"] == true);
    CHECK(doc["mutationAllowed"] == false);
    CHECK(doc["workspace"] == ws);
    CHECK(doc["packageRoot"] == package_root);
    CHECK(doc["agent"]["name"] == "Existing worker");
    value paths = value::array();
    for (const auto& f : doc["generatedPackageFiles"]) paths.push_back(f["path"]);
    CHECK(paths == value::array({"CLAW.md", "package.json", "workspace/AGENTS.md"}));
    CHECK(doc["workspaceFiles"][0]["path"] == ws + "/AGENTS.md");
    CHECK(doc["workspaceFiles"][1]["path"] == ws + "/SOUL.md");
    CHECK(doc["workspaceFiles"].size() == 2);

    m.write_file(ws + "/AGENTS.md", "# Updated agent\n");
    CHECK(plan(m).integrity != first.integrity);
  }

  TEST_CASE("the digest binds the add plan, the generated files and the retained list") {
    memory m;
    agent(m);
    const oc::migration_plan p = plan(m);
    REQUIRE_FALSE(p.blocked());
    // Recomputed from the plan's parts as upstream digests them: stableStringify of
    // {schemaVersion, addPlan, packageFiles[{path, digest, byteLength}], retained}.
    value files = value::array();
    for (const auto& f : p.package_files)
      files.push_back(
          value::object({{"byteLength", f.byte_length}, {"digest", f.digest}, {"path", f.path}}));
    value bound = value::object({{"schemaVersion", "openclaw.clawMigrationPlan.v1"},
                                 {"addPlan", oc::to_json(p.add)},
                                 {"packageFiles", files},
                                 {"retained", oc::migration_retained()}});
    CHECK(p.integrity == clawport::plan::integrity_of(oc::stable_stringify(bound)));
    // The files are in localeCompare order and each digest is of the bytes published.
    for (std::size_t k = 1; k < p.package_files.size(); ++k)
      CHECK(oc::detail::locale_less(p.package_files[k - 1].path, p.package_files[k].path));
    // A setting that reaches the profile changes the generated files and the digest.
    memory m2;
    agent(m2,
          "{\"workspace\": \"/home/ws\", \"name\": \"Existing worker\", \"humanDelay\": "
          "{\"mode\": \"natural\"}}");
    const oc::migration_plan q = plan(m2);
    REQUIRE_FALSE(q.blocked());
    CHECK(q.integrity != p.integrity);
    bool profile = false;
    for (const auto& f : q.package_files) profile = profile || f.path == "profiles/openclaw.yml";
    CHECK(profile);
  }

  TEST_CASE("retains BOOTSTRAP.md and every other workspace file, unmanaged") {
    memory m;
    agent(m);
    m.write_file(ws + "/BOOTSTRAP.md", "seed\n");
    m.write_file(ws + "/USER.md", "private\n");
    const oc::migration_plan p = plan(m);
    REQUIRE_FALSE(p.blocked());
    CHECK(p.workspace_files.size() == 2);
    for (const auto& f : p.package_files) {
      CHECK(f.path.find("BOOTSTRAP") == std::string::npos);
      CHECK(f.path.find("USER.md") == std::string::npos);
      CHECK(f.path.find("unrelated") == std::string::npos);
    }
    CHECK(oc::migration_retained().size() == 5);
    CHECK(oc::migration_retained()[0] == "BOOTSTRAP.md (one-time workspace seed)");
    REQUIRE(migrate(m, yes(p.integrity)).ok);
    const value ledger = value::parse(m.read_file("/state/clawport-claws.json"));
    const value& rec = ledger["installs"]["worker"];
    CHECK(rec["workspaceFiles"].size() == 2);
    for (const auto& f : rec["workspaceFiles"]) CHECK(f["origin"] == "adopted");
    CHECK(m.read_file(ws + "/BOOTSTRAP.md") == "seed\n");
  }

  TEST_CASE("refuses when the package destination exists, writing nothing") {
    memory m;
    agent(m);
    m.mkdirs(package_root);
    const auto before = world(m);
    const oc::migration_plan p = plan(m);
    CHECK(first_blocker(p) == "package_destination_exists");
    CHECK(p.blockers[0].path == "$.packageRoot");
    const auto r = migrate(m, yes(p.integrity));
    CHECK_FALSE(r.ok);
    CHECK(oc::to_json(r)["blockers"][0]["code"] == "package_destination_exists");
    CHECK(world(m) == before);
  }

  TEST_CASE("refusals name the agent, the workspace and the file, and write nothing") {
    const auto refused = [](memory& m, const std::string& id, const std::string& code,
                            const std::string& path) {
      const auto before = world(m);
      const oc::migration_plan p = plan(m, id);
      CHECK(first_blocker(p) == code);
      if (!path.empty() && !p.blockers.empty()) CHECK(p.blockers[0].path == path);
      CHECK_FALSE(oc::apply_migration(m, request(), id, yes(p.integrity), now).ok);
      CHECK(world(m) == before);
    };
    {
      memory m;
      agent(m);
      refused(m, "Worker", "invalid_agent_id", "$.agent.id");
      refused(m, "nobody", "agent_not_found", "$.agent.id");
    }
    {
      // upstream: "fails closed when a selected prompt file is a symbolic link"
      memory m;
      agent(m);
      m.write_file("/home/outside.md", "# Outside file\n");
      m.symlink(ws + "/IDENTITY.md", "/home/outside.md");
      refused(m, "worker", "workspace_file_unsafe", "$.workspace.IDENTITY.md");
    }
    {
      memory m;
      agent(m);
      m.write_file(ws + "/TOOLS.md", std::string("\xff\xfe tools\n"));
      refused(m, "worker", "workspace_file_encoding_unsupported", "$.workspace.TOOLS.md");
    }
    {
      memory m;
      agent(m, "{\"workspace\": \"/home/missing\"}");
      refused(m, "worker", "workspace_unavailable", "$.workspace");
    }
    {
      // upstream: "rejects unrepresentable agent settings"
      memory m;
      agent(m, "{\"workspace\": \"/home/ws\", \"skills\": [\"local-only\"]}");
      refused(m, "worker", "agent_setting_unsupported", "$.agent");
    }
    {
      // upstream: "rejects overlapping nested workspace ownership"
      memory m;
      agent(m);
      m.write_file(
          "/state/openclaw.json",
          "{\"agents\": {\"ownership\": \"explicit\", \"entries\": {\"worker\": "
          "{\"workspace\": \"/home/ws\"}, \"other\": {\"workspace\": \"/home/ws/child\"}}}}");
      refused(m, "worker", "workspace_ownership_ambiguous", "$.workspace");
    }
    {
      memory m;
      agent(m);
      REQUIRE(migrate_consented(m).ok);
      refused(m, "worker", "agent_already_managed", "$.agent.id");
    }
  }

  TEST_CASE("apply publishes the package and records the install in the ledger") {
    memory m;
    agent(m);
    const oc::migration_plan p = plan(m);
    const auto r = migrate(m, yes(p.integrity));
    REQUIRE(r.ok);
    const value d = oc::to_json(r);
    CHECK(d["schemaVersion"] == "openclaw.clawMigrationResult.v1");
    CHECK(d["status"] == "complete");
    CHECK(d["dryRun"] == false);
    CHECK(d["agentId"] == "worker");
    CHECK(d["packageRoot"] == package_root);
    CHECK(d["planIntegrity"] == p.integrity);
    for (const auto& f : p.tree) CHECK(m.read_file(package_root + "/" + f.first) == f.second);
    CHECK(m.read_file(package_root + "/workspace/AGENTS.md") == "# Existing agent\n");
    const value ledger = value::parse(m.read_file("/state/clawport-claws.json"));
    const value& rec = ledger["installs"]["worker"];
    CHECK(rec["status"] == "complete");
    CHECK(rec["workspaceOrigin"] == "adopted");
    CHECK(rec["claw"]["packageRoot"] == package_root);
    CHECK(rec["planIntegrity"] == p.integrity);
    // The package reads clean where it was published, and the agent is a Claw like any:
    // status finds nothing drifted.
    CHECK(oc::read_package(m, package_root).ok());
    const value status = oc::to_json(oc::claw_status(m, request(), std::string("worker")));
    CHECK(status["summary"]["driftedFiles"] == 0);
    CHECK(status["records"][0]["agentState"] == "present");
    // The workspace and openclaw.json are as they were.
    CHECK(m.read_file(ws + "/SOUL.md") == "Use the current voice.\n");
  }

  TEST_CASE("removing a migrated agent retains the agent, workspace and transcripts") {
    // upstream: migrate.test.ts (newest) "retains the agent, its workspace and transcripts
    // and releases the install record" (agentRemoved: false); status: agentOrigin adopted.
    // Issue 42 §2 item 9.
    memory m;
    agent(m);
    m.write_file("/state/agents/worker/sessions/s1.jsonl", "{}\n");
    REQUIRE(migrate_consented(m).ok);
    const value status = oc::to_json(oc::claw_status(m, request(), std::string("worker")));
    CHECK(status["records"][0]["install"]["agentOrigin"] == "adopted");
    const std::string config = m.read_file("/state/openclaw.json");
    const value plan = oc::plan_remove(m, request(), "worker");
    INFO(plan.dump());
    REQUIRE(plan["blockers"].empty());
    bool released = false;
    for (const auto& a : plan["actions"]) {
      if (a["kind"] == "installRecord") continue;  // the one thing a remove deletes here
      CHECK(a["action"] != "delete");
      CHECK(a["action"] != "remove");
      released = released || (a["kind"] == "agent" && a["action"] == "release");
    }
    CHECK(released);
    const auto r = oc::apply_remove(m, request(), "worker", yes(plan["planIntegrity"]), now);
    REQUIRE(r.ok);
    CHECK(oc::to_json(r)["agentRemoved"] == false);
    CHECK(m.read_file("/state/openclaw.json") == config);  // the agent stays configured
    CHECK(m.read_file(ws + "/AGENTS.md") == "# Existing agent\n");
    CHECK(m.read_file(ws + "/SOUL.md") == "Use the current voice.\n");
    CHECK(m.read_file("/state/agents/worker/sessions/s1.jsonl") == "{}\n");
    CHECK_FALSE(
        value::parse(m.read_file("/state/clawport-claws.json"))["installs"].contains("worker"));
  }

  TEST_CASE("an agent without its own workspace exports after migrating") {
    // Issue 42 §2 item 9, as a new user would: `claw migrate worker` then `claw export
    // worker` for an entry with no explicit `workspace` (the one rule resolves it).
    memory m;
    m.mkdirs("/state/workspace-worker");
    m.write_file("/state/workspace-worker/AGENTS.md", "# Worker\n");
    m.write_file("/state/openclaw.json",
                 R"({"agents": {"ownership": "explicit", "entries": {"main": {},
                     "worker": {"name": "Worker"}}}})");
    const oc::migration_plan p = plan(m);
    INFO(oc::to_json(p).dump());
    REQUIRE_FALSE(p.blocked());
    CHECK(p.workspace == "/state/workspace-worker");
    REQUIRE(migrate(m, yes(p.integrity)).ok);
    oc::export_request x;
    x.agent = "worker";
    x.out = "/out/worker";
    const auto r = oc::export_claw(m, request(), x);
    INFO(oc::to_json(r).dump());
    REQUIRE(r.ok);
    CHECK(m.read_file("/out/worker/workspace/AGENTS.md") == "# Worker\n");
  }

  TEST_CASE("consent: without --yes, or with another integrity, nothing is written") {
    memory m;
    agent(m);
    const auto before = world(m);
    const auto none = migrate(m, oc::consent{});
    CHECK_FALSE(none.ok);
    CHECK(oc::to_json(none)["error"]["code"] == "consent_required");
    const auto wrong = migrate(m, yes("sha256:" + std::string(64, '0')));
    CHECK_FALSE(wrong.ok);
    CHECK(oc::to_json(wrong)["error"]["code"] == "plan_integrity_mismatch");
    CHECK(oc::to_json(wrong)["planIntegrity"] == plan(m).integrity);
    CHECK(world(m) == before);
  }

  TEST_CASE("rejects selected workspace changes after consent and cleans the package") {
    // upstream: "rejects selected workspace changes after consent and cleans the generated
    // package": a prompt file changed while the package is staged.
    faulty<memory> f;
    agent(f.inner());
    const std::string integrity = plan(f).integrity;
    const auto before = world(f.inner());
    f.on_op([&](memory& inner, std::string_view op, std::string_view) {
      if (op == "sync_filesystem") inner.write_file(ws + "/AGENTS.md", "# Changed\n");
    });
    const auto r = migrate(f, yes(integrity));
    f.on_op(nullptr);
    CHECK_FALSE(r.ok);
    CHECK(oc::to_json(r)["error"]["code"] == "migration_changed");
    auto after = world(f.inner());
    after[ws + "/AGENTS.md"] = before.at(ws + "/AGENTS.md");
    CHECK(after == before);
  }

  TEST_CASE("fault sweep: every failing operation of migrate leaves nothing behind") {
    std::size_t ops = 0;
    std::string integrity;
    {
      faulty<memory> f;
      agent(f.inner());
      integrity = plan(f).integrity;
      f.reset_counts();
      REQUIRE(migrate(f, yes(integrity)).ok);
      ops = f.count();
    }
    REQUIRE(ops > 10);
    std::size_t failed = 0;
    for (std::size_t n = 1; n <= ops; ++n) {
      CAPTURE(n);
      faulty<memory> f;
      agent(f.inner());
      const auto before = world(f.inner());
      f.reset_counts();
      f.fail_at(n, EIO);
      bool ok = false;
      try {
        ok = migrate(f, yes(integrity)).ok;
      } catch (const clawport::error&) {
      }
      if (ok) {
        const value status = oc::to_json(oc::claw_status(f.inner(), request(), std::nullopt));
        CHECK(status["summary"]["driftedFiles"] == 0);
        continue;
      }
      ++failed;
      CHECK(world(f.inner()) == before);
    }
    CHECK(failed * 2 >= ops);  // most operations matter
  }
}
