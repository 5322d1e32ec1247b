// SPDX-License-Identifier: MIT
// Counterpart of upstream's `src/claws/openclaw-profile.test.ts` (openclaw/openclaw at
// e1ba8e8d), written here in our own words: the profile schema's refusals and the profile
// reader (YAML that must map to JSON, integrity binding, links, the metadata pointer,
// other harnesses' profiles). Each case names the upstream case it mirrors. Not ported:
// upstream's update-only migration readers (`allowLegacyDynamicToolProfile`,
// `authorizeLegacyLocalUpdateHostSettings`, `parseLegacyLocalUpdateClawOpenClawProfile`):
// clawport has no legacy-update path; the strict reader they relax is tested here.
#include "fs/fixture.hpp"
#include "support/test.hpp"

#include <optional>
#include <string>
#include <vector>

namespace {

namespace oc = clawport::openclaw;
using oc::value;

/// A development source as upstream's fixture builds it: `openclaw.claw.json` next to a
/// `profiles/` directory, optionally with the deprecated metadata pointer.
struct profile_fixture : clawport::testing::posix_fixture {
  explicit profile_fixture(const std::string& pointer = "") {
    mkdir("pkg/profiles");
    std::string manifest = R"({"schemaVersion": 1, "agent": {"id": "triage"})";
    if (!pointer.empty()) manifest += R"(, "metadata": {"openclaw.config": ")" + pointer + "\"}";
    write("pkg/openclaw.claw.json", manifest + "}");
  }
  void profile(const std::string& text, const std::string& rel = "profiles/openclaw.yml") {
    write("pkg/" + rel, text);
  }
  oc::claw_package load(const oc::read_options& opt = {}) {
    return oc::read_package(fs, root_path() + "/pkg/openclaw.claw.json", opt);
  }
};

oc::profile_result validate(const std::string& agent_json) {
  return oc::validate_profile(value::parse(R"({"schemaVersion": 1, "agent": )" + agent_json + "}"),
                              "$");
}

std::string listing(const std::vector<oc::diagnostic>& ds) {
  std::string out;
  for (const auto& d : ds) out += oc::human_line(d) + "\n";
  return out;
}

bool has(const std::vector<oc::diagnostic>& ds, const std::string& code, const std::string& path) {
  for (const auto& d : ds)
    if (to_string(d.code) == code && d.path == path) return true;
  return false;
}

}  // namespace

TEST_SUITE("openclaw-profile.test.ts: OpenClaw profile schema") {
  TEST_CASE("rejects disabled host filesystem confinement") {
    CHECK_FALSE(validate(R"({"tools": {"fs": {"workspaceOnly": false}}})").ok());
  }

  TEST_CASE("rejects retired heartbeat fields with a heartbeat-scoped diagnostic") {
    const auto r = validate(R"({"heartbeat": {"every": "30m", "skipWhenBusy": true}})");
    CHECK_FALSE(r.ok());
    bool scoped = false;
    for (const auto& d : r.diagnostics)
      scoped = scoped || (d.path == "$.agent.heartbeat" &&
                          d.message.find("skipWhenBusy") != std::string::npos);
    CHECK(scoped);
  }

  TEST_CASE("rejects invalid profile policy") {
    for (const char* agent : {
             R"({"tools": {"profile": "future-profile"}})",
             R"({"tools": {"profile": "full"}})",
             R"({"tools": {"profile": "coding"}})",
             R"({"tools": {"profile": "messaging"}})",
             R"({"tools": {"profile": "coding", "allow": ["bundle-mcp"]}})",
             R"({"tools": {"allow": ["bundle-mcp"]}})",
             R"({"tools": {"allow": ["*"]}})",
             R"({"tools": {"alsoAllow": ["read"]}})",
             R"({"tools": {"alsoAllow": ["group:plugins"]}})",
             R"({"tools": {"alsoAllow": ["GROUP:PLUGINS"]}})",
             R"({"tools": {"allow": ["read"], "alsoAllow": ["write"]}})",
             R"({"memory": {"search": {"provider": "openai"}}})",
             R"({"memory": {"search": {"sources": ["sessions"]}}})",
         }) {
      INFO(agent);
      CHECK_FALSE(validate(agent).ok());
    }
    // An allow entry outside the profile's tools, by the generated tool catalogue
    // (tool_catalog.hpp, issue 42 §2 item 2), as upstream.
    for (const char* agent : {R"({"tools": {"profile": "coding", "allow": ["tts"]}})",
                              R"({"tools": {"profile": "coding", "allow": ["read", "tts"]}})"}) {
      INFO(agent);
      const auto r = validate(agent);
      REQUIRE(r.diagnostics.size() == 1);
      CHECK(r.diagnostics[0].path == "$.agent.tools.allow");
      CHECK(r.diagnostics[0].message ==
            "Every agent tools allow grant must overlap the selected profile.");
    }
    CHECK(validate(R"({"tools": {"profile": "coding", "allow": ["read", "x__y"]}})").ok());
  }
}

TEST_SUITE("openclaw-profile.test.ts: OpenClaw profile reader") {
  TEST_CASE("rejects profile YAML anchor/alias/tag/merge with its profile diagnostic") {
    struct feature_case {
      const char* declaration;
      const char* feature;
      std::size_t column;
    };
    for (const feature_case& c : {feature_case{"agent: &agent {}", "anchors", 8},
                                  feature_case{"agent: *agent", "aliases", 8},
                                  feature_case{"agent: !!map {}", "explicit tags", 8},
                                  feature_case{"agent: { <<: {} }", "merge keys", 10}}) {
      profile_fixture fx;
      fx.profile(std::string("schemaVersion: 1\n") + c.declaration + "\n");
      const auto pkg = fx.load();
      INFO(c.declaration);
      INFO(listing(pkg.diagnostics));
      REQUIRE(pkg.diagnostics.size() == 1);
      const oc::diagnostic& d = pkg.diagnostics[0];
      CHECK(d.level == oc::level::error);
      CHECK(d.phase == oc::phase::parse);
      CHECK(d.path == "$");
      CHECK(to_string(d.code) == "unsupported_openclaw_profile_yaml_feature");
      CHECK(d.message == std::string("profiles/openclaw.yml uses ") + c.feature +
                             "; OpenClaw profile YAML must map directly to JSON data.");
      // clawport's addition: where, as members of their own (the message stays upstream's).
      CHECK(d.line == 2);
      CHECK(d.column == c.column);
      const value j = oc::to_json(d);
      CHECK(j["line"] == 2);
      CHECK(j["message"] == d.message);
    }
  }

  TEST_CASE("reports a profile YAML duplicate key / invalid syntax as a parse failure") {
    for (const char* text :
         {"schemaVersion: 1\nschemaVersion: 1\nagent: {}\n", "schemaVersion: 1\nagent: [\n"}) {
      profile_fixture fx;
      fx.profile(text);
      const auto pkg = fx.load();
      INFO(text);
      REQUIRE(pkg.diagnostics.size() == 1);
      const oc::diagnostic& d = pkg.diagnostics[0];
      CHECK(d.level == oc::level::error);
      CHECK(d.phase == oc::phase::parse);
      CHECK(d.path == "$");
      CHECK(to_string(d.code) == "invalid_openclaw_profile");
      CHECK(d.message.rfind("Could not parse profiles/openclaw.yml: ", 0) == 0);
    }
  }

  TEST_CASE("a pointed-to profile that is not JSON YAML is reported at $ under its own name") {
    profile_fixture fx("profiles/triage.openclaw.yml");
    fx.profile("schemaVersion: 1\nagent: &a {}\n", "profiles/triage.openclaw.yml");
    oc::read_options era;  // without the pointer's deprecation warning
    era.warn_deprecated_pointer = false;
    const auto pkg = fx.load(era);
    REQUIRE(pkg.diagnostics.size() == 1);
    CHECK(pkg.diagnostics[0].path == "$");
    CHECK(pkg.diagnostics[0].message ==
          "profiles/triage.openclaw.yml uses anchors; OpenClaw profile YAML must map directly to "
          "JSON data.");
  }

  TEST_CASE("loads and integrity-binds the conventional profile") {
    clawport::testing::posix_fixture fx;
    fx.write(
        "pkg/package.json",
        R"({"name": "@acme/github-triage", "version": "3.2.1", "openclaw": {"claw": "CLAW.md"}})");
    fx.write("pkg/CLAW.md", "---\nschemaVersion: 1\nagent:\n  id: triage\n---\n\n# GitHub Triage");
    fx.write("pkg/profiles/openclaw.yml",
             "schemaVersion: 1\nagent:\n  tools:\n    profile: coding\n    allow: [read, "
             "github__list_issues]\n    deny: [exec]\n    fs:\n      workspaceOnly: true");
    const auto first = oc::read_package(fx.fs, fx.root_path() + "/pkg");
    INFO(listing(first.diagnostics));
    REQUIRE(first.ok());
    REQUIRE(first.profile);
    CHECK(first.profile->agent ==
          value::parse(R"({"tools": {"profile": "coding", "allow": ["read", "github__list_issues"],
                                     "deny": ["exec"], "fs": {"workspaceOnly": true}}})"));
    fx.write("pkg/profiles/openclaw.yml",
             "schemaVersion: 1\nagent:\n  tools:\n    profile: messaging\n    allow: [message]\n");
    const auto second = oc::read_package(fx.fs, fx.root_path() + "/pkg");
    REQUIRE(second.ok());
    CHECK(second.source.integrity != first.source.integrity);
  }

  TEST_CASE("a dynamic tool profile without a bounded allowlist is refused by the strict reader") {
    // Upstream's "loads a legacy dynamic $toolProfile profile through the update migration
    // path", strict half: `coding` alone is refused, `minimal` alone is read.
    profile_fixture fx;
    fx.profile("schemaVersion: 1\nagent:\n  tools:\n    profile: coding\n");
    CHECK_FALSE(fx.load().ok());
    fx.profile("schemaVersion: 1\nagent:\n  tools:\n    profile: minimal\n");
    CHECK(fx.load().ok());
  }

  TEST_CASE(
      "validates and strips released v1 host settings only with local update "
      "authorization (fresh read refused)") {
    profile_fixture fx;
    fx.profile(
        "schemaVersion: 1\nagent:\n  model: { primary: acme/primary, fallbacks: [acme/fallback] "
        "}\n  subagents: { allowAgents: [researcher], delegationMode: prefer }\n  tools: { allow: "
        "[read] }\n");
    const auto pkg = fx.load();
    CHECK_FALSE(pkg.ok());
    const oc::diagnostic* conversion = nullptr;
    for (const auto& d : pkg.diagnostics)
      if (to_string(d.code) == "legacy_openclaw_profile_requires_conversion") conversion = &d;
    REQUIRE(conversion != nullptr);
    CHECK(conversion->level == oc::level::error);
    CHECK(conversion->phase == oc::phase::schema);
    CHECK(conversion->path == "$.profiles.openclaw.agent");
    for (const char* part :
         {"agent.model and agent.subagents", "profiles/openclaw.yml", "claws add --dry-run"}) {
      INFO(part);
      CHECK(conversion->message.find(part) != std::string::npos);
    }
  }

  TEST_CASE("rejects a hardlinked profile") {
    profile_fixture fx;
    fx.write("pkg/source.yml", "schemaVersion: 1\nagent: {}\n");
    fx.hardlink("pkg/source.yml", "pkg/profiles/openclaw.yml");
    CHECK(has(fx.load().diagnostics, "openclaw_profile_unsafe", "$.profiles.openclaw"));
  }

  TEST_CASE("rejects a symlinked profile at the read boundary") {
    profile_fixture fx;
    fx.write("pkg/source.yml", "schemaVersion: 1\nagent: {}\n");
    fx.symlink("pkg/profiles/openclaw.yml", "../source.yml");
    CHECK(has(fx.load().diagnostics, "openclaw_profile_unsafe", "$.profiles.openclaw"));
  }

  TEST_CASE("fails closed for an escaping metadata profile pointer") {
    profile_fixture fx("../openclaw.yml");
    fx.write("openclaw.yml", "schemaVersion: 1\nagent: {}\n");
    CHECK(
        has(fx.load().diagnostics, "invalid_openclaw_profile_path", "$.metadata.openclaw.config"));
  }

  TEST_CASE("still reads the deprecated metadata profile pointer with a warning") {
    profile_fixture fx("profiles/triage.openclaw.yml");
    fx.profile("schemaVersion: 1\nagent:\n  tools:\n    profile: coding\n    allow: [read]\n",
               "profiles/triage.openclaw.yml");
    const auto pkg = fx.load();  // the release (and the CLI) warns by default
    INFO(listing(pkg.diagnostics));
    REQUIRE(pkg.ok());
    REQUIRE(pkg.profile);
    CHECK(pkg.profile->agent["tools"]["profile"] == "coding");
    CHECK(
        has(pkg.diagnostics, "deprecated_openclaw_profile_pointer", "$.metadata.openclaw.config"));
    for (const auto& d : pkg.diagnostics) CHECK(d.level == oc::level::warning);
  }

  TEST_CASE("accepts a deprecated pointer that already targets the conventional profile") {
    profile_fixture fx("profiles/openclaw.yml");
    fx.profile("schemaVersion: 1\nagent:\n  tools:\n    profile: coding\n    allow: [read]\n");
    const auto pkg = fx.load();
    REQUIRE(pkg.ok());
    REQUIRE(pkg.profile);
    CHECK(oc::to_json(*pkg.profile)["schemaVersion"] == 1);
  }

  TEST_CASE("fails closed when a deprecated pointer diverges from the conventional profile") {
    profile_fixture fx("profiles/other.openclaw.yml");
    fx.profile("schemaVersion: 1\n");
    fx.profile("schemaVersion: 1\n", "profiles/other.openclaw.yml");
    CHECK(has(fx.load().diagnostics, "conflicting_openclaw_profile_pointer",
              "$.metadata.openclaw.config"));
  }

  TEST_CASE("does not inspect profiles owned by other harnesses") {
    profile_fixture fx;
    fx.profile(std::string(300 * 1024, 'x'), "profiles/codex.yml");
    const auto pkg = fx.load();
    CHECK(pkg.ok());
    CHECK_FALSE(pkg.profile);
  }
}

// Issue 42 §2 item 2: a profile's `tools` materialised from upstream's tool catalogue
// (tool_catalog.hpp, generated by tools/gen_openclaw_tools.py from the npm package) as claws
// add persists them (reader.ts materializeClawToolProfile); tests/oracle/cases/tools.sh
// compares the plans with the real program.
namespace {
// The profile reader's typed tools, materialised (the plan passes the same pair).
value materialized(const value& tools) { return oc::materialize_tools(oc::tools_of(tools), tools); }
}  // namespace

TEST_SUITE("openclaw tool catalogue") {
  TEST_CASE("a built-in profile with a deny list becomes full plus its tools") {
    CHECK(oc::tool_catalog::release == "2026.9.6");
    CHECK(materialized(value::parse(R"({"profile": "minimal", "deny": ["exec"]})")) ==
          value::parse(R"({"profile": "full", "allow": ["session_status", "gateway"],
                           "deny": ["exec"]})"));
  }
  TEST_CASE("a profile narrowed by allow: write brings apply_patch, aliases, MCP tools kept") {
    CHECK(materialized(value::parse(
              R"({"profile": "coding", "allow": ["write", "CRON", "docs__search"],
                  "fs": {"workspaceOnly": true}})")) == value::parse(R"({"profile": "full",
                           "allow": ["write", "apply_patch", "automations", "docs__search"],
                           "fs": {"workspaceOnly": true}})"));
  }
  TEST_CASE("no profile: the grants expanded, groups to their members") {
    CHECK(materialized(value::parse(R"({"allow": ["group:fs"], "deny": ["bash"]})")) ==
          value::parse(R"({"profile": "full",
                           "allow": ["ls", "read", "write", "edit", "apply_patch"],
                           "deny": ["exec"]})"));
    CHECK(materialized(value::parse(R"({"deny": ["exec"]})")) ==
          value::parse(R"({"deny": ["exec"]})"));
  }
  // Issue 42: materialize_tools reads the typed tools, not the JSON by key.
  TEST_CASE("the profile reader types agent.tools: lists, which keys are set, fs as written") {
    const oc::profile_tools t = oc::tools_of(value::parse(
        R"({"profile": "coding", "alsoAllow": ["cron"], "deny": ["exec"],
            "fs": {"workspaceOnly": true}})"));
    CHECK(t.profile == std::optional<std::string>("coding"));
    CHECK_FALSE(t.has_allow);
    CHECK(t.allow.empty());
    CHECK(t.also_allow);
    CHECK(t.also_allow_tools == std::vector<std::string>{"cron"});
    CHECK(t.deny == std::vector<std::string>{"exec"});
    CHECK(t.workspace_only);
    REQUIRE(t.fs.has_value());
    CHECK(*t.fs == value::parse(R"({"workspaceOnly": true})"));
    CHECK(oc::tools_of(value::parse(R"({"allow": ["read"]})")).has_allow);
  }
  TEST_CASE("the catalogue's profiles and groups") {
    CHECK(oc::tool_profile_ids() ==
          std::vector<std::string>{"minimal", "coding", "messaging", "full"});
    CHECK(oc::tool_profile_ids(true) == std::vector<std::string>{"coding", "messaging"});
    CHECK(oc::tool_allowed("apply_patch", {"write"}));
    CHECK(oc::tool_allowed("sessions_list", {"sessions_*"}));
    CHECK_FALSE(oc::tool_allowed("tts", {"group:fs"}));
  }
}
