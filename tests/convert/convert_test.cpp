// SPDX-License-Identifier: MIT
// `convert`: a ZeroClaw bundle to a Claw package that OpenClaw's reader accepts and plans
// clean, a Claw package to a bundle that verifies and imports; the round trips of issue 17,
// the secret corpus, the refusals (each proving nothing was written), determinism, and a
// fault sweep over the publish.
#include "support/test.hpp"

#include <clawport/testing.hpp>

#include <algorithm>
#include <cerrno>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cp = clawport;
namespace cv = clawport::convert;
namespace oc = clawport::openclaw;

namespace {

// Every value here that reads `convert-secret-*` is a credential: none may reach an output.
const char* const kInstall = R"(schema_version = 3

[providers.models.anthropic.main]
api_key = "sk-ant-convert-secret-1"
model = "claude-opus-5"

[risk_profiles.careful]
level = "readonly"
excluded_tools = ["github__delete_repository"]

[risk_profiles.guarded]
level = "supervised"
allowed_roots = ["/srv/scratch"]

[mcp_bundles.tools]
servers = ["pinned", "remote"]

[[mcp.servers]]
name = "pinned"
command = "npx"
args = ["-y", "@acme/pinned-mcp@1.2.3"]
env = { PINNED_TOKEN = "convert-secret-env-2" }
tool_timeout_secs = 30

[[mcp.servers]]
name = "remote"
transport = "http"
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer convert-secret-header-3" }

[skill_bundles.research_tools]

[agents.researcher]
model_provider = "anthropic.main"
risk_profile = "careful"
mcp_bundles = ["tools"]
skill_bundles = ["research_tools"]

[agents.guarded_one]
model_provider = "anthropic.main"
risk_profile = "guarded"
)";

const char* const kSecrets[] = {"sk-ant-convert-secret-1", "convert-secret-env-2",
                                "convert-secret-header-3"};

constexpr cp::timestamp kAt{1796083200, 0};  // 2026-12-01T00:00:00Z

/// A memory filesystem with an install (/src) and its exported bundles (/b/<alias>).
struct rig {
  cp::fs::faulty<cp::fs::memory> f;
  cp::fs::memory& m() { return f.inner(); }

  explicit rig(const std::string& config = kInstall) {
    m().write_file("/src/config.toml", config);
    m().write_file("/src/agents/researcher/workspace/IDENTITY.md", "# researcher\n");
    m().write_file("/src/agents/researcher/workspace/AGENTS.md", "Read papers.\n");
    m().write_file("/src/agents/researcher/workspace/USER.md", "The user.\n");
    m().write_file("/src/agents/researcher/workspace/notes/plan.md", "the plan\n");
    m().write_file("/src/shared/skills/research_tools/web_search/SKILL.md",
                   "---\nname: web_search\ndescription: Search the web.\n---\n# web search\n");
    m().mkdirs("/src/agents/guarded_one/workspace");
    m().write_file("/src/agents/guarded_one/workspace/AGENTS.md", "Guard.\n");
    m().mkdirs("/b");
    m().mkdirs("/out");
  }

  void export_agent(const std::string& alias) {
    cp::export_options o;
    o.alias = alias;
    o.config_path = "/src/config.toml";
    o.out = "/b/" + alias;
    o.sync = false;
    o.token = "export";
    o.exported_at = kAt;
    cp::basic_exporter<cp::fs::memory> ex(m());
    ex.run(o);
  }

  static cv::options opts(const std::string& source, const std::string& out, cv::direction to) {
    cv::options o;
    o.source = source;
    o.out = out;
    o.to = to;
    o.sync = false;
    o.at = kAt;
    o.token = "cnvert";
    return o;
  }

  cv::conversion run(const cv::options& o) { return cv::run(f, o); }

  /// Every regular file under `root`, relative -> bytes.
  std::map<std::string, std::string> tree(const std::string& root) {
    std::map<std::string, std::string> out;
    for (const auto& e : m().snapshot(root)) {
      const auto st = m().lstat(root + "/" + e.first);
      if (st && st->kind == cp::fs::file_kind::regular)
        out[e.first] = m().read_file(root + "/" + e.first);
    }
    return out;
  }

  /// Refused with `want`; returns the message. Nothing may appear under /out.
  std::string refusal(const cv::options& o, cp::errc want) {
    const auto before = m().snapshot("/out");
    std::string msg = "accepted";
    try {
      run(o);
    } catch (const cp::error& e) {
      CHECK(e.code() == want);
      msg = e.what();
    }
    CHECK(m().snapshot("/out") == before);
    return msg;
  }
};

bool has_loss(const cv::conversion& c, const std::string& path, const char* kind) {
  return std::any_of(c.losses.begin(), c.losses.end(),
                     [&](const cv::loss& l) { return l.path == path && l.kind == kind; });
}

oc::add_plan plan_of(cp::fs::memory& m, const std::string& pkg_path) {
  const oc::claw_package pkg = oc::read_package(m, pkg_path);
  REQUIRE(pkg.ok());
  oc::destination_request req;
  req.home = "/home/u";
  req.cwd = "/";
  m.mkdirs("/home/u");
  const oc::host_state host = oc::read_host_state(m, req);
  const oc::destination dest = oc::resolve_destination(m, pkg, req);
  return oc::build_add_plan(pkg, dest, host, oc::offline_resolver{});
}

/// A Claw package like examples/openclaw-claw, in memory at `root`.
void write_claw(cp::fs::memory& m, const std::string& root) {
  m.write_file(root + "/package.json",
               R"({"name": "@acme/triage-claw", "version": "1.0.0", "type": "module",
  "openclaw": {"claw": "CLAW.md"}})");
  m.write_file(root + "/CLAW.md", R"(---
schemaVersion: 1
agent:
  id: triage
  name: Triage
metadata:
  openclaw.config: profiles/openclaw.yml
workspace:
  bootstrapFiles:
    AGENTS.md:
      source: workspace/AGENTS.md
  files:
    - source: workspace/reference/policy.md
      path: reference/policy.md
packages:
  - kind: skill
    source: clawhub
    ref: triage-playbook
    version: "1.4.0"
mcpServers:
  statuspage:
    command: npx
    args: ["--yes", "@acme/statuspage-mcp@1.0.0"]
    env:
      STATUSPAGE_TOKEN: "${STATUSPAGE_TOKEN}"
    timeout: 30
cronJobs:
  - id: digest
    schedule:
      cron: "0 9 * * 1-5"
      timezone: UTC
    session: isolated
    message: Summarize.
---

# Triage

Assign a severity to every incident.
)");
  m.write_file(root + "/profiles/openclaw.yml", R"(schemaVersion: 1
agent:
  sandbox:
    mode: all
    scope: agent
    workspaceAccess: rw
  tools:
    allow: [read, write, statuspage__list_incidents]
    deny: [exec]
    fs:
      workspaceOnly: true
  heartbeat:
    every: 30m
)");
  m.write_file(root + "/workspace/AGENTS.md", "Triage incidents.\n");
  m.write_file(root + "/workspace/reference/policy.md", "SEV1: everything is down.\n");
}

}  // namespace

TEST_CASE("bundle to claw: the package reads through OpenClaw's reader and plans clean") {
  rig r;
  r.export_agent("researcher");
  const cv::conversion c = r.run(rig::opts("/b/researcher", "/out/claw", cv::direction::to_claw));
  CHECK(c.agent == "researcher");
  CHECK(c.guarantee == "atomic");
  const oc::claw_package pkg = oc::read_package(r.m(), "/out/claw");
  REQUIRE(pkg.ok());
  CHECK(pkg.model.agent.id == "researcher");
  // Named bootstrap files by name, every other file in workspace.files; USER.md stayed home
  // (issue 30: the export left it behind as private_data).
  std::set<std::string> boot, extra;
  for (const auto& f : pkg.model.bootstrap_files) boot.insert(f.path);
  CHECK(boot.count("AGENTS.md"));
  CHECK(boot.count("IDENTITY.md"));
  for (const auto& f : pkg.model.files) extra.insert(f.path);
  CHECK(extra == std::set<std::string>{"notes/plan.md", "skills/web_search/SKILL.md"});
  // MCP: the stdio server with an env reference, never the value; the remote one mapped.
  CHECK(pkg.model.mcp_server("pinned")->declaration["env"]["PINNED_TOKEN"] == "${PINNED_TOKEN}");
  CHECK(pkg.model.mcp_server("remote")->declaration["transport"] == "streamable-http");
  CHECK(pkg.model.mcp_server("pinned")->declaration["timeout"] == 30);
  // readonly: writes and exec denied, the excluded tool kept, confined to the workspace.
  REQUIRE(pkg.profile);
  const auto& tools = pkg.profile->agent["tools"];
  for (const char* t : {"github__delete_repository", "write", "edit", "exec"})
    CHECK(std::find(tools["deny"].begin(), tools["deny"].end(), t) != tools["deny"].end());
  CHECK(tools["fs"]["workspaceOnly"] == true);
  const oc::add_plan plan = plan_of(r.m(), "/out/claw");
  CHECK_FALSE(plan.blocked);
  CHECK(oc::to_json(plan)["blockers"].empty());
  // The loss report is written in the package.
  const std::string report = r.m().read_file("/out/claw/CONVERSION.md");
  CHECK(report.find("`providers.models.anthropic.main` — **dropped**") != std::string::npos);
  CHECK(std::find(c.files.begin(), c.files.end(), "CONVERSION.md") != c.files.end());
}

TEST_CASE("round trip bundle -> claw -> bundle keeps workspace bytes and MCP grants") {
  rig r;
  r.export_agent("researcher");
  const cv::conversion to_claw =
      r.run(rig::opts("/b/researcher", "/out/claw", cv::direction::to_claw));
  const cv::conversion back =
      r.run(rig::opts("/out/claw", "/out/bundle", cv::direction::to_zeroclaw));
  CHECK(back.agent == "researcher");
  const cp::verify::report v = cp::verify::verify_bundle(r.m(), "/out/bundle");
  REQUIRE(v.ok());
  CHECK(v.authenticated);
  const auto b1 = r.tree("/b/researcher");
  const auto b2 = r.tree("/out/bundle");
  // Every workspace byte survives; the skill bundle's skill is now a workspace skill.
  for (const auto& f : b1) {
    if (f.first.rfind("workspace/", 0) == 0) {
      CAPTURE(f.first);
      REQUIRE(b2.count(f.first));
      CHECK(b2.at(f.first) == f.second);
    }
  }
  CHECK(b2.at("workspace/skills/web_search/SKILL.md") ==
        b1.at("skills/research_tools/web_search/SKILL.md"));
  // The MCP grants: the same servers, commands, args, env keys and URL.
  const auto* s1 = v.closure.find("mcp")->find("servers");
  REQUIRE(s1 != nullptr);
  std::map<std::string, std::string> servers;
  for (const auto& s : s1->items) {
    const std::string name = s.find("name")->text;
    std::string shape = s.find("command") ? s.find("command")->text : s.find("url")->text;
    if (const auto* env = s.find("env"))
      for (const auto& e : env->members) shape += " env:" + e.key + "=" + e.val.text;
    servers[name] = shape;
  }
  CHECK(servers == std::map<std::string, std::string>{{"pinned", "npx env:PINNED_TOKEN="},
                                                      {"remote", "https://mcp.example.com/mcp"}});
  // The loss report lists exactly what did not survive the first leg.
  std::vector<std::string> got;
  for (const cv::loss& l : to_claw.losses) got.push_back(l.kind + " " + l.path);
  const std::vector<std::string> want = {
      "changed skills/research_tools/web_search",
      "changed agents.researcher.mcp_bundles",
      "changed mcp.servers.pinned.env",
      "dropped mcp.servers.remote.headers",
      "dropped agents.researcher.model_provider",
      "dropped providers.models.anthropic.main",
      "dropped agents.researcher.delegate_same_risk_profile",
      "dropped workspace/memory",
      "dropped workspace/MEMORY_SNAPSHOT.md",
      "dropped workspace/USER.md",  // issue 30: the export left it home (private_data)
  };
  CHECK(got == want);
  // And it imports into an empty install.
  r.m().mkdirs("/dst");
  r.m().write_file("/dst/config.toml", "schema_version = 3\n");
  cp::importer::import_options io;
  io.bundle = "/out/bundle";
  io.config_path = "/dst/config.toml";
  io.now = kAt;
  const auto ip = cp::importer::plan_import(r.m(), io);
  CHECK(ip.plan_integrity.rfind("sha256:", 0) == 0);
}

TEST_CASE("round trip claw -> bundle -> claw keeps workspace files and the tool policy") {
  rig r;
  write_claw(r.m(), "/c1");
  const cv::conversion to_bundle = r.run(rig::opts("/c1", "/out/b", cv::direction::to_zeroclaw));
  CHECK(to_bundle.agent == "triage");
  const cp::verify::report v = cp::verify::verify_bundle(r.m(), "/out/b");
  REQUIRE(v.ok());
  // ClawHub references become dropped entries with a reason; the cron job too.
  CHECK(v.manifest_text.find("packages.skill.triage-playbook") != std::string::npos);
  CHECK(has_loss(to_bundle, "$.packages[0]", cv::loss_kind::dropped));
  CHECK(has_loss(to_bundle, "$.cronJobs.digest", cv::loss_kind::dropped));
  CHECK(has_loss(to_bundle, "$.profile.agent.heartbeat", cv::loss_kind::dropped));
  CHECK(std::find(v.required_secrets.begin(), v.required_secrets.end(),
                  "mcp.servers.statuspage.env.STATUSPAGE_TOKEN") != v.required_secrets.end());
  // Back to a claw: no narrowing is needed (exec was denied, the agent confined).
  r.run(rig::opts("/out/b", "/out/c2", cv::direction::to_claw));
  const oc::claw_package p1 = oc::read_package(r.m(), "/c1");
  const oc::claw_package p2 = oc::read_package(r.m(), "/out/c2");
  REQUIRE(p1.ok());
  REQUIRE(p2.ok());
  std::map<std::string, std::string> w1, w2;
  for (const auto& s : p1.sources) w1[s.destination] = s.digest;
  for (const auto& s : p2.sources) w2[s.destination] = s.digest;
  w1["SOUL.md"] = "sha256:" + cp::digest::sha256_hex(*p1.body);  // the body is SOUL.md
  CHECK(w1 == w2);
  const auto& t1 = p1.profile->agent["tools"];
  const auto& t2 = p2.profile->agent["tools"];
  CHECK(t1["allow"] == t2["allow"]);
  CHECK(t1["deny"] == t2["deny"]);
  CHECK(t1["fs"] == t2["fs"]);
  CHECK(p1.profile->agent["sandbox"] == p2.profile->agent["sandbox"]);
  CHECK(p2.model.mcp_server("statuspage")->declaration["env"]["STATUSPAGE_TOKEN"] ==
        "${STATUSPAGE_TOKEN}");
  CHECK_FALSE(plan_of(r.m(), "/out/c2").blocked);
}

TEST_CASE("the secret corpus through convert: no credential reaches any output") {
  rig r;
  r.export_agent("researcher");
  r.run(rig::opts("/b/researcher", "/out/claw", cv::direction::to_claw));
  r.run(rig::opts("/out/claw", "/out/bundle", cv::direction::to_zeroclaw));
  cv::options dry = rig::opts("/b/researcher", "/out/dry", cv::direction::to_claw);
  dry.dry_run = true;
  const std::string json = cp::json::dump(cv::to_json(r.run(dry)));
  for (const char* secret : kSecrets) {
    CAPTURE(secret);
    CHECK(json.find(secret) == std::string::npos);
    for (const char* root : {"/out/claw", "/out/bundle"})
      for (const auto& f : r.tree(root)) {
        CAPTURE(f.first);
        CHECK(f.second.find(secret) == std::string::npos);
      }
  }
  CHECK_FALSE(r.m().lstat("/out/dry"));
}

TEST_CASE(
    "a risk profile OpenClaw cannot express as strictly is refused without --allow-narrowing") {
  rig r;
  r.export_agent("guarded_one");
  cv::options o = rig::opts("/b/guarded_one", "/out/claw", cv::direction::to_claw);
  const std::string msg = r.refusal(o, cp::errc::config_invalid);
  CHECK(msg.find("risk_profiles.guarded.allowed_commands") != std::string::npos);
  CHECK(msg.find("--allow-narrowing") != std::string::npos);
  o.allow_narrowing = true;
  const cv::conversion c = r.run(o);
  CHECK(has_loss(c, "risk_profiles.guarded.allowed_commands", cv::loss_kind::narrowed));
  CHECK(has_loss(c, "risk_profiles.guarded.allowed_roots", cv::loss_kind::narrowed));
  const oc::claw_package pkg = oc::read_package(r.m(), "/out/claw");
  REQUIRE(pkg.ok());
  const auto& deny = pkg.profile->agent["tools"]["deny"];
  CHECK(std::find(deny.begin(), deny.end(), "exec") != deny.end());
  // The reverse: a Claw that allows exec is refused the same way.
  write_claw(r.m(), "/c1");
  r.m().write_file("/c1/profiles/openclaw.yml", "schemaVersion: 1\nagent: {}\n");
  CHECK(r.refusal(rig::opts("/c1", "/out/b", cv::direction::to_zeroclaw), cp::errc::config_invalid)
            .find("exec is allowed") != std::string::npos);
}

TEST_CASE("convert refuses blocked env keys, OpenClaw's limits and an occupied --out") {
  SUBCASE("a blocked environment key") {
    std::string config = kInstall;
    config.replace(config.find("PINNED_TOKEN"), 12, "LD_PRELOAD");
    rig r(config);
    r.export_agent("researcher");
    const std::string msg = r.refusal(
        rig::opts("/b/researcher", "/out/claw", cv::direction::to_claw), cp::errc::unsafe_path);
    CHECK(msg.find("LD_PRELOAD") != std::string::npos);
  }
  SUBCASE("a workspace file over OpenClaw's per-file limit, named") {
    rig r;
    r.m().write_file("/src/agents/researcher/workspace/big.md", std::string(1048577, 'x'));
    r.export_agent("researcher");
    const std::string msg = r.refusal(
        rig::opts("/b/researcher", "/out/claw", cv::direction::to_claw), cp::errc::limit_exceeded);
    CHECK(msg.find("workspace/big.md") != std::string::npos);
  }
  SUBCASE("the aggregate limit, naming the file that crosses it") {
    rig r;
    for (int i = 0; i < 5; ++i)
      r.m().write_file("/src/agents/researcher/workspace/part" + std::to_string(i) + ".md",
                       std::string(1000000, 'x'));
    r.export_agent("researcher");
    const std::string msg = r.refusal(
        rig::opts("/b/researcher", "/out/claw", cv::direction::to_claw), cp::errc::limit_exceeded);
    CHECK(msg.find("part4.md") != std::string::npos);
  }
  SUBCASE("a bundle that does not verify") {
    rig r;
    r.export_agent("researcher");
    r.m().write_file("/b/researcher/workspace/AGENTS.md", "tampered\n");
    r.refusal(rig::opts("/b/researcher", "/out/claw", cv::direction::to_claw),
              cp::errc::bundle_invalid);
  }
  SUBCASE("an --out that is not empty") {
    rig r;
    r.export_agent("researcher");
    r.m().write_file("/out/claw/keep.txt", "mine\n");
    r.refusal(rig::opts("/b/researcher", "/out/claw", cv::direction::to_claw),
              cp::errc::destination_refused);
    CHECK(r.m().read_file("/out/claw/keep.txt") == "mine\n");
  }
  SUBCASE("an invalid Claw package") {
    rig r;
    write_claw(r.m(), "/c1");
    r.m().write_file("/c1/workspace/AGENTS.md", "");
    r.m().remove("/c1/workspace/reference/policy.md");
    r.refusal(rig::opts("/c1", "/out/b", cv::direction::to_zeroclaw), cp::errc::config_invalid);
  }
}

TEST_CASE(
    "convert is deterministic for a fixed SOURCE_DATE_EPOCH, and the dry run writes nothing") {
  rig r;
  r.export_agent("researcher");
  r.run(rig::opts("/b/researcher", "/out/c1", cv::direction::to_claw));
  r.run(rig::opts("/b/researcher", "/out/c2", cv::direction::to_claw));
  CHECK(r.tree("/out/c1") == r.tree("/out/c2"));
  r.run(rig::opts("/out/c1", "/out/b1", cv::direction::to_zeroclaw));
  r.run(rig::opts("/out/c1", "/out/b2", cv::direction::to_zeroclaw));
  CHECK(r.tree("/out/b1") == r.tree("/out/b2"));
  CHECK(r.m().read_file("/out/b1/zeroclaw-agent.toml").find("2026-12-01T00:00:00") !=
        std::string::npos);
  const auto before = r.m().snapshot("/out");
  cv::options dry = rig::opts("/b/researcher", "/out/c3", cv::direction::to_claw);
  dry.dry_run = true;
  const cv::conversion c = r.run(dry);
  CHECK(c.guarantee == "none");
  CHECK_FALSE(c.files.empty());
  CHECK(r.m().snapshot("/out") == before);
}

TEST_CASE("a dry run that the real run would refuse for a narrowing reports every loss") {
  // Issue 27 item 7: the loss report is whole, and the refusal is the real run's.
  rig r;
  r.export_agent("guarded_one");
  cv::options o = rig::opts("/b/guarded_one", "/out/claw", cv::direction::to_claw);
  const std::string real = r.refusal(o, cp::errc::config_invalid);
  o.dry_run = true;
  const cv::conversion c = r.run(o);
  REQUIRE(c.refusal.has_value());
  CHECK(c.refusal->code() == cp::errc::config_invalid);
  CHECK(std::string(c.refusal->what()) == real);
  CHECK(has_loss(c, "risk_profiles.guarded.allowed_commands", cv::loss_kind::narrowed));
  CHECK(has_loss(c, "risk_profiles.guarded.allowed_roots", cv::loss_kind::narrowed));
  CHECK(cv::render_text(c).rfind("Would refuse to convert ", 0) == 0);
  CHECK_FALSE(r.m().lstat("/out/claw"));
  o.allow_narrowing = true;
  CHECK_FALSE(r.run(o).refusal.has_value());
  CHECK_FALSE(r.m().lstat("/out/claw"));
  // The reverse direction names its own target.
  write_claw(r.m(), "/c1");
  r.m().write_file("/c1/profiles/openclaw.yml", "schemaVersion: 1\nagent: {}\n");
  cv::options back = rig::opts("/c1", "/out/b", cv::direction::to_zeroclaw);
  back.dry_run = true;
  const cv::conversion z = r.run(back);
  REQUIRE(z.refusal.has_value());
  CHECK(std::string(z.refusal->what()).rfind("ZeroClaw cannot express ", 0) == 0);
}

TEST_CASE("convert fault sweep: every operation failing leaves --out as it was") {
  std::size_t total = 0;
  {
    rig r;
    r.export_agent("researcher");
    r.f.reset_counts();
    r.run(rig::opts("/b/researcher", "/out/claw", cv::direction::to_claw));
    total = r.f.count();
  }
  REQUIRE(total > 20);
  for (int err : {ENOSPC, EIO}) {
    for (std::size_t n = 1; n <= total; ++n) {
      CAPTURE(err);
      CAPTURE(n);
      rig r;
      r.export_agent("researcher");
      r.f.reset_counts();
      r.f.fail_at(n, err);
      bool failed = false;
      try {
        r.run(rig::opts("/b/researcher", "/out/claw", cv::direction::to_claw));
      } catch (const cp::error&) {
        failed = true;
      }
      const auto after = r.m().snapshot("/out");
      if (failed) {
        CHECK(after.empty());
      } else {
        CHECK(oc::read_package(r.m(), "/out/claw").ok());
      }
    }
  }
}
