// SPDX-License-Identifier: MIT
// The Schema and Names policies (compile-time checks, a custom schema and grammar driving
// plan_export), and the building blocks: the TOML writer, lexical paths, descriptors.
#include "support/test.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace zc = clawport::zeroclaw;
namespace names = clawport::names;

namespace {

// A consumer's schema: ZeroClaw v3 plus an agent key `team` and a secret `team_token`.
inline constexpr zc::field team_fields[] = {
    zc::fields::f("team", zc::field_type::string),
    zc::fields::f("team_token", zc::field_type::string).as_secret(),
};
struct team_schema : zc::schema_v3 {
  static constexpr zc::entry_schema agent() noexcept {
    return {"agent", zc::v3::agent, team_fields, true};
  }
};

struct not_a_schema {
  static constexpr std::uint32_t version = 3;
};

static_assert(zc::is_schema_v<zc::schema_v3>);
static_assert(zc::is_schema_v<team_schema>);
static_assert(!zc::is_schema_v<not_a_schema>);
static_assert(!zc::is_schema_v<int>);
static_assert(zc::schema_v3::model_provider("anthropic") != nullptr);
static_assert(zc::schema_v3::model_provider("nosuch") == nullptr);
static_assert(zc::schema_v3::model_provider("qwen")->extra.size == 5);
static_assert(zc::schema_v3::transcription_provider("local_whisper")->fields.data[0].required);
static_assert(zc::schema_v3::tts_provider("piper") != nullptr);
static_assert(zc::schema_v3::model_families().size == 76);
static_assert(zc::is_two_tier(zc::ref_target::model_provider));
static_assert(!zc::is_two_tier(zc::ref_target::risk_profile));

const std::string config =
    "[agents.a]\nmodel_provider = \"openai.m\"\nrisk_profile = \"r\"\nteam = \"blue\"\n"
    "team_token = \"team-secret-value\"\nskill_bundles = [\"Research\"]\n"
    "[risk_profiles.r]\n[providers.models.openai.m]\nmodel = \"m\"\n[skill_bundles.Research]\n";

}  // namespace

TEST_CASE("schema policy: a custom schema carries and scrubs keys v3 does not know") {
  const auto v3 = zc::plan_export(config, "a");
  CHECK(v3.closure.find("agents")->find("a")->find("team") == nullptr);
  CHECK(v3.dropped[1].path == "agents.a.team");
  CHECK(v3.dropped[1].reason == zc::drop_reason::unknown_key);
  CHECK(v3.dropped[2].path == "agents.a.team_token");

  const auto custom = zc::plan_export<team_schema>(config, "a");
  const zc::value& agent = *custom.closure.find("agents")->find("a");
  CHECK(agent.find("team")->text == "blue");
  CHECK(agent.find("team_token")->text.empty());
  CHECK(custom.required_secrets == std::vector<std::string>{"agents.a.team_token"});
  const std::string text = zc::render_config_toml<team_schema>(custom);
  CHECK(text.find("team-secret-value") == std::string::npos);
  CHECK(text.find("team = \"blue\"") != std::string::npos);
}

TEST_CASE("names policy: plan_export plans skill directories with the grammar it is given") {
  const auto portable = zc::plan_export(config, "a");
  REQUIRE(portable.skill_sources.size() == 1);
  CHECK(portable.skill_sources[0].relative == "shared/skills/Research");
  using lower = names::portable::with<names::rules::lowercase_only>;
  const auto strict = zc::plan_export<zc::schema_v3, lower>(config, "a");
  CHECK(strict.skill_sources.empty());
  bool dropped = false;
  for (const auto& d : strict.dropped)
    dropped = dropped || (d.path == "skill_bundles.Research" &&
                          d.detail.find("contains an upper-case letter") != std::string::npos);
  CHECK(dropped);
}

TEST_CASE("descriptors: pruning compares with the serialized defaults (§2.2)") {
  zc::value profile = zc::parse_toml(
      "level = \"supervised\"\nworkspace_only = true\nallowed_commands = [\"git\", \"npm\", "
      "\"cargo\", \"ls\", \"cat\", \"grep\", \"find\", \"echo\", \"pwd\", \"wc\", \"head\", "
      "\"tail\", \"date\", \"df\", \"du\", \"uname\", \"uptime\", \"hostname\", \"python\", "
      "\"python3\", \"pip\", \"node\", \"free\"]\nsandbox_enabled = false\n"
      "delegation_policy = { mode = \"forbidden\" }\nalways_ask = []\n",
      "t");
  const auto entry = zc::schema_v3::risk_profile();
  zc::detail::prune_table(profile, entry.fields, entry.extra);
  REQUIRE(profile.members.size() == 1);  // Some(false) differs from None: kept
  CHECK(profile.members[0].key == "sandbox_enabled");
}

TEST_CASE("toml writer: keys, strings, numbers and nesting round-trip") {
  zc::value doc = zc::value::make_table();
  doc.set("plain", zc::value::make_string("a \"quoted\" \\ path\twith\ncontrols\x01\x7f"));
  doc.set("dotted.key", zc::value::make_integer(-42));
  doc.set("sp ace", zc::value::make_floating(1.0));
  doc.set("small", zc::value::make_floating(0.1));
  doc.set("big", zc::value::make_floating(1e300));
  doc.set("inf", zc::value::make_floating(std::numeric_limits<double>::infinity()));
  doc.set("unicode", zc::value::make_string("caf\xC3\xA9 \xE2\x80\x94"));
  zc::value mixed = zc::value::make_array();
  mixed.items.push_back(zc::value::make_string("x"));
  zc::value inline_table = zc::value::make_table();
  inline_table.set("k", zc::value::make_boolean(true));
  mixed.items.push_back(inline_table);
  doc.set("mixed", mixed);
  zc::value& servers = doc.child_table("mcp").set("servers", zc::value::make_array());
  for (const char* name : {"a", "b"}) {
    zc::value s = zc::value::make_table();
    s.set("name", zc::value::make_string(name));
    s.child_table("env").set("X.Y", zc::value::make_string(""));
    servers.items.push_back(s);
  }
  doc.child_table("empty");
  const std::string text = clawport::toml_writer::write(doc, false);
  CHECK(zc::parse_toml(text, "t") == doc);
  CHECK(text.find("\"dotted.key\" = -42\n") != std::string::npos);
  CHECK(text.find("\"sp ace\" = 1.0\n") != std::string::npos);
  CHECK(text.find("small = 0.1\n") != std::string::npos);
  CHECK(text.find("inf = inf\n") != std::string::npos);
  CHECK(text.find("\\u0001\\u007F") != std::string::npos);
  CHECK(text.find("\n\n[[mcp.servers]]\nname = \"a\"\n\n[mcp.servers.env]\n\"X.Y\" = \"\"\n") !=
        std::string::npos);
  CHECK(text.find("\n\n[empty]\n") != std::string::npos);
  const zc::value dates = zc::parse_toml("d = 2026-08-12T00:04:00Z\nt = 07:30:00\n", "t");
  CHECK(zc::parse_toml(clawport::toml_writer::write(dates, false), "t") == dates);
  const zc::value nan_doc = zc::parse_toml("x = nan\n", "t");
  CHECK(zc::parse_toml(clawport::toml_writer::write(nan_doc, false), "t") == nan_doc);
}

TEST_CASE("toml writer: the blank-line pass of §1.3") {
  CHECK(clawport::toml_writer::blank_line_before_sections("[a]\nx = 1\n[b]\n\n[c]\n[[d]]\n") ==
        "[a]\nx = 1\n\n[b]\n\n[c]\n\n[[d]]\n");
  CHECK(clawport::toml_writer::blank_line_before_sections("a = 1") == "a = 1\n");
}

TEST_CASE("paths: lexical normalization and component prefixes") {
  namespace paths = clawport::paths;
  CHECK(paths::normalize("/a/./b/../c/") == "/a/c");
  CHECK(paths::normalize(".") == "");
  CHECK(paths::normalize("./shared") == "shared");
  CHECK(paths::normalize("/../x") == "/x");
  CHECK(paths::normalize("a/../../b") == "../b");
  CHECK(paths::starts_with("shared/skills/x", "shared"));
  CHECK(paths::starts_with("shared", "shared"));
  CHECK_FALSE(paths::starts_with("shared-other/x", "shared"));
  CHECK_FALSE(paths::starts_with("/shared", "shared"));
  CHECK(*paths::strip_prefix("/srv/zc/shared/skills/p", "/srv/zc") == "shared/skills/p");
  CHECK_FALSE(paths::strip_prefix("/srv/other", "/srv/zc").has_value());
  CHECK(paths::has_dotdot("shared/skills/staging/../pool"));
  CHECK_FALSE(paths::has_dotdot("shared/..skills"));
}

namespace {
// Secret fields at every depth the walk must reach: top level, a nested table, a map, and
// the elements of an array of tables (one named, one addressed by its index).
inline constexpr zc::field hook_fields[] = {
    zc::fields::f("name", zc::field_type::string),
    zc::fields::f("token", zc::field_type::string).as_secret(),
};
inline constexpr zc::field auth_fields[] = {
    zc::fields::f("headers", zc::field_type::string_map).as_secret(),
};
inline constexpr zc::field entry_fields[] = {
    zc::fields::f("api_key", zc::field_type::string).as_secret(),
    zc::fields::f("model", zc::field_type::string),
    zc::fields::f("auth", zc::field_type::table).with_children(auth_fields),
    zc::fields::f("hooks", zc::field_type::table_array).with_children(hook_fields),
};
}  // namespace

TEST_CASE("for_each_secret_field: every secret field present, at every depth, by schema path") {
  const zc::value entry = zc::parse_toml(
      "api_key = \"k\"\nmodel = \"m\"\n[auth.headers]\nX-Key = \"h\"\n"
      "[[hooks]]\nname = \"deploy\"\ntoken = \"t1\"\n[[hooks]]\ntoken = \"\"\n",
      "entry.toml");
  std::vector<std::string> seen;
  zc::for_each_secret_field(entry, entry_fields, "p.",
                            [&](const std::string& path, const zc::value& v) {
                              seen.push_back(path + (v.is_string() ? "=" + v.text : " (map)"));
                            });
  CHECK(seen == std::vector<std::string>{"p.api_key=k", "p.auth.headers (map)",
                                         "p.hooks.deploy.token=t1", "p.hooks.1.token="});
}
