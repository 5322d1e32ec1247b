// SPDX-License-Identifier: MIT
// The ClawHub view of OpenClaw diagnostics (openclaw-claws.md §1.8, §7): every claw_v1_*
// manifest code of the spec's list is reached by a real validator finding, the mapping
// table names exactly those codes, and paths turn `[n]` into `.n`.
#include "fs/fixture.hpp"
#include "support/test.hpp"

#include <set>
#include <string>
#include <vector>

namespace {

namespace oc = clawport::openclaw;

/// The registry (ClawHub) manifest codes of openclaw-claws.md §7, in the spec's order.
const std::vector<std::string> spec_codes = {
    "claw_v1_invalid_manifest_shape",
    "claw_v1_invalid_agent_id",
    "claw_v1_non_canonical_string",
    "claw_v1_empty_list",
    "claw_v1_invalid_profile_path",
    "claw_v1_unsafe_path",
    "claw_v1_duplicate_workspace_destination",
    "claw_v1_invalid_avatar",
    "claw_v1_undeclared_avatar",
    "claw_v1_invalid_package_reference",
    "claw_v1_invalid_package_version",
    "claw_v1_duplicate_package",
    "claw_v1_invalid_mcp_server_id",
    "claw_v1_invalid_mcp_url",
    "claw_v1_mcp_url_credentials",
    "claw_v1_unpinned_mcp_package",
    "claw_v1_invalid_tool_filter",
    "claw_v1_duplicate_tool_filter",
    "claw_v1_invalid_environment_key",
    "claw_v1_blocked_environment_key",
    "claw_v1_invalid_environment_reference",
    "claw_v1_invalid_timeout",
    "claw_v1_invalid_cron_job_id",
    "claw_v1_invalid_cron_schedule",
    "claw_v1_invalid_cron_delivery",
    "claw_v1_duplicate_cron_job",
};
/// [later] ClawHub adds this one for the reserved package-root BOOTSTRAP.md.
const std::string later_code = "claw_v1_reserved_workspace_target";

oc::value Y(const std::string& text) {
  const auto r = clawport::yaml::parse(text);
  if (!r.ok()) FAIL("test YAML does not parse: " << r.error->where());
  return r.value;
}

std::string listing(const std::vector<oc::diagnostic>& ds) {
  std::string out;
  for (const auto& d : ds)
    out += std::string(to_string(d.code)) + " " + d.path + ": " + d.message + "\n";
  return out;
}

const std::string base = "schemaVersion: 1\nagent:\n  id: demo\n";
const std::string cron =
    "    schedule: {cron: '0 8 * * *', timezone: UTC}\n"
    "    session: main\n    message: hi\n";

std::string mcp(const std::string& server) { return base + "mcpServers:\n  github: " + server; }
std::string pkg(const std::string& ref, const std::string& version) {
  return "  - {kind: skill, source: clawhub, ref: " + ref + ", version: " + version + "}\n";
}

struct reach {
  std::string manifest;      // YAML
  std::string clawhub_code;  // expected after mapping
  std::string clawhub_path;
};

const std::vector<reach> reaches = {
    {base + "model: gpt\n", "claw_v1_invalid_manifest_shape", "$"},
    {"schemaVersion: 1\nagent:\n  id: Demo\n", "claw_v1_invalid_agent_id", "$.agent.id"},
    {"schemaVersion: 1\nagent:\n  id: ' demo'\n", "claw_v1_invalid_agent_id", "$.agent.id"},
    {base + "  name: ' Padded'\n", "claw_v1_non_canonical_string", "$.agent.name"},
    {base + "metadata: {' key': v}\n", "claw_v1_non_canonical_string", "$.metadata. key"},
    {mcp("{command: srv, toolFilter: {include: []}}\n"), "claw_v1_empty_list",
     "$.mcpServers.github.toolFilter.include"},
    {base + "workspace:\n  files:\n    - {source: ../x.md, path: x.md}\n", "claw_v1_unsafe_path",
     "$.workspace.files.0.source"},
    {base + "workspace:\n  bootstrapFiles:\n    SOUL.md: {source: ' s.md'}\n",
     "claw_v1_unsafe_path", "$.workspace.bootstrapFiles.SOUL.md.source"},
    {base + "workspace:\n  files:\n    - {source: a.md, path: Ref.md}\n"
            "    - {source: b.md, path: ref.md}\n",
     "claw_v1_duplicate_workspace_destination", "$.workspace.files.1.path"},
    {base + "workspace:\n  files:\n    - {source: a.md, path: BOOTSTRAP.md}\n", later_code,
     "$.workspace.files.0.path"},
    {base + "  identity: {avatar: 'https://example.test/a.png'}\n", "claw_v1_invalid_avatar",
     "$.agent.identity.avatar"},
    {base + "  identity: {avatar: 'data:image/png;base64,A'}\n", "claw_v1_invalid_avatar",
     "$.agent.identity.avatar"},
    {base + "  identity: {avatar: a.png}\n", "claw_v1_undeclared_avatar",
     "$.agent.identity.avatar"},
    {base + "packages:\n" + pkg("Demo", "1.0.0"), "claw_v1_invalid_package_reference",
     "$.packages.0.ref"},
    {base + "packages:\n" + pkg("demo", "latest"), "claw_v1_invalid_package_version",
     "$.packages.0.version"},
    {base + "packages:\n" + pkg("demo", "1.0.0") + pkg("demo", "2.0.0"),
     "claw_v1_duplicate_package", "$.packages.1"},
    {base + "mcpServers:\n  Bad: {command: srv}\n", "claw_v1_invalid_mcp_server_id",
     "$.mcpServers.Bad"},
    {mcp("{url: 'http://example.test/mcp', transport: sse}\n"), "claw_v1_invalid_mcp_url",
     "$.mcpServers.github.url"},
    {mcp("{url: 'nope', transport: sse}\n"), "claw_v1_invalid_mcp_url", "$.mcpServers.github.url"},
    {mcp("{url: 'https://a:b@example.test/mcp', transport: sse}\n"), "claw_v1_mcp_url_credentials",
     "$.mcpServers.github.url"},
    {mcp("{url: 'https://example.test/mcp#t', transport: sse}\n"), "claw_v1_mcp_url_credentials",
     "$.mcpServers.github.url"},
    {mcp("{command: npx, args: [srv@latest]}\n"), "claw_v1_unpinned_mcp_package",
     "$.mcpServers.github.args"},
    {mcp("{command: srv, toolFilter: {include: ['a?']}}\n"), "claw_v1_invalid_tool_filter",
     "$.mcpServers.github.toolFilter.include.0"},
    {mcp("{command: srv, toolFilter: {exclude: [a, a]}}\n"), "claw_v1_duplicate_tool_filter",
     "$.mcpServers.github.toolFilter.exclude.1"},
    {mcp("{command: srv, env: {BAD-KEY: '${X}'}}\n"), "claw_v1_invalid_environment_key",
     "$.mcpServers.github.env.BAD-KEY"},
    {mcp("{command: srv, env: {ld_preload: '${X}'}}\n"), "claw_v1_blocked_environment_key",
     "$.mcpServers.github.env.ld_preload"},
    {mcp("{command: srv, env: {TOKEN: inline}}\n"), "claw_v1_invalid_environment_reference",
     "$.mcpServers.github.env.TOKEN"},
    {mcp("{command: srv, timeout: 0}\n"), "claw_v1_invalid_timeout", "$.mcpServers.github.timeout"},
    {mcp("{url: 'https://example.test', transport: sse, connectTimeout: -1}\n"),
     "claw_v1_invalid_timeout", "$.mcpServers.github.connectTimeout"},
    {base + "cronJobs:\n  - id: Bad\n" + cron, "claw_v1_invalid_cron_job_id", "$.cronJobs.0.id"},
    {base + "cronJobs:\n  - id: a\n    schedule: {cron: 'not a cron', timezone: UTC}\n"
            "    session: main\n    message: hi\n",
     "claw_v1_invalid_cron_schedule", "$.cronJobs.0.schedule"},
    {base + "cronJobs:\n  - id: a\n" + cron + "    delivery: {mode: none, channel: last}\n",
     "claw_v1_invalid_cron_delivery", "$.cronJobs.0.delivery"},
    {base + "cronJobs:\n  - id: a\n" + cron + "  - id: a\n" + cron, "claw_v1_duplicate_cron_job",
     "$.cronJobs.1.id"},
};

bool has(const std::vector<oc::diagnostic>& ds, const std::string& code, const std::string& path) {
  for (const auto& d : ds)
    if (to_string(d.code) == code && d.path == path) return true;
  return false;
}

}  // namespace

TEST_SUITE("openclaw.clawhub") {
  TEST_CASE("every claw_v1 code of the spec list is reached from a validator finding") {
    std::set<std::string> reached;
    for (const auto& r : reaches) {
      const auto res = oc::validate_manifest(Y(r.manifest));
      INFO(r.manifest);
      INFO(listing(res.diagnostics));
      REQUIRE_FALSE(res.ok());
      for (const auto& d : res.diagnostics) CHECK(to_string(d.code) == "invalid_manifest");
      const auto ch = oc::to_clawhub(res.diagnostics);
      INFO(listing(ch));
      for (const auto& d : ch) {
        CHECK(to_string(d.code).rfind("claw_v1_", 0) == 0);
        CHECK(d.phase == oc::phase::schema);
        CHECK(d.path.find('[') == std::string::npos);
        reached.insert(std::string(to_string(d.code)));
      }
      if (!r.clawhub_code.empty()) CHECK(has(ch, r.clawhub_code, r.clawhub_path));
    }
    // The package-reader finding: the profile pointer.
    clawport::testing::posix_fixture fx;
    fx.write("pkg/package.json",
             "{\"name\": \"demo-claw\", \"version\": \"1.0.0\", \"openclaw\": {\"claw\": "
             "\"CLAW.md\"}}");
    fx.write("pkg/CLAW.md", "---\n" + base + "metadata: {openclaw.config: ../p.yml}\n---\n");
    const auto pkg = oc::read_package(fx.fs, fx.root_path() + "/pkg");
    INFO(listing(pkg.diagnostics));
    REQUIRE(has(pkg.diagnostics, "invalid_openclaw_profile_path", "$.metadata.openclaw.config"));
    const auto ch = oc::to_clawhub(pkg.diagnostics);
    REQUIRE(has(ch, "claw_v1_invalid_profile_path", "$.metadata.openclaw.config"));
    reached.insert("claw_v1_invalid_profile_path");

    std::set<std::string> expected(spec_codes.begin(), spec_codes.end());
    expected.insert(later_code);
    CHECK(reached == expected);
  }

  TEST_CASE("the mapping table names exactly the spec's claw_v1 codes") {
    std::set<std::string> in_table;
    for (const auto& r : oc::clawhub_rules) {
      const std::string code(clawport::to_string(r.clawhub_code));
      if (code.rfind("claw_v1_", 0) == 0) in_table.insert(code);
      CHECK_FALSE(clawport::to_string(r.code).empty());
      CHECK_FALSE(code.empty());
    }
    std::set<std::string> expected(spec_codes.begin(), spec_codes.end());
    expected.insert(later_code);
    CHECK(in_table == expected);
    CHECK(spec_codes.size() == 26);
  }

  TEST_CASE("ClawHub messages replace OpenClaw's for the semantic codes") {
    const auto res = oc::validate_manifest(Y(base + "packages:\n" + pkg("demo", "latest")));
    const auto ch = oc::to_clawhub(res.diagnostics);
    REQUIRE(ch.size() == 1);
    CHECK(to_string(ch[0].code) == "claw_v1_invalid_package_version");
    CHECK(ch[0].path == "$.packages.0.version");
    CHECK(ch[0].message == "Must be an exact semantic version.");
    CHECK(oc::human_line(ch[0]) ==
          "ERROR claw_v1_invalid_package_version $.packages.0.version: Must be an exact semantic "
          "version.");
    // Structural findings keep OpenClaw's explanation.
    const auto shape = oc::to_clawhub(oc::validate_manifest(Y(base + "model: gpt\n")).diagnostics);
    REQUIRE(shape.size() == 1);
    CHECK(shape[0].message == "Unrecognized key: \"model\"");
  }

  TEST_CASE("package codes and codes ClawHub shares") {
    auto d = oc::error_at(clawport::errc::read_failed_too_large, oc::phase::parse, "$", "too big");
    CHECK(to_string(oc::to_clawhub(d).code) == "claw_manifest_too_large");
    d = oc::error_at(clawport::errc::invalid_json, oc::phase::parse, "$",
                     "claw.json is not valid JSON.");
    CHECK(to_string(oc::to_clawhub(d).code) == "invalid_claw_json");
    d = oc::error_at(clawport::errc::invalid_json, oc::phase::parse, "$",
                     "package.json is not valid JSON.");
    CHECK(to_string(oc::to_clawhub(d).code) == "invalid_json");
    // The profile codes are the same on both sides; only the path syntax changes.
    d = oc::error_at(clawport::errc::invalid_openclaw_profile, oc::phase::schema,
                     "$.profiles.openclaw.agent.tools.allow[2]", "x");
    const auto p = oc::to_clawhub(d);
    CHECK(to_string(p.code) == "invalid_openclaw_profile");
    CHECK(p.path == "$.profiles.openclaw.agent.tools.allow.2");
    CHECK(p.message == "x");
    CHECK(p.level == oc::level::error);
    d = oc::warning_at(clawport::errc::deprecated_openclaw_profile_pointer, oc::phase::parse,
                       "$.metadata.openclaw.config", "w");
    CHECK(to_string(oc::to_clawhub(d).code) == "deprecated_openclaw_profile_pointer");
    CHECK(oc::to_clawhub(d).level == oc::level::warning);
  }

  TEST_CASE("paths: [n] becomes .n, the root stays $") {
    CHECK(oc::clawhub_path("$") == "$");
    CHECK(oc::clawhub_path("$.workspace.files[0].path") == "$.workspace.files.0.path");
    CHECK(oc::clawhub_path("$.a[10][2]") == "$.a.10.2");
    CHECK(oc::clawhub_path("$.mcpServers.x.toolFilter.include[1]") ==
          "$.mcpServers.x.toolFilter.include.1");
    CHECK(oc::clawhub_path("$.metadata.a[x]") == "$.metadata.a[x]");  // a key, not an index
    CHECK(oc::clawhub_path("$.metadata.a[]") == "$.metadata.a[]");
    CHECK(oc::clawhub_path("$.metadata.a[1") == "$.metadata.a[1");
  }

  TEST_CASE("glob_match") {
    static_assert(oc::glob_match("a*b", "ab"), "");
    static_assert(oc::glob_match("a*b", "axxb"), "");
    static_assert(!oc::glob_match("a*b", "axxbc"), "");
    static_assert(oc::glob_match("*", ""), "");
    static_assert(oc::glob_match("$.cronJobs[*].id", "$.cronJobs[12].id"), "");
    static_assert(!oc::glob_match("$.cronJobs[*].id", "$.cronJobs[1].name"), "");
    CHECK(oc::glob_match("Workspace destination * more than once.",
                         "Workspace destination \"a b\" is declared more than once."));
  }
}
