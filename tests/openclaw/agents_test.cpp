// SPDX-License-Identifier: MIT
// Counterparts of upstream's agent tests (openclaw/openclaw, written here in our own words):
// `src/agents/agent-scope.test.ts` (which agent is the default, where each agent's workspace
// is, OPENCLAW_HOME) against openclaw/environment.hpp's `agent_workspace`, and
// `src/agents/workspace.test.ts` (resolveDefaultAgentWorkspaceDir, ensureAgentWorkspace's
// BOOTSTRAP.md and setup marker) against workspace.hpp's `bootstrap_workspace`. Each case
// names the upstream test it mirrors; what upstream does that clawport does not (the
// attestation and vanished-workspace guards of the state-database era) is listed in
// docs/openclaw.md.
#include "support/test.hpp"

#include <optional>
#include <string>

namespace {

namespace oc = clawport::openclaw;
using clawport::fs::memory;
using oc::value;

oc::environment scope_env(const clawport::environment_map& vars,
                          const std::string& state_dir = "") {
  return oc::environment_of(clawport::gather_host(vars, "/cwd", clawport::timestamp{0, 0}),
                            state_dir);
}

std::string scope_workspace(const char* config, const oc::environment& env, const std::string& id) {
  return oc::agent_workspace(value::parse(config), env, id).path;
}

}  // namespace

TEST_SUITE("agent-scope.test.ts") {
  TEST_CASE("uses OPENCLAW_HOME for default agent workspace") {
    const auto env = scope_env({{"HOME", "/home/other"}, {"OPENCLAW_HOME", "/srv/openclaw-home"}});
    CHECK(scope_workspace("{}", env, "main") == "/srv/openclaw-home/.openclaw/workspace");
  }
  TEST_CASE("uses OPENCLAW_WORKSPACE_DIR for default agent workspace") {
    const auto env = scope_env({{"HOME", "/home/other"},
                                {"OPENCLAW_HOME", "/srv/openclaw-home"},
                                {"OPENCLAW_WORKSPACE_DIR", "/srv/openclaw-workspace"}});
    CHECK(scope_workspace("{}", env, "main") == "/srv/openclaw-workspace");
  }
  TEST_CASE("uses OPENCLAW_HOME for the state directory (the default agentDir's root)") {
    // Upstream: OPENCLAW_STATE_DIR cleared, so the state directory falls back to
    // OPENCLAW_HOME/.openclaw; ~ and relative values in OPENCLAW_HOME are resolved.
    CHECK(oc::state_dir_of(scope_env({{"HOME", "/h"}, {"OPENCLAW_HOME", "/srv/oh"}})) ==
          "/srv/oh/.openclaw");
    CHECK(oc::state_dir_of(scope_env({{"HOME", "/h"}, {"OPENCLAW_HOME", "~/oh"}})) ==
          "/h/oh/.openclaw");
    CHECK(oc::state_dir_of(scope_env({{"HOME", "/h"}, {"OPENCLAW_HOME", "rel/../oh"}})) ==
          "/cwd/oh/.openclaw");
    // `~` in an operator's path is OpenClaw's home too.
    CHECK(oc::state_dir_of(scope_env({{"HOME", "/h"}, {"OPENCLAW_HOME", "/srv/oh"}}, "~/st")) ==
          "/srv/oh/st");
  }
  TEST_CASE("resolves default agentDir from the configured default agent") {
    // agent-roster.ts at 2026.9.6 (tryResolveDefaultAgentId): the one marked entry, else the
    // sole one, else none (tests/oracle/cases/workspace_resolution.sh).
    CHECK(oc::default_agent_id(value::object()) == std::optional<std::string>("main"));
    CHECK(oc::default_agent_id(value::parse(R"({"agents":{"list":[{"id":"main"},
      {"id":"ops","default":true}]}})")) == std::optional<std::string>("ops"));
    CHECK(oc::default_agent_id(value::parse(R"({"agents":{"entries":{"main":{"default":true},
      "demo":{}}}})")) == std::optional<std::string>("main"));
    CHECK(oc::default_agent_id(value::parse(R"({"agents":{"entries":{"ops":{}}}})")) ==
          std::optional<std::string>("ops"));
    // Several and no marker: no default agent (such a roster is refused unless explicit).
    CHECK_FALSE(oc::default_agent_id(value::parse(R"({"agents":{"list":[{"id":"ops"},
      {"id":"main"}]}})")));
  }
  TEST_CASE("an explicit roster has no default agent: main too is <state>/workspace-main") {
    const auto env = scope_env({{"HOME", "/h"}});
    const char* two = R"({"agents":{"ownership":"explicit","entries":{"main":{},"w":{}}}})";
    CHECK_FALSE(oc::default_agent_id(value::parse(two)));
    CHECK(scope_workspace(two, env, "main") == "/h/.openclaw/workspace-main");
    CHECK(scope_workspace(two, env, "w") == "/h/.openclaw/workspace-w");
    // Without --agent-id there is no agent to resolve (upstream's AgentSelectionRequiredError).
    CHECK_THROWS_AS((void)oc::resolve_workspace(value::parse(two), env, std::nullopt),
                    clawport::error);
    // The sole agent of an explicit roster still owns the default workspace.
    const char* one = R"({"agents":{"ownership":"explicit","entries":{"main":{}}}})";
    CHECK(scope_workspace(one, env, "main") == "/h/.openclaw/workspace");
  }
  TEST_CASE("a roster OpenClaw refuses: several agents and no owner, two markers, both forms") {
    CHECK_FALSE(oc::roster_problem(value::object()));
    CHECK_FALSE(oc::roster_problem(value::parse(R"({"agents":{"entries":{"a":{},"b":{}},
      "ownership":"explicit"}})")));
    CHECK_FALSE(oc::roster_problem(value::parse(R"({"agents":{"entries":{"a":{},
      "b":{"default":true}}}})")));
    CHECK(oc::roster_problem(value::parse(R"({"agents":{"entries":{"a":{},"b":{}}}})")) ==
          std::optional<std::string>(
              "agents.ownership: multi-agent rosters require agents.ownership=\"explicit\" or "
              "one legacy default=true marker; add agents.ownership=\"explicit\" or run "
              "openclaw doctor"));
    CHECK(oc::roster_problem(value::parse(R"({"agents":{"entries":{"a":{"default":true},
      "b":{"default":true}}}})")));
    CHECK(oc::roster_problem(value::parse(R"({"agents":{"ownership":"explicit",
      "entries":{"a":{"default":true}}}})")));
    CHECK(oc::roster_problem(value::parse(R"({"agents":{"entries":{"a":{}},"list":[]}})")));
    // The workspace commands and the plan refuse it, naming the file.
    memory m;
    m.write_file("/st/openclaw.json", R"({"agents":{"entries":{"a":{},"b":{}}}})");
    CHECK_THROWS_AS((void)oc::read_openclaw_config(m, "/st"), clawport::error);
    oc::destination_request req;
    static_cast<oc::environment&>(req) = scope_env({{"HOME", "/h"}}, "/st");
    const oc::host_state host = oc::read_host_state(m, req);
    REQUIRE(host.problem);
    CHECK(host.problem->message.find("/st/openclaw.json: agents.ownership: multi-agent") !=
          std::string::npos);
  }
  TEST_CASE("OPENCLAW_PROFILE: the default workspace is ~/.openclaw-<profile>/workspace") {
    // The variable alone leaves the state directory at ~/.openclaw (openclaw 2026.9.6).
    const auto env = scope_env({{"HOME", "/h"}, {"OPENCLAW_PROFILE", " work "}});
    CHECK(scope_workspace("{}", env, "main") == "/h/.openclaw-work/workspace");
    CHECK(oc::state_dir_of(env) == "/h/.openclaw");
    CHECK(scope_workspace("{}", env, "ops") == "/h/.openclaw/workspace-ops");
    CHECK(scope_workspace("{}", scope_env({{"HOME", "/h"}, {"OPENCLAW_PROFILE", "DEFAULT"}}),
                          "main") == "/h/.openclaw/workspace");
    CHECK_THROWS_AS(
        scope_workspace("{}", scope_env({{"HOME", "/h"}, {"OPENCLAW_PROFILE", "../x"}}), "main"),
        clawport::error);
  }
  TEST_CASE("non-default agent uses agents.defaults.workspace as base (#59789)") {
    const auto env = scope_env({{"HOME", "/h"}});
    CHECK(scope_workspace(R"({"agents":{"defaults":{"workspace":"/shared-ws"},
      "list":[{"id":"main"},{"id":"work","default":true,"workspace":"/work-ws"}]}})",
                          env, "main") == "/shared-ws/main");
  }
  TEST_CASE("default agent without per-agent workspace uses agents.defaults.workspace directly") {
    const auto env = scope_env({{"HOME", "/h"}});
    const char* cfg = R"({"agents":{"defaults":{"workspace":"/shared-ws"},
      "list":[{"id":"main"},{"id":"work","default":true}]}})";
    CHECK(scope_workspace(cfg, env, "work") == "/shared-ws");
    CHECK(oc::agent_workspace(value::parse(cfg), env, "work").rule == "agents.defaults.workspace");
  }
  TEST_CASE("non-default agent without defaults.workspace falls back to stateDir") {
    const auto env = scope_env({{"HOME", "/h"}, {"OPENCLAW_STATE_DIR", "/tmp/test-state"}});
    CHECK(scope_workspace(R"({"agents":{"list":[{"id":"main"},
      {"id":"work","default":true,"workspace":"/work-ws"}]}})",
                          env, "main") == "/tmp/test-state/workspace-main");
  }
  TEST_CASE("an entry's own workspace wins, ~ expanded and trimmed (resolveAgentConfig)") {
    const auto env = scope_env({{"HOME", "/h"}});
    const char* cfg = R"({"agents":{"list":[{"id":"main","workspace":" ~/openclaw "},
      {"id":"ops","workspace":"/srv/ops"}],"defaults":{"workspace":"/shared"}}})";
    CHECK(scope_workspace(cfg, env, "main") == "/h/openclaw");
    CHECK(scope_workspace(cfg, env, "ops") == "/srv/ops");
    CHECK(oc::agent_workspace(value::parse(cfg), env, "main").rule == "agents.list[0].workspace");
    // A blank workspace is no workspace.
    CHECK(scope_workspace(R"({"agents":{"list":[{"id":"main","workspace":"  "}]}})", env, "main") ==
          "/h/.openclaw/workspace");
  }
  TEST_CASE("resolve refuses an agent id that is no agent id, naming the option") {
    // Upstream normalises such an id; clawport refuses it rather than guess, as bootstrap does.
    const auto env = scope_env({{"HOME", "/h"}});
    try {
      (void)oc::resolve_workspace(value::object(), env, std::string("../../x"));
      FAIL("accepted ../../x");
    } catch (const clawport::error& e) {
      CHECK(e.code() == clawport::errc::invalid_argument);
      CHECK(std::string(e.what()).find("--agent-id") != std::string::npos);
    }
    CHECK(oc::resolve_workspace(value::object(), env, std::string("ops"))["workspace"] ==
          "/h/.openclaw/workspace-ops");
  }
  TEST_CASE("claw plan and workspace resolve agree on a new agent's workspace") {
    // Issue 26: `claw plan --state-dir S` used ~/.openclaw/workspace-<id>; now both commands
    // use the one rule, so a new agent lands in S/workspace-<id>.
    memory m;
    m.mkdirs("/h");
    oc::destination_request req;
    static_cast<oc::environment&>(req) = scope_env({{"HOME", "/h"}}, "/S");
    const oc::host_state host = oc::read_host_state(m, req);
    const value resolved = oc::resolve_workspace(host.config, req, std::string("demo"));
    CHECK(resolved["workspace"] == "/S/workspace-demo");
    CHECK(oc::agent_workspace(host.config, req, "demo").path == "/S/workspace-demo");
    CHECK(host.workspaces == std::vector<std::string>{"/S/workspace"});  // the implicit main
  }
}

TEST_SUITE("workspace.test.ts") {
  TEST_CASE(
      "resolveDefaultAgentWorkspaceDir: uses OPENCLAW_HOME for default workspace resolution") {
    const auto env = scope_env({{"OPENCLAW_HOME", "/srv/openclaw-home"}, {"HOME", "/home/other"}});
    CHECK(oc::resolve_workspace(value::object(), env, std::nullopt)["workspace"] ==
          "/srv/openclaw-home/.openclaw/workspace");
  }
  TEST_CASE("resolveDefaultAgentWorkspaceDir: prefers OPENCLAW_WORKSPACE_DIR") {
    const auto env = scope_env({{"OPENCLAW_WORKSPACE_DIR", "/srv/openclaw-workspace"},
                                {"OPENCLAW_HOME", "/srv/openclaw-home"},
                                {"HOME", "/home/other"}});
    CHECK(oc::resolve_workspace(value::object(), env, std::nullopt)["workspace"] ==
          "/srv/openclaw-workspace");
  }
  TEST_CASE("creates BOOTSTRAP.md and records a seeded marker for brand new workspaces") {
    memory m;
    const oc::setup_marker_store marker{"/st", "2026-12-02T10:00:00+00:00"};
    const value r = oc::bootstrap_workspace(m, "/ws", false, marker);
    CHECK(m.lstat("/ws/BOOTSTRAP.md"));
    const value setup = oc::read_workspace_setup(m, "/st");
    CHECK(setup["workspaces"]["/ws"]["bootstrapSeededAt"] == "2026-12-02T10:00:00+00:00");
    CHECK_FALSE(setup["workspaces"]["/ws"].contains("setupCompletedAt"));
    CHECK(r["setupMarker"]["file"] == "/st/clawport-workspaces.json");
    // The marker never lands in the workspace (upstream keeps it out of it as well).
    CHECK_FALSE(m.lstat("/ws/.openclaw"));
  }
  TEST_CASE("does not overwrite a foreign root workspace-state.json file") {
    memory m;
    m.write_file("/ws/workspace-state.json", "not openclaw state\n");
    (void)oc::bootstrap_workspace(m, "/ws", false, oc::setup_marker_store{"/st", "t"});
    CHECK(m.read_file("/ws/workspace-state.json") == "not openclaw state\n");
    CHECK(m.lstat("/ws/BOOTSTRAP.md"));
  }
  TEST_CASE("seeds BOOTSTRAP.md into an existing workspace that has no setup marker") {
    memory m;
    m.write_file("/ws/AGENTS.md", "mine\n");
    m.write_file("/ws/notes.md", "x\n");
    const value r = oc::bootstrap_workspace(m, "/ws", false, oc::setup_marker_store{"/st", "t"});
    CHECK(r["brandNew"] == false);
    CHECK(m.lstat("/ws/BOOTSTRAP.md"));
    CHECK(m.read_file("/ws/AGENTS.md") == "mine\n");
  }
  TEST_CASE("no BOOTSTRAP.md for a workspace upstream treats as set up") {
    // Issue 42 §2 item 10, the peers of workspace.test.ts: a workspace backed by memory/,
    // .git, MEMORY.md or a workspace skill, or a legacy completed one, is marked
    // setupCompletedAt instead of being seeded.
    const auto evidence = [](memory& m, int k) {
      if (k == 0) m.mkdirs("/ws/memory");
      if (k == 1) m.mkdirs("/ws/.git");
      if (k == 2) m.write_file("/ws/MEMORY.md", "remembered\n");
      if (k == 3) m.write_file("/ws/skills/triage/SKILL.md", "---\nname: triage\n---\n");
      if (k == 4)
        m.write_file("/ws/.openclaw/workspace-state.json",
                     R"({"setupCompletedAt": "2026-01-01T00:00:00.000Z"})");
    };
    for (int k = 0; k < 5; ++k) {
      memory m;
      m.write_file("/ws/AGENTS.md", "mine\n");
      evidence(m, k);
      INFO(k);
      const value r = oc::bootstrap_workspace(m, "/ws", false, oc::setup_marker_store{"/st", "t"});
      CHECK_FALSE(m.lstat("/ws/BOOTSTRAP.md"));
      CHECK(r["setupMarker"]["setupCompletedAt"] == "t");
      const value setup = value::parse(m.read_file("/st/clawport-workspaces.json"));
      CHECK(setup["workspaces"]["/ws"] == value::parse(R"({"setupCompletedAt": "t"})"));
    }
    // A legacy state file without setupCompletedAt is no evidence.
    memory m;
    m.write_file("/ws/.openclaw/workspace-state.json", R"({"bootstrapSeededAt": "x"})");
    (void)oc::bootstrap_workspace(m, "/ws", false, oc::setup_marker_store{"/st", "t"});
    CHECK(m.lstat("/ws/BOOTSTRAP.md"));
  }
  TEST_CASE("a recorded marker (seeded or completed) suppresses BOOTSTRAP.md") {
    for (const char* field : {"bootstrapSeededAt", "setupCompletedAt"}) {
      memory m;
      m.write_file("/st/clawport-workspaces.json",
                   std::string(R"({"schemaVersion":"clawport.openclawWorkspaceSetup.v1",)") +
                       R"("workspaces":{"/ws":{")" + field + R"(":"2026-01-01T00:00:00Z"}}})");
      const auto marker_before = m.read_file("/st/clawport-workspaces.json");
      const value r = oc::bootstrap_workspace(m, "/ws", false, oc::setup_marker_store{"/st", "t"});
      CHECK_FALSE(m.lstat("/ws/BOOTSTRAP.md"));
      CHECK(m.lstat("/ws/AGENTS.md"));
      CHECK_FALSE(r.contains("setupMarker"));
      CHECK(m.read_file("/st/clawport-workspaces.json") == marker_before);
    }
  }
  TEST_CASE("a marker file clawport cannot read is refused before anything is written") {
    memory m;
    m.write_file("/st/clawport-workspaces.json", "{not json");
    CHECK_THROWS_AS(
        (void)oc::bootstrap_workspace(m, "/ws", false, oc::setup_marker_store{"/st", "t"}),
        clawport::error);
    CHECK_FALSE(m.lstat("/ws"));
  }
  TEST_CASE("skipBootstrap seeds nothing and records no marker") {
    memory m;
    m.mkdirs("/ws");
    (void)oc::bootstrap_workspace(m, "/ws", true, oc::setup_marker_store{"/st", "t"});
    CHECK(m.snapshot("/ws").empty());
    CHECK_FALSE(m.lstat("/st"));
  }
}
