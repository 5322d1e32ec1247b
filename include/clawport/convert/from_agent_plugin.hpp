// SPDX-License-Identifier: MIT
// The pure mapping of a checked Agent Plugins 1.0.0 plugin onto a ZeroClaw agent bundle
// (docs/convert.md, "Agent Plugin to bundle"), and through that bundle onto a Claw package.
// What loads is carried: the skills as one skill bundle (or, for a plugin clawport wrote, back
// where they came from, the bundle's own SKILL.md bytes restored while the plugin's are
// unchanged), the MCP servers with every secret the plugin names (`requiredSecrets`) blank,
// so the import's to-do asks for it. The bundle is planned with the export's own planner, so
// it is closed, scrubbed and verifiable by construction. Nothing here touches a filesystem.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/time.hpp"
#include "../digest/list.hpp"
#include "../digest/sha256.hpp"
#include "../formats/toml_writer.hpp"
#include "../verify/agent_plugin.hpp"
#include "../zeroclaw/alias.hpp"
#include "../zeroclaw/api.hpp"
#include "../zeroclaw/parse.hpp"
#include "../zeroclaw/render.hpp"
#include "report.hpp"
#include "to_agent_plugin.hpp"
#include "to_claw.hpp"
#include "to_zeroclaw.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace convert {

/// A read plugin: its tree, what verify's rules found, and the audit's refusals
/// (`skills/<dir>` -> the blocking summary).
struct plugin_input {
  verify::plugin_tree tree;
  verify::plugin_report report;
  std::map<std::string, std::string> blocked_skills;
};

namespace detail {

using pj = nlohmann::ordered_json;

/// `extensions["dev.clawport"]` of plugin.json when it is an object, else an empty object.
inline pj plugin_extension(const plugin_input& in) {
  const pj m = pj::parse(in.tree.files.at("plugin.json"), nullptr, false);
  if (m.is_object() && m.contains("extensions") && m["extensions"].is_object() &&
      m["extensions"].contains(agent_plugin_namespace) &&
      m["extensions"][agent_plugin_namespace].is_object())
    return m["extensions"][agent_plugin_namespace];
  return pj::object();
}

inline pj object_at(const pj& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_object() ? j[key] : pj::object();
}

/// Whether `from` is a bundle skill directory clawport may place a skill at:
/// `skills/<alias>/<dir>` (a ZeroClaw alias) or `workspace/skills/<dir>`.
inline bool bundle_skill_place(const std::string& from) {
  const std::vector<std::string> parts = paths::components(from);
  if (parts.size() != 3 || from != paths::join(paths::join(parts[0], parts[1]), parts[2]))
    return false;
  const bool bundled = parts[0] == "skills" && !zeroclaw::alias_problem(parts[1]);
  const bool local = parts[0] == "workspace" && parts[1] == "skills";
  return (bundled || local) && parts[2] != "." && parts[2] != ".." &&
         parts[2].find_first_of("\\\n\r") == std::string::npos;
}

/// The plugin's loaded skills into the bundle's files; the skill-bundle aliases in order.
inline std::vector<std::string> bundle_skills_of(const plugin_input& in, const pj& ext,
                                                 const std::string& alias,
                                                 std::map<std::string, std::string>& files,
                                                 std::vector<loss>& losses) {
  const pj origins = object_at(ext, "skills");
  std::vector<std::string> aliases;
  std::set<std::string> placed;
  for (const std::string& d : in.report.skills) {
    const std::string src = "skills/" + d;
    if (const auto b = in.blocked_skills.find(src); b != in.blocked_skills.end()) {
      losses.push_back({src, loss_kind::dropped,
                        "the skill audit refused it (" + b->second + "); it is not carried"});
      continue;
    }
    const pj origin = origins.contains(d) ? origins[d] : pj::object();
    std::string to = paths::join(paths::join("skills", alias), d);
    if (origin.is_object() && origin.contains("from") && origin["from"].is_string() &&
        bundle_skill_place(origin["from"].get<std::string>()) &&
        !placed.count(origin["from"].get<std::string>()))
      to = origin["from"].get<std::string>();
    placed.insert(to);
    for (auto f = in.tree.files.lower_bound(src + "/");
         f != in.tree.files.end() && f->first.rfind(src + "/", 0) == 0; ++f)
      files[to + f->first.substr(src.size())] = f->second;
    const std::string md = in.tree.files.at(src + "/SKILL.md");
    const auto original =
        in.tree.files.find(std::string(agent_plugin_namespace) + "/skills/" + d + "/SKILL.md");
    if (original != in.tree.files.end() && origin.is_object() && origin.contains("sha256")) {
      if (origin["sha256"] == digest::sha256_hex(md))
        files[to + "/SKILL.md"] = original->second;  // the bundle's own bytes, restored
      else
        losses.push_back({src + "/SKILL.md", loss_kind::changed,
                          "edited since clawport wrote it: the plugin's SKILL.md is carried, "
                          "not the bundle's original kept under " +
                              std::string(agent_plugin_namespace) + "/"});
    }
    if (to.rfind("skills/", 0) == 0) {
      const std::string a = paths::components(to)[1];
      if (std::find(aliases.begin(), aliases.end(), a) == aliases.end()) aliases.push_back(a);
    }
  }
  return aliases;
}

/// `${PLUGIN_ROOT}` / `${PLUGIN_DATA}` in a value ZeroClaw will not expand.
inline void plugin_variables(const std::string& v, const std::string& path,
                             std::vector<loss>& losses) {
  if (v.find("${PLUGIN_ROOT}") != std::string::npos ||
      v.find("${PLUGIN_DATA}") != std::string::npos)
    losses.push_back({path, loss_kind::changed,
                      "ZeroClaw expands no ${PLUGIN_ROOT} or ${PLUGIN_DATA}: the text is passed "
                      "as written; give the host path on the target"});
}

/// One loaded server as a ZeroClaw `[[mcp.servers]]` entry: the secrets the plugin names
/// blank (required), what clawport kept for the way back restored.
inline zeroclaw::value bundle_server(const std::string& name, const pj& s, const pj& kept,
                                     const pj& required, std::vector<loss>& losses) {
  const std::string p = "mcp.json:mcpServers." + name;
  zeroclaw::value z = zeroclaw::value::make_table();
  const auto str = [](const pj& j, const char* k) {
    return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string();
  };
  z.set("name", zeroclaw::value::make_string(kept.contains("name") ? str(kept, "name") : name));
  const std::string type = str(s, "type");
  // A bundle carries command, args and url as written (only env and headers are secret in
  // ZeroClaw): a credential there is refused, as the way out refuses it.
  if (const auto c = credential_shape(str(s, "command")))
    throw credential_refused(p + ".command", *c);
  if (const auto c = credential_shape(str(s, "url"))) throw credential_refused(p + ".url", *c);
  const std::vector<std::string> all_args = jstrings(s, "args");
  for (std::size_t i = 0; i < all_args.size(); ++i) {
    const std::string ap = p + ".args[" + std::to_string(i) + "]";
    if (const auto c = credential_shape(all_args[i])) throw credential_refused(ap, *c);
    if (i > 0 && secret_flag(all_args[i - 1]))
      throw credential_refused(ap, "the value of `" + all_args[i - 1] + "`");
  }
  zeroclaw::value secrets = zeroclaw::value::make_table();
  const char* table = type == "stdio" ? "env" : "headers";
  if (type == "stdio") {
    std::string command = str(s, "command");
    const std::string host = str(kept, "command");
    if (!host.empty() && paths::file_name(host) == command) command = host;
    if (command.rfind("./", 0) == 0)
      losses.push_back({p + ".command", loss_kind::changed,
                        "a command inside the plugin: ZeroClaw runs it from the gateway's "
                        "directory, and the plugin's files outside skills/ are not carried"});
    z.set("command", zeroclaw::value::make_string(command));
    if (s.contains("args")) {
      std::vector<std::string> args = s["args"].get<std::vector<std::string>>();
      for (std::size_t i = 0; i < args.size(); ++i)
        plugin_variables(args[i], p + ".args[" + std::to_string(i) + "]", losses);
      z.set("args", zstrings(args));
    }
    if (s.contains("cwd"))
      losses.push_back({p + ".cwd", loss_kind::dropped,
                        "ZeroClaw starts a server in the gateway's directory; no cwd"});
  } else {
    z.set("transport", zeroclaw::value::make_string(type == "sse" ? "sse" : "http"));
    z.set("url", zeroclaw::value::make_string(str(s, "url")));
  }
  if (s.contains(table))
    for (auto e = s[table].begin(); e != s[table].end(); ++e) {
      secrets.set(e.key(), zeroclaw::value::make_string(e.value().get<std::string>()));
      losses.push_back({p + "." + table + "." + e.key(), loss_kind::changed,
                        std::string("ZeroClaw marks every ") + table +
                            " value secret: it travels blank, supply it on the target"});
    }
  for (const pj& r : required)
    if (r.is_object() && r.value("server", "") == name &&
        r.value("kind", "") == (type == "stdio" ? "env" : "header") && r.contains("name") &&
        r["name"].is_string() && !secrets.find(r["name"].get<std::string>()))
      // Any non-blank value: the planner scrubs it (the schema marks it secret) and lists
      // it in required_secrets, so the import's to-do asks for it.
      secrets.set(r["name"].get<std::string>(),
                  zeroclaw::value::make_string("supplied-on-the-target"));
  if (!secrets.members.empty()) z.set(table, std::move(secrets));
  if (kept.contains("tool_timeout_secs") && kept["tool_timeout_secs"].is_number_integer())
    z.set("tool_timeout_secs",
          zeroclaw::value::make_integer(kept["tool_timeout_secs"].get<std::int64_t>()));
  if (kept.contains("pinned_resources") && kept["pinned_resources"].is_array())
    z.set("pinned_resources", zstrings(jstrings(kept, "pinned_resources")));
  if (!str(kept, "tls_ca_cert_path").empty())
    z.set("tls_ca_cert_path", zeroclaw::value::make_string(str(kept, "tls_ca_cert_path")));
  return z;
}

/// The agent's alias: the one the plugin was made from (clawport's extension), else the
/// plugin's name fitted to ZeroClaw's grammar.
inline std::string bundle_alias_of(const plugin_input& in, const pj& ext,
                                   std::vector<loss>& losses) {
  const pj source = object_at(ext, "source");
  if (source.value("runtime", "") == "zeroclaw" && source.contains("agent") &&
      source["agent"].is_string() && !zeroclaw::alias_problem(source["agent"].get<std::string>()))
    return source["agent"].get<std::string>();
  const std::optional<std::string> alias = to_zeroclaw_alias(in.report.name);
  if (!alias)
    throw error(errc::invalid_argument,
                "the plugin name `" + in.report.name + "` has no ZeroClaw alias (only [a-z0-9_])",
                "plugin.json:name");
  if (*alias != in.report.name)
    losses.push_back(
        {"plugin.json:name", loss_kind::changed,
         "`" + in.report.name + "` is not a ZeroClaw alias; the agent is `" + *alias + "`"});
  return *alias;
}

}  // namespace detail

/// Maps a plugin to the files of a bundle (config.toml, zeroclaw-agent.toml,
/// zeroclaw-agent.sha256, skills/…, workspace/skills/…). Refuses a plugin that does not load
/// (errc::config_invalid, its first plugin-scope finding); whatever a client would skip
/// (one skill, one server, one component) is a loss and not carried.
inline mapped map_plugin_to_zeroclaw(const plugin_input& in, const timestamp& exported_at) {
  using pj = detail::pj;
  for (const verify::plugin_finding& f : in.report.findings)
    if (!f.warning && f.scope == verify::plugin_scope::plugin)
      throw error(errc::config_invalid,
                  "the plugin does not load (run `clawport verify` on it): " + f.path + ": " +
                      f.detail + "; nothing was written",
                  f.path);
  mapped res;
  for (const verify::plugin_finding& f : in.report.findings)
    if (!f.warning)
      res.losses.push_back({f.path, loss_kind::dropped, "a client skips it: " + f.detail});
  const pj ext = detail::plugin_extension(in);
  res.agent = detail::bundle_alias_of(in, ext, res.losses);
  std::map<std::string, std::string> files;
  const std::vector<std::string> skill_aliases =
      detail::bundle_skills_of(in, ext, res.agent, files, res.losses);

  zeroclaw::value servers = zeroclaw::value::make_array();
  std::vector<std::string> names;
  if (!in.report.servers.empty()) {
    const pj mcp = pj::parse(in.tree.files.at("mcp.json"));
    const pj kept = detail::object_at(ext, "servers");
    const pj required = ext.contains("requiredSecrets") && ext["requiredSecrets"].is_array()
                            ? ext["requiredSecrets"]
                            : pj::array();
    for (const std::string& n : in.report.servers) {
      zeroclaw::value z = detail::bundle_server(
          n, mcp["mcpServers"][n], detail::object_at(kept, n.c_str()), required, res.losses);
      names.push_back(z.find("name")->text);
      servers.items.push_back(std::move(z));
    }
  }
  zeroclaw::value cfg = zeroclaw::value::make_table();
  cfg.set("schema_version", zeroclaw::value::make_integer(3));
  zeroclaw::value agent = zeroclaw::value::make_table();
  agent.set("model_provider", zeroclaw::value::make_string(std::string(claw_model_provider)));
  // A ZeroClaw agent references a risk profile; a plugin has none, so the bundle carries
  // ZeroClaw's defaults (the import plan shows them).
  agent.set("risk_profile", zeroclaw::value::make_string(res.agent));
  if (!skill_aliases.empty()) agent.set("skill_bundles", detail::zstrings(skill_aliases));
  if (!names.empty()) agent.set("mcp_bundles", detail::zstrings({res.agent}));
  cfg.child_table("agents").set(res.agent, std::move(agent));
  cfg.child_table("risk_profiles").set(res.agent, zeroclaw::value::make_table());
  res.losses.push_back({"risk_profiles." + res.agent, loss_kind::changed,
                        "a plugin has no tool policy; the agent gets ZeroClaw's default risk "
                        "profile: review it on the target"});
  for (const std::string& a : skill_aliases)
    cfg.child_table("skill_bundles").set(a, zeroclaw::value::make_table());
  if (!names.empty()) {
    zeroclaw::value b = zeroclaw::value::make_table();
    b.set("servers", detail::zstrings(names));
    cfg.child_table("mcp_bundles").set(res.agent, std::move(b));
    cfg.child_table("mcp").set("servers", std::move(servers));
  }
  detail::model_provider_to_supply(cfg, "a plugin", res.losses);
  zeroclaw::plan_options popts;
  popts.install_root = "/";
  zeroclaw::export_plan plan =
      zeroclaw::plan_export(toml_writer::write(cfg, false), res.agent, popts);
  res.files = detail::bundle_files(std::move(plan), std::move(files), exported_at);
  return res;
}

/// Maps a plugin to a Claw package: first to a bundle (map_plugin_to_zeroclaw), then that
/// bundle as any other (map_to_claw); the losses of both steps, in order.
inline mapped map_plugin_to_claw(const plugin_input& in, const map_options& o,
                                 const timestamp& at) {
  mapped b = map_plugin_to_zeroclaw(in, at);
  bundle_input bi;
  bi.root_agent = b.agent;
  bi.closure = zeroclaw::parse_toml(b.files.at(std::string(bundle::config_file)), "config.toml");
  bi.manifest = zeroclaw::parse_toml(b.files.at(std::string(bundle::manifest_file)),
                                     std::string(bundle::manifest_file));
  for (const auto& f : b.files)
    if (f.first.rfind("skills/", 0) == 0 || f.first.rfind("workspace/", 0) == 0) bi.files.insert(f);
  // The risk profile is the bundle step's own default, not the user's setting: narrowing it
  // narrows nothing the plugin said, so it needs no consent and is reported as one change.
  map_options claw_o = o;
  claw_o.allow_narrowing = true;
  mapped c = map_to_claw(bi, claw_o);
  const std::string own = "risk_profiles." + b.agent;
  // What the bundle step made up (its risk profile, its provider, its planner's drops of
  // settings no plugin has) is not the plugin's loss.
  const auto made_up = [&](const loss& l) {
    return l.path == own || l.path.rfind(own + ".", 0) == 0 || l.path.rfind("providers.", 0) == 0 ||
           l.path == "agents." + b.agent + ".model_provider" ||
           l.path == "agents." + b.agent + ".delegate_same_risk_profile" ||
           l.detail.rfind("dropped by the export", 0) == 0;
  };
  b.losses.erase(std::remove_if(b.losses.begin(), b.losses.end(), made_up), b.losses.end());
  for (loss& l : c.losses)
    if (!made_up(l)) b.losses.push_back(std::move(l));
  b.losses.push_back({"plugin.json", loss_kind::changed,
                      "a plugin has no tool policy; the Claw's profile is the strictest the "
                      "mapping makes (exec denied, the workspace only): widen it on the target"});
  c.losses = std::move(b.losses);
  return c;
}

}  // namespace convert
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
