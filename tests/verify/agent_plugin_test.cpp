// SPDX-License-Identifier: MIT
// `clawport verify <plugin dir>` (issue 46): the Agent Plugins 1.0.0 rules with the spec's
// failure boundaries. The cases are the spec's own examples (spec/1.0.0.md of
// agentplugins/agent-plugins-spec @ 1fc1b627: names §5.2, relative paths §4.1, `cwd` forms
// and URLs §7.2.1, variables §9.2) and the conformance suite's exclusion cases
// (agent-plugins-conformance-invalid-mcp @ 1c053dbb: unknown field, reserved env key,
// fragment, duplicate header; -recovery @ 0990cb59: unknown manifest field and
// `"extensions": false` are not fatal; a malformed mcp.json does not hide skills).
#include "support/test.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace vf = clawport::verify;

namespace {

const std::string kPlugin =
    R"({"$schema":"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json","name":"demo"})";
const std::string kMcpHead =
    R"({"$schema":"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json","mcpServers":)";

vf::plugin_tree tree(std::map<std::string, std::string> files) {
  vf::plugin_tree t;
  for (const auto& f : files) {
    std::string dir;
    const auto parts = clawport::paths::components(f.first);
    for (std::size_t i = 0; i + 1 < parts.size(); ++i)
      t.dirs.insert(dir += (dir.empty() ? "" : "/") + parts[i]);
  }
  t.files = std::move(files);
  return t;
}

vf::plugin_report with_manifest(const std::string& manifest) {
  return vf::check_plugin(tree({{"plugin.json", manifest}}));
}

vf::plugin_report with_server(const std::string& server) {
  return vf::check_plugin(
      tree({{"plugin.json", kPlugin}, {"mcp.json", kMcpHead + R"({"s":)" + server + "}}"}}));
}

std::string skill(const std::string& name, const std::string& extra = "") {
  return "---\nname: " + name + "\ndescription: Does one thing.\n" + extra + "---\nBody.\n";
}

bool has_scope(const vf::plugin_report& r, vf::plugin_scope s, bool warning = false) {
  return std::any_of(r.findings.begin(), r.findings.end(), [&](const vf::plugin_finding& f) {
    return f.scope == s && f.warning == warning;
  });
}

}  // namespace

TEST_CASE("agent plugin: the spec's plugin names (spec §5.2)") {
  for (const char* good : {"my-plugin", "acme.tools", "lint3r", "a", "a.b-c"}) {
    INFO(good);
    CHECK(vf::is_plugin_name(good));
  }
  for (const char* bad :
       {"My-Plugin", "-start", "has--double", "too.many..dots", "", "end-", "a_b"}) {
    INFO(bad);
    CHECK_FALSE(vf::is_plugin_name(bad));
    CHECK_FALSE(
        with_manifest(
            R"({"$schema":"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json","name":")" +
            std::string(bad) + "\"}")
            .loads());
  }
  CHECK(vf::is_plugin_name(std::string(64, 'a')));
  CHECK_FALSE(vf::is_plugin_name(std::string(65, 'a')));
  CHECK_FALSE(vf::is_skill_name("acme.tools"));  // Agent Skills names have no `.`
}

TEST_CASE("agent plugin: whole-plugin failures and what is only ignored") {
  CHECK_FALSE(vf::check_plugin(tree({})).loads());  // no plugin.json
  CHECK_FALSE(with_manifest("not json").loads());
  CHECK_FALSE(
      with_manifest(
          R"({"$schema":"https://agent-plugins.org/schemas/1.1.0/plugin.schema.json","name":"demo"})")
          .loads());
  CHECK_FALSE(with_manifest(R"({"name":"demo"})").loads());
  const std::string head =
      R"({"$schema":"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json","name":"demo",)";
  CHECK_FALSE(with_manifest(head + R"("version":1})").loads());
  CHECK_FALSE(with_manifest(head + R"("author":{"name":"x","twitter":"y"}})").loads());
  CHECK_FALSE(with_manifest(head + R"("author":"x"})").loads());
  CHECK_FALSE(with_manifest(head + R"("keywords":["a",1]})").loads());
  CHECK(with_manifest(head + R"("version":"not-semver","homepage":"not a url"})").ok());
  // Reported and ignored: the plugin still loads (the conformance suite's recovery plugin).
  const vf::plugin_report unknown = with_manifest(head + R"("commands":"./x","extensions":false})");
  CHECK(unknown.ok());
  CHECK(unknown.loads());
  CHECK(has_scope(unknown, vf::plugin_scope::field, true));
  CHECK(with_manifest(head + R"("extensions":{"com.example":{"a":1}}})").ok());
}

TEST_CASE("agent plugin: one skill is skipped, its siblings load (spec §7.1)") {
  const vf::plugin_report r = vf::check_plugin(tree({
      {"plugin.json", kPlugin},
      {"skills/good/SKILL.md", skill("good")},
      {"skills/Some_Dir/SKILL.md", skill("other-name")},  // name differs from its directory
      {"skills/vendor/SKILL.md", skill("vendor", "always: true\n")},  // not an Agent Skills key
      {"skills/nodesc/SKILL.md", "---\nname: nodesc\n---\n"},
      {"skills/good/references/deep/SKILL.md", skill("deep")},  // not an immediate child
  }));
  CHECK(r.skills == std::vector<std::string>{"good"});
  CHECK(r.loads());
  CHECK_FALSE(r.ok());
  CHECK(std::count_if(r.findings.begin(), r.findings.end(), [](const vf::plugin_finding& f) {
          return f.scope == vf::plugin_scope::skill;
        }) == 3);
  // skills/ as a file disables the component only
  const vf::plugin_report file =
      vf::check_plugin(tree({{"plugin.json", kPlugin}, {"skills", "x"}}));
  CHECK(has_scope(file, vf::plugin_scope::component));
  CHECK(file.loads());
}

TEST_CASE("agent plugin: a malformed mcp.json disables MCP, not the skills (spec §7.2.2)") {
  for (
      const std::string& mcp :
      {std::string("{"), kMcpHead + "{}, \"extra\": 1}",
       std::string(
           R"({"$schema":"https://agent-plugins.org/schemas/1.1.0/mcp.schema.json","mcpServers":{}})"),
       std::string(R"({"$schema":"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"})")}) {
    INFO(mcp);
    const vf::plugin_report r = vf::check_plugin(tree(
        {{"plugin.json", kPlugin}, {"mcp.json", mcp}, {"skills/good/SKILL.md", skill("good")}}));
    CHECK(has_scope(r, vf::plugin_scope::component));
    CHECK(r.skills.size() == 1);
    CHECK(r.servers.empty());
  }
}

TEST_CASE("agent plugin: the spec's command, relative path and cwd forms (spec §4.1, §7.2.1)") {
  for (const char* good :
       {R"({"type":"stdio","command":"node"})",
        R"({"type":"stdio","command":"./bin/server","args":["--root","${PLUGIN_ROOT}"]})",
        R"({"type":"stdio","command":"node","cwd":"./data"})",
        R"({"type":"stdio","command":"node","cwd":"${PLUGIN_ROOT}"})",
        R"({"type":"stdio","command":"node","cwd":"${PLUGIN_ROOT}/work"})",
        R"({"type":"stdio","command":"node","cwd":"${PLUGIN_DATA}"})",
        R"({"type":"stdio","command":"node","cwd":"${PLUGIN_DATA}/cache"})",
        R"({"type":"stdio","command":"node","env":{"LOG":"${PLUGIN_DATA}/x"}})"}) {
    INFO(good);
    CHECK(with_server(good).servers.size() == 1);
  }
  for (const char* bad :
       {R"({"type":"stdio","command":"bin/server"})",
        R"({"type":"stdio","command":"/usr/bin/node"})",
        R"({"type":"stdio","command":"./../outside"})",
        R"({"type":"stdio","command":"node server.js"})", R"({"type":"stdio","command":""})",
        R"({"type":"stdio","command":"node","cwd":"data"})",
        R"({"type":"stdio","command":"node","cwd":"/tmp"})",
        R"({"type":"stdio","command":"node","cwd":"../x"})",
        R"({"type":"stdio","command":"node","cwd":"${PLUGIN_ROOT_SUFFIX}"})",
        R"({"type":"stdio","command":"node","cwd":"${PLUGIN_DATA}/../.."})",
        R"({"type":"stdio","command":"node","env":{"PLUGIN_ROOT":"/x"}})",
        R"({"type":"stdio","command":"node","url":"https://a.example"})",
        R"({"type":"stdio","command":"node","args":"--x"})",
        R"({"type":"http","url":"https://a.example"})", R"({"command":"node"})"}) {
    INFO(bad);
    const vf::plugin_report r = with_server(bad);
    CHECK(r.servers.empty());
    CHECK(has_scope(r, vf::plugin_scope::server));
    CHECK(r.loads());
  }
}

TEST_CASE("agent plugin: the spec's URLs and headers (spec §7.2.1)") {
  for (const char* good :
       {"https://mcp.example.com/mcp", "http://localhost:3000/mcp", "http://127.0.0.1/mcp",
        "http://[::1]:8080/mcp", "https://a.example/mcp?x=1"}) {
    INFO(good);
    CHECK_FALSE(vf::url_problem(good));
    CHECK(with_server(std::string(R"({"type":"streamable-http","url":")") + good + "\"}")
              .servers.size() == 1);
  }
  for (const char* bad :
       {"http://mcp.example.com/mcp", "https://user:pw@mcp.example.com/mcp",
        "https://mcp.example.com/mcp#frag", "ftp://mcp.example.com", "/relative", "https://"}) {
    INFO(bad);
    CHECK(vf::url_problem(bad));
    CHECK(with_server(std::string(R"({"type":"sse","url":")") + bad + "\"}").servers.empty());
  }
  CHECK(with_server(R"({"type":"sse","url":"https://a.example","headers":{"X-A":"1","x-a":"2"}})")
            .servers.empty());
  CHECK(with_server(R"({"type":"sse","url":"https://a.example","headers":{"Bad Name":"1"}})")
            .servers.empty());
  CHECK(with_server(R"({"type":"sse","url":"https://a.example","command":"x"})").servers.empty());
}

TEST_CASE("agent plugin: one server is skipped, its siblings load, in mcp.json's order") {
  const vf::plugin_report r = vf::check_plugin(tree(
      {{"plugin.json", kPlugin},
       {"mcp.json",
        kMcpHead +
            R"({"zeta":{"type":"stdio","command":"z"},"bad":{"type":"stdio","command":"x","extra":1},"alpha":{"type":"sse","url":"https://a.example"}}})"}}));
  CHECK(r.servers == std::vector<std::string>{"zeta", "alpha"});
  CHECK(has_scope(r, vf::plugin_scope::server));
  CHECK(r.loads());
  CHECK_FALSE(r.ok());
}

TEST_CASE("agent plugin: another format's manifest is a warning; links are not followed") {
  vf::plugin_tree t = tree({{"plugin.json", kPlugin}, {".claude-plugin/plugin.json", "{}"}});
  t.others.insert("skills/linked");
  const vf::plugin_report r = vf::check_plugin(t);
  CHECK(has_scope(r, vf::plugin_scope::plugin, true));
  CHECK(r.ok());
  vf::plugin_tree link = tree({});
  link.others.insert("plugin.json");
  CHECK_FALSE(vf::check_plugin(link).loads());
}

TEST_CASE("agent plugin: a control character in a name cannot repaint the report") {
  const vf::plugin_report r =
      vf::check_plugin(tree({{"plugin.json", kPlugin}, {"skills/x\x1b[2J/SKILL.md", skill("x")}}));
  const std::string text = vf::render_plugin_report(r);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find("error [skill]") != std::string::npos);
  CHECK(vf::plugin_to_json(r)["ok"] == false);
}
