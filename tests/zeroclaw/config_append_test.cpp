// SPDX-License-Identifier: MIT
// Planning an append of whole tables (append_tables): the user's bytes are kept, new
// tables follow a provenance comment, shapes that make an append invalid are refused
// naming the table. The write itself (append_to_config) is tested with its users.
#include "support/test.hpp"

#include <string>

namespace cp = clawport;
namespace zc = clawport::zeroclaw;

namespace {

zc::value table_with(const std::string& key, zc::value v) {
  zc::value t = zc::value::make_table();
  t.set(key, std::move(v));
  return t;
}

zc::value agent_addition(const std::string& alias) {
  zc::value agent = zc::value::make_table();
  agent.set("model_provider", zc::value::make_string("anthropic.main"));
  return table_with("agents", table_with(alias, agent));
}

zc::value server_addition(const std::string& name) {
  zc::value server = zc::value::make_table();
  server.set("name", zc::value::make_string(name));
  server.set("command", zc::value::make_string("npx"));
  server.set("env", table_with("TOKEN", zc::value::make_string("")));
  zc::value servers = zc::value::make_array();
  servers.items.push_back(server);
  return table_with("mcp", table_with("servers", servers));
}

std::string refusal(const std::string& existing, const zc::value& add) {
  try {
    zc::append_tables(existing, add, "imported");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::config_invalid);
    return e.subject() + ": " + e.what();
  }
  return "accepted";
}

const char* const kUser =
    "# my config, my comments\nschema_version = 3\n\n[agents.researcher]\n"
    "model_provider = \"anthropic.main\"   # keep this comment\n";

}  // namespace

TEST_CASE("config append: the user's bytes are kept and the new tables follow a comment") {
  const auto out = zc::append_tables(kUser, agent_addition("researcher_imported"),
                                     "imported by clawport\nbundle sha256:abc");
  CHECK(out.text.rfind(kUser, 0) == 0);
  CHECK(out.text.substr(std::string(kUser).size()) ==
        "\n# imported by clawport\n# bundle sha256:abc\n[agents.researcher_imported]\n"
        "model_provider = \"anthropic.main\"\n");
  CHECK(out.merged.find("agents")->find("researcher") != nullptr);
  CHECK(out.merged.find("agents")->find("researcher_imported") != nullptr);
  // A file without a final newline gets one, and nothing else changes.
  const auto bare = zc::append_tables("schema_version = 3", agent_addition("a"), "x");
  CHECK(bare.text.rfind("schema_version = 3\n\n# x\n[agents.a]", 0) == 0);
}

TEST_CASE("config append: [[mcp.servers]] is extended, sub-tables land in the new element") {
  const std::string existing = "[[mcp.servers]]\nname = \"mine\"\ncommand = \"uvx\"\n";
  const auto out = zc::append_tables(existing, server_addition("github"), "imported");
  const zc::value* servers = out.merged.find("mcp")->find("servers");
  REQUIRE(servers->items.size() == 2);
  CHECK(servers->items[0].find("env") == nullptr);
  CHECK(servers->items[1].find("env")->find("TOKEN") != nullptr);
}

TEST_CASE("config append: shapes that make an append invalid are refused naming the table") {
  CHECK(refusal("agents = { researcher = { model_provider = \"a.b\" } }\n", agent_addition("other"))
            .rfind("agents: ", 0) == 0);
  CHECK(refusal("[mcp]\nservers = [{ name = \"mine\", command = \"uvx\" }]\n",
                server_addition("github"))
            .rfind("mcp.servers: ", 0) == 0);
  CHECK(refusal(kUser, agent_addition("researcher")).find("already has this entry") !=
        std::string::npos);
  CHECK(refusal("[agents]\nresearcher = 3\n", agent_addition("researcher"))
            .rfind("agents.researcher: ", 0) == 0);
  CHECK(refusal("mcp = 1\n", server_addition("x")).rfind("mcp: ", 0) == 0);
  CHECK(zc::append_tables(kUser, agent_addition("fresh"), "c").text.size() > 0);  // control
  CHECK_THROWS_AS(zc::append_tables("[broken", agent_addition("a"), "c"), cp::error);
}
