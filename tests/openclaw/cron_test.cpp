// SPDX-License-Identifier: MIT
// Counterparts of upstream's cron tests (openclaw/openclaw, written here in our own words):
// `src/claws/cron.test.ts` (030028cf), `src/claws/cron-update.test.ts` and
// `src/claws/cron-provenance-guard.test.ts` (13dced1a). Upstream schedules a Claw's cron
// jobs through a running Gateway and keeps `openclaw.clawCronRef.v1` references in its state
// database; clawport is offline: it plans the jobs, records the same references in its
// ledger as not applied (`cron_gateway_required`) and never schedules anything. The cases
// here are the parts of upstream's that do not need a Gateway; each names the one it mirrors.
//
// Not ported, and why:
// * cron.test.ts: "does not require the gateway when every cron reference is already
//   complete", "fails closed when a complete scheduler job disappeared", "reconciles an
//   unchanged completed job from a status-rich Gateway view", "rejects a same-key scheduler
//   job with drifted $name", "preserves the pending reference when agent readiness fails",
//   "reconciles a response-lost retry by declaration key", "does not adopt a conflicting
//   same-key scheduler job while provenance is pending", "converges concurrent installs
//   through the declaration key" — all talk to the Gateway's scheduler; "parses the full
//   agent list before removal ..." corrupts upstream's SQLite row, which clawport has not.
// * cron-update.test.ts: every case but the plan half of "converges changes and reverses add,
//   change, and remove operations" checks Gateway calls, readiness waits or commit guards.
// * cron-provenance-guard.test.ts: "preserves unsupported cron provenance through the
//   inventory worker" and "reports and blocks removal of unsupported cron provenance" set a
//   future schema version in upstream's shared state database; clawport's cron references
//   live in its own ledger, which only clawport writes.
#include "support/test.hpp"

#include <optional>
#include <string>

namespace {

namespace oc = clawport::openclaw;
using clawport::fs::memory;
using oc::value;

const std::string now = "2026-12-02T12:00:00+00:00";

const char* const daily_report =
    R"({"id": "daily-report", "name": "Daily report",
        "schedule": {"cron": "0 9 * * *", "timezone": "UTC"}, "session": "main",
        "message": "Prepare the report", "delivery": {"mode": "announce", "channel": "last"}})";

/// Upstream's fixture: agent `worker` with the daily report, as a package whose version and
/// cron jobs the update cases change.
void package(memory& m, const std::string& version, const std::string& cron_jobs) {
  m.mkdirs("/pkg");
  m.mkdirs("/home");
  m.write_file("/pkg/package.json", R"({"name": "@acme/worker", "version": ")" + version +
                                        R"(", "openclaw": {"claw": "openclaw.claw.json"}})");
  m.write_file("/pkg/openclaw.claw.json",
               R"({"schemaVersion": 1, "agent": {"id": "worker"}, "cronJobs": )" + cron_jobs + "}");
}

oc::destination_request request(const std::optional<std::string>& agent_id = std::nullopt) {
  oc::destination_request r;
  r.home = "/home";
  r.cwd = "/";
  r.state_dir = "/state";
  r.agent_id = agent_id;
  return r;
}

oc::consent yes(const value& integrity) {
  oc::consent c;
  c.yes = true;
  c.plan_integrity = integrity.get<std::string>();
  return c;
}

value add_plan_of(memory& m, const oc::destination_request& req) {
  const auto pkg = oc::read_package(m, "/pkg");
  REQUIRE(pkg.ok());
  return oc::to_json(oc::plan_add(m, pkg, req, oc::add_options{}));
}

oc::add_outcome add(memory& m, const oc::destination_request& req) {
  const value plan = add_plan_of(m, req);
  const auto pkg = oc::read_package(m, "/pkg");
  return oc::apply_add(m, pkg, req, oc::add_options{}, yes(plan["planIntegrity"]), now);
}

value ledger_of(memory& m) { return value::parse(m.read_file("/state/clawport-claws.json")); }

const value* action_of(const value& plan, const std::string& kind, const std::string& id) {
  for (const auto& a : plan["actions"])
    if (a["kind"] == kind && a["id"] == id) return &a;
  return nullptr;
}

}  // namespace

TEST_SUITE("cron.test.ts: installClawCronJobs") {
  TEST_CASE("pins declarations and execution to the final agent id") {
    memory m;
    package(m, "1.0.0", std::string("[") + daily_report + "]");
    const auto req = request(std::string("worker-two"));
    const value plan = add_plan_of(m, req);
    const value* scheduled = action_of(plan, "cronJob", "daily-report");
    REQUIRE(scheduled != nullptr);
    CHECK(scheduled->at("target") == "cron:daily-report:agent=worker-two");

    const auto r = add(m, req);
    INFO(oc::to_json(r).dump());
    REQUIRE(r.ok);
    const value refs = ledger_of(m)["installs"]["worker-two"]["cronJobs"];
    REQUIRE(refs.size() == 1);
    const value& ref = refs[0];
    CHECK(ref["schemaVersion"] == "openclaw.clawCronRef.v1");
    CHECK(ref["manifestId"] == "daily-report");
    CHECK(ref["declarationKey"] == "claw:worker-two:daily-report");
    // Offline the job is recorded, not scheduled (upstream: status "complete" once the
    // Gateway accepted it).
    CHECK(ref["status"] == "not_applied");
    CHECK(ref["code"] == "cron_gateway_required");
    // The declaration runs as the final agent, never the manifest's id.
    const value& job = ref["job"];
    CHECK(job["agentId"] == "worker-two");
    CHECK(job["name"] == "Daily report");
    CHECK(job["schedule"] == value::parse(R"({"cron": "0 9 * * *", "timezone": "UTC"})"));
    CHECK(job["session"] == "main");
    CHECK(job["message"] == "Prepare the report");
    CHECK(job["delivery"]["mode"] == "announce");
    CHECK(job["delivery"]["channel"] == "last");
    CHECK(job["deliveryResolution"] == "local-channel-state:last");
    CHECK(ledger_of(m)["installs"]["worker-two"]["cronJobs"] == refs);  // read back the same
  }

  TEST_CASE("retains creation time across replacement and scopes removal to the owning agent") {
    // The removal half: removing one agent's Claw releases its cron references only.
    memory m;
    package(m, "1.0.0", std::string("[") + daily_report + "]");
    REQUIRE(add(m, request(std::string("worker-two"))).ok);
    REQUIRE(add(m, request(std::string("other-agent"))).ok);
    const value other_before = ledger_of(m)["installs"]["other-agent"]["cronJobs"];
    const value plan = oc::plan_remove(m, request(), "worker-two");
    const value* release = action_of(plan, "cronJob", "daily-report");
    REQUIRE(release != nullptr);
    CHECK(release->at("action") == "release");
    REQUIRE(oc::apply_remove(m, request(), "worker-two", yes(plan["planIntegrity"]), now).ok);
    const value installs = ledger_of(m)["installs"];
    CHECK_FALSE(installs.contains("worker-two"));
    CHECK(installs["other-agent"]["cronJobs"] == other_before);
    CHECK(other_before[0]["declarationKey"] == "claw:other-agent:daily-report");
  }
}

TEST_SUITE("cron-update.test.ts: applyClawCronUpdate") {
  TEST_CASE("converges changes and reverses add, change, and remove operations (plan half)") {
    const std::string old_daily =
        R"({"id": "daily", "schedule": {"cron": "0 9 * * *", "timezone": "UTC"},
            "session": "main", "message": "Old daily"})";
    const std::string new_daily =
        R"({"id": "daily", "schedule": {"cron": "0 9 * * *", "timezone": "UTC"},
            "session": "main", "message": "New daily"})";
    const std::string legacy =
        R"({"id": "legacy", "schedule": {"cron": "0 8 * * *", "timezone": "UTC"},
            "session": "isolated", "message": "Legacy"})";
    const std::string weekly =
        R"({"id": "weekly", "schedule": {"cron": "0 9 * * 1", "timezone": "UTC"},
            "session": "main", "message": "Weekly"})";
    memory m;
    package(m, "1.0.0", "[" + old_daily + ", " + legacy + "]");
    REQUIRE(add(m, request()).ok);
    package(m, "1.1.0", "[" + new_daily + ", " + weekly + "]");
    const oc::update_plan up = oc::plan_update(m, request(), "worker");
    const value& p = up.plan;
    INFO(p.dump(2));
    const auto verb = [&](const std::string& id) {
      const value* a = action_of(p, "cronJob", id);
      return a ? a->at("action").get<std::string>() : std::string("(none)");
    };
    CHECK(verb("daily") == "change");
    CHECK(verb("weekly") == "add");
    CHECK(verb("legacy") == "remove");

    const auto r =
        oc::apply_update(m, request(), "worker", std::nullopt, yes(p["planIntegrity"]), now);
    INFO(oc::to_json(r).dump());
    // Offline the cron jobs are recorded, not scheduled: the update is partial.
    CHECK(oc::to_json(r)["status"] == "partial");
    CHECK(oc::to_json(r)["error"]["code"] == "update_partial");
    const value refs = ledger_of(m)["installs"]["worker"]["cronJobs"];
    REQUIRE(refs.size() == 2);
    for (const auto& ref : refs) {
      CHECK(ref["status"] == "not_applied");
      CHECK(ref["declarationKey"] == "claw:worker:" + ref["manifestId"].get<std::string>());
      if (ref["manifestId"] == "daily") CHECK(ref["job"]["message"] == "New daily");
      CHECK(ref["manifestId"] != "legacy");
    }
  }
}

TEST_SUITE("cron-provenance-guard.test.ts") {
  TEST_CASE("rejects removal when cron provenance changes after review") {
    memory m;
    package(m, "1.0.0", std::string("[") + daily_report + "]");
    REQUIRE(add(m, request()).ok);
    const value plan = oc::plan_remove(m, request(), "worker");
    // After the review, the worker's cron references change (one more job recorded).
    value l = ledger_of(m);
    value extra = l["installs"]["worker"]["cronJobs"][0];
    extra["manifestId"] = "weekly";
    extra["declarationKey"] = "claw:worker:weekly";
    l["installs"]["worker"]["cronJobs"].push_back(extra);
    m.write_file("/state/clawport-claws.json", l.dump());
    const auto before = m.snapshot("/");
    const auto r = oc::apply_remove(m, request(), "worker", yes(plan["planIntegrity"]), now);
    INFO(oc::to_json(r).dump());
    CHECK_FALSE(r.ok);
    CHECK(oc::to_json(r)["error"]["code"] == "plan_integrity_mismatch");
    CHECK(m.snapshot("/") == before);  // nothing removed, the agent stays configured
    CHECK(
        value::parse(m.read_file("/state/openclaw.json"))["agents"]["entries"].contains("worker"));
  }
}
