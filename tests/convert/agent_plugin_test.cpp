// SPDX-License-Identifier: MIT
// `convert --to agent-plugin` (issue 46): a ZeroClaw bundle as one Agent Plugins 1.0.0
// plugin; secrets omitted and named, never blanked; credential shapes in command/args/url
// refused with nothing written; every loss reported. The spec's JSON Schemas and the real
// OpenClaw check the same output in tests/cli/convert_agent_plugin.sh and tests/oracle/.
#include "support/test.hpp"

#include <clawport/testing.hpp>

#include <algorithm>
#include <cerrno>
#include <map>
#include <memory>
#include <string>

namespace cp = clawport;
namespace cv = clawport::convert;

namespace {

const char* const kInstall = R"(schema_version = 3

[providers.models.anthropic.main]
api_key = "sk-ant-plugin-secret-1"
model = "claude-opus-5"

[risk_profiles.careful]
level = "readonly"

[mcp_bundles.tools]
servers = ["pinned", "remote", "odd name!\u00e9"]

[[mcp.servers]]
name = "pinned"
command = "/usr/local/bin/pinned-mcp"
args = ["--verbose"]
env = { PINNED_TOKEN = "plugin-secret-env-2" }
tool_timeout_secs = 30

[[mcp.servers]]
name = "remote"
transport = "http"
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer plugin-secret-header-3" }

[[mcp.servers]]
name = "odd name!\u00e9"
command = "uvx"

[skill_bundles.research_tools]

[agents.Research_Agent]
model_provider = "anthropic.main"
risk_profile = "careful"
mcp_bundles = ["tools"]
skill_bundles = ["research_tools"]
)";

constexpr cp::timestamp kAt{1796083200, 0};

struct rig {
  cp::fs::faulty<cp::fs::memory> f;
  cp::fs::memory& m() { return f.inner(); }

  explicit rig(const std::string& config = kInstall) {
    m().write_file("/src/config.toml", config);
    m().write_file("/src/agents/Research_Agent/workspace/AGENTS.md", "Read papers.\n");
    m().write_file("/src/shared/skills/research_tools/web_search/SKILL.md",
                   "---\nname: web_search\ndescription: Search the web.\nversion: 1.2.0\n"
                   "tags: [web, search]\nalways: true\n---\n# web search\n");
    m().write_file("/src/shared/skills/research_tools/web_search/references/guide.md",
                   "How to search.\n");
    m().write_file("/src/shared/skills/research_tools/summarize/SKILL.md",
                   "---\nname: summarize\ndescription: Summarize a paper.\n---\nBody.\n");
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

  static cv::options opts(const std::string& source, const std::string& out) {
    cv::options o;
    o.source = source;
    o.out = out;
    o.to = cv::direction::to_agent_plugin;
    o.sync = false;
    o.at = kAt;
    o.token = "cnvert";
    return o;
  }

  std::map<std::string, std::string> tree(const std::string& root) {
    std::map<std::string, std::string> out;
    for (const auto& e : m().snapshot(root)) {
      const auto st = m().lstat(root + "/" + e.first);
      if (st && st->kind == cp::fs::file_kind::regular)
        out[e.first] = m().read_file(root + "/" + e.first);
    }
    return out;
  }
};

bool has_loss(const cv::conversion& c, const std::string& path, const char* kind) {
  return std::any_of(c.losses.begin(), c.losses.end(),
                     [&](const cv::loss& l) { return l.path == path && l.kind == kind; });
}

}  // namespace

TEST_CASE("bundle to agent plugin: plugin.json, skills, mcp.json; secrets omitted and named") {
  rig r;
  r.export_agent("Research_Agent");
  const cv::conversion c = cv::run(r.f, rig::opts("/b/Research_Agent", "/out/p"));
  const auto t = r.tree("/out/p");
  CHECK(c.agent == "research-agent");
  REQUIRE(t.count("plugin.json") == 1);
  REQUIRE(t.count("mcp.json") == 1);
  CHECK(t.count("skills/web-search/SKILL.md") == 1);
  CHECK(t.at("skills/web-search/references/guide.md") == "How to search.\n");
  // Already Agent Skills: carried byte for byte.
  CHECK(t.at("skills/summarize/SKILL.md") ==
        "---\nname: summarize\ndescription: Summarize a paper.\n---\nBody.\n");
  // ZeroClaw's own keys become metadata strings (plain where YAML reads them as strings, as the
  // `yaml` package writes them; quoted where plain would read as a bool); the name is the
  // directory.
  const std::string ws = t.at("skills/web-search/SKILL.md");
  CHECK(ws.find("name: web-search\n") != std::string::npos);
  CHECK(ws.find("  version: 1.2.0\n") != std::string::npos);
  CHECK(ws.find("  tags: web, search\n") != std::string::npos);
  CHECK(ws.find("  always: \"true\"\n") != std::string::npos);
  CHECK(ws.find("# web search\n") != std::string::npos);
  const auto plugin = nlohmann::json::parse(t.at("plugin.json"));
  CHECK(plugin["$schema"] == "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json");
  CHECK(plugin["name"] == "research-agent");
  const auto req = plugin["extensions"]["dev.clawport"]["requiredSecrets"];
  CHECK(req == nlohmann::json::parse(
                   R"([{"server":"pinned","kind":"env","name":"PINNED_TOKEN"},
                       {"server":"remote","kind":"header","name":"Authorization"}])"));
  const auto mcp = nlohmann::json::parse(t.at("mcp.json"));
  CHECK(mcp["$schema"] == "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json");
  CHECK(mcp["mcpServers"]["pinned"] ==
        nlohmann::json::parse(R"({"type":"stdio","command":"pinned-mcp","args":["--verbose"]})"));
  CHECK(mcp["mcpServers"]["remote"] ==
        nlohmann::json::parse(R"({"type":"streamable-http","url":"https://mcp.example.com/mcp"})"));
  CHECK(mcp["mcpServers"].contains("odd-name-"));  // "odd name!é": one `-` per run
  for (const auto& f : t) {
    for (const char* s : {"plugin-secret", "sk-ant"}) CHECK(f.second.find(s) == std::string::npos);
    for (const char* bad : {".claude-plugin", ".codex-plugin", ".cursor-plugin", "openclaw.plugin"})
      CHECK(f.first.find(bad) == std::string::npos);
  }
  CHECK(has_loss(c, "mcp.servers.pinned.env.PINNED_TOKEN", cv::loss_kind::dropped));
  CHECK(has_loss(c, "mcp.servers.remote.headers.Authorization", cv::loss_kind::dropped));
  CHECK(has_loss(c, "mcp.servers.pinned.command", cv::loss_kind::changed));
  // No portable slot: kept under dev.clawport for the way back (a change, not a drop).
  CHECK(has_loss(c, "mcp.servers.pinned.tool_timeout_secs", cv::loss_kind::changed));
  {
    const nlohmann::json ext =
        nlohmann::json::parse(t.at("plugin.json"))["extensions"]["dev.clawport"];
    CHECK(ext["servers"]["pinned"]["tool_timeout_secs"] == 30);
    CHECK(ext["servers"]["pinned"]["command"] == "/usr/local/bin/pinned-mcp");
  }
  CHECK(has_loss(c, "mcp.servers.odd name!\xc3\xa9.name", cv::loss_kind::changed));
  CHECK(has_loss(c, "agents.Research_Agent.risk_profile", cv::loss_kind::dropped));
  CHECK(has_loss(c, "workspace/AGENTS.md", cv::loss_kind::dropped));
  CHECK(has_loss(c, "skills/research_tools/web_search", cv::loss_kind::changed));
  CHECK_NOTHROW(cv::check_agent_plugin(t));
  // Deterministic: the same input gives the same bytes.
  cv::run(r.f, rig::opts("/b/Research_Agent", "/out/q"));
  CHECK(r.tree("/out/q") == t);
}

TEST_CASE("agent plugin: a dry run reports the same and writes nothing") {
  rig r;
  r.export_agent("Research_Agent");
  cv::options o = rig::opts("/b/Research_Agent", "/out/p");
  o.dry_run = true;
  const auto before = r.m().snapshot("/out");
  const cv::conversion c = cv::run(r.f, o);
  CHECK(r.m().snapshot("/out") == before);
  CHECK(std::find(c.files.begin(), c.files.end(), "mcp.json") != c.files.end());
  CHECK(has_loss(c, "mcp.servers.pinned.env.PINNED_TOKEN", cv::loss_kind::dropped));
}

TEST_CASE("agent plugin: a credential in command, args or url is refused; nothing written") {
  const std::pair<std::string, std::string> cases[] = {
      {"args = [\"--token\", \"abc123def456\"]", "mcp.servers.leaky.args[1]"},
      {"args = [\"--api-key=abc123def456\"]", "mcp.servers.leaky.args[0]"},
      {"args = [\"ghp_0123456789abcdefghij\"]", "mcp.servers.leaky.args[0]"},
  };
  for (const auto& k : cases) {
    CAPTURE(k.first);
    std::string cfg = kInstall;
    cfg.replace(cfg.find("servers = [\"pinned\", "), 21, "servers = [\"leaky\", ");
    cfg += "\n[[mcp.servers]]\nname = \"leaky\"\ncommand = \"npx\"\n" + k.first + "\n";
    rig r(cfg);
    r.export_agent("Research_Agent");
    const auto before = r.m().snapshot("/out");
    try {
      cv::run(r.f, rig::opts("/b/Research_Agent", "/out/p"));
      FAIL("accepted");
    } catch (const cp::error& e) {
      CHECK(e.code() == cp::errc::config_invalid);
      CHECK(e.subject() == k.second);
      CHECK(std::string(e.what()).find("abc123def456") == std::string::npos);
    }
    CHECK(r.m().snapshot("/out") == before);
  }
  rig r;  // a URL with a password
  CHECK(cv::credential_shape("https://u:p4ss@mcp.example.com/x").has_value());
  CHECK(cv::credential_shape("https://mcp.example.com/x?api_key=abc").has_value());
  CHECK_FALSE(cv::credential_shape("https://mcp.example.com/mcp").has_value());
  CHECK_FALSE(cv::credential_shape("--verbose").has_value());
  CHECK_FALSE(cv::credential_shape("@acme/pinned-mcp@1.2.3").has_value());
}

TEST_CASE("agent plugin names: the spec's examples fit [a-z0-9-]") {
  CHECK(cv::to_plugin_name("my-plugin", "x") == "my-plugin");
  CHECK(cv::to_plugin_name("My_Plugin", "x") == "my-plugin");
  CHECK(cv::to_plugin_name("-start", "x") == "start");
  CHECK(cv::to_plugin_name("has--double", "x") == "has-double");
  CHECK(cv::to_plugin_name("too.many..dots", "x") == "too-many-dots");
  CHECK(cv::to_plugin_name("", "x") == "x");
  CHECK(cv::to_plugin_name(std::string(100, 'a'), "x").size() == 64);
  CHECK(cv::is_agent_skill_name("lint3r"));
  CHECK_FALSE(cv::is_agent_skill_name("My-Plugin"));
}

TEST_CASE("agent plugin: 1,000 skills are carried, each named as its directory") {
  rig r;
  for (int i = 0; i < 1000; ++i)
    r.m().write_file("/src/shared/skills/research_tools/s_" + std::to_string(i) + "/SKILL.md",
                     "---\nname: s_" + std::to_string(i) + "\ndescription: Skill " +
                         std::to_string(i) + ".\n---\nBody.\n");
  r.export_agent("Research_Agent");
  const cv::conversion c = cv::run(r.f, rig::opts("/b/Research_Agent", "/out/p"));
  const auto t = r.tree("/out/p");
  int skills = 0;
  for (const auto& f : t)
    if (f.first.rfind("skills/s-", 0) == 0) {
      ++skills;
      const std::string dir = f.first.substr(7, f.first.find('/', 7) - 7);
      CHECK(f.second.find("name: " + dir + "\n") != std::string::npos);
    }
  CHECK(skills == 1000);
  CHECK_NOTHROW(cv::check_agent_plugin(t));
}

TEST_CASE("agent plugin fault sweep: every operation failing leaves --out as it was") {
  std::size_t total = 0;
  std::map<std::string, std::string> whole;
  {
    rig r;
    r.export_agent("Research_Agent");
    r.f.reset_counts();
    cv::run(r.f, rig::opts("/b/Research_Agent", "/out/p"));
    total = r.f.count();
    whole = r.tree("/out/p");
  }
  REQUIRE(total > 20);
  for (int err : {ENOSPC, EIO}) {
    for (std::size_t n = 1; n <= total; ++n) {
      CAPTURE(err);
      CAPTURE(n);
      rig r;
      r.export_agent("Research_Agent");
      r.f.reset_counts();
      r.f.fail_at(n, err);
      bool failed = false;
      try {
        cv::run(r.f, rig::opts("/b/Research_Agent", "/out/p"));
      } catch (const cp::error&) {
        failed = true;
      }
      if (failed)
        CHECK(r.m().snapshot("/out").empty());
      else
        CHECK(r.tree("/out/p") == whole);
    }
  }
}

TEST_CASE("agent plugin back to a bundle: skills' bytes and servers' fields come back") {
  rig r;
  r.export_agent("Research_Agent");
  cv::run(r.f, rig::opts("/b/Research_Agent", "/out/p"));
  cv::options back = rig::opts("/out/p", "/out/b");
  back.to = cv::direction::to_zeroclaw;
  const cv::conversion c = cv::run(r.f, back);
  CHECK(c.source_kind == "agent-plugin");
  CHECK(cp::verify::verify_bundle(r.m(), "/out/b").ok());
  const auto before = r.tree("/b/Research_Agent");
  const auto after = r.tree("/out/b");
  std::size_t skills = 0;
  for (const auto& f : after)
    if (f.first.rfind("skills/", 0) == 0) {
      ++skills;
      CAPTURE(f.first);
      REQUIRE(before.count(f.first));
      CHECK(before.at(f.first) == f.second);  // the rewritten SKILL.md restored byte for byte
    }
  CHECK(skills == 3);
  const std::string cfg = after.at("config.toml");
  CHECK(cfg.find("command = \"/usr/local/bin/pinned-mcp\"") != std::string::npos);
  CHECK(cfg.find("tool_timeout_secs = 30") != std::string::npos);
  CHECK(cfg.find("PINNED_TOKEN = \"\"") != std::string::npos);
  CHECK(cfg.find("plugin-secret") == std::string::npos);
  CHECK(after.at("zeroclaw-agent.toml").find("mcp.servers.pinned.env.PINNED_TOKEN") !=
        std::string::npos);
}

TEST_CASE("agent plugin back to a bundle: fault sweep leaves --out as it was") {
  const auto prepared = [] {
    auto r = std::make_unique<rig>();
    r->export_agent("Research_Agent");
    cv::run(r->f, rig::opts("/b/Research_Agent", "/out/p"));
    r->m().mkdirs("/back");
    r->f.reset_counts();
    return r;
  };
  cv::options back = rig::opts("/out/p", "/back/b");
  back.to = cv::direction::to_zeroclaw;
  std::size_t total = 0;
  std::map<std::string, std::string> whole;
  {
    auto r = prepared();
    cv::run(r->f, back);
    total = r->f.count();
    whole = r->tree("/back/b");
  }
  REQUIRE(total > 20);
  for (std::size_t n = 1; n <= total; ++n) {
    CAPTURE(n);
    auto r = prepared();
    r->f.fail_at(n, ENOSPC);
    bool failed = false;
    try {
      cv::run(r->f, back);
    } catch (const cp::error&) {
      failed = true;
    }
    if (failed)
      CHECK(r->m().snapshot("/back").empty());
    else
      CHECK(r->tree("/back/b") == whole);
  }
}
