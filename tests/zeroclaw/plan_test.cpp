// SPDX-License-Identifier: MIT
// Every test of the upstream planning module (zeroclaw-bundle.md §10.A), each named after
// its upstream test, on the shared fixtures `fixture` and `loaded_fixture` built from the
// spec as TOML text with overridable agent keys.
#include "support/test.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace zc = clawport::zeroclaw;

namespace {

/// A TOML basic string for any raw value (backslashes, control characters).
std::string q(const std::string& raw) { return clawport::toml_writer::quote(raw); }

struct config_builder {
  std::vector<std::pair<std::string, std::string>> agent;  // key -> TOML literal
  std::string profile = "[risk_profiles.guarded]\n";
  std::string bundles =
      "[mcp_bundles.research]\nservers = [\"github\", \"search\"]\nexclude = [\"search\"]\n";
  std::string github_extra;   // lines appended to the github server
  std::string servers_after;  // more [[mcp.servers]] entries
  std::string main_extra;     // lines appended to [providers.models.anthropic.main]
  std::string extra;          // any further sections

  config_builder() {
    agent = {{"model_provider", q("anthropic.main")},
             {"risk_profile", q("guarded")},
             {"mcp_bundles", "[\"research\"]"},
             {"channels", "[\"telegram.work\"]"}};
  }

  config_builder& set(const std::string& key, const std::string& literal) {
    for (auto& kv : agent)
      if (kv.first == key) {
        kv.second = literal;
        return *this;
      }
    agent.emplace_back(key, literal);
    return *this;
  }
  config_builder& erase(const std::string& key) {
    agent.erase(
        std::remove_if(agent.begin(), agent.end(), [&](const auto& kv) { return kv.first == key; }),
        agent.end());
    return *this;
  }

  std::string text() const {
    std::string t = "schema_version = 3\n\n[agents.researcher]\n";
    for (const auto& kv : agent) t += kv.first + " = " + kv.second + "\n";
    t += "\n" + profile + "\n" + bundles + "\n";
    t += "[[mcp.servers]]\nname = \"github\"\ncommand = \"npx\"\n"
         "args = [\"-y\", \"@modelcontextprotocol/server-github\"]\n"
         "env = { GITHUB_TOKEN = \"ghp_realsecretvalue\" }\n" +
         github_extra + "\n";
    t += "[[mcp.servers]]\nname = \"search\"\ntransport = \"http\"\n"
         "url = \"https://search.example.com/mcp\"\n\n";
    t += "[[mcp.servers]]\nname = \"unrelated\"\ncommand = \"other\"\n\n";
    t += servers_after;
    t += "[providers.models.anthropic.main]\napi_key = \"sk-ant-realkey\"\n"
         "model = \"claude-opus-5\"\n" +
         main_extra + "\n";
    t += extra;
    return t;
  }
};

/// §10.A `fixture`.
config_builder fixture() { return config_builder(); }

/// §10.A `loaded_fixture`.
config_builder loaded_fixture() {
  config_builder b;
  b.set("runtime_profile", q("standard"))
      .set("classifier_provider", q("anthropic.classifier"))
      .set("tts_provider", q("openai.voice"))
      .set("skill_bundles", "[\"research_tools\"]")
      .set("knowledge_bundles", "[\"house_docs\"]")
      .set("delegates", "[{ agent = \"assistant\", mode = \"bounded\" }]")
      .set("identity", "{ format = \"aieos\", aieos_path = \"/srv/identities/researcher.json\" }");
  b.extra +=
      "[providers.models.anthropic.summarizer]\nmodel = \"claude-haiku-4-5\"\n\n"
      "[providers.models.anthropic.classifier]\nmodel = \"claude-haiku-4-5\"\n\n"
      "[providers.tts.openai.voice]\napi_key = \"tts-realkey\"\nmodel = \"tts-1\"\n\n"
      "[runtime_profiles.standard.context_compression]\n"
      "summary_provider = \"anthropic.summarizer\"\n\n"
      "[skill_bundles.research_tools]\ndirectory = \"/srv/zeroclaw/shared/skills/pool\"\n\n"
      "[knowledge_bundles.house_docs]\nsources = [\"shared/knowledge/handbook\"]\n\n"
      "[agents.assistant]\nmodel_provider = \"anthropic.main\"\nrisk_profile = \"guarded\"\n\n";
  return b;
}

zc::export_plan plan(const config_builder& b, const zc::plan_options& options = {}) {
  return zc::plan_export(b.text(), "researcher", options);
}

bool has_drop(const zc::export_plan& p, const std::string& path) {
  return std::any_of(p.dropped.begin(), p.dropped.end(),
                     [&](const zc::dropped_item& d) { return d.path == path; });
}
const zc::dropped_item* find_drop(const zc::export_plan& p, const std::string& path) {
  for (const auto& d : p.dropped)
    if (d.path == path) return &d;
  return nullptr;
}
bool has_flag(const zc::export_plan& p, zc::risk_kind kind, const std::string& path = "") {
  return std::any_of(p.risk_flags.begin(), p.risk_flags.end(), [&](const zc::risk_flag& f) {
    return f.kind == kind && (path.empty() || f.path == path);
  });
}
bool has_secret(const zc::export_plan& p, const std::string& path) {
  return std::find(p.required_secrets.begin(), p.required_secrets.end(), path) !=
         p.required_secrets.end();
}

/// The value at a dotted path of keys (no quoting; test paths avoid dots in keys).
const zc::value* at(const zc::value& root, const std::vector<std::string>& keys) {
  const zc::value* v = &root;
  for (const auto& k : keys) {
    if (v == nullptr || !v->is_table()) return nullptr;
    v = v->find(k);
  }
  return v;
}

const zc::value& agent_of(const zc::value& root) {
  const zc::value* a = at(root, {"agents", "researcher"});
  REQUIRE(a != nullptr);
  return *a;
}

/// Renders config.toml and parses it back.
zc::value reparsed(const zc::export_plan& p) {
  return zc::parse_toml(zc::render_config_toml(p), "config.toml");
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

const clawport::timestamp fixed_time{1786493040, 0};  // 2026-08-12T00:04:00Z

}  // namespace

// ---------------------------------------------------------------------------------------
// §10.A, in upstream order.
// ---------------------------------------------------------------------------------------

TEST_CASE("10.A.1 unknown_alias_is_an_error") {
  try {
    (void)zc::plan_export("", "nobody");
    FAIL("planned an unknown agent");
  } catch (const clawport::error& e) {
    CHECK(e.code() == clawport::errc::unknown_agent);
    CHECK(std::string(e.what()) ==
          "agent 'nobody' is not configured; the config configures no agent ([agents.<alias>])");
    CHECK(e.subject() == "agents.nobody");
  }
}

TEST_CASE("an unknown alias lists the configured agents (issue 27)") {
  try {
    (void)zc::plan_export("[agents.alpha]\n[agents.beta]\n", "nobody");
    FAIL("planned an unknown agent");
  } catch (const clawport::error& e) {
    CHECK(std::string(e.what()) ==
          "agent 'nobody' is not configured; the configured agents: `alpha`, `beta`");
  }
}

std::vector<std::string> server_names(const zc::value& closure) {
  std::vector<std::string> names;
  if (const zc::value* servers = at(closure, {"mcp", "servers"}))
    for (const auto& s : servers->items) names.push_back(s.find("name")->text);
  return names;
}

TEST_CASE("10.A.2 closure_carries_only_the_servers_the_bundles_grant") {
  const auto p = plan(fixture());
  CHECK(server_names(p.closure) == std::vector<std::string>{"github"});
}

TEST_CASE("10.A.3 duplicate_server_names_collapse_to_one_entry") {
  auto b = fixture();
  b.servers_after =
      "[[mcp.servers]]\nname = \"github\"\ncommand = \"impostor\"\n"
      "env = { GITHUB_TOKEN = \"ghp_theotherone\" }\n\n";
  const auto p = plan(b);
  CHECK(server_names(p.closure) == std::vector<std::string>{"github"});
  std::vector<std::string> github_secrets;
  for (const auto& s : p.required_secrets)
    if (s.rfind("mcp.servers.github", 0) == 0) github_secrets.push_back(s);
  CHECK(github_secrets == std::vector<std::string>{"mcp.servers.github.env.GITHUB_TOKEN"});
  const std::string text = zc::render_config_toml(p);
  CHECK_FALSE(contains(text, "impostor"));
  CHECK_FALSE(contains(text, "ghp_theotherone"));
}

TEST_CASE("10.A.4 exclude_still_wins_inside_the_closure") {
  auto b = fixture();
  b.set("mcp_bundles", "[\"research\", \"extra\"]");
  b.bundles += "\n[mcp_bundles.extra]\nservers = [\"search\"]\n";
  const auto p = plan(b);
  CHECK_FALSE(contains(zc::render_config_toml(p), "search.example.com"));
  CHECK(server_names(p.closure) == std::vector<std::string>{"github"});
}

TEST_CASE("10.A.5 no_credential_survives_into_the_rendered_bundle") {
  for (const auto& b : {fixture(), loaded_fixture()}) {
    const auto p = plan(b);
    const std::string text = zc::render_config_toml(p) + zc::render_manifest(p, fixed_time);
    for (const char* secret :
         {"ghp_realsecretvalue", "sk-ant-realkey", "***MASKED***", "tts-realkey"})
      CHECK_MESSAGE(!contains(text, secret), secret);
  }
}

TEST_CASE("10.A.6 required_secrets_name_every_scrubbed_leaf_by_config_path") {
  const auto p = plan(fixture());
  CHECK(p.required_secrets == std::vector<std::string>{"mcp.servers.github.env.GITHUB_TOKEN",
                                                       "providers.models.anthropic.main.api_key"});
}

TEST_CASE("10.A.7 scrubbed_leaves_are_emitted_empty_not_masked") {
  const auto p = plan(fixture());
  const zc::value* key = at(p.closure, {"providers", "models", "anthropic", "main", "api_key"});
  REQUIRE(key != nullptr);
  CHECK(key->text == "");
  CHECK(at(p.closure, {"providers", "models", "anthropic", "main", "model"})->text ==
        "claude-opus-5");
}

TEST_CASE("10.A.8 host_specific_and_relational_fields_are_dropped_and_reported") {
  auto b = fixture();
  b.set("workspace",
        "{ path = \"/srv/custom\", access = { beta = \"read\" }, "
        "read_memory_from = [\"beta\"] }");
  const auto p = plan(b);
  const zc::value& agent = agent_of(p.closure);
  CHECK(agent.find("channels") == nullptr);
  if (const zc::value* ws = agent.find("workspace")) {
    CHECK(ws->find("path") == nullptr);
    CHECK(ws->find("access") == nullptr);
    CHECK(ws->find("read_memory_from") == nullptr);
  }
  for (const char* path :
       {"agents.researcher.channels", "agents.researcher.workspace.path",
        "agents.researcher.workspace.access", "agents.researcher.workspace.read_memory_from"})
    CHECK_MESSAGE(has_drop(p, path), path);
  CHECK(find_drop(p, "agents.researcher.workspace.path")->reason == zc::drop_reason::host_specific);
  CHECK(find_drop(p, "agents.researcher.workspace.access")->reason == zc::drop_reason::relational);
  // The configured workspace is the copy source, as written.
  CHECK(p.workspace.configured);
  CHECK(p.workspace.path == "/srv/custom");
}

TEST_CASE("10.A.9 drop_report_describes_this_agent_not_the_schema") {
  const auto p = plan(fixture());
  for (const char* path :
       {"agents.researcher.delegates", "agents.researcher.cron_jobs", "agents.researcher.a2a"})
    CHECK_MESSAGE(!has_drop(p, path), path);
  // The exact drop list of the fixture, in §3.1 order (matches the §1.4 example).
  std::vector<std::string> paths;
  for (const auto& d : p.dropped) paths.push_back(d.path);
  CHECK(paths == std::vector<std::string>{"agents.researcher.channels",
                                          "agents.researcher.delegate_same_risk_profile",
                                          "workspace/memory", "workspace/MEMORY_SNAPSHOT.md"});
  CHECK_FALSE(p.workspace.configured);
  CHECK(p.workspace.path == "agents/researcher/workspace");
}

TEST_CASE("10.A.10 neither_half_of_memory_travels_and_both_are_reported") {
  const auto p = plan(fixture());
  const auto* memory = find_drop(p, "workspace/memory");
  const auto* snapshot = find_drop(p, "workspace/MEMORY_SNAPSHOT.md");
  REQUIRE(memory != nullptr);
  REQUIRE(snapshot != nullptr);
  CHECK(memory->reason == zc::drop_reason::not_yet_portable);
  CHECK(snapshot->reason == zc::drop_reason::private_data);
  CHECK(memory->detail ==
        "the memory store is a live SQLite database in WAL mode, which cannot be copied as "
        "files without risking a torn or stale snapshot; bundle format 1 does not carry it");
}

TEST_CASE("10.A.11 memory_is_filtered_out_of_the_workspace_copy") {
  for (const char* excluded :
       {"memory", "memory/brain.db", "memory/brain.db-wal", "memory/brain.db-shm",
        "MEMORY_SNAPSHOT.md", "MEMORY.md", "memory.md", "USER.md", "user.md"})  // issue 30
    CHECK_MESSAGE(!zc::workspace_entry_included(excluded), excluded);
  for (const char* included :
       {"", "IDENTITY.md", "notes/memory/scratch.md", "notes/MEMORY_SNAPSHOT.md", "Memory",
        "memory_snapshot.md", "notes/MEMORY.md", "USER.md.bak"})
    CHECK_MESSAGE(zc::workspace_entry_included(included), included);
}

TEST_CASE("10.A.12 source_local_approval_route_is_removed_and_reported") {
  auto b = fixture();
  b.profile = "[risk_profiles.guarded.approval_route]\napprover_channel = \"telegram.ops\"\n";
  const auto p = plan(b);
  const auto* d = find_drop(p, "risk_profiles.guarded.approval_route");
  REQUIRE(d != nullptr);
  CHECK(d->reason == zc::drop_reason::host_specific);
  const zc::value back = reparsed(p);
  const zc::value* profile = at(back, {"risk_profiles", "guarded"});
  REQUIRE(profile != nullptr);
  CHECK(profile->find("approval_route") == nullptr);
  CHECK_FALSE(contains(zc::render_config_toml(p), "telegram.ops"));
}

TEST_CASE("10.A.13 stdio_servers_are_flagged_as_process_spawn") {
  const auto p = plan(fixture());
  REQUIRE(has_flag(p, zc::risk_kind::process_spawn, "mcp.servers.github.command"));
  CHECK(contains(p.risk_flags.back().detail, "npx"));
  CHECK(p.risk_flags.back().detail ==
        "starts a local process on the target host: npx -y @modelcontextprotocol/server-github");
}

TEST_CASE("10.A.14 permissive_risk_profile_raises_every_matching_flag") {
  auto b = fixture();
  b.profile =
      "[risk_profiles.guarded]\nlevel = \"full\"\nworkspace_only = false\n"
      "sandbox_enabled = false\nblock_high_risk_commands = false\n"
      "require_approval_for_medium_risk = false\n"
      "shell_env_passthrough = [\"AWS_SECRET_ACCESS_KEY\"]\nallowed_roots = [\"/\"]\n"
      "delegation_policy = { mode = \"allow\" }\n";
  b.set("workspace", "{ unrestricted_filesystem = true }");
  const auto p = plan(b);
  using K = zc::risk_kind;
  for (K kind : {K::full_autonomy, K::filesystem_escape, K::sandbox_disabled, K::approval_bypass,
                 K::env_passthrough, K::extra_filesystem_roots, K::delegation_enabled})
    CHECK_MESSAGE(has_flag(p, kind), zc::to_string(kind));
  // Exact collection order, paths and details (§5.2).
  std::vector<std::pair<std::string, std::string>> got;
  for (const auto& f : p.risk_flags) got.emplace_back(std::string(zc::to_string(f.kind)), f.path);
  const std::vector<std::pair<std::string, std::string>> want = {
      {"full_autonomy", "risk_profiles.guarded.level"},
      {"filesystem_escape", "risk_profiles.guarded.workspace_only"},
      {"sandbox_disabled", "risk_profiles.guarded.sandbox_enabled"},
      {"approval_bypass", "risk_profiles.guarded.block_high_risk_commands"},
      {"approval_bypass", "risk_profiles.guarded.require_approval_for_medium_risk"},
      {"env_passthrough", "risk_profiles.guarded.shell_env_passthrough"},
      {"extra_filesystem_roots", "risk_profiles.guarded.allowed_roots"},
      {"delegation_enabled", "risk_profiles.guarded.delegation_policy.mode"},
      {"filesystem_escape", "agents.researcher.workspace.unrestricted_filesystem"},
      {"process_spawn", "mcp.servers.github.command"}};
  CHECK(got == want);
  CHECK(p.risk_flags[1].detail == "filesystem access is not confined to the workspace");
  CHECK(p.risk_flags[5].detail ==
        "host environment variables are forwarded into shell subprocesses: AWS_SECRET_ACCESS_KEY");
  CHECK(p.risk_flags[6].detail == "extra filesystem roots are granted beyond the workspace: /");
  CHECK(p.risk_flags[8].detail ==
        "the agent can read and write anywhere the host filesystem permits");
}

TEST_CASE("10.A.15 full_autonomy_discloses_the_filesystem_escape_it_forces") {
  auto b = fixture();
  b.profile = "[risk_profiles.guarded]\nlevel = \"full\"\n";
  const auto p = plan(b);
  CHECK(has_flag(p, zc::risk_kind::full_autonomy, "risk_profiles.guarded.level"));
  CHECK(has_flag(p, zc::risk_kind::filesystem_escape, "risk_profiles.guarded.level"));
  CHECK_FALSE(
      has_flag(p, zc::risk_kind::filesystem_escape, "risk_profiles.guarded.workspace_only"));
  // The 22-space run of the upstream literal is not reproduced (docs/format.md).
  CHECK(p.risk_flags[1].detail ==
        "full autonomy turns workspace confinement off, so filesystem access is not confined "
        "to the workspace even though `workspace_only` is set");
}

TEST_CASE("10.A.16 default_profile_raises_no_flags_beyond_transport") {
  const auto p = plan(fixture());
  REQUIRE(p.risk_flags.size() == 1);
  CHECK(p.risk_flags[0].kind == zc::risk_kind::process_spawn);
}

TEST_CASE("10.A.17 pinned_resources_are_flagged_as_untrusted_startup_context") {
  auto b = fixture();
  b.github_extra = "pinned_resources = [\"repo://readme\"]\n";
  const auto p = plan(b);
  REQUIRE(
      has_flag(p, zc::risk_kind::untrusted_startup_context, "mcp.servers.github.pinned_resources"));
  CHECK(p.risk_flags.back().detail ==
        "server-controlled text is read into the system prompt at startup: repo://readme");
}

TEST_CASE("10.A.18 every_provider_reference_the_agent_names_is_carried") {
  auto b = fixture();
  b.set("tts_provider", q("openai.voice"));
  b.extra += "[providers.tts.openai.voice]\napi_key = \"tts-key\"\nmodel = \"tts-1\"\n";
  const auto p = plan(b);
  CHECK(at(p.closure, {"providers", "tts", "openai", "voice"}) != nullptr);
  CHECK(at(p.closure, {"providers", "models", "anthropic", "main"}) != nullptr);
  CHECK(has_secret(p, "providers.tts.openai.voice.api_key"));
}

TEST_CASE("10.A.19 reachable_model_provider_fallback_is_carried_keyless_and_round_trips") {
  auto b = fixture();
  b.main_extra = "fallback = [\"openai.backup\"]\n";
  b.extra +=
      "[providers.models.openai.backup]\napi_key = \"backup-key-not-real\"\nmodel = \"gpt-4o\"\n";
  const auto p = plan(b);
  CHECK(at(p.closure, {"providers", "models", "openai", "backup"}) != nullptr);
  CHECK(has_secret(p, "providers.models.openai.backup.api_key"));
  const std::string text = zc::render_config_toml(p);  // validates
  CHECK_FALSE(contains(text, "backup-key-not-real"));
  const zc::value back = zc::parse_toml(text, "config.toml");
  const zc::value* fallback = at(back, {"providers", "models", "anthropic", "main", "fallback"});
  REQUIRE(fallback != nullptr);
  REQUIRE(fallback->items.size() == 1);
  CHECK(fallback->items[0].text == "openai.backup");
  CHECK(at(back, {"providers", "models", "openai", "backup"}) != nullptr);
}

TEST_CASE("10.A.20 unresolved_model_provider_fallback_cannot_bind_to_a_target_local_provider") {
  auto b = fixture();
  b.main_extra = "fallback = [\"openai.destination_only\"]\n";
  const auto p = plan(b);
  const auto* d = find_drop(p, "providers.models.anthropic.main.fallback[0]");
  REQUIRE(d != nullptr);
  CHECK(d->reason == zc::drop_reason::source_missing);
  CHECK(d->detail ==
        "fallback \"openai.destination_only\" does not resolve on the exporting install, so the "
        "edge is removed rather than allowing a same-named target-local provider to change the "
        "imported agent's endpoint or credentials");
  // Merged into a target that has a provider of that name, the primary still has no edge.
  const std::string merged =
      zc::render_config_toml(p) + "\n[providers.models.openai.destination_only]\nmodel = \"x\"\n";
  const zc::value back = zc::parse_toml(merged, "merged");
  CHECK(at(back, {"providers", "models", "anthropic", "main", "fallback"}) == nullptr);
  CHECK(at(back, {"providers", "models", "openai", "destination_only"}) != nullptr);
}

TEST_CASE("10.A.21 rendered_bundle_round_trips_as_toml") {
  const auto p = plan(fixture());
  const zc::value config = zc::parse_toml(zc::render_config_toml(p), "config.toml");
  CHECK(config.find("agents") != nullptr);
  CHECK(config.find("schema_version")->integer == 3);
  const zc::value manifest = zc::parse_toml(zc::render_manifest(p, fixed_time), "manifest");
  CHECK(manifest.find("root_agent")->text == "researcher");
  CHECK(manifest.find("format_version")->integer == 1);
}

TEST_CASE("10.A.22 closure_validates_on_an_otherwise_empty_install") {
  for (const auto& b : {fixture(), loaded_fixture()}) {
    const auto p = plan(b);
    const zc::value back = reparsed(p);  // throws when it does not validate
    CHECK(at(back, {"agents"})->members.size() == 1);
    CHECK(agent_of(back).find("channels") == nullptr);
    CHECK(agent_of(back).find("delegates") == nullptr);
    CHECK_FALSE(zc::validate_config<zc::schema_v3>(back).has_value());
  }
}

TEST_CASE("10.A.23 a_dangling_reference_in_any_carried_family_is_refused") {
  struct breakage {
    const char* key;
    const char* literal;
    const char* field;
  };
  const breakage cases[] = {
      {"model_provider", "\"anthropic.gone\"", "agents.researcher.model_provider"},
      {"classifier_provider", "\"anthropic.gone\"", "agents.researcher.classifier_provider"},
      {"summary_provider", "\"anthropic.gone\"", "agents.researcher.summary_provider"},
      {"tts_provider", "\"openai.gone\"", "agents.researcher.tts_provider"},
      {"transcription_provider", "\"openai.gone\"", "agents.researcher.transcription_provider"},
      {"risk_profile", "\"gone\"", "agents.researcher.risk_profile"},
      {"runtime_profile", "\"gone\"", "agents.researcher.runtime_profile"},
      {nullptr, nullptr, "runtime_profiles.standard.context_compression.summary_provider"},
      {"skill_bundles", "[\"gone\"]", "agents.researcher.skill_bundles[0]"},
      {"knowledge_bundles", "[\"gone\"]", "agents.researcher.knowledge_bundles[0]"},
      {"mcp_bundles", "[\"gone\"]", "agents.researcher.mcp_bundles[0]"},
  };
  for (const auto& c : cases) {
    auto b = loaded_fixture();
    if (c.key != nullptr) {
      b.set(c.key, c.literal);
    } else {
      const std::string good = "summary_provider = \"anthropic.summarizer\"";
      b.extra.replace(b.extra.find(good), good.size(), "summary_provider = \"anthropic.gone\"");
    }
    const auto p = plan(b);  // planning never fails on a dangling reference
    try {
      (void)zc::render_config_toml(p);
      FAIL("rendered a closure with a dangling ", c.field);
    } catch (const clawport::error& e) {
      CHECK(e.code() == clawport::errc::config_invalid);
      CHECK_MESSAGE(contains(e.what(), c.field), e.what());
      CHECK(e.subject() == c.field);
      CHECK(contains(e.what(),
                     "the closure for agent 'researcher' does not validate on a clean "
                     "install: "));
      CHECK(contains(e.what(),
                     "\nA bundle has to stand on its own, so this one is not written. "
                     "Fix the reported field in this install's config and export "
                     "again."));
    }
  }
}

TEST_CASE("10.A.23 the refusal text is upstream's, code and field included") {
  auto b = fixture();
  b.set("model_provider", q("anthropic.gone"));
  try {
    (void)zc::render_config_toml(plan(b));
    FAIL("rendered");
  } catch (const clawport::error& e) {
    CHECK(std::string(e.what()) ==
          "the closure for agent 'researcher' does not validate on a clean install: "
          "[dangling_reference] agents.researcher.model_provider = \"anthropic.gone\" but "
          "[providers.models.anthropic.gone] is not configured "
          "(agents.researcher.model_provider)\n"
          "A bundle has to stand on its own, so this one is not written. Fix the reported field "
          "in this install's config and export again.");
  }
}

TEST_CASE("10.A.24 a_profile_owned_summary_provider_is_carried_and_validates") {
  const auto p = plan(loaded_fixture());
  CHECK(at(p.closure, {"providers", "models", "anthropic", "summarizer"}) != nullptr);
  CHECK(agent_of(p.closure).find("summary_provider") == nullptr);
  const zc::value back = reparsed(p);
  CHECK(
      at(back, {"runtime_profiles", "standard", "context_compression", "summary_provider"})->text ==
      "anthropic.summarizer");
}

TEST_CASE("10.A.25 same_profile_delegation_reach_is_closed_and_reported") {
  const auto p = plan(fixture());
  CHECK(agent_of(p.closure).find("delegate_same_risk_profile")->boolean == false);
  const auto* d = find_drop(p, "agents.researcher.delegate_same_risk_profile");
  REQUIRE(d != nullptr);
  CHECK(d->reason == zc::drop_reason::relational);
  const zc::value back = reparsed(p);
  CHECK(agent_of(back).find("delegate_same_risk_profile")->boolean == false);
  // reachable_delegate_target_configs("researcher") is empty: no same-profile reach, no
  // delegates, and no other agent in the closure.
  CHECK(agent_of(back).find("delegates") == nullptr);
  CHECK(at(back, {"agents"})->members.size() == 1);
  // A source value of false stays false and is not reported.
  auto b = fixture();
  b.set("delegate_same_risk_profile", "false");
  const auto quiet = plan(b);
  CHECK_FALSE(has_drop(quiet, "agents.researcher.delegate_same_risk_profile"));
  CHECK(agent_of(quiet.closure).find("delegate_same_risk_profile")->boolean == false);
}

zc::export_plan plan_identity(const std::string& raw) {
  auto b = fixture();
  b.set("identity", "{ format = \"aieos\", aieos_path = " + q(raw) + " }");
  return plan(b);
}

void check_identity_dropped(const std::string& raw) {
  const auto p = plan_identity(raw);
  CHECK_MESSAGE(!p.identity_document.has_value(), raw);
  const zc::value* identity = agent_of(p.closure).find("identity");
  CHECK_MESSAGE((identity == nullptr || identity->find("aieos_path") == nullptr), raw);
  const auto* d = find_drop(p, "agents.researcher.identity.aieos_path");
  REQUIRE_MESSAGE(d != nullptr, raw);
  CHECK(d->reason == zc::drop_reason::host_specific);
  const zc::value back = reparsed(p);
  const zc::value* back_identity = agent_of(back).find("identity");
  CHECK_MESSAGE((back_identity == nullptr || back_identity->find("aieos_path") == nullptr), raw);
}

TEST_CASE("10.A.26 an_identity_path_that_escapes_the_workspace_is_dropped") {
  for (const char* raw : {"../outside.json", "identity/../../outside.json", "..//outside.json"}) {
    check_identity_dropped(raw);
    CHECK_FALSE(contains(zc::render_config_toml(plan_identity(raw)), "outside.json"));
  }
}

TEST_CASE("10.A.27 an_identity_path_that_only_traverses_on_another_platform_is_dropped") {
  for (const char* raw :
       {"..\\outside.json", "identity\\..\\..\\outside.json", "C:\\Windows\\System32\\config\\sam",
        "C:/Windows/System32/config/sam", "\\\\server\\share\\outside.json",
        "identity/aieos.json:stream", "identity/\abell.json"})
    check_identity_dropped(raw);
}

TEST_CASE("10.A.28 a_retained_identity_path_resolves_the_same_on_any_platform") {
  const auto p = plan_identity("identity/aieos.json");
  REQUIRE(p.identity_document.has_value());
  const std::string kept = *p.identity_document;
  CHECK(kept.find('\\') == std::string::npos);
  CHECK(kept.find(':') == std::string::npos);
  CHECK(kept.front() != '/');
  std::string windows = kept;
  std::replace(windows.begin(), windows.end(), '/', '\\');
  CHECK(windows.find("\\..\\") == std::string::npos);
  size_t start = 0;
  for (;;) {
    const auto slash = kept.find('/', start);
    const std::string seg =
        kept.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    CHECK(!seg.empty());
    CHECK(seg != ".");
    CHECK(seg != "..");
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
}

TEST_CASE("10.A.29 a_retained_identity_path_is_rendered_with_the_bundle_separator") {
  for (const char* raw : {"identity/aieos.json", "./identity/aieos.json"}) {
    const auto p = plan_identity(raw);
    CHECK(p.identity_document == std::optional<std::string>("identity/aieos.json"));
    CHECK(at(p.closure, {"agents", "researcher", "identity", "aieos_path"})->text ==
          "identity/aieos.json");
    const std::string text = zc::render_config_toml(p);
    CHECK(contains(text, "aieos_path = \"identity/aieos.json\""));
    CHECK_FALSE(contains(text, "identity\\\\aieos.json"));
  }
}

TEST_CASE("10.A.30 an_identity_path_with_edge_whitespace_is_dropped") {
  for (const char* raw : {" identity/aieos.json", "identity/aieos.json ", "\tidentity/aieos.json"})
    check_identity_dropped(raw);
}

TEST_CASE("10.A.31 an_identity_path_with_an_inner_parent_segment_is_dropped") {
  for (const char* raw : {"link/../identity.json", "identity/sub/../aieos.json"})
    check_identity_dropped(raw);
}

TEST_CASE("10.A.32 an_identity_path_inside_the_memory_store_is_dropped") {
  check_identity_dropped("memory/aieos.json");
}

TEST_CASE("10.A.33 a_carried_identity_path_is_tracked_for_the_caller_to_verify") {
  auto p = plan_identity("identity/aieos.json");
  REQUIRE(p.identity_document.has_value());
  zc::record_missing_identity_document(p);
  CHECK_FALSE(p.identity_document.has_value());
  const zc::value* identity = agent_of(p.closure).find("identity");
  CHECK((identity == nullptr || identity->find("aieos_path") == nullptr));
  const auto* d = find_drop(p, "agents.researcher.identity.aieos_path");
  REQUIRE(d != nullptr);
  CHECK(d->reason == zc::drop_reason::source_missing);
  CHECK(d->detail ==
        "the AIEOS identity document `identity/aieos.json` is not in the exported workspace, so "
        "the reference is dropped rather than shipped pointing at nothing");
  // Recorded before the memory rows? No: after the copy, so it is appended last.
  CHECK(p.dropped.back().path == "agents.researcher.identity.aieos_path");
  CHECK_FALSE(contains(zc::render_config_toml(p), "aieos_path"));
}

TEST_CASE("10.A.34 an_absolute_identity_path_is_dropped_and_a_workspace_relative_one_travels") {
  check_identity_dropped("/srv/identities/researcher.json");
  CHECK(find_drop(plan_identity("/srv/identities/researcher.json"),
                  "agents.researcher.identity.aieos_path")
            ->detail ==
        "the AIEOS identity document is referenced by a source-host absolute path; point the "
        "imported agent at a path inside its own workspace");
  const auto kept = plan_identity("identity/aieos.json");
  CHECK(at(kept.closure, {"agents", "researcher", "identity", "aieos_path"})->text ==
        "identity/aieos.json");
  CHECK_FALSE(has_drop(kept, "agents.researcher.identity.aieos_path"));
}

config_builder with_skill_bundle(const std::string& alias, const std::string& body) {
  auto b = fixture();
  b.set("skill_bundles", "[" + q(alias) + "]");
  b.extra += "[skill_bundles." + q(alias) + "]\n" + body + "\n";
  return b;
}

TEST_CASE("10.A.35 skill_bundle_content_is_planned_for_copy") {
  zc::plan_options options;
  options.install_root = "/srv/zeroclaw";
  const auto p =
      plan(with_skill_bundle("research_tools", "exclude = [\"internal_only\"]"), options);
  REQUIRE(p.skill_sources.size() == 1);
  CHECK(p.skill_sources[0].alias == "research_tools");
  CHECK(p.skill_sources[0].relative == "shared/skills/research_tools");
  CHECK(p.skill_sources[0].filter.admits_skill("web_search"));
  CHECK_FALSE(p.skill_sources[0].filter.admits_skill("internal_only"));
  CHECK(has_flag(p, zc::risk_kind::carried_skills, "skill_bundles.research_tools"));
  CHECK(p.risk_flags.front().kind == zc::risk_kind::carried_skills);  // collected first
  const zc::value manifest = zc::parse_toml(zc::render_manifest(p, fixed_time), "manifest");
  REQUIRE(manifest.find("skill_bundles")->items.size() == 1);
  CHECK(manifest.find("skill_bundles")->items[0].text == "research_tools");
  CHECK_FALSE(reparsed(p).members.empty());  // validates
}

TEST_CASE("10.A.36 recording_missing_skill_content_stops_the_manifest_advertising_it") {
  auto p = plan(with_skill_bundle("research_tools", "exclude = [\"internal_only\"]"));
  zc::record_missing_skill_content(p, {"research_tools"});
  CHECK(p.skill_sources.empty());
  CHECK_FALSE(has_flag(p, zc::risk_kind::carried_skills));
  const auto* d = find_drop(p, "skills/research_tools");
  REQUIRE(d != nullptr);
  CHECK(d->reason == zc::drop_reason::source_missing);
  CHECK(p.dropped.back().path == "skills/research_tools");
  const zc::value manifest = zc::parse_toml(zc::render_manifest(p, fixed_time), "manifest");
  CHECK(manifest.find("skill_bundles")->items.empty());
  // The config entry still travels.
  CHECK(at(p.closure, {"skill_bundles", "research_tools"}) != nullptr);
}

TEST_CASE("10.A.37 a_skill_bundle_alias_that_is_not_one_component_is_not_planned") {
  for (const char* alias :
       {"../../outside", "..", "nested/alias", "..\\outside", "/absolute", "C:evil", "con", "NUL",
        "aux", "prn", "com1", "LPT9", "nul.md", "trailing.", "quo\"ted", "pipe|d", "star*"}) {
    const auto p = plan(with_skill_bundle(alias, "include = []"));
    CHECK_MESSAGE(p.skill_sources.empty(), alias);
    CHECK_MESSAGE(!has_flag(p, zc::risk_kind::carried_skills), alias);
    const auto* d = find_drop(p, std::string("skill_bundles.") + alias);
    REQUIRE_MESSAGE(d != nullptr, alias);
    CHECK(d->reason == zc::drop_reason::host_specific);
    CHECK(contains(d->detail, "the skill-bundle alias "));
    CHECK(contains(d->detail,
                   ", so it is not a directory name every target can create for the "
                   "bundle's content; rename the bundle to a plain name"));
    // The config entry still travels.
    CHECK_MESSAGE(at(p.closure, {"skill_bundles", alias}) != nullptr, alias);
  }
  CHECK(find_drop(plan(with_skill_bundle("con", "")), "skill_bundles.con")->detail ==
        "the skill-bundle alias is a Windows device name, so it is not a directory name every "
        "target can create for the bundle's content; rename the bundle to a plain name");
}

TEST_CASE("10.A.38 a_plain_skill_bundle_alias_is_planned") {
  for (const char* alias : {"research_tools", "core"}) {
    const auto p = plan(with_skill_bundle(alias, ""));
    REQUIRE_MESSAGE(p.skill_sources.size() == 1, alias);
    CHECK(p.skill_sources[0].relative == std::string("shared/skills/") + alias);
  }
  for (const char* alias : {"", " spaced", "trailing "})
    CHECK_MESSAGE(!clawport::names::is_safe_path_component(alias), alias);
}

TEST_CASE("10.A.39 only_the_reserved_windows_names_are_refused (see tests/names)") {
  CHECK_FALSE(clawport::names::is_safe_path_component("com1.tar.gz"));
  CHECK(clawport::names::is_safe_path_component("com10"));
}

TEST_CASE("10.A.40 an_identity_path_naming_a_windows_device_is_dropped") {
  for (const char* raw : {"nul", "identity/con.json", "identity/lpt1.json", "identity/report.",
                          "identity/report ", "identity/pipe|d.json"}) {
    check_identity_dropped(raw);
    CHECK(contains(find_drop(plan_identity(raw), "agents.researcher.identity.aieos_path")->detail,
                   "every supported target can materialize"));
  }
}

const char* const directory_drop_detail =
    "the bundle directory is a source-host absolute path, and the target requires bundle "
    "directories inside its own install; the imported bundle uses the target's default "
    "location for this alias";
const char* const skills_escape_detail =
    "the bundle's directory is not a plain path inside the install's shared tree, so its "
    "content is not the install's to export and is not carried; its config travels without "
    "the directory, and the skills must be installed at the target's default location for "
    "this alias";

TEST_CASE("10.A.41 an_absolute_skill_bundle_directory_outside_shared_is_dropped_with_its_content") {
  const auto p = plan(loaded_fixture());
  CHECK(at(p.closure, {"skill_bundles", "research_tools", "directory"}) == nullptr);
  const auto* dir = find_drop(p, "skill_bundles.research_tools.directory");
  REQUIRE(dir != nullptr);
  CHECK(dir->reason == zc::drop_reason::host_specific);
  CHECK(dir->detail == directory_drop_detail);
  CHECK(p.skill_sources.empty());
  const auto* content = find_drop(p, "skills/research_tools");
  REQUIRE(content != nullptr);
  CHECK(content->reason == zc::drop_reason::host_specific);
  CHECK(content->detail == skills_escape_detail);
  CHECK_FALSE(has_flag(p, zc::risk_kind::carried_skills));
  (void)reparsed(p);  // validates
}

TEST_CASE("10.A.41 variant: an absolute directory inside this install's shared/ is planned") {
  zc::plan_options options;
  options.install_root = "/srv/zeroclaw";
  const auto p = plan(loaded_fixture(), options);
  CHECK(at(p.closure, {"skill_bundles", "research_tools", "directory"}) == nullptr);
  CHECK(has_drop(p, "skill_bundles.research_tools.directory"));
  REQUIRE(p.skill_sources.size() == 1);
  CHECK(p.skill_sources[0].relative == "shared/skills/pool");
  CHECK_FALSE(has_drop(p, "skills/research_tools"));
  (void)reparsed(p);
}

TEST_CASE("10.A.42 (Windows-only upstream) a rootless backslash directory escapes on POSIX") {
  // Upstream's test runs only on Windows, where `\zc\shared\skills\pool` is anchored.
  // clawport applies POSIX path semantics on every host: the value is one relative
  // component, which is not under shared/, so its content is not carried either way.
  const auto p =
      plan(with_skill_bundle("research_tools", "directory = '\\zc\\shared\\skills\\pool'"));
  CHECK(p.skill_sources.empty());
  CHECK(has_drop(p, "skills/research_tools"));
  CHECK(at(p.closure, {"skill_bundles", "research_tools", "directory"}) == nullptr);
  (void)reparsed(p);
}

TEST_CASE("10.A.43 a_skill_bundle_directory_escaping_shared_is_dropped_with_its_content") {
  for (const char* dir : {"shared/../private-skills", "agents/researcher/workspace",
                          "shared/missing/../pool", "shared/skills/staging/../pool"}) {
    const auto p = plan(with_skill_bundle("research_tools", "directory = " + q(dir)));
    CHECK_MESSAGE(p.skill_sources.empty(), dir);
    CHECK_MESSAGE(at(p.closure, {"skill_bundles", "research_tools", "directory"}) == nullptr, dir);
    CHECK_MESSAGE(has_drop(p, "skills/research_tools"), dir);
    CHECK_FALSE(has_drop(p, "skill_bundles.research_tools.directory"));  // not anchored
    CHECK_FALSE(has_flag(p, zc::risk_kind::carried_skills));
    (void)reparsed(p);
  }
}

TEST_CASE("10.A.44 a_relative_skill_bundle_directory_inside_shared_is_planned") {
  const auto p =
      plan(with_skill_bundle("research_tools", "directory = \"shared/skills/pool/research\""));
  REQUIRE(p.skill_sources.size() == 1);
  CHECK(p.skill_sources[0].relative == "shared/skills/pool/research");
  CHECK(at(p.closure, {"skill_bundles", "research_tools", "directory"})->text ==
        "shared/skills/pool/research");
  (void)reparsed(p);
}

TEST_CASE("10.A.45 closure_parses_back_into_a_config_that_names_the_agent") {
  const zc::value back = reparsed(plan(fixture()));
  CHECK(agent_of(back).find("model_provider")->text == "anthropic.main");
  CHECK(agent_of(back).find("risk_profile")->text == "guarded");
  CHECK(agent_of(back).find("channels") == nullptr);
  CHECK(at(back, {"risk_profiles", "guarded"}) != nullptr);
  CHECK(at(back, {"risk_profiles", "guarded"})->members.empty());  // pruned, still present
  CHECK(at(back, {"mcp_bundles", "research"}) != nullptr);
}

TEST_CASE("10.A.46 ciphertext_that_escapes_scrubbing_aborts_the_export") {
  const zc::value tree = zc::parse_toml("[providers]\napi_key = \"enc2:deadbeef\"\n", "t");
  CHECK(zc::find_ciphertext(tree) == std::optional<std::string>("providers.api_key"));
  CHECK(zc::find_ciphertext(zc::parse_toml("a = \"enc:x\"\n", "t")) ==
        std::optional<std::string>("a"));
  CHECK_FALSE(zc::find_ciphertext(zc::parse_toml("a = \"xenc2:\"\nb = \"ENC2:x\"\n", "t")));
  const zc::value servers =
      zc::parse_toml("[[mcp.servers]]\nname = \"gh\"\nurl = \"enc2:1\"\n", "t");
  CHECK(zc::find_ciphertext(servers) == std::optional<std::string>("mcp.servers.gh.url"));
  const zc::value list = zc::parse_toml("x = [\"a\", \"enc:b\"]\n", "t");
  CHECK(zc::find_ciphertext(list) == std::optional<std::string>("x.1"));
}

TEST_CASE("10.A.47 bundle_aliases_are_deduplicated") {
  CHECK(zc::dedup({"a", " a ", "", "b"}) == std::vector<std::string>{"a", "b"});
}
