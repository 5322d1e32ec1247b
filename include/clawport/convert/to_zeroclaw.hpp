// SPDX-License-Identifier: MIT
// The pure mapping of a read OpenClaw Claw package onto a ZeroClaw agent bundle (docs/convert.md,
// "Claw to bundle"). The agent is written as an install config of its own and planned with the
// export's own planner (zeroclaw::plan_export), so config.toml, zeroclaw-agent.toml and the
// digest list come from the same writers an export uses: the bundle is closed, scrubbed and
// verifiable by construction. Nothing here touches a filesystem.
#pragma once

#include "../bundle/private_data.hpp"
#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/text.hpp"
#include "../core/time.hpp"
#include "../digest/list.hpp"
#include "../digest/sha256.hpp"
#include "../formats/toml_writer.hpp"
#include "../memory/entry.hpp"
#include "../memory/markdown_files.hpp"
#include "../zeroclaw/alias.hpp"
#include "../zeroclaw/api.hpp"
#include "../zeroclaw/render.hpp"
#include "report.hpp"
#include "to_claw.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace convert {

/// An OpenClaw agent's Markdown memory as the bundle carries it (`--with-memory`, issue 47
/// item 7): the text of `memory/entries.jsonl` and its counts for the `[memory]` table.
struct carried_memory {
  std::string jsonl;
  memory::summary summary;
};

/// A read, valid Claw package: its normalised manifest, its profile, the CLAW.md body, the
/// package-root BOOTSTRAP.md and the bytes of every declared workspace source, by destination.
struct claw_input {
  openclaw::claw_manifest model;  ///< the typed manifest (every mapping reads only this)
  std::optional<openclaw::openclaw_profile> profile;
  std::optional<std::string> body;
  std::optional<std::string> bootstrap;
  std::map<std::string, std::string> workspace;  ///< destination -> bytes
  std::string package;                           ///< `name@version`, for the report
  std::optional<carried_memory> memory;          ///< an installed agent's, when asked for
};

/// `id` made valid for ZeroClaw's alias grammar: `-` and other characters `_`, runs folded,
/// trimmed; nullopt when nothing grammatical is left.
inline std::optional<std::string> to_zeroclaw_alias(const std::string& id) {
  std::string a;
  for (const char c : id) {
    const char l = text::ascii_lower(c);
    const char d = ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9')) ? l : '_';
    if (d == '_' && (a.empty() || a.back() == '_')) continue;
    a += d;
  }
  while (!a.empty() && a.back() == '_') a.pop_back();
  if (a.size() > zeroclaw::max_alias_length) a.resize(zeroclaw::max_alias_length);
  while (!a.empty() && a.back() == '_') a.pop_back();
  if (zeroclaw::alias_problem(a)) return std::nullopt;
  return a;
}

/// The model provider a converted agent references (`<family>.<alias>`).
inline constexpr std::string_view claw_model_provider = "anthropic.default";

namespace detail {

inline zeroclaw::value zstrings(const std::vector<std::string>& v) {
  zeroclaw::value a = zeroclaw::value::make_array();
  for (const std::string& s : v) a.items.push_back(zeroclaw::value::make_string(s));
  return a;
}
inline std::vector<std::string> jstrings(const nlohmann::ordered_json& j, const char* key) {
  std::vector<std::string> out;
  if (!j.is_object() || !j.contains(key) || !j[key].is_array()) return out;
  for (const auto& s : j[key])
    if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}
inline bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

/// The bundle's workspace: the CLAW.md body as SOUL.md, the declared sources, BOOTSTRAP.md;
/// what a bundle never carries (private_data) is a loss.
inline std::map<std::string, std::string> zeroclaw_workspace(const claw_input& in,
                                                             std::vector<loss>& losses) {
  std::map<std::string, std::string> files;  // bundle path -> bytes
  const auto place = [&](const std::string& dest, const std::string& bytes,
                         const std::string& from) {
    if (const auto kind = bundle::private_workspace_entry(dest)) {  // issue 30: one rule
      losses.push_back({from, loss_kind::dropped,
                        "a bundle never carries workspace/" + dest +
                            " (private_data): " + std::string(bundle::private_reason(*kind))});
      return;
    }
    files["workspace/" + dest] = bytes;
  };
  if (in.body) {
    place("SOUL.md", *in.body, "CLAW.md");
    losses.push_back({"CLAW.md", loss_kind::changed, "the CLAW.md body is workspace/SOUL.md"});
  }
  for (const auto& f : in.workspace) place(f.first, f.second, f.first);
  if (in.bootstrap) {
    place("BOOTSTRAP.md", *in.bootstrap, "BOOTSTRAP.md");
    losses.push_back({"BOOTSTRAP.md", loss_kind::changed,
                      "the package-root BOOTSTRAP.md is workspace/BOOTSTRAP.md; ZeroClaw does "
                      "not seed it once, it is an ordinary workspace file"});
  }

  return files;
}

/// The risk profile from the OpenClaw profile; `allow` and `deny` get the tool lists (the
/// MCP servers add to them before they are set).
inline zeroclaw::value zeroclaw_risk_profile(const claw_input& in, const map_options& o,
                                             std::vector<std::string>& allow,
                                             std::vector<std::string>& deny,
                                             std::vector<loss>& losses) {
  zeroclaw::value rp = zeroclaw::value::make_table();
  const openclaw::profile_tools tools =
      in.profile && in.profile->tools ? *in.profile->tools : openclaw::profile_tools{};
  for (const std::string& t : tools.allow) allow.push_back(zeroclaw_tool(t));
  for (const std::string& t : tools.deny) deny.push_back(zeroclaw_tool(t));
  const std::string P = "$.profile.agent";
  if (tools.profile) {
    if (allow.empty())
      narrow(o, losses, P + ".tools.profile",
             "the built-in tool profile `" + *tools.profile +
                 "` is not known offline; the bundle allows only file_read");
    else
      losses.push_back({P + ".tools.profile", loss_kind::dropped,
                        "ZeroClaw has no tool profiles; the explicit allow list bounds the "
                        "tools as tightly"});
    if (allow.empty()) allow.push_back("file_read");
  }
  if (tools.also_allow)
    losses.push_back({P + ".tools.alsoAllow", loss_kind::dropped,
                      "extends a tool profile ZeroClaw does not have"});
  const bool shell_off = has(deny, "shell") || (!allow.empty() && !has(allow, "shell"));
  if (!shell_off)
    narrow(o, losses, P + ".tools",
           "exec is allowed; ZeroClaw's shell runs only allow-listed commands and asks "
           "before medium-risk ones (its supervised level)");
  if (!tools.workspace_only)
    narrow(o, losses, P + ".tools.fs.workspaceOnly",
           "the profile leaves filesystem confinement to the host; the bundle confines "
           "the agent to its workspace (workspace_only)");
  if (in.profile && in.profile->sandbox) {
    const openclaw::profile_sandbox& sb = *in.profile->sandbox;
    if (sb.mode != "off") rp.set("sandbox_enabled", zeroclaw::value::make_boolean(true));
    if (sb.mode == "non-main")
      narrow(o, losses, P + ".sandbox.mode", "ZeroClaw sandboxes every session, the main one too");
    if (sb.workspace_access != "rw") {
      narrow(o, losses, P + ".sandbox.workspaceAccess",
             "the sandbox sees the workspace " + sb.workspace_access +
                 "; ZeroClaw's nearest is the readonly level (no writes at all)");
      rp.set("level", zeroclaw::value::make_string("readonly"));
    }
    if (sb.scope != "agent")
      losses.push_back({P + ".sandbox.scope", loss_kind::dropped,
                        "ZeroClaw sandboxes per agent; the scope has no counterpart"});
  }
  for (const char* k : {"groupChat", "memory", "heartbeat", "humanDelay"})
    if (in.profile && in.profile->sets(k))
      losses.push_back({P + "." + k, loss_kind::dropped, "no ZeroClaw bundle counterpart"});
  if (in.profile && !in.profile->extensions.empty())
    losses.push_back({"$.profile.extensions", loss_kind::dropped,
                      "plugin extensions are OpenClaw plugins; ZeroClaw has none"});

  return rp;
}

/// One MCP server of the manifest as a ZeroClaw server, or nullopt when it is not converted;
/// an exact tool exclusion joins `deny`.
inline std::optional<zeroclaw::value> zeroclaw_mcp_server(const std::string& name,
                                                          const nlohmann::ordered_json& s,
                                                          const map_options& o,
                                                          const std::vector<std::string>& allow,
                                                          std::vector<std::string>& deny,
                                                          std::vector<loss>& losses) {
  using json = nlohmann::ordered_json;
  const std::string p = "$.mcpServers." + name;
  zeroclaw::value z = zeroclaw::value::make_table();
  z.set("name", zeroclaw::value::make_string(name));
  if (s.contains("command")) {
    z.set("transport", zeroclaw::value::make_string("stdio"));
    z.set("command", zeroclaw::value::make_string(s["command"].get<std::string>()));
    if (s.contains("args")) z.set("args", zstrings(jstrings(s, "args")));
    if (s.contains("env")) {
      zeroclaw::value env = zeroclaw::value::make_table();
      for (auto e = s["env"].begin(); e != s["env"].end(); ++e) {
        // The reference is marked secret: the planner blanks it and lists it as required.
        env.set(e.key(), zeroclaw::value::make_string(e.value().get<std::string>()));
        if (e.value().get<std::string>() != "${" + env_reference_name(e.key()) + "}")
          losses.push_back({p + ".env." + e.key(), loss_kind::changed,
                            "the reference " + e.value().get<std::string>() +
                                " becomes a blank required secret; supply it on the target"});
      }
      z.set("env", std::move(env));
    }
  } else {
    const std::string t = s.value("transport", "streamable-http");
    z.set("transport", zeroclaw::value::make_string(t == "sse" ? "sse" : "http"));
    z.set("url", zeroclaw::value::make_string(s["url"].get<std::string>()));
    if (s.contains("auth"))
      losses.push_back({p + ".auth", loss_kind::dropped,
                        "ZeroClaw has no MCP OAuth login; give the server a header credential "
                        "on the target"});
  }
  if (s.contains("timeout") && s["timeout"].is_number())
    z.set("tool_timeout_secs", zeroclaw::value::make_integer(static_cast<std::int64_t>(
                                   std::ceil(s["timeout"].get<double>()))));
  if (s.contains("connectTimeout"))
    losses.push_back({p + ".connectTimeout", loss_kind::dropped, "no ZeroClaw counterpart"});
  bool keep = true;
  if (s.contains("toolFilter")) {
    const json& tf = s["toolFilter"];
    for (const std::string& ex : jstrings(tf, "exclude")) {
      if (ex.find('*') == std::string::npos) {
        deny.push_back(name + "__" + ex);
      } else {
        narrow(o, losses, p + ".toolFilter.exclude",
               "the pattern `" + ex +
                   "` has no ZeroClaw counterpart; the server is "
                   "not converted");
        keep = false;
      }
    }
    if (tf.contains("include")) {
      if (!allow.empty()) {
        losses.push_back({p + ".toolFilter.include", loss_kind::dropped,
                          "the tool allow list (allowed_tools) bounds this server's tools as "
                          "tightly"});
      } else {
        narrow(o, losses, p + ".toolFilter.include",
               "ZeroClaw has no per-server include filter; the server is not "
               "converted");
        keep = false;
      }
    }
  }
  if (!keep) return std::nullopt;
  return z;
}

/// The model provider a converted agent references (`claw_model_provider`): neither a Claw
/// nor a plugin names a model, so the bundle carries one whose credential and model the
/// target supplies (`what` names the source in the loss: "a Claw", "a plugin").
inline void model_provider_to_supply(zeroclaw::value& cfg, const std::string& what,
                                     std::vector<loss>& losses) {
  zeroclaw::value provider = zeroclaw::value::make_table();
  provider.set("api_key", zeroclaw::value::make_string("supplied-on-the-target"));
  cfg.child_table("providers")
      .child_table("models")
      .child_table("anthropic")
      .set("default", std::move(provider));
  losses.push_back({"providers.models." + std::string(claw_model_provider), loss_kind::changed,
                    what + " names no model; the bundle configures this provider with a blank "
                           "api_key (a required secret) and no model: choose both on the target"});
}

/// The install config of the one agent: its risk profile, MCP bundle and servers, and the
/// provider whose credential the target supplies.
inline zeroclaw::value zeroclaw_config(const std::string& alias, zeroclaw::value rp,
                                       zeroclaw::value servers,
                                       const std::vector<std::string>& names,
                                       std::vector<loss>& losses) {
  zeroclaw::value cfg = zeroclaw::value::make_table();
  cfg.set("schema_version", zeroclaw::value::make_integer(3));
  zeroclaw::value agent = zeroclaw::value::make_table();
  // A Claw names no model (models are OpenClaw host configuration), and a ZeroClaw agent
  // must reference one: the bundle carries a provider whose credential the target supplies.
  agent.set("model_provider", zeroclaw::value::make_string(std::string(claw_model_provider)));
  agent.set("risk_profile", zeroclaw::value::make_string(alias));
  if (!names.empty()) agent.set("mcp_bundles", zstrings({alias}));
  cfg.child_table("agents").set(alias, std::move(agent));
  cfg.child_table("risk_profiles").set(alias, std::move(rp));
  if (!names.empty()) {
    zeroclaw::value b = zeroclaw::value::make_table();
    b.set("servers", zstrings(names));
    cfg.child_table("mcp_bundles").set(alias, std::move(b));
    cfg.child_table("mcp").set("servers", std::move(servers));
  }
  model_provider_to_supply(cfg, "a Claw", losses);
  return cfg;
}

/// What the plan drops of the manifest (ClawHub packages, cron jobs) and the secrets it
/// requires, as losses.
inline void zeroclaw_drops(const openclaw::claw_manifest& m, zeroclaw::export_plan& plan,
                           std::vector<loss>& losses) {
  using json = nlohmann::ordered_json;
  std::size_t index = 0;
  for (const openclaw::package_decl& pkg : m.packages) {
    const std::string path = "packages." + pkg.kind + "." + pkg.ref;
    const std::string why = "a ClawHub " + pkg.kind + " reference (" + pkg.ref + "@" + pkg.version +
                            "): its content is not in the package and ZeroClaw cannot install "
                            "from ClawHub; install an equivalent on the target";
    plan.dropped.push_back({path, zeroclaw::drop_reason::source_missing, why});
    losses.push_back({"$.packages[" + std::to_string(index++) + "]", loss_kind::dropped, why});
  }
  for (const auto& decl : m.cron_jobs) {
    const json& job = decl.declaration;
    const std::string path = "cronJobs." + decl.id;
    const std::string why = "scheduled jobs are not carried by bundle format 1; re-create `" +
                            decl.id + "` (" + job["schedule"]["cron"].get<std::string>() + " " +
                            job["schedule"]["timezone"].get<std::string>() + ") on the target";
    plan.dropped.push_back({path, zeroclaw::drop_reason::not_yet_portable, why});
    losses.push_back({"$." + path, loss_kind::dropped, why});
  }
  for (const std::string& s : plan.required_secrets)
    if (s.rfind("mcp.", 0) == 0)
      losses.push_back({s, loss_kind::changed,
                        "an environment reference of the Claw; a blank required secret in the "
                        "bundle"});
}

/// A converted bundle's files: `files` (its workspace) with config.toml, the manifest and the
/// digest list, rendered from `plan` as an export writes them. A workspace carrying
/// `workspace/skills/` gets the `carried_workspace_skills` flag here, as the exporter gives it,
/// so that verify does not add it with a `risk_unlisted` warning.
inline std::map<std::string, std::string> bundle_files(
    zeroclaw::export_plan plan, std::map<std::string, std::string> files,
    const timestamp& exported_at, const std::optional<carried_memory>& mem = std::nullopt) {
  const std::string skills =
      paths::join(bundle::workspace_dir, zeroclaw::workspace_skills_dir) + "/";
  if (std::any_of(files.begin(), files.end(),
                  [&](const auto& f) { return f.first.rfind(skills, 0) == 0; }))
    plan.risk_flags.push_back(zeroclaw::workspace_skills_flag());
  files[std::string(bundle::config_file)] = zeroclaw::render_config_toml<zeroclaw::schema_v3>(plan);
  // Memory makes the bundle format 2 with its `[memory]` table, as export writes it.
  if (mem) files[std::string(bundle::memory_entries_file)] = mem->jsonl;
  files[std::string(bundle::manifest_file)] =
      mem ? zeroclaw::render_manifest_with_memory(plan, exported_at,
                                                  memory::manifest_table(mem->summary))
          : zeroclaw::render_manifest(plan, exported_at);
  std::vector<digest::list_entry> entries;
  for (const auto& f : files) entries.push_back({f.first, digest::sha256_hex(f.second)});
  files[std::string(bundle::digest_list_file)] = digest::render_list(entries);
  return files;
}

}  // namespace detail

/// Maps a Claw package to the files of a bundle (config.toml, zeroclaw-agent.toml,
/// zeroclaw-agent.sha256, workspace/...). Throws clawport::error for what must not be
/// converted (an id with no ZeroClaw alias, a narrowing without `allow_narrowing`).
inline mapped map_to_zeroclaw(const claw_input& in, const map_options& o,
                              const timestamp& exported_at) {
  mapped res;
  std::vector<loss>& losses = res.losses;
  const openclaw::claw_manifest& m = in.model;
  const std::string id = m.agent.id;
  const std::optional<std::string> alias = to_zeroclaw_alias(id);
  if (!alias)
    throw error(errc::invalid_argument,
                "the agent id `" + id + "` has no ZeroClaw alias (only [a-z0-9_] remain)",
                "$.agent.id");
  res.agent = *alias;
  if (*alias != id)
    losses.push_back(
        {"$.agent.id", loss_kind::changed,
         "`" + id + "` is not a ZeroClaw alias (no hyphens); the agent is `" + *alias + "`"});
  const std::pair<const char*, bool> fields[] = {{"name", m.agent.name.has_value()},
                                                 {"description", m.agent.description.has_value()},
                                                 {"identity", m.agent.identity.has_value()}};
  for (const auto& k : fields)
    if (k.second)
      losses.push_back({std::string("$.agent.") + k.first, loss_kind::dropped,
                        "ZeroClaw's identity is the workspace's IDENTITY.md (identity format "
                        "openclaw); the manifest's portable identity fields have no config "
                        "counterpart"});
  for (const auto& kv : m.metadata)
    losses.push_back({"$.metadata." + kv.first, loss_kind::dropped,
                      "package metadata has no "
                      "bundle counterpart"});

  // ---- the workspace ----
  std::map<std::string, std::string> files = detail::zeroclaw_workspace(in, losses);

  // ---- the risk profile, from the OpenClaw profile ----
  std::vector<std::string> allow, deny;
  zeroclaw::value rp = detail::zeroclaw_risk_profile(in, o, allow, deny, losses);

  // ---- MCP servers ----
  zeroclaw::value servers = zeroclaw::value::make_array();
  std::vector<std::string> names;
  for (const auto& s : m.mcp_servers) {
    std::optional<zeroclaw::value> z =
        detail::zeroclaw_mcp_server(s.name, s.declaration, o, allow, deny, losses);
    if (!z) continue;
    names.push_back(s.name);
    servers.items.push_back(std::move(*z));
  }
  if (!allow.empty()) rp.set("allowed_tools", detail::zstrings(allow));
  if (!deny.empty()) rp.set("excluded_tools", detail::zstrings(deny));

  // ---- the install config of one agent, planned as an export ----
  zeroclaw::value cfg =
      detail::zeroclaw_config(res.agent, std::move(rp), std::move(servers), names, losses);
  zeroclaw::plan_options popts;
  popts.install_root = "/";
  zeroclaw::export_plan plan =
      zeroclaw::plan_export(toml_writer::write(cfg, false), res.agent, popts);

  detail::zeroclaw_drops(m, plan, losses);

  if (in.memory)
    losses.push_back({std::string(bundle::memory_entries_file), loss_kind::changed,
                      "MEMORY.md and memory/*.md travel as rows (one per line: headings and "
                      "paragraphs split per line); nested folders, DREAMS.md and sessions stay "
                      "home"});
  res.files = detail::bundle_files(std::move(plan), std::move(files), exported_at, in.memory);
  return res;
}

}  // namespace convert
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
