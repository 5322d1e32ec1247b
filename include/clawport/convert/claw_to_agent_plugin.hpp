// SPDX-License-Identifier: MIT
// The pure mapping of a read OpenClaw Claw package onto one Agent Plugins 1.0.0 plugin
// (docs/convert.md, "Claw to Agent Plugin"): the workspace's skills (`skills/<d>/…` among its
// declared files) and the MCP servers. Every `${VAR}` reference of a server's `env` is
// omitted (a plugin's value would be literal, and would overlay the client's environment) and
// its name listed in `plugin.json`'s `extensions["dev.clawport"].requiredSecrets`. Everything a
// plugin has no component for (the persona, bootstrap files, ClawHub packages, cron jobs, the
// profile) is a loss. Reads the typed manifest model, not its JSON.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../openclaw/schema.hpp"
#include "report.hpp"
#include "to_agent_plugin.hpp"
#include "to_zeroclaw.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace convert {

namespace detail {

/// One Claw server as an `mcpServers` value, or nothing when it has no portable form (a loss
/// says why). Refuses a credential shape in its command, args or url.
inline std::optional<json> claw_plugin_server(const std::string& name, const json& s,
                                              json& required, json& kept,
                                              std::vector<loss>& losses) {
  const std::string p = "$.mcpServers." + name;
  const auto str = [&](const char* k) {
    return s.contains(k) && s[k].is_string() ? s[k].get<std::string>() : std::string();
  };
  const std::vector<std::string> args = jstrings(s, "args");
  if (const auto c = credential_shape(str("command"))) throw credential_refused(p + ".command", *c);
  if (const auto c = credential_shape(str("url"))) throw credential_refused(p + ".url", *c);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string ap = p + ".args[" + std::to_string(i) + "]";
    if (const auto c = credential_shape(args[i])) throw credential_refused(ap, *c);
    if (i > 0 && secret_flag(args[i - 1]))
      throw credential_refused(ap, "the value of `" + args[i - 1] + "`");
  }
  json out = json::object();
  if (s.contains("command")) {
    std::string command = str("command");
    if (command.find('/') != std::string::npos && command.rfind("./", 0) != 0) {
      kept["command"] = command;
      command = command.substr(command.rfind('/') + 1);
      losses.push_back({p + ".command", loss_kind::changed,
                        "a host path has no portable form; the plugin runs `" + command +
                            "` from the client's PATH"});
    }
    if (command.empty() || command.find_first_of(" \t\\") != std::string::npos) {
      losses.push_back({p, loss_kind::dropped,
                        "its command is not one executable token (Agent Plugins runs no shell)"});
      return std::nullopt;
    }
    out["type"] = "stdio";
    out["command"] = command;
    if (!args.empty()) out["args"] = args;
    if (s.contains("env") && s["env"].is_object())
      for (auto e = s["env"].begin(); e != s["env"].end(); ++e) {
        required.push_back({{"server", name}, {"kind", "env"}, {"name", e.key()}});
        losses.push_back({p + ".env." + e.key(), loss_kind::dropped,
                          "an environment reference: omitted (a plugin never expands ${…}, and "
                          "a value would overlay the client's environment); named in plugin.json "
                          "extensions." +
                              std::string(agent_plugin_namespace) + ".requiredSecrets"});
      }
  } else {
    const std::string url = str("url");
    if (!portable_url(url)) {
      losses.push_back({p, loss_kind::dropped,
                        "its url is not https (or http to a loopback host); a client refuses it"});
      return std::nullopt;
    }
    out["type"] = str("transport") == "sse" ? "sse" : "streamable-http";
    out["url"] = url;
  }
  for (const char* k : {"auth", "toolFilter", "timeout", "connectTimeout"})
    if (s.contains(k)) {
      kept[k] = s[k];
      losses.push_back({p + "." + k, loss_kind::changed,
                        "no Agent Plugins slot (authentication and tool filters are the "
                        "client's): kept only in extensions." +
                            std::string(agent_plugin_namespace) + ".servers"});
    }
  return out;
}

/// Losses for what of the Claw a plugin has no component for.
inline void claw_plugin_losses(const claw_input& in, std::vector<loss>& losses) {
  const openclaw::claw_manifest& m = in.model;
  if (m.agent.name)
    losses.push_back({"$.agent.name", loss_kind::dropped, "a plugin has no display name in 1.0.0"});
  if (m.agent.identity)
    losses.push_back({"$.agent.identity", loss_kind::dropped, "a plugin has no agent or persona"});
  if (in.body)
    losses.push_back({"CLAW.md", loss_kind::dropped, "the prompt body: a plugin has no persona"});
  if (in.bootstrap)
    losses.push_back({"BOOTSTRAP.md", loss_kind::dropped, "a plugin has no workspace"});
  for (const auto& kv : m.metadata)
    losses.push_back({"$.metadata." + kv.first, loss_kind::dropped, "no Agent Plugins slot"});
  for (std::size_t i = 0; i < m.packages.size(); ++i)
    losses.push_back({"$.packages[" + std::to_string(i) + "]", loss_kind::dropped,
                      "a ClawHub " + m.packages[i].kind + " reference (" + m.packages[i].ref + "@" +
                          m.packages[i].version +
                          "): its content is not in the package, and a plugin has no "
                          "dependencies"});
  for (std::size_t i = 0; i < m.cron_jobs.size(); ++i)
    losses.push_back({"$.cronJobs[" + std::to_string(i) + "]", loss_kind::dropped,
                      "a plugin has no scheduled jobs"});
  if (in.profile)
    losses.push_back(
        {"$.profile", loss_kind::dropped, "a plugin has no tool policy, model or sandbox"});
  for (const auto& f : in.workspace)
    if (f.first.rfind("skills/", 0) != 0 || f.first.find('/', 7) == std::string::npos)
      losses.push_back({"workspace/" + f.first, loss_kind::dropped, "a plugin has no workspace"});
}

}  // namespace detail

/// The Claw as one Agent Plugin: target-relative path -> bytes, and the loss report. Refuses
/// (errc::config_invalid, naming the field) a credential shape in a server's command, args or
/// url.
inline mapped map_claw_to_agent_plugin(const claw_input& in) {
  using oj = nlohmann::ordered_json;
  const openclaw::claw_manifest& m = in.model;
  mapped res;
  res.agent = to_plugin_name(m.agent.id, "agent");
  if (res.agent != m.agent.id)
    res.losses.push_back({"$.agent.id", loss_kind::changed,
                          "the plugin is named `" + res.agent + "` (names are [a-z0-9-])"});
  oj required = oj::array();
  oj kept_all = oj::object();
  oj servers = oj::object();
  for (const auto& s : m.mcp_servers) {
    oj kept = oj::object();
    if (auto out =
            detail::claw_plugin_server(s.name, oj(s.declaration), required, kept, res.losses)) {
      servers[s.name] = std::move(*out);
      if (!kept.empty()) kept_all[s.name] = std::move(kept);
    }
  }
  // The workspace's skills, through the one skill mapping of the way out (names fitted,
  // frontmatter made Agent Skills, the original kept for the way back).
  bundle_input skills_in;
  skills_in.root_agent = m.agent.id;
  for (const auto& f : in.workspace)
    if (f.first.rfind("skills/", 0) == 0 && f.first.find('/', 7) != std::string::npos)
      skills_in.files["workspace/" + f.first] = f.second;
  oj origins = oj::object();
  detail::plugin_skills(skills_in, res, origins);
  detail::claw_plugin_losses(in, res.losses);
  detail::write_plugin_files(
      {res.agent,
       m.agent.description ? *m.agent.description
                           : "The skills and MCP servers of the Claw " + m.agent.id,
       oj{{"runtime", "openclaw"}, {"agent", m.agent.id}, {"package", in.package}},
       std::move(required), std::move(origins), std::move(kept_all), std::move(servers)},
      res.files);
  return res;
}

}  // namespace convert
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
