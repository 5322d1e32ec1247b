// SPDX-License-Identifier: MIT
// ZeroClaw config schema version 3 (zeroclaw-config.md, master 15d28660) as descriptors:
// every table an agent closure touches, in the upstream structs' field order (the order
// keys are rendered in), with defaults for pruning, secrets, references and drop rules.
#pragma once

#include "../core/config.hpp"

#include <string_view>

#include "schema.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

namespace v3 {

using fields::f;
using ft = field_type;
using rt = ref_target;
using dr = drop_reason;

// ---- shared value lists ----
inline constexpr std::string_view risk_levels[] = {"readonly", "supervised", "full"};
inline constexpr std::string_view delegation_modes[] = {"forbidden", "allow"};
inline constexpr std::string_view approver_fallbacks[] = {"deny", "inherit-originator"};
inline constexpr std::string_view transports[] = {"stdio", "http", "sse"};
inline constexpr std::string_view memory_backends[] = {"none",   "sqlite",   "postgres",
                                                       "qdrant", "markdown", "lucid"};
inline constexpr std::string_view access_modes[] = {"read", "write", "read_write"};
inline constexpr std::string_view injection_modes[] = {"full", "compact"};
inline constexpr std::string_view filter_modes[] = {"always", "dynamic"};
inline constexpr std::string_view wire_apis[] = {"responses", "chat_completions"};
inline constexpr std::string_view auth_modes[] = {"api_key", "oauth"};
inline constexpr std::string_view allowed_roots_aliases[] = {"allowed_path", "allowed_paths"};
inline constexpr std::string_view api_url_alias[] = {"api_url"};

// Linux defaults of RiskProfileConfig (platform-dependent upstream; see docs/format.md).
inline constexpr std::string_view default_allowed_commands[] = {
    "git",    "npm",      "cargo",  "ls",      "cat",  "grep", "find", "echo",
    "pwd",    "wc",       "head",   "tail",    "date", "df",   "du",   "uname",
    "uptime", "hostname", "python", "python3", "pip",  "node", "free"};
inline constexpr std::string_view default_forbidden_paths[] = {
    "/etc", "/root", "/home", "/usr", "/bin", "/sbin",  "/lib",     "/opt",   "/boot",
    "/dev", "/proc", "/sys",  "/var", "/tmp", "~/.ssh", "~/.gnupg", "~/.aws", "~/.config"};
inline constexpr std::string_view default_auto_approve[] = {
    "file_read",  "memory_recall", "web_search_tool", "web_fetch",
    "calculator", "glob_search",   "content_search",  "image_info",
    "weather",    "tool_search",   "browser",         "browser_open"};

// ---- [agents.<alias>] (AliasedAgentConfig) ----
inline constexpr field agent_precheck[] = {
    f("enabled", ft::boolean, fields::boolean(true)),
    f("timeout_secs", ft::integer, fields::integer(5)),
};
inline constexpr field agent_workspace[] = {
    f("path", ft::string)
        .dropped(7, dr::host_specific,
                 "the workspace override is a source-host absolute path; the imported agent "
                 "uses the target's default workspace location"),
    f("access", ft::string_map, fields::empty_table())
        .refers_to(rt::agent)
        .one_of(access_modes)
        .dropped(8, dr::relational,
                 "cross-agent filesystem grants name sibling agents that will not exist on "
                 "the target install"),
    f("unrestricted_filesystem", ft::boolean, fields::boolean(false)),
    f("read_memory_from", ft::string_array, fields::strings())
        .refers_to(rt::agent)
        .dropped(9, dr::relational,
                 "cross-agent memory grants name sibling agents that will not exist on the "
                 "target install"),
};
inline constexpr field agent_memory[] = {
    f("backend", ft::string, fields::str("sqlite")).one_of(memory_backends),
};
inline constexpr field agent_identity[] = {
    f("format", ft::string, fields::str("openclaw")),
    f("aieos_path", ft::string).ruled(field_rule::identity_path, 6),
    f("aieos_inline", ft::string),
};
inline constexpr field agent_a2a[] = {
    f("published", ft::boolean, fields::boolean(false)),
    f("exposed_skills", ft::string_array, fields::strings()),
};
inline constexpr field agent[] = {
    f("enabled", ft::boolean, fields::boolean(true)),
    f("model_provider", ft::string, fields::str("")).refers_to(rt::model_provider),
    f("classifier_provider", ft::string, fields::str("")).refers_to(rt::model_provider),
    f("summary_provider", ft::string, fields::str("")).refers_to(rt::model_provider),
    f("tts_provider", ft::string, fields::str("")).refers_to(rt::tts_provider),
    f("transcription_provider", ft::string, fields::str("")).refers_to(rt::transcription_provider),
    f("risk_profile", ft::string, fields::str("")).refers_to(rt::risk_profile),
    f("runtime_profile", ft::string, fields::str("")).refers_to(rt::runtime_profile),
    f("channels", ft::string_array, fields::strings())
        .refers_to(rt::channel)
        .dropped(1, dr::host_specific,
                 "channel bindings name accounts and credentials that exist only on the "
                 "source install; bind the imported agent to a local channel instead"),
    f("skill_bundles", ft::string_array, fields::strings()).refers_to(rt::skill_bundle),
    f("knowledge_bundles", ft::string_array, fields::strings()).refers_to(rt::knowledge_bundle),
    f("mcp_bundles", ft::string_array, fields::strings()).refers_to(rt::mcp_bundle),
    f("acp_enable_mcp", ft::boolean, fields::boolean(false)),
    f("cron_jobs", ft::string_array, fields::strings())
        .refers_to(rt::cron_job)
        .dropped(3, dr::not_yet_portable,
                 "scheduled jobs are not carried by bundle format 1; re-create them on the "
                 "target"),
    f("delegate_same_risk_profile", ft::boolean, fields::boolean(true))
        .ruled(field_rule::force_false, 5, dr::relational,
               "auto-delegation to same-profile peers would name agents on the target install "
               "that this agent has never been paired with; the imported agent arrives with "
               "no delegate reach"),
    // A bare string or an { agent, mode } table per element: carried as `any`, then dropped.
    f("delegates", ft::any, fields::strings())
        .refers_to(rt::agent)
        .dropped(2, dr::relational,
                 "the delegate roster names sibling agents that will not exist on the target "
                 "install"),
    f("precheck", ft::table, fields::defaults_of_children()).with_children(agent_precheck),
    f("workspace", ft::table, fields::defaults_of_children()).with_children(agent_workspace),
    f("memory", ft::table, fields::defaults_of_children()).with_children(agent_memory),
    f("identity", ft::table, fields::defaults_of_children()).with_children(agent_identity),
    f("a2a", ft::table, fields::defaults_of_children())
        .with_children(agent_a2a)
        .dropped(4, dr::default_closed,
                 "A2A publication is an outward-facing surface; the imported agent arrives "
                 "unpublished and must be published deliberately"),
};

// ---- [risk_profiles.<alias>] (RiskProfileConfig) ----
inline constexpr field risk_delegation_policy[] = {
    f("mode", ft::string, fields::str("forbidden")).one_of(delegation_modes),
};
inline constexpr field risk_approval_route[] = {
    f("approver_channel", ft::string).as_required().refers_to(rt::channel),
    f("on_no_approver", ft::string, fields::str("deny")).one_of(approver_fallbacks),
    f("timeout_secs", ft::integer, fields::integer(120)),
};
inline constexpr field risk_profile[] = {
    f("level", ft::string, fields::str("supervised")).one_of(risk_levels),
    f("workspace_only", ft::boolean, fields::boolean(true)),
    f("allowed_commands", ft::string_array, fields::strings(default_allowed_commands)),
    f("forbidden_paths", ft::string_array, fields::strings(default_forbidden_paths)),
    f("require_approval_for_medium_risk", ft::boolean, fields::boolean(true)),
    f("block_high_risk_commands", ft::boolean, fields::boolean(true)),
    f("shell_env_passthrough", ft::string_array, fields::strings()),
    f("auto_approve", ft::string_array, fields::strings(default_auto_approve)),
    f("always_ask", ft::string_array, fields::strings()),
    f("allowed_roots", ft::string_array, fields::strings())
        .also_spelled(allowed_roots_aliases)
        .noted(note_kind::host_path,
               "extra filesystem roots are host paths of the source install; check that each "
               "exists, and should be granted, on the target"),
    f("delegation_policy", ft::table, fields::defaults_of_children())
        .with_children(risk_delegation_policy),
    f("approval_route", ft::table)
        .with_children(risk_approval_route)
        .dropped(10, dr::host_specific,
                 "the approval route names a source-install channel and approver; it is removed "
                 "so a same-named target channel cannot silently receive this agent's "
                 "approvals. Removing it also removes the source profile's distinct-approver "
                 "policy, so rebind one on the target before enabling the agent when that "
                 "separation is required"),
    f("allowed_tools", ft::string_array, fields::strings()),
    f("excluded_tools", ft::string_array, fields::strings()),
    f("sandbox_enabled", ft::boolean),
    f("sandbox_backend", ft::string),
    f("firejail_args", ft::string_array, fields::strings()),
};

// ---- [runtime_profiles.<alias>] (RuntimeProfileConfig) ----
inline constexpr field runtime_tool_filter_group[] = {
    f("mode", ft::string, fields::str("dynamic")).one_of(filter_modes),
    f("tools", ft::string_array, fields::strings()),
    f("keywords", ft::string_array, fields::strings()),
};
inline constexpr field runtime_thinking[] = {
    f("default_level", ft::string, fields::str("medium")),
    f("native_thinking", ft::boolean, fields::boolean(false)),
    f("budget_tokens", ft::any, fields::empty_table()),
};
inline constexpr field runtime_history_pruning[] = {
    f("enabled", ft::boolean, fields::boolean(false)),
    f("max_tokens", ft::integer, fields::integer(8192)),
    f("keep_recent", ft::integer, fields::integer(4)),
    f("collapse_tool_results", ft::boolean, fields::boolean(true)),
};
inline constexpr field runtime_eval[] = {
    f("enabled", ft::boolean, fields::boolean(false)),
    f("min_quality_score", ft::number, fields::number(0.5)),
    f("max_retries", ft::integer, fields::integer(1)),
};
inline constexpr field runtime_tool_receipts[] = {
    f("enabled", ft::boolean, fields::boolean(false)),
    f("show_in_response", ft::boolean, fields::boolean(false)),
    f("inject_system_prompt", ft::boolean, fields::boolean(true)),
};
inline constexpr field runtime_context_compression[] = {
    f("enabled", ft::boolean, fields::boolean(false)),
    f("threshold_ratio", ft::number, fields::number(0.5)),
    f("protect_first_n", ft::integer, fields::integer(3)),
    f("protect_last_n", ft::integer, fields::integer(4)),
    f("max_passes", ft::integer, fields::integer(3)),
    f("summary_max_chars", ft::integer, fields::integer(4000)),
    f("source_max_chars", ft::integer, fields::integer(50000)),
    f("timeout_secs", ft::integer, fields::integer(60)),
    f("summary_provider", ft::string, fields::str("")).refers_to(rt::model_provider),
    f("summary_model", ft::string),
    f("identifier_policy", ft::string, fields::str("strict")),
    f("tool_result_retrim_chars", ft::integer, fields::integer(2000)),
    f("tool_result_trim_exempt", ft::string_array, fields::strings()),
};
inline constexpr field runtime_profile[] = {
    f("agentic", ft::boolean, fields::boolean(false)),
    f("max_tool_iterations", ft::integer, fields::integer(0)),
    f("max_actions_per_hour", ft::integer, fields::integer(20)),
    f("max_cost_per_day_cents", ft::integer, fields::integer(500)),
    f("shell_timeout_secs", ft::integer, fields::integer(60)),
    f("max_delegation_depth", ft::integer, fields::integer(0)),
    f("delegation_timeout_secs", ft::integer),
    f("agentic_timeout_secs", ft::integer),
    f("memory_recall_limit", ft::integer),
    f("max_history_messages", ft::integer),
    f("max_context_tokens", ft::integer),
    f("compact_context", ft::boolean),
    f("parallel_tools", ft::boolean),
    f("tool_dispatcher", ft::string),
    f("tool_call_dedup_exempt", ft::string_array, fields::strings()),
    f("max_system_prompt_chars", ft::integer),
    f("max_tool_result_chars", ft::integer),
    f("keep_tool_context_turns", ft::integer),
    f("strict_tool_parsing", ft::boolean, fields::boolean(false)),
    f("prompt_injection_mode", ft::string).one_of(injection_modes),
    f("auto_classify", ft::any),
    f("tool_filter_groups", ft::table_array, fields::strings())
        .with_children(runtime_tool_filter_group),
    f("thinking", ft::table, fields::defaults_of_children()).with_children(runtime_thinking),
    f("history_pruning", ft::table, fields::defaults_of_children())
        .with_children(runtime_history_pruning),
    f("eval", ft::table, fields::defaults_of_children()).with_children(runtime_eval),
    f("tool_receipts", ft::table, fields::defaults_of_children())
        .with_children(runtime_tool_receipts),
    f("context_compression", ft::table, fields::defaults_of_children())
        .with_children(runtime_context_compression),
};

// ---- bundles ----
inline constexpr field skill_bundle[] = {
    f("directory", ft::string)
        .ruled(field_rule::skill_directory, 11, dr::host_specific,
               "the bundle directory is a source-host absolute path, and the target requires "
               "bundle directories inside its own install; the imported bundle uses the "
               "target's default location for this alias"),
    f("include", ft::string_array, fields::strings()),
    f("exclude", ft::string_array, fields::strings()),
};
inline constexpr field knowledge_bundle[] = {
    f("sources", ft::string_array, fields::strings()),
    f("tags", ft::string_array, fields::strings()),
};
inline constexpr field mcp_bundle[] = {
    f("servers", ft::string_array, fields::strings()).refers_to(rt::mcp_server),
    f("exclude", ft::string_array, fields::strings()).refers_to(rt::mcp_server),
};

// ---- [[mcp.servers]] (McpServerConfig) ----
inline constexpr field mcp_server[] = {
    f("name", ft::string, fields::str("")).as_required(),
    f("transport", ft::string, fields::str("stdio")).one_of(transports),
    f("command", ft::string, fields::str("")),
    f("args", ft::string_array, fields::strings()),
    f("env", ft::string_map, fields::empty_table()).as_secret(),
    f("url", ft::string),
    f("headers", ft::string_map, fields::empty_table()).as_secret(),
    f("tool_timeout_secs", ft::integer),
    f("pinned_resources", ft::string_array, fields::strings()),
    f("tls_ca_cert_path", ft::string)
        .noted(note_kind::host_path,
               "a CA certificate path on the source host; the file must exist at this path on "
               "the target, or the server will not connect"),
};

// ---- providers ----
inline constexpr std::string_view ca_note =
    "a CA certificate path on the source host; the file must exist at this path on the "
    "target, or the provider will not connect";
inline constexpr std::string_view binary_note =
    "a program path on the source host; install it at this path on the target or change it";
inline constexpr std::string_view oauth_note =
    "the credential comes from the source host's OAuth login cache, which does not travel; "
    "log in again on the target";

inline constexpr field model_base[] = {
    f("api_key", ft::string).as_secret(),
    f("kind", ft::string),
    f("uri", ft::string),
    f("model", ft::string),
    f("fallback", ft::string_array, fields::strings()).refers_to(rt::model_provider),
    f("fallback_models", ft::string_array, fields::strings()),
    f("temperature", ft::number),
    f("timeout_secs", ft::integer),
    f("extra_headers", ft::string_map, fields::empty_table()).as_secret(),
    f("wire_api", ft::string).one_of(wire_apis),
    f("requires_openai_auth", ft::boolean, fields::boolean(false))
        .noted(note_kind::external_auth,
               "the credential comes from the source host's openai-codex auth profile, which "
               "does not travel; run `zeroclaw auth login --model-provider openai-codex` on "
               "the target",
               "true"),
    f("max_tokens", ft::integer),
    f("merge_system_into_user", ft::boolean, fields::boolean(false)),
    f("provider_extra", ft::any),
    f("pricing", ft::any, fields::empty_table()),
    f("replay_assistant_reasoning", ft::boolean),
    f("native_tools", ft::boolean),
    f("think", ft::boolean),
    f("vision", ft::boolean),
    f("live_pricing", ft::boolean, fields::boolean(false)),
    f("chat_template_kwargs", ft::any),
    f("context_window", ft::integer),
    f("tls_ca_cert_path", ft::string).noted(note_kind::host_path, ca_note),
};
inline constexpr field model_azure[] = {f("resource", ft::string), f("deployment", ft::string),
                                        f("api_version", ft::string)};
inline constexpr field model_endpoint[] = {f("endpoint", ft::string)};
inline constexpr field model_qwen[] = {
    f("endpoint", ft::string),
    f("auth_mode", ft::string)
        .one_of(auth_modes)
        .noted(note_kind::external_auth, oauth_note, "oauth"),
    f("oauth_refresh_token", ft::string).as_secret(),
    f("oauth_client_id", ft::string),
    f("oauth_resource_url", ft::string),
};
inline constexpr field model_minimax[] = {
    f("endpoint", ft::string),
    f("auth_mode", ft::string)
        .one_of(auth_modes)
        .noted(note_kind::external_auth, oauth_note, "oauth"),
    f("oauth_refresh_token", ft::string).as_secret(),
    f("oauth_client_id", ft::string),
};
inline constexpr field model_gemini[] = {
    f("auth_mode", ft::string)
        .one_of(auth_modes)
        .noted(note_kind::external_auth, oauth_note, "oauth"),
    f("oauth_client_id", ft::string).as_secret(),
    f("oauth_client_secret", ft::string).as_secret(),
    f("oauth_project", ft::string),
};
inline constexpr field model_ollama[] = {f("num_ctx", ft::integer), f("num_predict", ft::integer),
                                         f("temperature_override", ft::number)};
inline constexpr field model_binary[] = {
    f("binary_path", ft::string).noted(note_kind::host_path, binary_note)};
inline constexpr field model_grok_cli[] = {
    f("binary_path", ft::string).noted(note_kind::host_path, binary_note),
    f("working_directory", ft::string)
        .as_required()
        .noted(note_kind::host_path,
               "a working directory on the source host; it must exist on the target"),
    f("env_passthrough", ft::string_array, fields::strings()),
    f("extra_args", ft::string_array, fields::strings()),
    f("max_acp_stdout_bytes", ft::integer),
};
inline constexpr field model_bedrock[] = {f("region", ft::string)};

inline constexpr std::string_view model_families[] = {
    "openai",    "azure",       "anthropic", "moonshot",    "qwen",       "glm",
    "minimax",   "zai",         "doubao",    "yi",          "hunyuan",    "qianfan",
    "baichuan",  "openrouter",  "ollama",    "gemini",      "gemini_cli", "grok_cli",
    "bedrock",   "telnyx",      "together",  "fireworks",   "groq",       "mistral",
    "deepseek",  "atomic_chat", "cohere",    "perplexity",  "xai",        "cerebras",
    "sambanova", "hyperbolic",  "deepinfra", "huggingface", "ai21",       "reka",
    "baseten",   "nscale",      "anyscale",  "nebius",      "friendli",   "stepfun",
    "aihubmix",  "siliconflow", "astrai",    "avian",       "deepmyst",   "venice",
    "nearai",    "novita",      "nvidia",    "vercel",      "cloudflare", "atlascloud",
    "ovh",       "copilot",     "lmstudio",  "llamacpp",    "sglang",     "vllm",
    "osaurus",   "litellm",     "lepton",    "manifest",    "morph",      "github_models",
    "upstage",   "featherless", "arcee",     "lambda_ai",   "inception",  "synthetic",
    "opencode",  "kilocli",     "kilo",      "custom"};

inline constexpr field tts[] = {
    f("api_key", ft::string).as_secret(),
    f("model", ft::string),
    f("voice", ft::string),
    f("speed", ft::number),
    f("stability", ft::number),
    f("similarity_boost", ft::number),
    f("language_code", ft::string),
    f("binary_path", ft::string).noted(note_kind::host_path, binary_note),
    f("response_format", ft::string),
    f("uri", ft::string).also_spelled(api_url_alias),
};
inline constexpr std::string_view tts_families[] = {"openai", "elevenlabs", "google", "edge",
                                                    "piper"};

inline constexpr field transcription_with_model[] = {
    f("api_key", ft::string).as_secret(),
    f("language", ft::string),
    f("initial_prompt", ft::string),
    f("model", ft::string),
};
inline constexpr field transcription_base[] = {
    f("api_key", ft::string).as_secret(),
    f("language", ft::string),
    f("initial_prompt", ft::string),
};
inline constexpr field transcription_local_whisper[] = {
    f("uri", ft::string).as_required(),
    f("bearer_token", ft::string).as_secret(),
    f("language", ft::string),
    f("max_audio_bytes", ft::integer, fields::integer(26214400)),
    f("timeout_secs", ft::integer, fields::integer(300)),
};

/// The credentials of a channel (`[channels.<type>.<alias>]`) that ZeroClaw marks secret
/// and encrypts (zeroclaw-config.md 5.3: `bot_token`, `access_token`). Channels are never
/// carried; only `secrets` and `status` read these.
inline constexpr field channel_credentials[] = {
    f("bot_token", ft::string).as_secret(),
    f("access_token", ft::string).as_secret(),
};

constexpr bool in(name_list list, std::string_view name) noexcept {
  for (const std::string_view n : list)
    if (n == name) return true;
  return false;
}

inline constexpr entry_schema model_entry_base{"model provider", model_base, {}, false};
inline constexpr entry_schema model_entry_azure{"model provider", model_base, model_azure, false};
inline constexpr entry_schema model_entry_endpoint{"model provider", model_base, model_endpoint,
                                                   false};
inline constexpr entry_schema model_entry_qwen{"model provider", model_base, model_qwen, false};
inline constexpr entry_schema model_entry_minimax{"model provider", model_base, model_minimax,
                                                  false};
inline constexpr entry_schema model_entry_gemini{"model provider", model_base, model_gemini, false};
inline constexpr entry_schema model_entry_ollama{"model provider", model_base, model_ollama, false};
inline constexpr entry_schema model_entry_binary{"model provider", model_base, model_binary, false};
inline constexpr entry_schema model_entry_grok_cli{"model provider", model_base, model_grok_cli,
                                                   false};
inline constexpr entry_schema model_entry_bedrock{"model provider", model_base, model_bedrock,
                                                  false};
inline constexpr entry_schema channel_entry{"channel", channel_credentials, {}, false};
inline constexpr entry_schema tts_entry{"tts provider", tts, {}, false};
inline constexpr entry_schema transcription_entry_model{
    "transcription provider", transcription_with_model, {}, false};
inline constexpr entry_schema transcription_entry_base{
    "transcription provider", transcription_base, {}, false};
inline constexpr entry_schema transcription_entry_local_whisper{
    "transcription provider", transcription_local_whisper, {}, false};

}  // namespace v3

/// ZeroClaw schema version 3: the default Schema policy.
struct schema_v3 {
  static constexpr std::uint32_t version = 3;

  static constexpr entry_schema agent() noexcept { return {"agent", v3::agent, {}, true}; }
  static constexpr entry_schema risk_profile() noexcept {
    return {"risk profile", v3::risk_profile, {}, true};
  }
  static constexpr entry_schema runtime_profile() noexcept {
    return {"runtime profile", v3::runtime_profile, {}, true};
  }
  static constexpr entry_schema skill_bundle() noexcept {
    return {"skill bundle", v3::skill_bundle, {}, true};
  }
  static constexpr entry_schema knowledge_bundle() noexcept {
    return {"knowledge bundle", v3::knowledge_bundle, {}, true};
  }
  static constexpr entry_schema mcp_bundle() noexcept {
    return {"mcp bundle", v3::mcp_bundle, {}, true};
  }
  static constexpr entry_schema mcp_server() noexcept {
    return {"mcp server", v3::mcp_server, {}, true};
  }
  static constexpr name_list model_families() noexcept { return v3::model_families; }

  static constexpr const entry_schema* model_provider(std::string_view family) noexcept {
    if (!v3::in(v3::model_families, family)) return nullptr;
    if (family == "azure") return &v3::model_entry_azure;
    if (family == "moonshot" || family == "glm" || family == "zai" || family == "stepfun" ||
        family == "kilo")
      return &v3::model_entry_endpoint;
    if (family == "qwen") return &v3::model_entry_qwen;
    if (family == "minimax") return &v3::model_entry_minimax;
    if (family == "gemini") return &v3::model_entry_gemini;
    if (family == "ollama") return &v3::model_entry_ollama;
    if (family == "gemini_cli" || family == "kilocli") return &v3::model_entry_binary;
    if (family == "grok_cli") return &v3::model_entry_grok_cli;
    if (family == "bedrock") return &v3::model_entry_bedrock;
    return &v3::model_entry_base;
  }
  static constexpr const entry_schema* tts_provider(std::string_view family) noexcept {
    return v3::in(v3::tts_families, family) ? &v3::tts_entry : nullptr;
  }
  static constexpr const entry_schema* transcription_provider(std::string_view family) noexcept {
    if (family == "groq" || family == "openai" || family == "deepgram")
      return &v3::transcription_entry_model;
    if (family == "assemblyai" || family == "google") return &v3::transcription_entry_base;
    if (family == "local_whisper") return &v3::transcription_entry_local_whisper;
    return nullptr;
  }
  /// Every channel type: the credentials are named alike across types.
  static constexpr const entry_schema* channel(std::string_view) noexcept {
    return &v3::channel_entry;
  }
};

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
