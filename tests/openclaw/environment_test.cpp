// SPDX-License-Identifier: MIT
// The one OpenClaw state-directory rule (openclaw/environment.hpp, `state_dir_of`) that
// every claw and workspace command uses, the OpenClaw environment gathered from the host
// (`environment_of`), and the workspace pieces the CLI used to reach into `detail` for.
#include "support/test.hpp"

#include <optional>
#include <string>

namespace {

namespace oc = clawport::openclaw;
using oc::value;

clawport::host_environment host(const clawport::environment_map& vars, std::string cwd = "/cwd") {
  return clawport::gather_host(vars, std::move(cwd), clawport::timestamp{0, 0});
}

}  // namespace

TEST_SUITE("openclaw environment") {
  TEST_CASE("state dir: --state-dir, else OPENCLAW_STATE_DIR, else ~/.openclaw") {
    oc::environment env;
    env.home = "/home/u";
    env.cwd = "/cwd";
    bool explicit_dir = true;
    CHECK(oc::state_dir_of(env, &explicit_dir) == "/home/u/.openclaw");
    CHECK_FALSE(explicit_dir);
    env.state_dir_env = "/srv/oc";
    CHECK(oc::state_dir_of(env, &explicit_dir) == "/srv/oc");
    CHECK(explicit_dir);
    env.state_dir = "/opt/st";  // the option wins over the variable
    CHECK(oc::state_dir_of(env, &explicit_dir) == "/opt/st");
    CHECK(explicit_dir);
  }
  TEST_CASE("state dir: ~ expanded, relative to cwd, lexically normal; empty is unset") {
    oc::environment env;
    env.home = "/home/u";
    env.cwd = "/cwd";
    env.state_dir = "";
    env.state_dir_env = "~/oc/../state/";
    CHECK(oc::state_dir_of(env) == "/home/u/state");
    env.state_dir = "rel/./st";
    CHECK(oc::state_dir_of(env) == "/cwd/rel/st");
    env.state_dir = "~";
    CHECK(oc::state_dir_of(env) == "/home/u");
  }
  TEST_CASE("state dir: the default named explicitly is not a non-default one") {
    oc::environment env;
    env.home = "/home/u";
    env.cwd = "/";
    env.state_dir_env = "~/.openclaw";
    bool explicit_dir = true;
    CHECK(oc::state_dir_of(env, &explicit_dir) == "/home/u/.openclaw");
    CHECK_FALSE(explicit_dir);
  }
  TEST_CASE("environment_of: the host's variables and the --state-dir option") {
    const auto h = host({{"HOME", "/home/u"},
                         {"OPENCLAW_STATE_DIR", "/srv/oc"},
                         {"OPENCLAW_WORKSPACE_DIR", "/ws"},
                         {"OPENCLAW_PROFILE", "work"}});
    const oc::environment env = oc::environment_of(h, "");
    CHECK_FALSE(env.state_dir);
    CHECK(env.state_dir_env == std::optional<std::string>("/srv/oc"));
    CHECK(env.workspace_dir == std::optional<std::string>("/ws"));
    CHECK(env.profile == std::optional<std::string>("work"));
    CHECK(env.home == "/home/u");
    CHECK(env.cwd == "/cwd");
    CHECK(oc::state_dir_of(env) == "/srv/oc");
    CHECK(oc::state_dir_of(oc::environment_of(h, "mine")) == "/cwd/mine");
    // A working directory that could not be read counts as the root.
    CHECK(oc::environment_of(host({}, ""), "").cwd == "/");
  }
  TEST_CASE("a relative HOME is taken from the working directory, as openclaw 2026.9.6 does") {
    // The bug: HOME=rel gave the state directory `rel/.openclaw` and workspaces under `/`
    // once joined; upstream's resolveOsHomeDir is path.resolve(HOME) (oracle: home.sh).
    const oc::environment env = oc::environment_of(host({{"HOME", " rel/./h "}}, "/cwd"), "");
    CHECK(env.home == "/cwd/rel/h");
    CHECK(oc::state_dir_of(env) == "/cwd/rel/h/.openclaw");
    CHECK(oc::operator_path("~/x", env) == "/cwd/rel/h/x");
    // OPENCLAW_HOME's `~` is HOME's, and a relative OPENCLAW_HOME is the working directory's.
    CHECK(oc::environment_of(host({{"HOME", "rel"}, {"OPENCLAW_HOME", "~/oc"}}), "").home ==
          "/cwd/rel/oc");
    CHECK(oc::environment_of(host({{"HOME", "/h"}, {"OPENCLAW_HOME", "o"}}), "").home == "/cwd/o");
  }
  TEST_CASE("no HOME: refused where OpenClaw's home is needed, never `/.openclaw`") {
    for (const char* h : {"", "  ", "undefined", "null"}) {
      const oc::environment env = oc::environment_of(host({{"HOME", h}}), "");
      CHECK(env.home.empty());
      try {
        (void)oc::state_dir_of(env);
        FAIL("no home: no state directory");
      } catch (const clawport::error& e) {
        CHECK(e.code() == clawport::errc::invalid_argument);
        CHECK(std::string(e.what()).find("set HOME or OPENCLAW_HOME") != std::string::npos);
      }
      CHECK_THROWS_AS((void)oc::operator_path("~/x", env), clawport::error);
      CHECK(oc::environment_of(host({{"HOME", h}, {"OPENCLAW_HOME", "~/x"}}), "").home.empty());
      // A given state directory needs no home.
      CHECK(oc::state_dir_of(oc::environment_of(host({{"HOME", h}}), "st")) == "/cwd/st");
    }
    CHECK_THROWS_AS((void)oc::state_dir_of(oc::environment_of(host({}), "")), clawport::error);
  }
  TEST_CASE("the claw commands and the workspace commands resolve the same state directory") {
    const auto h = host({{"HOME", "/home/u"}, {"OPENCLAW_STATE_DIR", "~/st"}});
    oc::destination_request req;
    static_cast<oc::environment&>(req) = oc::environment_of(h, "");
    const value ws = oc::resolve_workspace(value::object(), oc::environment_of(h, ""), {});
    CHECK(oc::state_dir_of(req) == "/home/u/st");
    CHECK(ws["stateDir"] == "/home/u/st");
  }
  TEST_CASE("resolve_workspace: --workspace decides over everything else") {
    oc::environment env;
    env.home = "/home/u";
    env.cwd = "/cwd";
    env.workspace_dir = "/env/ws";
    const value r =
        oc::resolve_workspace(value::object(), env, std::nullopt, std::string("~/mine/../ws"));
    CHECK(r["workspace"] == "/home/u/ws");
    CHECK(r["rule"] == "--workspace");
    CHECK(r["stateDir"] == "/home/u/.openclaw");
  }
  TEST_CASE("skip_bootstrap reads agents.defaults.skipBootstrap, a boolean only") {
    CHECK_FALSE(oc::skip_bootstrap(value::object()));
    CHECK(oc::skip_bootstrap(value::parse(R"({"agents":{"defaults":{"skipBootstrap":true}}})")));
    CHECK_FALSE(
        oc::skip_bootstrap(value::parse(R"({"agents":{"defaults":{"skipBootstrap":"yes"}}})")));
    CHECK_FALSE(oc::skip_bootstrap(value::parse(R"({"agents":[]})")));
  }
}
