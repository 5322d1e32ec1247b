// SPDX-License-Identifier: MIT
// The closure beyond the upstream test list: secrets at every secret path of
// zeroclaw-config.md §5.3, fallback depth and cycles, bare and ambiguous references,
// unknown keys, ciphertext, type errors, the MCP-bundle gap of §8.2, host-local notes,
// the example install, and deterministic rendering.
#include "support/test.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace zc = clawport::zeroclaw;

namespace {

const clawport::timestamp t0{1786493040, 0};

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

const zc::value* at(const zc::value& root, const std::vector<std::string>& keys) {
  const zc::value* v = &root;
  for (const auto& k : keys) {
    if (v == nullptr || !v->is_table()) return nullptr;
    v = v->find(k);
  }
  return v;
}

std::vector<std::string> drop_paths(const zc::export_plan& p) {
  std::vector<std::string> out;
  for (const auto& d : p.dropped) out.push_back(d.path);
  return out;
}

const zc::dropped_item* find_drop(const zc::export_plan& p, const std::string& path) {
  for (const auto& d : p.dropped)
    if (d.path == path) return &d;
  return nullptr;
}

std::vector<std::pair<std::string, std::string>> flags(const zc::export_plan& p) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& f : p.risk_flags) out.emplace_back(std::string(zc::to_string(f.kind)), f.path);
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string example() {
  return read_file(clawport::testing::source_path("examples/zeroclaw-install/config.toml"));
}

/// Expects `f` to throw clawport::error with `code` and `subject`; returns the message.
template <typename F>
std::string refusal(F&& f, clawport::errc code, const std::string& subject) {
  try {
    f();
  } catch (const clawport::error& e) {
    CHECK(e.code() == code);
    CHECK(e.subject() == subject);
    return e.what();
  }
  FAIL("no refusal for ", subject);
  return {};
}

const std::string agent_head = "schema_version = 3\n[agents.a]\nrisk_profile = \"r\"\n";

}  // namespace

// ---------------------------------------------------------------------------------------
// Secrets: every secret path of zeroclaw-config.md §5.3, with sentinel values.
// ---------------------------------------------------------------------------------------

TEST_CASE("secrets: every model-provider secret path is scrubbed and listed") {
  const std::string config = agent_head +
                             "model_provider = \"anthropic.s\"\n"
                             "classifier_provider = \"gemini.s\"\n"
                             "summary_provider = \"qwen.s\"\n"
                             "mcp_bundles = [\"b\"]\n"
                             "[risk_profiles.r]\n"
                             "[mcp_bundles.b]\nservers = [\"srv\", \"web\"]\n"
                             "[[mcp.servers]]\nname = \"srv\"\ncommand = \"run\"\n"
                             "env = { TOKEN = \"SENTINEL-env-1\", HARMLESS = \"SENTINEL-env-2\", "
                             "EMPTY = \"\" }\n"
                             "[[mcp.servers]]\nname = \"web\"\ntransport = \"http\"\n"
                             "url = \"https://example.com/mcp\"\n"
                             "headers = { Authorization = \"SENTINEL-hdr-1\", X-Api-Key = "
                             "\"SENTINEL-hdr-2\" }\n"
                             "[providers.models.anthropic.s]\napi_key = \"SENTINEL-ant\"\n"
                             "model = \"m\"\nfallback = [\"minimax.s\"]\n"
                             "extra_headers = { X-Key = \"SENTINEL-ant-hdr\" }\n"
                             "[providers.models.qwen.s]\napi_key = \"SENTINEL-qwen-key\"\n"
                             "oauth_refresh_token = \"SENTINEL-qwen-refresh\"\n"
                             "[providers.models.minimax.s]\n"
                             "oauth_refresh_token = \"SENTINEL-minimax-refresh\"\napi_key = \"\"\n"
                             "[providers.models.gemini.s]\noauth_client_id = \"SENTINEL-gem-id\"\n"
                             "oauth_client_secret = \"SENTINEL-gem-secret\"\n";
  const auto p = zc::plan_export(config, "a");
  CHECK(p.required_secrets == std::vector<std::string>{
                                  "mcp.servers.srv.env.HARMLESS",
                                  "mcp.servers.srv.env.TOKEN",
                                  "mcp.servers.web.headers.Authorization",
                                  "mcp.servers.web.headers.X-Api-Key",
                                  "providers.models.anthropic.s.api_key",
                                  "providers.models.anthropic.s.extra_headers.X-Key",
                                  "providers.models.gemini.s.oauth_client_id",
                                  "providers.models.gemini.s.oauth_client_secret",
                                  "providers.models.minimax.s.oauth_refresh_token",
                                  "providers.models.qwen.s.api_key",
                                  "providers.models.qwen.s.oauth_refresh_token",
                              });
  const std::string out =
      zc::render_config_toml(p) + zc::render_manifest(p, t0) + zc::to_json(p).dump();
  CHECK_FALSE(contains(out, "SENTINEL"));
  CHECK_FALSE(contains(out, "***MASKED***"));
  // Empty secrets stay empty and are not listed.
  CHECK(at(p.closure, {"mcp", "servers"})->items[0].find("env")->find("EMPTY")->text.empty());
}

TEST_CASE("secrets: every TTS and transcription family's secret is scrubbed and listed") {
  const char* tts[] = {"openai", "elevenlabs", "google", "edge", "piper", "openai"};
  const char* stt[] = {"groq", "openai", "deepgram", "assemblyai", "google", "local_whisper"};
  for (int i = 0; i < 6; ++i) {
    const std::string t = tts[i];
    const std::string s = stt[i];
    const bool whisper = s == "local_whisper";
    const std::string config =
        agent_head + "model_provider = \"openai.m\"\ntts_provider = \"" + t +
        ".v\"\ntranscription_provider = \"" + s + ".w\"\n[risk_profiles.r]\n" +
        "[providers.models.openai.m]\nmodel = \"x\"\n" + "[providers.tts." + t +
        ".v]\napi_key = \"SENTINEL-tts-" + t + "\"\n" + "[providers.transcription." + s + ".w]\n" +
        (whisper ? "uri = \"http://10.0.0.1:8001/v1\"\nbearer_token = \"SENTINEL-whisper\"\n"
                 : "api_key = \"SENTINEL-stt-" + s + "\"\n");
    const auto p = zc::plan_export(config, "a");
    const std::vector<std::string> want = {
        "providers.transcription." + s + ".w." + (whisper ? "bearer_token" : "api_key"),
        "providers.tts." + t + ".v.api_key"};
    CHECK_MESSAGE(p.required_secrets == want, t, "/", s);
    const std::string out = zc::render_config_toml(p) + zc::render_manifest(p, t0);
    CHECK_MESSAGE(!contains(out, "SENTINEL"), t, "/", s);
  }
}

TEST_CASE("secrets: the example install's enc2 and op:// secrets never reach the output") {
  const std::string text = example();
  for (const char* alias : {"researcher", "assistant"}) {
    const auto p = zc::plan_export(text, alias);
    const std::string out =
        zc::render_config_toml(p) + zc::render_manifest(p, t0) + zc::to_json(p).dump();
    CHECK_MESSAGE(!contains(out, "enc2:"), alias);
    CHECK_MESSAGE(!contains(out, "op://zeroclaw"), alias);
  }
}

TEST_CASE("secrets: a non-secret value equal to the mask sentinel travels as written") {
  // issue 9 item 12: scrubbing is by schema-secret path, never by comparing text.
  const auto p = zc::plan_export(agent_head +
                                     "model_provider = \"openai.m\"\n[risk_profiles.r]\n"
                                     "[providers.models.openai.m]\nmodel = \"***MASKED***\"\n"
                                     "api_key = \"***MASKED***\"\n",
                                 "a");
  CHECK(p.required_secrets == std::vector<std::string>{"providers.models.openai.m.api_key"});
  const std::string out = zc::render_config_toml(p);
  CHECK(contains(out, "model = \"***MASKED***\""));
  CHECK(contains(out, "api_key = \"\""));
}

TEST_CASE("secrets: a masked-looking command and args are not blanked and still validate") {
  const std::string config = agent_head +
                             "model_provider = \"openai.m\"\n"
                             "mcp_bundles = [\"b\"]\n[risk_profiles.r]\n"
                             "[providers.models.openai.m]\nmodel = \"gpt\"\n"
                             "[mcp_bundles.b]\nservers = [\"srv\"]\n"
                             "[[mcp.servers]]\nname = \"srv\"\ncommand = \"***MASKED***\"\n"
                             "args = [\"***MASKED***\"]\nenv = { TOKEN = \"SENTINEL-env\" }\n";
  const auto p = zc::plan_export(config, "a");
  CHECK(p.required_secrets == std::vector<std::string>{"mcp.servers.srv.env.TOKEN"});
  const std::string out = zc::render_config_toml(p);  // validates: command is non-empty
  CHECK(contains(out, "command = \"***MASKED***\""));
  CHECK(contains(out, "args = [\"***MASKED***\"]"));
  CHECK_FALSE(contains(out, "SENTINEL-env"));
}

// ---------------------------------------------------------------------------------------
// Ciphertext (§4.4), type errors, parse errors.
// ---------------------------------------------------------------------------------------

TEST_CASE("ciphertext outside a secret field aborts planning, naming the path") {
  const std::string config = agent_head +
                             "model_provider = \"openai.m\"\n[risk_profiles.r]\n"
                             "[providers.models.openai.m]\napi_key = \"enc2:aa\"\n"
                             "model = \"enc2:deadbeef\"\n";
  const std::string message =
      refusal([&] { (void)zc::plan_export(config, "a"); }, clawport::errc::ciphertext,
              "providers.models.openai.m.model");
  CHECK(message ==
        "refusing to write the bundle: encrypted config ciphertext survived scrubbing at "
        "`providers.models.openai.m.model`. This is a bug in the export scrubber — please report "
        "it rather than working around it.");
  // A list element is addressed by index.
  const std::string listed = agent_head +
                             "model_provider = \"openai.m\"\n[risk_profiles.r]\n"
                             "[providers.models.openai.m]\nfallback_models = [\"a\", \"enc:x\"]\n";
  (void)refusal([&] { (void)zc::plan_export(listed, "a"); }, clawport::errc::ciphertext,
                "providers.models.openai.m.fallback_models.1");
}

TEST_CASE("carried values with the wrong type or an unknown enum value are refused") {
  CHECK(refusal([] { (void)zc::plan_export("[agents.a]\nmodel_provider = 5\n", "a"); },
                clawport::errc::config_invalid, "agents.a.model_provider") ==
        "`agents.a.model_provider` must be a string, found an integer");
  CHECK(refusal(
            [] {
              (void)zc::plan_export(
                  "[agents.a]\nrisk_profile = \"r\"\n[risk_profiles.r]\nlevel = \"reckless\"\n",
                  "a");
            },
            clawport::errc::config_invalid, "risk_profiles.r.level") ==
        "`risk_profiles.r.level` must be one of \"readonly\", \"supervised\", \"full\", found "
        "\"reckless\"");
  (void)refusal([] { (void)zc::plan_export("[agents.a]\nmcp_bundles = [\"x\", 1]\n", "a"); },
                clawport::errc::config_invalid, "agents.a.mcp_bundles[1]");
  (void)refusal([] { (void)zc::plan_export("[agents.a]\nprecheck = 3\n", "a"); },
                clawport::errc::config_invalid, "agents.a.precheck");
}

TEST_CASE("text that is not TOML is a parse error naming the line") {
  const std::string message = refusal([] { (void)zc::plan_export("[agents.a\n", "a"); },
                                      clawport::errc::config_parse, "config.toml");
  CHECK(message.rfind("config.toml:1:", 0) == 0);
}

// ---------------------------------------------------------------------------------------
// Unknown keys: never carried silently (docs/format.md).
// ---------------------------------------------------------------------------------------

TEST_CASE("unknown keys are dropped with reason unknown_key and never rendered") {
  const std::string config =
      agent_head +
      "model_provider = \"anthropic.s\"\nmcp_bundles = [\"b\"]\n"
      "mystery_token = \"agent-unknown-value\"\n"
      "precheck = { timeout_secs = 9, extra_knob = \"precheck-unknown-value\" }\n"
      "a2a = { published = true, shadow = \"inside-a-dropped-table\" }\n"
      "[risk_profiles.r]\nfuture_policy = \"profile-unknown-value\"\n"
      "[mcp_bundles.b]\nservers = [\"srv\"]\n"
      "[[mcp.servers]]\nname = \"srv\"\ncommand = \"run\"\napi_secret = \"server-unknown-value\"\n"
      "[providers.models.anthropic.s]\nmodel = \"m\"\nsecret_sauce = \"provider-unknown-value\"\n"
      "provider_extra = { carried = \"as-written\" }\n"
      "[providers.models.anthropic.s.weird]\nx = \"nested-unknown-value\"\n";
  const auto p = zc::plan_export(config, "a");
  CHECK(drop_paths(p) == std::vector<std::string>{
                             "agents.a.a2a",
                             "agents.a.delegate_same_risk_profile",
                             "agents.a.precheck.extra_knob",
                             "agents.a.mystery_token",
                             "risk_profiles.r.future_policy",
                             "mcp.servers.srv.api_secret",
                             "providers.models.anthropic.s.secret_sauce",
                             "providers.models.anthropic.s.weird",
                             "workspace/memory",
                             "workspace/MEMORY_SNAPSHOT.md",
                         });
  const auto* d = find_drop(p, "agents.a.mystery_token");
  REQUIRE(d != nullptr);
  CHECK(d->reason == zc::drop_reason::unknown_key);
  CHECK(zc::to_string(d->reason) == "unknown_key");
  CHECK(d->detail == zc::unknown_key_detail);
  const std::string out = zc::render_config_toml(p);
  for (const char* leaked :
       {"unknown-value", "inside-a-dropped-table", "mystery", "extra_knob", "weird", "api_secret"})
    CHECK_MESSAGE(!contains(out, leaked), leaked);
  CHECK(contains(out, "timeout_secs = 9"));
  // `provider_extra` is a schema field of type "any": carried as written.
  CHECK(contains(out, "as-written"));
  const zc::value manifest = zc::parse_toml(zc::render_manifest(p, t0), "manifest");
  CHECK(manifest.find("dropped")->items[2].find("reason")->text == "unknown_key");
}

TEST_CASE("alias spellings of a known key are read and written canonically") {
  const auto p = zc::plan_export(agent_head +
                                     "model_provider = \"openai.m\"\n"
                                     "[risk_profiles.r]\nallowed_path = [\"/data\"]\n"
                                     "[providers.models.openai.m]\nmodel = \"x\"\n",
                                 "a");
  CHECK(at(p.closure, {"risk_profiles", "r", "allowed_roots"})->items[0].text == "/data");
  CHECK(at(p.closure, {"risk_profiles", "r", "allowed_path"}) == nullptr);
  CHECK(flags(p) == std::vector<std::pair<std::string, std::string>>{
                        {"extra_filesystem_roots", "risk_profiles.r.allowed_roots"}});
}

// ---------------------------------------------------------------------------------------
// The model-provider fallback graph (§2.5).
// ---------------------------------------------------------------------------------------

std::string chain_config(const std::string& providers, const std::string& primary = "openai.l0") {
  return agent_head + "model_provider = \"" + primary + "\"\n[risk_profiles.r]\n" + providers;
}

std::vector<std::string> carried_models(const zc::export_plan& p) {
  std::vector<std::string> out;
  if (const zc::value* models = at(p.closure, {"providers", "models"}))
    for (const auto& family : models->members)
      for (const auto& entry : family.val.members) out.push_back(family.key + "." + entry.key);
  return out;
}

TEST_CASE("fallback: the walk stops after depth 3; the edge past it is removed and listed") {
  std::string providers;
  for (int i = 0; i <= 4; ++i)
    providers += "[providers.models.openai.l" + std::to_string(i) +
                 "]\nmodel = \"m\"\napi_key = \"k" + std::to_string(i) + "\"\n" +
                 (i < 4 ? "fallback = [\"openai.l" + std::to_string(i + 1) + "\"]\n" : "");
  const auto p = zc::plan_export(chain_config(providers), "a");
  CHECK(carried_models(p) ==
        std::vector<std::string>{"openai.l0", "openai.l1", "openai.l2", "openai.l3"});
  // Issue 22 item 1: the closure names only providers it carries, so it plans back to itself.
  CHECK(at(p.closure, {"providers", "models", "openai", "l3", "fallback"}) == nullptr);
  REQUIRE(find_drop(p, "providers.models.openai.l3.fallback[0]") != nullptr);
  CHECK(find_drop(p, "providers.models.openai.l3.fallback[0]")->reason ==
        zc::drop_reason::depth_limit);
  CHECK(p.required_secrets.size() == 4);
  const auto again = zc::plan_export(zc::render_config_toml(p), "a");
  CHECK(again.closure == p.closure);
}

TEST_CASE("fallback: an edge past the depth stays when another path carries its target") {
  std::string providers;
  for (int i = 0; i <= 4; ++i)
    providers += "[providers.models.openai.l" + std::to_string(i) + "]\nmodel = \"m\"\n" +
                 (i < 4 ? "fallback = [\"openai.l" + std::to_string(i + 1) + "\"]\n" : "");
  const auto p = zc::plan_export(
      agent_head + "model_provider = \"openai.l0\"\nsummary_provider = \"openai.l4\"\n" +
          "[risk_profiles.r]\n" + providers,
      "a");
  CHECK(at(p.closure, {"providers", "models", "openai", "l3", "fallback"})->items[0].text ==
        "openai.l4");
  CHECK(find_drop(p, "providers.models.openai.l3.fallback[0]") == nullptr);
}

TEST_CASE("fallback: cycles are cut and every provider is carried once") {
  const auto cycle = zc::plan_export(
      chain_config("[providers.models.openai.l0]\nmodel = \"m\"\nfallback = [\"openai.b\", "
                   "\"openai.l0\"]\n[providers.models.openai.b]\nmodel = \"m\"\n"
                   "fallback = [\"openai.l0\", \"openai.c\"]\n"
                   "[providers.models.openai.c]\nmodel = \"m\"\nfallback = [\"openai.b\"]\n"),
      "a");
  CHECK(carried_models(cycle) == std::vector<std::string>{"openai.l0", "openai.b", "openai.c"});
  CHECK(at(cycle.closure, {"providers", "models", "openai", "c", "fallback"})->items[0].text ==
        "openai.b");
  CHECK(drop_paths(cycle).size() == 3);  // dsrp + the two memory rows: no fallback drops
  (void)zc::render_config_toml(cycle);
}

TEST_CASE("fallback: unresolved edges are dropped by original index, blanks are kept") {
  const auto p = zc::plan_export(
      chain_config("[providers.models.openai.l0]\nmodel = \"m\"\n"
                   "fallback = [\"openai.b\", \"openai.gone\", \"  \", \"nosuchfamily.x\"]\n"
                   "[providers.models.openai.b]\nmodel = \"m\"\n"
                   "[providers.models.nosuchfamily.x]\nmodel = \"m\"\n"),
      "a");
  CHECK(at(p.closure, {"providers", "models", "openai", "l0", "fallback"})->items.size() == 2);
  CHECK(at(p.closure, {"providers", "models", "openai", "l0", "fallback"})->items[1].text == "  ");
  CHECK(find_drop(p, "providers.models.openai.l0.fallback[1]") != nullptr);
  CHECK(find_drop(p, "providers.models.openai.l0.fallback[3]")
            ->detail.rfind("fallback \"nosuchfamily.x\" does not resolve", 0) == 0);
  CHECK(at(p.closure, {"providers", "models", "nosuchfamily"}) == nullptr);
  // Every edge unresolved: the key is removed.
  const auto none = zc::plan_export(
      chain_config("[providers.models.openai.l0]\nmodel = \"m\"\nfallback = [\"openai.x\"]\n"),
      "a");
  CHECK(at(none.closure, {"providers", "models", "openai", "l0", "fallback"}) == nullptr);
}

TEST_CASE("fallback: a bare alias resolves when unique and is dropped when ambiguous") {
  const auto unique = zc::plan_export(
      chain_config("[providers.models.openai.l0]\nmodel = \"m\"\nfallback = [\"backup\"]\n"
                   "[providers.models.openrouter.backup]\nmodel = \"m\"\napi_key = \"k\"\n"),
      "a");
  CHECK(carried_models(unique) == std::vector<std::string>{"openai.l0", "openrouter.backup"});
  CHECK(at(unique.closure, {"providers", "models", "openai", "l0", "fallback"})->items[0].text ==
        "backup");  // original spelling
  const auto ambiguous = zc::plan_export(
      chain_config("[providers.models.openai.l0]\nmodel = \"m\"\nfallback = [\"dup\"]\n"
                   "[providers.models.openai.dup]\nmodel = \"m\"\n"
                   "[providers.models.anthropic.dup]\nmodel = \"m\"\n"),
      "a");
  CHECK(carried_models(ambiguous) == std::vector<std::string>{"openai.l0"});
  CHECK(find_drop(ambiguous, "providers.models.openai.l0.fallback[0]")->reason ==
        zc::drop_reason::source_missing);
}

TEST_CASE("bare agent references: carried when unique, refused by validation") {
  const std::string providers = "[providers.models.openrouter.backup]\nmodel = \"m\"\n";
  const auto p = zc::plan_export(chain_config(providers, "backup"), "a");
  CHECK(carried_models(p) == std::vector<std::string>{"openrouter.backup"});
  const std::string message = refusal([&] { (void)zc::render_config_toml(p); },
                                      clawport::errc::config_invalid, "agents.a.model_provider");
  CHECK(contains(message,
                 "[invalid_format] agents.a.model_provider must be dotted form "
                 "`<type>.<alias>` (got \"backup\")"));
  const auto ambiguous = zc::plan_export(
      chain_config(providers + "[providers.models.openai.backup]\nmodel = \"m\"\n", "backup"), "a");
  CHECK(carried_models(ambiguous).empty());
  (void)refusal([&] { (void)zc::render_config_toml(ambiguous); }, clawport::errc::config_invalid,
                "agents.a.model_provider");
  const auto unknown_family = zc::plan_export(chain_config("", "nosuch.x"), "a");
  CHECK(contains(refusal([&] { (void)zc::render_config_toml(unknown_family); },
                         clawport::errc::config_invalid, "agents.a.model_provider"),
                 "\"nosuch\" is not a known provider family"));
}

// ---------------------------------------------------------------------------------------
// §8.2 gaps and host-local notes.
// ---------------------------------------------------------------------------------------

TEST_CASE("gap: a bundle's server name unknown on the source cannot grant a target server") {
  const std::string config = agent_head +
                             "model_provider = \"openai.m\"\nmcp_bundles = [\"b\"]\n"
                             "[risk_profiles.r]\n[providers.models.openai.m]\nmodel = \"m\"\n"
                             "[mcp_bundles.b]\nservers = [\"srv\", \"ghost\", \"gone\"]\n"
                             "exclude = [\"gone\"]\n"
                             "[[mcp.servers]]\nname = \"srv\"\ncommand = \"run\"\n";
  const auto p = zc::plan_export(config, "a");
  const zc::value* servers = at(p.closure, {"mcp_bundles", "b", "servers"});
  REQUIRE(servers != nullptr);
  REQUIRE(servers->items.size() == 2);
  CHECK(servers->items[0].text == "srv");
  CHECK(servers->items[1].text == "gone");  // excluded names only narrow: kept
  const auto* d = find_drop(p, "mcp_bundles.b.servers[1]");
  REQUIRE(d != nullptr);
  CHECK(d->reason == zc::drop_reason::source_missing);
  CHECK(d->detail ==
        "server \"ghost\" is not configured on the exporting install, so the name is removed "
        "rather than allowing it to grant a same-named target-local server");
  CHECK_FALSE(contains(zc::render_config_toml(p), "ghost"));
}

TEST_CASE("host-local settings that travel are reported outside the manifest") {
  const auto p = zc::plan_export(example(), "researcher");
  REQUIRE(p.host_local.size() == 3);
  CHECK(p.host_local[0].kind == zc::note_kind::host_path);
  CHECK(p.host_local[0].path == "mcp.servers.search.tls_ca_cert_path");
  CHECK(contains(p.host_local[0].detail, "/etc/zeroclaw/ca/internal-root.pem"));
  CHECK(p.host_local[1].kind == zc::note_kind::secret_reference);
  CHECK(p.host_local[1].path == "providers.models.openai.cheap.api_key");
  CHECK_FALSE(contains(p.host_local[1].detail, "op://zeroclaw"));
  CHECK(p.host_local[2].path == "providers.models.custom.summarizer.tls_ca_cert_path");
  const auto assistant = zc::plan_export(example(), "assistant");
  bool roots = false;
  for (const auto& n : assistant.host_local)
    roots = roots || (n.path == "risk_profiles.open.allowed_roots" &&
                      contains(n.detail, "/srv/zeroclaw/scratch"));
  CHECK(roots);
  // requires_openai_auth and OAuth auth modes: external auth that does not travel.
  const auto auth = zc::plan_export(
      agent_head +
          "model_provider = \"openai.m\"\nclassifier_provider = \"qwen.q\"\n[risk_profiles.r]\n"
          "[providers.models.openai.m]\nrequires_openai_auth = true\n"
          "[providers.models.qwen.q]\nauth_mode = \"oauth\"\n",
      "a");
  REQUIRE(auth.host_local.size() == 2);
  CHECK(auth.host_local[0].kind == zc::note_kind::external_auth);
  CHECK(auth.host_local[0].path == "providers.models.openai.m.requires_openai_auth");
  CHECK(auth.host_local[1].path == "providers.models.qwen.q.auth_mode");
  // Not in the manifest: format 1 has no key for them.
  const zc::value manifest = zc::manifest_document(auth, t0);
  CHECK(manifest == zc::parse_toml(zc::render_manifest(auth, t0), "manifest"));
  std::vector<std::string> keys;
  for (const auto& m : manifest.members) keys.push_back(m.key);
  CHECK(keys == std::vector<std::string>{"format_version", "root_agent", "required_secrets",
                                         "skill_bundles", "provenance", "dropped", "risk_flags"});
  CHECK(zc::to_json(auth)["host_local"].size() == 2);
}

// ---------------------------------------------------------------------------------------
// The example install (zeroclaw-config.md §8).
// ---------------------------------------------------------------------------------------

TEST_CASE("example install: researcher plans to a closure that validates alone") {
  const auto p = zc::plan_export(example(), "researcher");
  CHECK(p.required_secrets == std::vector<std::string>{
                                  "mcp.servers.fetch.headers.X-Api-Key",
                                  "mcp.servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN",
                                  "mcp.servers.github.env.GITHUB_TOOLSETS",
                                  "mcp.servers.search.headers.Authorization",
                                  "providers.models.anthropic.main.api_key",
                                  "providers.models.custom.summarizer.api_key",
                                  "providers.models.custom.summarizer.extra_headers.X-Tenant-Token",
                                  "providers.models.openai.cheap.api_key",
                                  "providers.models.openrouter.backup.api_key",
                                  "providers.transcription.groq.stt.api_key",
                                  "providers.tts.openai.voice.api_key",
                              });
  CHECK(drop_paths(p) ==
        std::vector<std::string>{"agents.researcher.channels", "agents.researcher.delegates",
                                 "agents.researcher.cron_jobs", "agents.researcher.a2a",
                                 "agents.researcher.workspace.access",
                                 "agents.researcher.workspace.read_memory_from",
                                 "risk_profiles.guarded.approval_route", "workspace/memory",
                                 "workspace/MEMORY_SNAPSHOT.md"});
  CHECK(flags(p) == std::vector<std::pair<std::string, std::string>>{
                        {"carried_skills", "skill_bundles.research_tools"},
                        {"carried_skills", "skill_bundles.house_style"},
                        {"env_passthrough", "risk_profiles.guarded.shell_env_passthrough"},
                        {"delegation_enabled", "risk_profiles.guarded.delegation_policy.mode"},
                        {"process_spawn", "mcp.servers.github.command"},
                        {"untrusted_startup_context", "mcp.servers.github.pinned_resources"}});
  CHECK(carried_models(p) == std::vector<std::string>{"anthropic.main", "openrouter.backup",
                                                      "ollama.local", "openai.cheap",
                                                      "custom.summarizer"});
  REQUIRE(p.skill_sources.size() == 2);
  CHECK(p.skill_sources[0].relative == "shared/skills/research_tools");
  CHECK_FALSE(p.skill_sources[0].filter.admits_skill("summarize_pdf"));
  CHECK(p.skill_sources[0].filter.admits_skill("arxiv_search"));
  CHECK_FALSE(p.skill_sources[0].filter.admits_skill("web_search"));
  CHECK(p.skill_sources[1].relative == "shared/skills/house-style");
  CHECK(p.identity_document == std::optional<std::string>("identity/researcher.aieos.json"));
  CHECK_FALSE(p.workspace.configured);
  CHECK(p.workspace.path == "agents/researcher/workspace");
  const zc::value back = zc::parse_toml(zc::render_config_toml(p), "config.toml");
  CHECK_FALSE(zc::validate_config<zc::schema_v3>(back).has_value());
  std::vector<std::string> servers;
  for (const auto& s : at(back, {"mcp", "servers"})->items) servers.push_back(s.find("name")->text);
  CHECK(servers == std::vector<std::string>{"github", "search", "fetch"});
  CHECK(at(back, {"agents", "researcher", "memory"}) == nullptr);  // backend = sqlite: default
  CHECK(at(back, {"agents", "researcher", "precheck", "timeout_secs"})->integer == 8);
}

TEST_CASE("example install: assistant plans to a closure that validates alone") {
  const auto p = zc::plan_export(example(), "assistant");
  CHECK(drop_paths(p) ==
        std::vector<std::string>{
            "agents.assistant.channels", "agents.assistant.delegate_same_risk_profile",
            "agents.assistant.identity.aieos_path", "agents.assistant.workspace.path",
            "workspace/memory", "workspace/MEMORY_SNAPSHOT.md"});
  CHECK(flags(p) == std::vector<std::pair<std::string, std::string>>{
                        {"full_autonomy", "risk_profiles.open.level"},
                        {"filesystem_escape", "risk_profiles.open.workspace_only"},
                        {"sandbox_disabled", "risk_profiles.open.sandbox_enabled"},
                        {"approval_bypass", "risk_profiles.open.block_high_risk_commands"},
                        {"approval_bypass", "risk_profiles.open.require_approval_for_medium_risk"},
                        {"env_passthrough", "risk_profiles.open.shell_env_passthrough"},
                        {"extra_filesystem_roots", "risk_profiles.open.allowed_roots"},
                        {"filesystem_escape", "agents.assistant.workspace.unrestricted_filesystem"},
                        {"process_spawn", "mcp.servers.filesystem.command"}});
  CHECK(p.workspace.configured);
  CHECK(p.workspace.path == "/srv/zeroclaw/agents/assistant/workspace");
  CHECK_FALSE(p.identity_document.has_value());
  CHECK(carried_models(p) ==
        std::vector<std::string>{"openrouter.backup", "ollama.local", "openai.cheap"});
  CHECK(at(p.closure, {"providers", "transcription", "local_whisper", "lan", "uri"})->text ==
        "http://10.0.0.12:8001/v1/transcribe");
  CHECK(p.required_secrets ==
        std::vector<std::string>{
            "mcp.servers.fetch.headers.X-Api-Key", "mcp.servers.search.headers.Authorization",
            "providers.models.openai.cheap.api_key", "providers.models.openrouter.backup.api_key",
            "providers.transcription.local_whisper.lan.bearer_token"});
  (void)zc::render_config_toml(p);
}

// ---------------------------------------------------------------------------------------
// Rendering: headers, order, blank lines, determinism.
// ---------------------------------------------------------------------------------------

TEST_CASE("rendering: headers, key order and a blank line before every table") {
  const auto p = zc::plan_export(example(), "researcher");
  const std::string config = zc::render_config_toml(p);
  CHECK(config.rfind(std::string(zc::config_header) + "schema_version = 3\n\n[agents.researcher]\n",
                     0) == 0);
  const std::string manifest = zc::render_manifest(p, {1786493040, 123456789});
  CHECK(manifest.rfind(std::string(zc::manifest_header) +
                           "format_version = 1\nroot_agent = \"researcher\"\nrequired_secrets = [\n"
                           "    \"mcp.servers.fetch.headers.X-Api-Key\",\n",
                       0) == 0);
  CHECK(contains(manifest,
                 "\n\n[provenance]\nzeroclaw_version = \"clawport 0.1.0\"\n"
                 "exported_at = \"2026-08-12T00:04:00+00:00\"\n\n[[dropped]]\n"
                 "path = \"agents.researcher.channels\"\nreason = \"host_specific\"\n"));
  for (const std::string* text : {&config, &manifest}) {
    std::istringstream lines(*text);
    std::string line, previous = "";
    bool first = true;
    while (std::getline(lines, line)) {
      if (!first && !line.empty() && line[0] == '[')
        CHECK_MESSAGE(previous.empty(), "no blank line before ", line);
      previous = line;
      first = false;
    }
    CHECK(text->back() == '\n');
  }
  // Order of the top-level manifest keys and of the dropped table's keys.
  CHECK(manifest.find("skill_bundles = [") < manifest.find("[provenance]"));
  CHECK(manifest.find("[[dropped]]") < manifest.find("[[risk_flags]]"));
}

TEST_CASE("rendering: the same plan and time give the same bytes") {
  const std::string text = example();
  const auto a = zc::plan_export(text, "researcher");
  const auto b = zc::plan_export(text, "researcher");
  CHECK(zc::render_config_toml(a) == zc::render_config_toml(b));
  CHECK(zc::render_manifest(a, t0) == zc::render_manifest(b, t0));
  const std::string later = zc::render_manifest(a, {t0.seconds + 1, 0});
  CHECK(later != zc::render_manifest(a, t0));
  CHECK(zc::render_manifest(a, *clawport::parse_source_date_epoch("1786493040")) ==
        zc::render_manifest(b, t0));
}

TEST_CASE("rendering: an empty risk_flags list and empty sections parse back") {
  const auto p = zc::plan_export(agent_head +
                                     "model_provider = \"openai.m\"\n[risk_profiles.r]\n"
                                     "[providers.models.openai.m]\nmodel = \"m\"\n",
                                 "a");
  CHECK(p.risk_flags.empty());
  const std::string manifest = zc::render_manifest(p, t0);
  CHECK(contains(manifest, "risk_flags = []\n"));
  const zc::value back = zc::parse_toml(manifest, "manifest");
  CHECK(back.find("risk_flags")->items.empty());
  CHECK(back.find("skill_bundles")->items.empty());
  CHECK(contains(zc::render_config_toml(p), "\n[risk_profiles.r]\n"));
}

// ---------------------------------------------------------------------------------------
// Standalone validation (zeroclaw-config.md §6) on hand-written configs.
// ---------------------------------------------------------------------------------------

std::string first_error(const std::string& text) {
  const auto problem = zc::validate_config<zc::schema_v3>(zc::parse_toml(text, "t"));
  return problem ? problem->display() : std::string("<valid>");
}

TEST_CASE("validation: upstream's checks, first error wins, the field is named") {
  const std::string ok_agent =
      "[agents.a]\nmodel_provider = \"openai.m\"\nrisk_profile = \"r\"\n[risk_profiles.r]\n"
      "[providers.models.openai.m]\nmodel = \"m\"\n";
  CHECK(first_error(ok_agent) == "<valid>");
  CHECK(first_error("[agents.a]\nrisk_profile = \"r\"\n[risk_profiles.r]\n") ==
        "[required_field_empty] agents.a.model_provider must reference a configured model "
        "model_provider (e.g. \"anthropic.default\") (agents.a.model_provider)");
  CHECK(first_error(ok_agent + "[agents.b]\nmodel_provider = \"openai.m\"\n") ==
        "[required_field_empty] agents.b.risk_profile must reference a configured "
        "[risk_profiles.<alias>] entry (agents.b.risk_profile)");
  CHECK(first_error(ok_agent + "[agents.b]\nmodel_provider = \"openai.m\"\nenabled = false\n") ==
        "<valid>");
  CHECK(first_error(ok_agent + "[agents.c]\nmodel_provider = \"openai.m\"\nprecheck = { "
                               "timeout_secs = 0 }\nrisk_profile = \"r\"\n") ==
        "[invalid_numeric_range] agents.c.precheck.timeout_secs must be greater than 0 "
        "(agents.c.precheck.timeout_secs)");
  CHECK(first_error(ok_agent + "[skill_bundles.x]\ndirectory = \"/abs/skills\"\n") ==
        "[invalid_format] skill-bundle directory '/abs/skills' escapes the shared workspace at "
        "'shared'; bundles must stay inside `<install>/shared/` (skill-bundles.x.directory)");
  CHECK(first_error(ok_agent +
                    "[skill_bundles.x]\ndirectory = \"shared/skills/y\"\n[skill_bundles.y]\n") ==
        "[invalid_format] skill-bundles 'x' and 'y' both resolve to directory 'shared/skills/y'; "
        "each bundle must own a unique directory (skill_bundles)");
  CHECK(first_error(ok_agent + "[risk_profiles.q]\nshell_env_passthrough = [\"OK\", \"1BAD\"]\n") ==
        "risk_profiles.q.shell_env_passthrough[1] is invalid (1BAD); expected "
        "[A-Za-z_][A-Za-z0-9_]*");
  CHECK(first_error(ok_agent + "[providers.models.openai.t]\ntemperature = 3.5\n") ==
        "providers.models.openai.t.temperature: temperature 3.5 is out of range (expected 0..=2)");
  CHECK(first_error(ok_agent + "[providers.models.openai.u]\nuri = \"ftp://x\"\n") ==
        "providers.models.openai.u.uri must use http/https");
  CHECK(first_error(ok_agent + "[[mcp.servers]]\nname = \"s\"\n") ==
        "mcp.servers[0] with transport=stdio requires non-empty command");
  CHECK(first_error(ok_agent + "[[mcp.servers]]\nname = \"s\"\ncommand = \"x\"\n"
                               "[[mcp.servers]]\nname = \"S\"\ncommand = \"y\"\n") ==
        "mcp.servers contains duplicate name: S");
  CHECK(first_error(ok_agent + "[[mcp.servers]]\nname = \"s\"\ntransport = \"http\"\n") ==
        "mcp.servers[0] with transport=http requires url");
  CHECK(first_error(ok_agent + "[[mcp.servers]]\nname = \"s\"\ntransport = \"http\"\nurl = "
                               "\"http://x\"\ntls_ca_cert_path = \"/ca.pem\"\n") ==
        "mcp.servers[0].url must use https when tls_ca_cert_path is set");
  CHECK(first_error(ok_agent + "[[mcp.servers]]\nname = \"s\"\ntransport = \"sse\"\nurl = "
                               "\"https://x\"\ntls_ca_cert_path = \"ca.pem\"\n") ==
        "mcp.servers[0].tls_ca_cert_path must be an absolute path");
  CHECK(first_error(ok_agent + "[[mcp.servers]]\nname = \"s\"\ncommand = \"x\"\n"
                               "tool_timeout_secs = 601\n") ==
        "[invalid_numeric_range] mcp.servers[0].tool_timeout_secs exceeds max 600 "
        "(mcp.servers[0].tool_timeout_secs)");
  CHECK(first_error(ok_agent + "[mcp]\nenabled = false\n[[mcp.servers]]\nname = \"\"\n") ==
        "<valid>");
  // ZeroClaw trims with Rust's str::trim, which strips NBSP (checked with rustc: "\u{a0}"
  // .trim() is empty); the ASCII trim this replaced let a name of one NBSP through.
  CHECK(first_error(ok_agent + "[[mcp.servers]]\nname = \"\xc2\xa0\"\ncommand = \"x\"\n") ==
        "[required_field_empty] mcp.servers[0].name must not be empty (mcp.servers[0].name)");
  CHECK(first_error(ok_agent + "[[mcp.servers]]\nname = \"s\"\ncommand = \"\xe3\x80\x80\"\n") ==
        "mcp.servers[0] with transport=stdio requires non-empty command");
  CHECK(first_error(ok_agent + "[risk_profiles.q.approval_route]\non_no_approver = \"deny\"\n") ==
        "missing field `approver_channel` in `risk_profiles.q.approval_route`");
  CHECK(first_error(ok_agent + "[providers.transcription.local_whisper.w]\ntimeout_secs = 1\n") ==
        "missing field `uri` in `providers.transcription.local_whisper.w`");
  CHECK(first_error(ok_agent + "[runtime_profiles.p.context_compression]\nsummary_provider = "
                               "\"plain\"\n") ==
        "[invalid_format] runtime_profiles.p.context_compression.summary_provider must be dotted "
        "form `<type>.<alias>` (got \"plain\") "
        "(runtime_profiles.p.context_compression.summary_provider)");
  CHECK(first_error(ok_agent + "[agents.d]\nmodel_provider = \"openai.m\"\nrisk_profile = \"r\"\n"
                               "delegates = [\"d\"]\n") ==
        "[invalid_format] agents.d.delegates[0].agent names this agent itself; an agent cannot "
        "delegate to itself (agents.d.delegates[0].agent)");
  CHECK(first_error(ok_agent + "[agents.d]\nmodel_provider = \"openai.m\"\nrisk_profile = \"r\"\n"
                               "channels = [\"telegram.x\"]\n") ==
        "[dangling_reference] agents.d.channels[0] = \"telegram.x\" but channels.telegram.x is "
        "not configured (agents.d.channels[0])");
}

// ---------------------------------------------------------------------------------------
// The install layout (issue 10 item 1): one rule for the planner and the skills reader.
// ---------------------------------------------------------------------------------------

TEST_CASE("install layout: a bundle directory is trimmed of Unicode White_Space by both") {
  const std::string config = agent_head +
                             "skill_bundles = [\"rt\"]\n[risk_profiles.r]\n"
                             "[skill_bundles.rt]\ndirectory = \"shared/skills/rt\xc2\xa0\"\n";
  zc::plan_options o;
  o.install_root = "/i";
  const auto p = zc::plan_export(config, "a", o);
  REQUIRE(p.skill_sources.size() == 1);
  CHECK(p.skill_sources[0].relative == "shared/skills/rt");
  const auto cfg = clawport::skills::parse_skills_config(config);
  CHECK(clawport::skills::resolve_directory(cfg, "/i", "rt") == "/i/shared/skills/rt");
  CHECK(zc::skill_bundle_directory("/i", "rt", std::string_view("\xe3\x80\x80 x\t")) == "/i/x");
}

TEST_CASE("install layout: the default and a relative workspace agree with the skills reader") {
  const std::string config = agent_head +
                             "[risk_profiles.r]\n[agents.b]\n[agents.b.workspace]\n"
                             "path = \"ws/b\"\n";
  const auto cfg = clawport::skills::parse_skills_config(config);
  const auto pa = zc::plan_export(config, "a");
  const auto pb = zc::plan_export(config, "b");
  CHECK(clawport::paths::join("/i", pa.workspace.path) ==
        clawport::skills::agent_workspace_dir(cfg, "/i", "a"));
  CHECK(clawport::paths::join("/i", pb.workspace.path) ==
        clawport::skills::agent_workspace_dir(cfg, "/i", "b"));
  CHECK(clawport::skills::agent_workspace_dir(cfg, "/i", "b") == "/i/ws/b");
}
