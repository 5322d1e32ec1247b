// SPDX-License-Identifier: MIT
// The pure mapping of a verified ZeroClaw agent bundle onto one Agent Plugins 1.0.0 plugin
// (docs/convert.md, "Bundle to Agent Plugin"): `plugin.json`, `skills/<name>/SKILL.md` (with
// the skill's files) and `mcp.json`, and a loss entry for everything with no portable slot.
// Secrets never travel: `env` and `headers` values are omitted (a configured value, even a
// blank or a placeholder, would overlay the client's environment), their names listed in
// `plugin.json`'s `extensions` under the project's own namespace. Text and data in, files out.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/utf8.hpp"
#include "../digest/sha256.hpp"
#include "../formats/json.hpp"
#include "../formats/yaml_writer.hpp"
#include "../skills/frontmatter.hpp"
#include "../skills/manifest.hpp"
#include "../verify/agent_plugin.hpp"
#include "report.hpp"
#include "to_claw.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace convert {

/// The exact 1.0.0 identifiers: OpenClaw recognises an Agent Plugin by these alone.
inline constexpr const char* agent_plugin_schema = verify::plugin_schema_id;
inline constexpr const char* agent_plugin_mcp_schema = verify::plugin_mcp_schema_id;
/// The project's own extension namespace (never `ai.openclaw`, which OpenClaw owns); also the
/// name of the plugin's extension directory, where the bytes a plugin needs rewritten are kept
/// for the way back.
inline constexpr const char* agent_plugin_namespace = "dev.clawport";

/// `s` fitted to `[a-z0-9-]`, 1-64 characters, no leading, trailing or doubled `-` (a valid
/// plugin name and a valid Agent Skills name); `fallback` when nothing is left.
inline std::string to_plugin_name(const std::string& s, const std::string& fallback) {
  std::string out;
  for (const char c : s) {
    const char l = text::ascii_lower(c);
    const bool ok = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9');
    if (ok)
      out += l;
    else if (!out.empty() && out.back() != '-')
      out += '-';
    if (out.size() >= 64) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? fallback : out;
}

/// Whether `s` is a valid Agent Skills name (which is also a valid plugin name).
inline bool is_agent_skill_name(const std::string& s) { return verify::is_skill_name(s); }

/// What in `s` has the shape of a credential (never the value itself), or nothing. The
/// shapes are those a person pastes into a command line or a URL: provider token prefixes,
/// an `Authorization` value, a password in a URL, a secret-named flag or query parameter,
/// and ZeroClaw's ciphertext or a secret-manager reference.
inline std::optional<std::string> credential_shape(const std::string& s) {
  static const char* const prefixes[] = {"ghp_", "gho_",     "ghu_",  "ghs_",  "github_pat_",
                                         "sk-",  "sk_live_", "xoxb-", "xoxp-", "glpat-",
                                         "AKIA", "AIza",     "enc:",  "enc2:", "op://"};
  const auto word_start = [&](std::size_t i) {
    return i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) != 0);
  };
  for (const char* p : prefixes)
    for (std::size_t i = s.find(p); i != std::string::npos; i = s.find(p, i + 1))
      if (word_start(i) && s.size() - i > std::string(p).size() + 7)
        return std::string("a token starting `") + p + "`";
  const std::string low = text::to_lower_ascii(s);
  if (low.find("bearer ") != std::string::npos || low.find("basic ") == 0)
    return std::string("an Authorization value");
  if (const std::size_t scheme = low.find("://"); scheme != std::string::npos) {
    const std::size_t end = low.find_first_of("/?#", scheme + 3);
    const std::string authority = low.substr(scheme + 3, end - (scheme + 3));
    if (authority.find('@') != std::string::npos) return std::string("a user or password in a URL");
  }
  static const char* const names[] = {"token",  "secret",  "password", "passwd",
                                      "apikey", "api_key", "api-key",  "access_key"};
  for (const char* n : names)
    for (std::size_t i = low.find(n); i != std::string::npos; i = low.find(n, i + 1)) {
      const std::size_t after = i + std::string(n).size();
      // A value given in the same word: `--token=…`, `?api_key=…`, `password:…`.
      if (after < low.size() && (low[after] == '=' || low[after] == ':') && after + 1 < low.size())
        return "a value for `" + std::string(n) + "`";
    }
  return std::nullopt;
}

/// Whether `flag` names a secret whose value is the next argument (`--token abc`).
inline bool secret_flag(const std::string& flag) {
  if (flag.rfind('-', 0) != 0 || flag.find('=') != std::string::npos) return false;
  const std::string low = text::to_lower_ascii(flag);
  for (const char* n : {"token", "secret", "password", "passwd", "apikey", "api-key", "api_key"})
    if (low.find(n) != std::string::npos) return true;
  return false;
}

namespace detail {

/// The first `max` code points of `s` (bytes that are not UTF-8 count one each).
inline std::string first_code_points(const std::string& s, std::size_t max, std::size_t* count) {
  std::size_t n = 0;
  std::size_t i = 0;
  std::size_t cut = s.size();
  while (i < s.size()) {
    if (n == max && cut == s.size()) cut = i;
    const utf8::decoded d = utf8::decode_at(s, i);
    i += d.length == 0 ? 1 : d.length;
    ++n;
  }
  if (count != nullptr) *count = n;
  return s.substr(0, cut);
}
inline std::size_t code_points(const std::string& s) { return verify::plugin_code_points(s); }

inline error credential_refused(const std::string& path, const std::string& shape) {
  return error(errc::config_invalid,
               path + " holds what looks like a credential (" + shape +
                   "); it would travel as written (only env and headers values are kept "
                   "back): move it into the server's env or headers and convert again; "
                   "nothing was written",
               path);
}

/// Refuses a server whose command, args or url carry a credential shape.
inline void scan_server(const zeroclaw::value& s, const std::string& p) {
  if (const auto c = credential_shape(str_at(&s, "command")))
    throw credential_refused(p + ".command", *c);
  const std::vector<std::string> args = strings_at(&s, "args");
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string ap = p + ".args[" + std::to_string(i) + "]";
    if (const auto c = credential_shape(args[i])) throw credential_refused(ap, *c);
    if (i > 0 && secret_flag(args[i - 1]))
      throw credential_refused(ap, "the value of `" + args[i - 1] + "`");
  }
  if (const auto c = credential_shape(str_at(&s, "url"))) throw credential_refused(p + ".url", *c);
}

/// Whether `url` is one a client accepts: https, or http to a loopback host.
inline bool portable_url(const std::string& url) {
  const std::string low = text::to_lower_ascii(url);
  if (low.rfind("https://", 0) == 0) return low.find('#') == std::string::npos;
  if (low.rfind("http://", 0) != 0 || low.find('#') != std::string::npos) return false;
  const std::string host = low.substr(7, low.find_first_of("/?", 7) - 7);
  for (const char* h : {"localhost", "127.0.0.1", "[::1]"})
    if (host == h || host.rfind(std::string(h) + ":", 0) == 0) return true;
  return false;
}

/// A scalar or array of scalars of the config as JSON (what a server keeps for the way back).
inline json to_plain_json(const zeroclaw::value& v) {
  switch (v.type) {
    case zeroclaw::value::kind::integer:
      return v.integer;
    case zeroclaw::value::kind::floating:
      return v.floating;
    case zeroclaw::value::kind::boolean:
      return v.boolean;
    case zeroclaw::value::kind::array: {
      json a = json::array();
      for (const zeroclaw::value& i : v.items) a.push_back(to_plain_json(i));
      return a;
    }
    default:
      return v.text;
  }
}

/// The names of a secret table (`env`, `headers`): recorded as required, the values omitted.
inline void omit_secrets(const zeroclaw::value& s, const std::string& key, const char* kind,
                         const std::string& server, const std::string& p, json& required,
                         std::vector<loss>& losses) {
  const zeroclaw::value* t = at(&s, key);
  if (t == nullptr) return;
  for (const zeroclaw::member& m : t->members) {
    required.push_back({{"server", server}, {"kind", kind}, {"name", m.key}});
    losses.push_back({p + "." + key + "." + m.key, loss_kind::dropped,
                      "secret: omitted (a blank or placeholder would overlay the client's "
                      "environment); named in plugin.json extensions." +
                          std::string(agent_plugin_namespace) +
                          ".requiredSecrets for the client to supply"});
  }
}

/// One `[[mcp.servers]]` entry as an `mcpServers` value, or nothing when it has no portable
/// form (a loss says why).
inline std::optional<json> plugin_server(const zeroclaw::value& s, const std::string& name,
                                         const std::string& p, json& required, json& kept,
                                         std::vector<loss>& losses) {
  scan_server(s, p);
  const std::string transport = str_at(&s, "transport", "stdio");
  json out = json::object();
  if (transport == "stdio") {
    std::string command = str_at(&s, "command");
    if (command.find('/') != std::string::npos && command.rfind("./", 0) != 0) {
      const std::string base = command.substr(command.rfind('/') + 1);
      losses.push_back({p + ".command", loss_kind::changed,
                        "a host path has no portable form; the plugin runs `" + base +
                            "` from the client's PATH (the path is kept in extensions." +
                            std::string(agent_plugin_namespace) + ".servers for the way back)"});
      kept["command"] = command;
      command = base;
    }
    if (command.empty() || command.find_first_of(" \t\\") != std::string::npos) {
      losses.push_back({p, loss_kind::dropped,
                        "its command is not one executable token (Agent Plugins runs no shell)"});
      return std::nullopt;
    }
    out["type"] = "stdio";
    out["command"] = command;
    const std::vector<std::string> args = strings_at(&s, "args");
    if (!args.empty()) out["args"] = args;
    losses.push_back({p + ".cwd", loss_kind::changed,
                      "the server starts in the plugin's root, not the gateway's directory"});
    omit_secrets(s, "env", "env", name, p, required, losses);
  } else {
    const std::string url = str_at(&s, "url");
    if (!portable_url(url)) {
      losses.push_back({p, loss_kind::dropped,
                        "its url is not https (or http to a loopback host) or has a fragment; a "
                        "client refuses it"});
      return std::nullopt;
    }
    out["type"] = transport == "sse" ? "sse" : "streamable-http";
    out["url"] = url;
    omit_secrets(s, "headers", "header", name, p, required, losses);
  }
  for (const char* k : {"tool_timeout_secs", "pinned_resources", "tls_ca_cert_path"})
    if (const zeroclaw::value* v = at(&s, k)) {
      kept[k] = to_plain_json(*v);
      losses.push_back({p + "." + k, loss_kind::changed,
                        "no Agent Plugins slot: kept only in extensions." +
                            std::string(agent_plugin_namespace) +
                            ".servers, which no other client reads"});
    }
  return out;
}

/// `mcp.json`'s `mcpServers` from the bundle's (granted) servers.
inline json plugin_servers(const bundle_input& in, json& required, json& kept_all,
                           std::vector<loss>& losses) {
  json servers = json::object();
  const zeroclaw::value* list = at(at(&in.closure, "mcp"), "servers");
  if (list == nullptr) return servers;
  for (const zeroclaw::value& s : list->items) {
    const std::string zname = str_at(&s, "name");
    const std::string p = "mcp.servers." + zname;
    std::string name;  // bytes outside [A-Za-z0-9_.-] as one `-` per run
    bool replaced = false;
    for (const char c : zname) {
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-' || c == '.';
      if (ok || !replaced) name += ok ? c : '-';
      replaced = !ok;
    }
    if (name.empty()) name = "server";
    if (name != zname)
      losses.push_back({p + ".name", loss_kind::changed, "the server is named `" + name + "`"});
    if (servers.contains(name))
      throw error(errc::config_invalid,
                  "two MCP servers map to the name `" + name + "`; rename one and export again", p);
    json kept = json::object();
    if (name != zname) kept["name"] = zname;
    if (auto out = plugin_server(s, name, p, required, kept, losses)) {
      servers[name] = std::move(*out);
      if (!kept.empty()) kept_all[name] = std::move(kept);
    }
  }
  return servers;
}

/// The skill in the bundle directory `dir` as the loader reads it, and its body.
inline skills::skill read_skill(const bundle_input& in, const std::string& dir,
                                std::optional<skills::loader_frontmatter>& fm) {
  const std::string leaf = dir.substr(dir.rfind('/') + 1);
  try {
    for (const auto kind :
         {skills::manifest_kind::skill_toml, skills::manifest_kind::manifest_toml})
      if (const auto it = in.files.find(paths::join(dir, skills::manifest_file(kind)));
          it != in.files.end())
        return skills::parse_skill_toml(it->second, it->first);
  } catch (const error&) {
  }
  const auto it = in.files.find(dir + "/SKILL.md");
  const std::string text = it == in.files.end() ? std::string() : it->second;
  const skills::frontmatter_split split = skills::split_frontmatter(text);
  if (split.found) fm = skills::parse_loader_frontmatter(split.frontmatter);
  return skills::skill_from_markdown(text, leaf);
}

/// The SKILL.md a plugin carries for the bundle skill `dir` under the name `name`: its own
/// bytes when they are already Agent Skills (only its keys, `name` = directory, a
/// description), else one written from what the loader reads (ZeroClaw's own keys into
/// `metadata` as strings), with a loss saying what changed.
inline std::string plugin_skill_md(const bundle_input& in, const std::string& dir,
                                   const std::string& name, std::vector<loss>& losses) {
  std::optional<skills::loader_frontmatter> fm;
  const skills::skill sk = read_skill(in, dir, fm);
  const auto md = in.files.find(dir + "/SKILL.md");
  const bool toml = !fm;
  std::vector<std::string> foreign;
  if (md != in.files.end() && fm) {
    const skills::frontmatter_split split = skills::split_frontmatter(md->second);
    for (const std::string& k : verify::frontmatter_keys(split.frontmatter)) {
      bool known = false;
      for (const char* a : verify::agent_skill_keys) known = known || k == a;
      if (!known) foreign.push_back(k);
    }
    const bool described =
        fm->description && !fm->description->empty() && code_points(*fm->description) <= 1024;
    if (foreign.empty() && fm->name == name && described) return md->second;
  }
  std::string description = sk.description;
  if (code_points(description) > 1024) {
    description = first_code_points(description, 1024, nullptr);
    losses.push_back({dir + "/SKILL.md", loss_kind::changed,
                      "its description is cut to the 1024 characters Agent Skills allows"});
  }
  json front = json::object();
  front["name"] = name;
  front["description"] = description;
  json meta = json::object();
  if (sk.version != "0.1.0" || (fm && fm->version)) meta["version"] = sk.version;
  if (sk.author) meta["author"] = *sk.author;
  if (!sk.tags.empty()) meta["tags"] = joined(sk.tags);
  if (sk.always) meta["always"] = "true";
  if (!meta.empty()) front["metadata"] = std::move(meta);
  std::string body;
  for (const std::string& p : sk.prompts) body += (body.empty() ? "" : "\n\n") + p;
  std::string why = toml ? "SKILL.md is written from the skill's TOML manifest (kept beside it)"
                         : "SKILL.md's frontmatter is rewritten as Agent Skills";
  if (!foreign.empty())
    why += "; ZeroClaw's keys (" + joined(foreign) +
           ") are strings under metadata or not carried, with no meaning to other clients";
  if (!sk.slash_options.empty() || !sk.tools.empty())
    why += "; its slash options and [[tools]] have no Agent Skills counterpart";
  losses.push_back({dir + "/SKILL.md", loss_kind::changed, why});
  return "---\n" + yaml::to_yaml(front) + "---\n" + body;
}

/// The plugin's skills: the workspace's own (`workspace/skills/<dir>`) first, then the skill
/// bundles' in the agent's order (ZeroClaw's "first source wins"), each at
/// `skills/<fitted name>/`; a later skill of a name already taken is not carried.
inline void plugin_skills(const bundle_input& in, mapped& m, json& origins) {
  std::vector<std::string> dirs;
  for (const auto& f : in.files) {
    if (f.first.rfind("workspace/skills/", 0) != 0) continue;
    const std::size_t slash = f.first.find('/', 17);
    if (slash == std::string::npos) continue;
    const std::string dir = f.first.substr(0, slash);
    if (dirs.empty() || dirs.back() != dir) dirs.push_back(dir);
  }
  for (const std::string& d : bundle_skill_dirs(in)) dirs.push_back(d);
  std::map<std::string, std::string> taken;  // plugin skill name -> bundle dir
  for (const std::string& dir : dirs) {
    if (in.blocked_skills.count(dir)) {
      m.losses.push_back(
          {dir, loss_kind::dropped,
           "the skill audit refused it (" + in.blocked_skills.at(dir) + "); it is not carried"});
      continue;
    }
    std::optional<skills::loader_frontmatter> fm;
    const std::string logical = read_skill(in, dir, fm).name;
    const std::string name = to_plugin_name(logical, "skill");
    if (const auto it = taken.find(name); it != taken.end()) {
      m.losses.push_back({dir, loss_kind::dropped,
                          "its name fits Agent Skills as `" + name + "`, the skill from " +
                              it->second + " which comes first; it is not carried"});
      continue;
    }
    taken.emplace(name, dir);
    const std::string leaf = dir.substr(dir.rfind('/') + 1);
    if (name != logical || name != leaf)
      m.losses.push_back({dir, loss_kind::changed,
                          "the skill `" + logical + "` (directory " + leaf + ") is skills/" + name +
                              "/: Agent Skills names are [a-z0-9-] and equal their "
                              "directory"});
    for (const auto& f : in.files)
      if (f.first.rfind(dir + "/", 0) == 0)
        m.files[paths::join(paths::join("skills", name), f.first.substr(dir.size() + 1))] =
            f.second;
    const std::string md = plugin_skill_md(in, dir, name, m.losses);
    json origin = {{"from", dir}};
    const auto original = in.files.find(dir + "/SKILL.md");
    if (original != in.files.end() && original->second != md) {
      // The bundle's own SKILL.md, for the way back while the plugin's is unchanged.
      m.files[std::string(agent_plugin_namespace) + "/skills/" + name + "/SKILL.md"] =
          original->second;
      origin["sha256"] = digest::sha256_hex(md);
    }
    origins[name] = std::move(origin);
    m.files["skills/" + name + "/SKILL.md"] = md;
  }
}

/// Losses for what a plugin has no component for: the agent's settings, the workspace's
/// files, every other table of the closure, and what the export itself dropped.
inline void plugin_losses(const bundle_input& in, std::vector<loss>& losses) {
  const std::string a = "agents." + in.root_agent;
  if (const zeroclaw::value* agent = at(at(&in.closure, "agents"), in.root_agent))
    for (const zeroclaw::member& mb : agent->members) {
      const bool grant = mb.key == "mcp_bundles" || mb.key == "skill_bundles";
      losses.push_back({a + "." + mb.key, grant ? loss_kind::changed : loss_kind::dropped,
                        grant ? "the grants are flattened: the plugin holds every granted skill "
                                "and server, bound to no agent"
                              : "a plugin has no agent, identity, provider or tool policy"});
    }
  for (const zeroclaw::member& top : in.closure.members) {
    if (top.key == "schema_version" || top.key == "agents") continue;
    for (const zeroclaw::member& mb : top.val.members) {
      if (top.key == "mcp" && mb.key == "servers") continue;
      const bool bundles = top.key == "skill_bundles" || top.key == "mcp_bundles";
      losses.push_back({top.key + "." + mb.key, bundles ? loss_kind::changed : loss_kind::dropped,
                        bundles ? "applied at conversion: the plugin holds what it admitted"
                                : "no Agent Plugins component"});
    }
  }
  for (const auto& f : in.files)
    if (f.first.rfind("workspace/", 0) == 0 && f.first.rfind("workspace/skills/", 0) != 0)
      losses.push_back({f.first, loss_kind::dropped, "a plugin has no workspace component"});
  if (const zeroclaw::value* dropped = at(&in.manifest, "dropped"))
    for (const zeroclaw::value& d : dropped->items)
      losses.push_back({str_at(&d, "path"), loss_kind::dropped,
                        "dropped by the export: " + str_at(&d, "reason")});
}

/// What a plugin's two files hold, gathered by either way into a plugin (from a ZeroClaw
/// bundle, from a Claw).
struct plugin_parts {
  std::string name, description;
  nlohmann::ordered_json source, required, skills, servers_kept, mcp_servers;
};

/// plugin.json (our extension: the source, required secrets, skill origins, the servers'
/// kept fields) and, when there are servers, mcp.json: the one layout both ways write.
inline void write_plugin_files(plugin_parts parts, std::map<std::string, std::string>& files) {
  using oj = nlohmann::ordered_json;
  oj plugin = oj::object();
  plugin["$schema"] = agent_plugin_schema;
  plugin["name"] = parts.name;
  plugin["description"] = parts.description;
  oj ext = oj::object();
  ext["source"] = std::move(parts.source);
  ext["requiredSecrets"] = std::move(parts.required);
  ext["skills"] = std::move(parts.skills);
  ext["servers"] = std::move(parts.servers_kept);
  plugin["extensions"] = {{agent_plugin_namespace, std::move(ext)}};
  files["plugin.json"] = clawport::json::dump(plugin, 2) + "\n";
  if (!parts.mcp_servers.empty()) {
    oj mcp = oj::object();
    mcp["$schema"] = agent_plugin_mcp_schema;
    mcp["mcpServers"] = std::move(parts.mcp_servers);
    files["mcp.json"] = clawport::json::dump(mcp, 2) + "\n";
  }
}

}  // namespace detail

/// The bundle as one Agent Plugin: target-relative path -> bytes, and the loss report.
/// Refuses (errc::config_invalid, naming the field) a credential shape in a server's
/// command, args or url, and two servers of one name.
inline mapped map_to_agent_plugin(const bundle_input& in) {
  mapped m;
  m.agent = to_plugin_name(in.root_agent, "agent");
  if (m.agent != in.root_agent)
    m.losses.push_back({"agents." + in.root_agent, loss_kind::changed,
                        "the plugin is named `" + m.agent + "` (names are [a-z0-9-])"});
  using oj = nlohmann::ordered_json;
  oj required = oj::array();
  oj kept = oj::object();
  oj origins = oj::object();
  const oj servers = detail::plugin_servers(in, required, kept, m.losses);
  detail::plugin_skills(in, m, origins);
  detail::plugin_losses(in, m.losses);
  detail::write_plugin_files(
      {m.agent, "The skills and MCP servers of the ZeroClaw agent " + in.root_agent,
       oj{{"runtime", "zeroclaw"}, {"agent", in.root_agent}}, std::move(required),
       std::move(origins), std::move(kept), servers},
      m.files);
  return m;
}

/// Checks a plugin's files (path -> bytes) with verify's Agent Plugins 1.0.0 rules
/// (verify::check_plugin: every error, at any scope, refuses) and what a converter adds: a
/// name of `[a-z0-9-]` only (OpenClaw folds `.`), no other format's manifest. Throws
/// errc::config_invalid naming the file.
inline void check_agent_plugin(const std::map<std::string, std::string>& files) {
  verify::plugin_tree t;
  for (const auto& f : files) {
    t.files.insert(f);
    const std::vector<std::string> parts = paths::components(f.first);
    std::string dir;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i)
      t.dirs.insert(dir += (dir.empty() ? "" : "/") + parts[i]);
  }
  const verify::plugin_report r = verify::check_plugin(t);
  for (const verify::plugin_finding& f : r.findings)
    if (!f.warning || f.scope == verify::plugin_scope::plugin)
      throw error(errc::config_invalid, "the plugin's " + f.path + " " + f.detail, f.path);
  if (!is_agent_skill_name(r.name))
    throw error(errc::config_invalid, "the plugin's plugin.json name is not [a-z0-9-]",
                "plugin.json");
}

}  // namespace convert
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
