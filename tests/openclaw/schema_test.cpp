// SPDX-License-Identifier: MIT
// OpenClaw Claws, the pure parts: the add plan's planIntegrity vector 3 (openclaw-claws.md
// §5.5), NFC/lowercase collision keys, the identifier grammars, the manifest and profile
// schemas, cron and heartbeat rules. The format readers they stand on (YAML, stableStringify,
// JSON5, localeCompare) are tested in tests/formats/. Test names follow the upstream
// TypeScript tests of §9 where there is one.
#include "openclaw/plan_documents.hpp"
#include "support/test.hpp"

#include <optional>
#include <string>
#include <vector>

namespace {

namespace oc = clawport::openclaw;
using oc::value;

value Y(const std::string& text) {
  const auto r = clawport::yaml::parse(text);
  if (!r.ok()) FAIL("test YAML does not parse: " << r.error->where());
  return r.value;
}

bool has(const std::vector<oc::diagnostic>& ds, const std::string& code, const std::string& path) {
  for (const auto& d : ds)
    if (to_string(d.code) == code && d.path == path) return true;
  return false;
}

std::string paths(const std::vector<oc::diagnostic>& ds) {
  std::string out;
  for (const auto& d : ds)
    out += std::string(to_string(d.code)) + " " + d.path + ": " + d.message + "\n";
  return out;
}

oc::manifest_result manifest(const std::string& yaml) { return oc::validate_manifest(Y(yaml)); }

/// The manifest errors of `yaml` must include `path` (code invalid_manifest, phase schema).
void rejects_at(const std::string& yaml, const std::string& path) {
  const auto r = manifest(yaml);
  INFO(yaml);
  INFO(paths(r.diagnostics));
  CHECK_FALSE(r.ok());
  CHECK(has(r.diagnostics, "invalid_manifest", path));
  for (const auto& d : r.diagnostics) CHECK(d.phase == oc::phase::schema);
}

const std::string base = "schemaVersion: 1\nagent:\n  id: demo\n";

std::string with_mcp(const std::string& server_yaml) {
  return base + "mcpServers:\n  github:\n" + server_yaml;
}

oc::profile_result profile(const std::string& agent_yaml) {
  return oc::validate_profile(Y("schemaVersion: 1\nagent:\n" + agent_yaml), "$.profiles.openclaw");
}

}  // namespace

TEST_SUITE("openclaw.stable_stringify") {
  // Upstream's third vector, as 2026.9.6 computes it: `extensions` is bound always (`[]`
  // here; the older formula without it gave sha256:b1df9ca4…). The oracle suite checks the
  // formula end to end (tests/oracle/cases/integrity.sh).
  TEST_CASE("planIntegrity vector 3: the minimal add plan, extensions [] bound") {
    value plan = value::object();
    plan["manifestSchemaVersion"] = 1;
    plan["claw"] = value::object({{"integrity", "sha256:" + std::string(64, '0')}});
    const std::string ws = "/home/u/.openclaw/workspace-demo";
    plan["agent"] = value::object({{"finalId", "demo"}, {"workspace", ws}});
    value agent = value::object({{"kind", "agent"},
                                 {"id", "demo"},
                                 {"action", "create"},
                                 {"target", "agents.entries[\"demo\"]"}});
    agent["details"] =
        value::object({{"id", "demo"}, {"workspace", ws}, {"expectedState", "absent"}});
    agent["blocked"] = false;
    value wsa = value::object(
        {{"kind", "workspace"}, {"id", "demo"}, {"action", "create"}, {"target", ws}});
    wsa["details"] = value::object({{"expectedState", "absent"}});
    wsa["blocked"] = false;
    plan["actions"] = value::array({agent, wsa});
    plan["capabilityChanges"] = value::array();
    plan["blockers"] = value::array();
    CHECK(plan_documents::add_integrity(plan) ==
          "sha256:0b81ef9f2e49e7dc93fb670a1564d85d2fc1c7be8eb3a899408f92dd2a723f56");
  }
}

TEST_SUITE("openclaw.grammar") {
  TEST_CASE("uses portable workspace collision keys") {
    CHECK(oc::portable_key("Reference/Caf\xC3\xA9.md") ==
          oc::portable_key("reference/Cafe\xCC\x81.md"));
    CHECK(oc::portable_key("A\\B") == "a/b");
    CHECK(oc::keys_conflict("a/b", "a"));
    CHECK_FALSE(oc::keys_conflict("ab", "a"));
    CHECK(clawport::unicode::nfc("\xE1\x84\x80\xE1\x85\xA1") == "\xEA\xB0\x80");  // Hangul L+V
    CHECK(clawport::unicode::to_lower("\xC3\x89T\xC3\x89") == "\xC3\xA9t\xC3\xA9");
  }

  TEST_CASE("safe relative paths (§2.2)") {
    for (const char* ok : {"a", "a/b.md", "reference/Café.md", "a\\b"})
      CHECK(oc::is_safe_relative_path(ok));
    for (const char* bad :
         {"",    "/a",  "C:/a", "a//b", "./a", "a/../b", "..",      "a:b",  "a*",      "a?",
          "a|b", "a<b", "a\"b", "a.",   "a ",  "con",    "NUL.txt", "lpt1", "com9.md", "a\x01"}) {
      INFO(bad);
      CHECK_FALSE(oc::is_safe_relative_path(bad));
    }
    CHECK(oc::is_safe_relative_path("com10"));
  }

  TEST_CASE("identifiers, SemVer, package names, env keys and references") {
    CHECK(oc::is_agent_id("incident-triage"));
    CHECK_FALSE(oc::is_agent_id("Incident"));
    CHECK_FALSE(oc::is_agent_id(std::string(65, 'a')));
    CHECK(oc::is_package_name("@acme/statuspage-tools"));
    CHECK_FALSE(oc::is_package_name("Demo"));
    CHECK_FALSE(oc::is_package_name("@acme"));
    for (const char* v : {"1.2.3", "0.0.0-development", "1.2.3-rc.1+build.5", "1.0.0-0a"})
      CHECK(oc::is_semver(v));
    for (const char* v :
         {"01.2.3", "1.02.3", "1.2.3-01", "v1.2.3", "1.2.x", "1.2", "1.2.3-", "^1.2.3"}) {
      INFO(v);
      CHECK_FALSE(oc::is_semver(v));
    }
    std::string var;
    CHECK(oc::is_env_reference("${GITHUB_TOKEN}", &var));
    CHECK(var == "GITHUB_TOKEN");
    CHECK_FALSE(oc::is_env_reference("ghp_123"));
    CHECK_FALSE(oc::is_env_reference("${lower}"));
    CHECK(clawport::text::js_trim("\xC2\xA0 x \xE3\x80\x80") == "x");
  }
}

TEST_SUITE("openclaw.schema") {
  TEST_CASE("defaults optional ownership groups without inventing agent settings") {
    const auto r = manifest(base);
    REQUIRE(r.ok());
    CHECK(clawport::json::js_stringify(r.manifest, 0) ==
          "{\"schemaVersion\":1,\"agent\":{\"id\":\"demo\"},\"metadata\":{},\"workspace\":{"
          "\"bootstrapFiles\":{},\"files\":[]},\"packages\":[],\"mcpServers\":{},\"cronJobs\":[]}");
  }

  TEST_CASE("the validated manifest is a typed model whose rendering is the normalised JSON") {
    const auto r = manifest(
        "schemaVersion: 1\nagent:\n  id: demo\n  name: Demo\n  identity:\n    emoji: x\n"
        "metadata:\n  openclaw.config: profiles/o.yml\n  team: core\n"
        "workspace:\n  files:\n    - source: 'src\\notes.md'\n      path: notes.md\n"
        "  bootstrapFiles:\n    TOOLS.md:\n      source: t.md\n    AGENTS.md:\n      source: a.md\n"
        "packages:\n  - kind: skill\n    source: clawhub\n    ref: demo-skill\n"
        "    version: 1.0.0\n");
    REQUIRE(r.ok());
    const oc::claw_manifest& m = r.model;
    CHECK(m.agent.id == "demo");
    CHECK(m.agent.name == std::optional<std::string>("Demo"));
    CHECK_FALSE(m.agent.description.has_value());
    REQUIRE(m.agent.identity.has_value());
    CHECK(m.agent.identity->emoji == std::optional<std::string>("x"));
    REQUIRE(m.metadata_value("openclaw.config") != nullptr);
    CHECK(*m.metadata_value("openclaw.config") == "profiles/o.yml");
    CHECK(m.metadata_value("absent") == nullptr);
    REQUIRE(m.bootstrap_files.size() == 2);  // in bootstrap-name order, not declaration order
    CHECK(m.bootstrap_files[0].path == "AGENTS.md");
    CHECK(m.bootstrap_files[1].path == "TOOLS.md");
    REQUIRE(m.files.size() == 1);
    CHECK(m.files[0].source == "src/notes.md");
    REQUIRE(m.packages.size() == 1);
    CHECK(m.packages[0].ref == "demo-skill");
    CHECK(oc::to_json(m) == r.manifest);
    CHECK(oc::js_stringify(r.manifest, 0) ==
          "{\"schemaVersion\":1,\"agent\":{\"id\":\"demo\",\"name\":\"Demo\",\"identity\":{"
          "\"emoji\":\"x\"}},\"metadata\":{\"openclaw.config\":\"profiles/o.yml\",\"team\":"
          "\"core\"},\"workspace\":{\"bootstrapFiles\":{\"AGENTS.md\":{\"source\":\"a.md\"},"
          "\"TOOLS.md\":{\"source\":\"t.md\"}},\"files\":[{\"source\":\"src/notes.md\","
          "\"path\":\"notes.md\"}]},\"packages\":[{\"kind\":\"skill\",\"source\":"
          "\"clawhub\",\"ref\":\"demo-skill\",\"version\":\"1.0.0\"}],\"mcpServers\":{},"
          "\"cronJobs\":[]}");
  }

  // Issue 42: the plan reads MCP servers and cron jobs through the model, never by key.
  TEST_CASE("the model's MCP servers and cron jobs carry what the plan asks of them") {
    const auto r = manifest(
        "schemaVersion: 1\nagent:\n  id: demo\n"
        "mcpServers:\n  statuspage:\n    command: statuspage-mcp\n"
        "    env:\n      TOKEN: \"${STATUSPAGE_TOKEN}\"\n      REGION: \"${SP_REGION}\"\n"
        "  linear:\n    url: https://mcp.linear.app/mcp\n    transport: streamable-http\n"
        "    auth: oauth\n"
        "cronJobs:\n  - id: digest\n    schedule:\n      cron: \"0 9 * * 1-5\"\n"
        "      timezone: UTC\n    session: isolated\n    message: Sum up.\n"
        "    delivery:\n      mode: announce\n      channel: last\n"
        "  - id: review\n    schedule:\n      cron: \"30 16 * * 5\"\n      timezone: UTC\n"
        "    session: main\n    message: Review.\n");
    REQUIRE(r.ok());
    const oc::claw_manifest& m = r.model;
    REQUIRE(m.mcp_servers.size() == 2);
    const oc::mcp_server_decl* s = m.mcp_server("statuspage");
    REQUIRE(s != nullptr);
    CHECK(s->env_values == std::vector<std::string>{"${STATUSPAGE_TOKEN}", "${SP_REGION}"});
    CHECK_FALSE(s->oauth);
    CHECK_FALSE(s->remote);
    const oc::mcp_server_decl* l = m.mcp_server("linear");
    REQUIRE(l != nullptr);
    CHECK(l->oauth);
    CHECK(l->remote);
    CHECK(l->declaration == r.manifest["mcpServers"]["linear"]);
    CHECK(m.mcp_server("absent") == nullptr);
    REQUIRE(m.cron_jobs.size() == 2);
    CHECK(m.cron_jobs[0].id == "digest");
    CHECK(m.cron_jobs[0].last_channel);
    CHECK(m.cron_jobs[1].id == "review");
    CHECK_FALSE(m.cron_jobs[1].last_channel);
    CHECK(oc::to_json(m) == r.manifest);
  }

  TEST_CASE("rejects the prototype flat entries contract") {
    const auto r = manifest("schemaVersion: openclaw.claw.v1\nagent:\n  id: demo\nentries: []\n");
    CHECK(has(r.diagnostics, "invalid_manifest", "$.schemaVersion"));
    CHECK(has(r.diagnostics, "invalid_manifest", "$"));
  }

  TEST_CASE("rejects operator-controlled agent field") {
    for (const char* field : {"model", "provider", "skills", "runtime", "bindings", "auth", "tools",
                              "sandbox", "heartbeat"}) {
      rejects_at(base + "  " + field + ": x\n", "$.agent");
    }
  }

  TEST_CASE("rejects non-v1 package fields and connector packages") {
    rejects_at(base + "packages:\n  - {kind: connector, source: clawhub, ref: a, version: 1.0.0}\n",
               "$.packages[0].kind");
    rejects_at(base +
                   "packages:\n  - {kind: skill, source: clawhub, ref: a, version: 1.0.0, "
                   "required: true}\n",
               "$.packages[0]");
    rejects_at(
        base +
            "packages:\n  - {kind: skill, source: clawhub, ref: a, version: 1.0.0, integrity: x}\n",
        "$.packages[0]");
    rejects_at(base + "packages:\n  - {kind: skill, source: npm, ref: a, version: 1.0.0}\n",
               "$.packages[0].source");
  }

  TEST_CASE("requires exact package versions / rejects non-canonical package version") {
    for (const char* v : {"01.2.3", "1.02.3", "1.2.3-01", "v1.2.3", "1.2.x", "^1.0.0", "latest"}) {
      rejects_at(
          base + "packages:\n  - {kind: skill, source: clawhub, ref: a, version: \"" + v + "\"}\n",
          "$.packages[0].version");
    }
    rejects_at(base + "packages:\n  - {kind: skill, source: clawhub, ref: a, version: 1.0}\n",
               "$.packages[0].version");
  }

  TEST_CASE("requires canonical ClawHub package names") {
    rejects_at(base + "packages:\n  - {kind: skill, source: clawhub, ref: Demo, version: 1.0.0}\n",
               "$.packages[0].ref");
  }

  TEST_CASE("rejects resolved MCP secrets") {
    rejects_at(with_mcp("    command: github-mcp\n    env:\n      GITHUB_TOKEN: ghp_literal\n"),
               "$.mcpServers.github.env.GITHUB_TOKEN");
  }

  TEST_CASE("accepts credential-free remote MCP with local OAuth completion") {
    const auto r = manifest(with_mcp(
        "    url: https://mcp.example.com/mcp\n    transport: streamable-http\n    auth: oauth\n"));
    INFO(paths(r.diagnostics));
    CHECK(r.ok());
    CHECK(manifest(with_mcp("    url: http://localhost:8080/sse\n    transport: sse\n")).ok());
    CHECK(manifest(with_mcp("    url: http://[::1]:8080/sse\n    transport: sse\n")).ok());
  }

  TEST_CASE("rejects non-portable remote MCP config") {
    rejects_at(with_mcp("    url: https://x.example/mcp\n    transport: sse\n    headers: "
                        "{Authorization: x}\n"),
               "$.mcpServers.github");
    rejects_at(with_mcp("    url: https://x.example/mcp\n    command: npx\n"),
               "$.mcpServers.github");
    rejects_at(with_mcp("    url: file:///etc/passwd\n    transport: sse\n"),
               "$.mcpServers.github.url");
    // No shape matches (a wrong or missing transport is a type failure in both branches):
    // zod 4's one union issue at the server, as openclaw 2026.9.6 (oracle zod_messages.sh).
    rejects_at(with_mcp("    url: https://x.example/mcp\n    transport: stdio\n"),
               "$.mcpServers.github");
    rejects_at(with_mcp("    url: https://x.example/mcp\n"), "$.mcpServers.github");
    rejects_at(base + "mcpServers:\n  GitHub:\n    command: x\n", "$.mcpServers.GitHub");
  }

  TEST_CASE("reports a resolved MCP secret before an unpinned npx argument") {
    // schema.test.ts: with both problems on one server the first diagnostic is the secret.
    const auto r =
        manifest(with_mcp("    command: npx\n    args: [-y, server-github]\n"
                          "    env:\n      GITHUB_TOKEN: ghp_literal\n"));
    REQUIRE(r.diagnostics.size() == 2);
    CHECK(r.diagnostics[0].path == "$.mcpServers.github.env.GITHUB_TOKEN");
    CHECK(r.diagnostics[1].path == "$.mcpServers.github.args");
  }

  TEST_CASE("requires pinned package-manager MCP commands and safe environment keys") {
    rejects_at(
        with_mcp("    command: npx\n    args: [-y, \"@modelcontextprotocol/server-github\"]\n"),
        "$.mcpServers.github.args");
    rejects_at(with_mcp("    command: /usr/bin/NPX.cmd\n    args: [server@latest]\n"),
               "$.mcpServers.github.args");
    rejects_at(with_mcp("    command: pnpm\n    args: [dlx, pkg]\n"), "$.mcpServers.github.args");
    CHECK(manifest(with_mcp("    command: npx\n    args: [-y, \"@scope/server@1.2.3\"]\n")).ok());
    CHECK(manifest(with_mcp("    command: npx\n    args: [--package=a@1.0.0, -p, b@2.0.0, run]\n"))
              .ok());
    CHECK(manifest(with_mcp("    command: uvx\n    args: [anything]\n")).ok());
    rejects_at(with_mcp("    command: node\n    env:\n      NODE_OPTIONS: \"${NODE_OPTIONS}\"\n"),
               "$.mcpServers.github.env.NODE_OPTIONS");
    rejects_at(with_mcp("    command: node\n    env:\n      ld_preload: \"${X}\"\n"),
               "$.mcpServers.github.env.ld_preload");
    rejects_at(with_mcp("    command: node\n    env:\n      1BAD: \"${X}\"\n"),
               "$.mcpServers.github.env.1BAD");
    rejects_at(with_mcp("    command: node\n    args: [\"\"]\n"), "$.mcpServers.github.args[0]");
  }

  TEST_CASE("rejects unsafe remote URLs and duplicate tool filters") {
    rejects_at(with_mcp("    url: http://mcp.example.com/\n    transport: sse\n"),
               "$.mcpServers.github.url");
    rejects_at(with_mcp("    url: https://user:pw@mcp.example.com/\n    transport: sse\n"),
               "$.mcpServers.github.url");
    rejects_at(with_mcp("    url: https://mcp.example.com/#frag\n    transport: sse\n"),
               "$.mcpServers.github.url");
    rejects_at(with_mcp("    command: x\n    toolFilter:\n      include: [a, a]\n"),
               "$.mcpServers.github.toolFilter.include[1]");
    rejects_at(with_mcp("    command: x\n    toolFilter:\n      include: [\"a?\"]\n"),
               "$.mcpServers.github.toolFilter.include[0]");
    rejects_at(with_mcp("    command: x\n    toolFilter:\n      exclude: []\n"),
               "$.mcpServers.github.toolFilter.exclude");
    rejects_at(with_mcp("    command: x\n    timeout: 0\n"), "$.mcpServers.github.timeout");
  }

  TEST_CASE("rejects workspace traversal and duplicate destinations") {
    rejects_at(base + "workspace:\n  files:\n    - {source: ../x.md, path: x.md}\n",
               "$.workspace.files[0].source");
    rejects_at(base + "workspace:\n  files:\n    - {source: x.md, path: /etc/x}\n",
               "$.workspace.files[0].path");
    rejects_at(base +
                   "workspace:\n  files:\n    - {source: a.md, path: x.md}\n    - {source: b.md, "
                   "path: x.md}\n",
               "$.workspace.files[1].path");
    rejects_at(base +
                   "workspace:\n  bootstrapFiles:\n    AGENTS.md: {source: a.md}\n  files:\n    - "
                   "{source: b.md, path: agents.md}\n",
               "$.workspace.files[0].path");
    rejects_at(base +
                   "workspace:\n  files:\n    - {source: a.md, path: ref}\n    - {source: b.md, "
                   "path: ref/x.md}\n",
               "$.workspace.files[1].path");
    rejects_at(base + "workspace:\n  files:\n    - {source: a.md, path: BOOTSTRAP.md}\n",
               "$.workspace.files[0].path");
    rejects_at(base + "workspace:\n  bootstrapFiles:\n    USER.md: {source: a.md}\n",
               "$.workspace.bootstrapFiles");
  }

  TEST_CASE("uses portable workspace collision keys (case + NFC)") {
    rejects_at(
        base +
            "workspace:\n  files:\n    - {source: a.md, path: \"Reference/Caf\xC3\xA9.md\"}\n"
            "    - {source: b.md, path: \"reference/Cafe\xCC\x81.md\"}\n",
        "$.workspace.files[1].path");
  }

  TEST_CASE("requires local avatars to be managed workspace destinations") {
    const std::string with_file =
        "workspace:\n  files:\n    - {source: assets/a.png, path: avatars/a.png}\n";
    CHECK(manifest(base + "  identity:\n    avatar: avatars/a.png\n" + with_file).ok());
    CHECK(manifest(base + "  identity:\n    avatar: AVATARS/A.png\n" + with_file).ok());
    rejects_at(base + "  identity:\n    avatar: avatars/b.png\n" + with_file,
               "$.agent.identity.avatar");
    rejects_at(base + "  identity:\n    avatar: https://example.com/a.png\n",
               "$.agent.identity.avatar");
    rejects_at(base + "  identity:\n    avatar: avatars/a.txt\n", "$.agent.identity.avatar");
    CHECK(
        manifest(base + "  identity:\n    avatar: \"data:image/png;base64,iVBORw0KGgo=\"\n").ok());
    rejects_at(base + "  identity:\n    avatar: \"data:image/png;base64,not*base64\"\n",
               "$.agent.identity.avatar");
    rejects_at(base + "  identity:\n    avatar: \"data:image/png;base64,\"\n",
               "$.agent.identity.avatar");
  }

  TEST_CASE("rejects duplicate packages and cron ids") {
    rejects_at(base +
                   "packages:\n  - {kind: skill, source: clawhub, ref: a, version: 1.0.0}\n"
                   "  - {kind: skill, source: clawhub, ref: a, version: 2.0.0}\n",
               "$.packages[1]");
    const std::string job =
        "  - {id: j, schedule: {cron: \"0 9 * * *\", timezone: UTC}, session: main, message: m}\n";
    rejects_at(base + "cronJobs:\n" + job + job, "$.cronJobs[1].id");
  }

  TEST_CASE("requires portable cron timezone, session, field count, and delivery") {
    const auto job = [](const std::string& cron, const std::string& tz, const std::string& rest) {
      return base + "cronJobs:\n  - id: j\n    schedule: {cron: \"" + cron + "\", timezone: " + tz +
             "}\n    message: m\n" + rest;
    };
    CHECK(manifest(job("0 9 * * 1-5", "America/New_York",
                       "    session: isolated\n    delivery: {mode: announce, channel: last}\n"))
              .ok());
    rejects_at(job("0 9 * * *", "Mars/Olympus", "    session: main\n"),
               "$.cronJobs[0].schedule.cron");
    rejects_at(job("0 9 * *", "UTC", "    session: main\n"), "$.cronJobs[0].schedule.cron");
    rejects_at(job("0 9 * * * *", "UTC", "    session: main\n"), "$.cronJobs[0].schedule.cron");
    rejects_at(job("0 9 * * *", "UTC", "    session: shared\n"), "$.cronJobs[0].session");
    rejects_at(job("0 9 * * *", "UTC", ""), "$.cronJobs[0].session");
    rejects_at(job("0 9 * * *", "UTC", "    session: main\n    delivery: {mode: announce}\n"),
               "$.cronJobs[0].delivery");
    rejects_at(
        job("0 9 * * *", "UTC", "    session: main\n    delivery: {mode: none, channel: last}\n"),
        "$.cronJobs[0].delivery");
    rejects_at(job("0 9 * * *", "UTC", "    session: main\n    delivery: {mode: email}\n"),
               "$.cronJobs[0].delivery.mode");
  }

  TEST_CASE("rejects invalid heartbeat durations and cron expressions") {
    for (const char* bad : {"60 9 * * *", "0 24 * * *", "0 9 0 * *", "0 9 * 13 *", "0 9 * * 8",
                            "0 0 31 2 *", "*/0 * * * *", "a b c d e", "5-1 * * * *"}) {
      INFO(bad);
      CHECK_FALSE(oc::is_valid_cron(bad, "UTC"));
    }
    for (const char* ok : {"*/15 * * * *", "0 9 * jan-mar mon-fri", "0 0 29 2 *", "0 0 31 2 1",
                           "30 16 * * 5", "0 0 * * 7"}) {
      INFO(ok);
      CHECK(oc::is_valid_cron(ok, "utc"));
    }
    double ms = 0;
    CHECK(oc::parse_duration_ms("30m", ms));
    CHECK(ms == 1800000);
    CHECK(oc::parse_duration_ms("1h30m", ms));
    CHECK(ms == 5400000);
    CHECK(oc::parse_duration_ms("45", ms));
    CHECK(ms == 2700000);
    CHECK(oc::parse_duration_ms("1.5s", ms));
    for (const char* bad : {"", "m", "30x", "1h30", "-5m", "1.m", "0.0001ms"}) {
      INFO(bad);
      CHECK_FALSE(oc::parse_duration_ms(bad, ms));
    }
    CHECK(has(profile("  heartbeat:\n    every: soon\n").diagnostics, "invalid_manifest",
              "$.profiles.openclaw.agent.heartbeat.every"));
  }

  TEST_CASE("strings are canonical, never trimmed into validity") {
    rejects_at(base + "  name: \" padded \"\n", "$.agent.name");
    rejects_at(base + "  name: \"\"\n", "$.agent.name");
    rejects_at("schemaVersion: 2\nagent: {id: demo}\n", "$.schemaVersion");
    rejects_at("schemaVersion: 1\n", "$.agent");
    CHECK(manifest("schemaVersion: 1.0\nagent: {id: demo}\n").ok());
  }

  // tests/oracle/cases/refusals.sh (unknown-key, duplicate-cron, schema-version, package-ref)
  // against openclaw@2026.9.6: zod 4's order, words and aborting rules.
  TEST_CASE("zod 4: unknown keys after members, refinements do not stop the cross-field rules") {
    auto r = manifest("schemaVersion: 1\nagent: {id: demo, model: x}\nextra: 1\n");
    REQUIRE(r.diagnostics.size() == 2);
    CHECK(r.diagnostics[0].path == "$.agent");
    CHECK(r.diagnostics[1].path == "$");
    CHECK(r.diagnostics[1].message == "Unrecognized key: \"extra\"");
    // A bad timezone is a refinement: the duplicate id is still reported, in upstream's words.
    const std::string job =
        "  - {id: daily, schedule: {cron: \"0 9 * * *\", timezone: UTC}, "
        "session: main, message: m}\n";
    const std::string bad =
        "  - {id: daily, schedule: {cron: \"0 9 * * *\", timezone: Mars/Olympus}, "
        "session: main, message: m}\n";
    r = manifest(base + "cronJobs:\n" + job + bad);
    INFO(paths(r.diagnostics));
    REQUIRE(r.diagnostics.size() == 2);
    CHECK(r.diagnostics[0].path == "$.cronJobs[1].schedule.cron");
    CHECK(r.diagnostics[1].message == "Cron job id \"daily\" is declared more than once.");
    // A wrong type aborts them: no duplicate reported.
    r = manifest(base + "cronJobs:\n" + job + job + "metadata: 3\n");
    CHECK_FALSE(has(r.diagnostics, "invalid_manifest", "$.cronJobs[1].id"));
    r = manifest("schemaVersion: 2\nagent: {id: demo}\n");
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].message == "Invalid input: expected 1");
    r = manifest(base +
                 "packages:\n  - {kind: connector, source: clawhub, ref: a, version: 1.0.0}\n");
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].message == "Invalid option: expected one of \"skill\"|\"plugin\"");
  }

  TEST_CASE("all errors are reported, not only the first") {
    const auto r =
        manifest("schemaVersion: 1\nagent: {id: Bad, model: x}\npackages:\n  - {kind: x}\n");
    CHECK(r.diagnostics.size() >= 5);
    CHECK(has(r.diagnostics, "invalid_manifest", "$.agent"));
    CHECK(has(r.diagnostics, "invalid_manifest", "$.agent.id"));
    CHECK(has(r.diagnostics, "invalid_manifest", "$.packages[0].kind"));
    CHECK(has(r.diagnostics, "invalid_manifest", "$.packages[0].ref"));
  }
}

TEST_SUITE("openclaw.profile") {
  TEST_CASE("rejects disabled host filesystem confinement") {
    CHECK(has(profile("  tools:\n    fs: {workspaceOnly: false}\n").diagnostics, "invalid_manifest",
              "$.profiles.openclaw.agent.tools.fs.workspaceOnly"));
    CHECK(profile("  tools:\n    fs: {workspaceOnly: true}\n").ok());
  }

  TEST_CASE("rejects retired heartbeat fields with a heartbeat-scoped diagnostic") {
    const auto r = profile("  heartbeat:\n    every: 30m\n    skipWhenBusy: true\n");
    // Upstream (schema.test.ts) reports it at the heartbeat itself, not at the member.
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics.front().path == "$.profiles.openclaw.agent.heartbeat");
    CHECK(r.diagnostics.front().message == "heartbeat.skipWhenBusy is retired; remove it.");
    for (const auto& d : r.diagnostics) CHECK(d.path.find(".heartbeat") != std::string::npos);
  }

  TEST_CASE("rejects invalid profile policy") {
    const std::string root = "$.profiles.openclaw.agent";
    CHECK(has(profile("  tools: {profile: wizard}\n").diagnostics, "invalid_manifest",
              root + ".tools.profile"));
    CHECK(
        has(profile("  tools: {profile: minimal, allow: [read], alsoAllow: [write]}\n").diagnostics,
            "invalid_manifest", root + ".tools.alsoAllow"));
    CHECK(has(profile("  memory:\n    search: {provider: openai}\n").diagnostics,
              "invalid_manifest", root + ".memory.search"));
    CHECK(has(profile("  memory:\n    search: {sources: [sessions]}\n").diagnostics,
              "invalid_manifest", root + ".memory.search.rememberAcrossConversations"));
    CHECK(profile("  memory:\n    search: {rememberAcrossConversations: true, sources: [memory, "
                  "sessions]}\n")
              .ok());
    CHECK(has(profile("  memorySearch: {enabled: true}\n").diagnostics, "invalid_manifest", root));
    CHECK(has(profile("  sandbox: {mode: sometimes}\n").diagnostics, "invalid_manifest",
              root + ".sandbox.mode"));
    CHECK(has(profile("  heartbeat:\n    activeHours: {start: \"24:00\"}\n").diagnostics,
              "invalid_manifest", root + ".heartbeat.activeHours.start"));
    CHECK(profile("  heartbeat:\n    activeHours: {start: \"00:00\", end: \"24:00\", timezone: "
                  "Europe/Paris}\n")
              .ok());
    CHECK(has(profile("  humanDelay: {minMs: -1}\n").diagnostics, "invalid_manifest",
              root + ".humanDelay.minMs"));
    CHECK(has(profile("  groupChat: {mentionPatterns: []}\n").diagnostics, "invalid_manifest",
              root + ".groupChat.mentionPatterns"));
    // [later] bounded tool grants: the syntactic rules.
    CHECK(has(profile("  tools: {profile: minimal, allow: [\"fs_*\"]}\n").diagnostics,
              "invalid_manifest", root + ".tools.allow[0]"));
    CHECK(has(profile("  tools: {profile: minimal, allow: [bundle-mcp]}\n").diagnostics,
              "invalid_manifest", root + ".tools.allow[0]"));
    CHECK(has(profile("  tools: {profile: coding}\n").diagnostics, "invalid_manifest",
              root + ".tools.allow"));
    CHECK(has(profile("  tools: {profile: full}\n").diagnostics, "invalid_manifest",
              root + ".tools.profile"));  // upstream's place for this rule
    CHECK(has(profile("  tools: {alsoAllow: [read]}\n").diagnostics, "invalid_manifest",
              root + ".tools.alsoAllow"));
    CHECK(profile("  tools: {profile: minimal, alsoAllow: [read], deny: [exec]}\n").ok());
  }

  TEST_CASE("legacy released-v1 profile fields need conversion") {
    CHECK(has(profile("  model: {primary: acme/m}\n").diagnostics,
              "legacy_openclaw_profile_requires_conversion", "$.profiles.openclaw.agent"));
    // Not an object: upstream's (2026.9.6) type error at the field (issue 42 §2 item 7).
    const auto r = profile("  model: gpt\n");
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(has(r.diagnostics, "invalid_manifest", "$.profiles.openclaw.agent.model"));
    CHECK(r.diagnostics[0].message == "Invalid input: expected object, received string");
  }

  TEST_CASE("profile extensions are strict and unique") {
    const auto r = oc::validate_profile(
        Y("schemaVersion: 1\nagent: {}\nextensions:\n  - {id: a, kind: plugin, format: claude, "
          "source: clawhub, ref: x, version: 1.0.0}\n"
          "  - {id: a, kind: plugin, format: vim, source: clawhub, ref: X, version: 1.0.0}\n"),
        "$.profiles.openclaw");
    CHECK(has(r.diagnostics, "invalid_manifest", "$.profiles.openclaw.extensions[1].id"));
    CHECK(has(r.diagnostics, "invalid_manifest", "$.profiles.openclaw.extensions[1].format"));
    CHECK(has(r.diagnostics, "invalid_manifest", "$.profiles.openclaw.extensions[1].ref"));
  }
}
