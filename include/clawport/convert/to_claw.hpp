// SPDX-License-Identifier: MIT
// The pure mapping of a verified ZeroClaw agent bundle onto an OpenClaw Claw package
// (docs/convert.md, "Bundle to Claw"): the agent, the workspace, the skills, the MCP servers
// and the risk profile, and a loss entry for everything else. Text and data in, files out;
// nothing here touches a filesystem. The manifest and profile are checked with OpenClaw's own
// validators before they are returned.
#pragma once

#include "../bundle/private_data.hpp"
#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/text.hpp"
#include "../formats/json.hpp"
#include "../formats/yaml_writer.hpp"
#include "../openclaw/grammar.hpp"
#include "../openclaw/limits.hpp"
#include "../openclaw/schema.hpp"
#include "../skills/manifest.hpp"
#include "../zeroclaw/document.hpp"
#include "report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace convert {

/// A verified bundle, read: its parsed closure and manifest and the bytes of every file under
/// `workspace/` and `skills/` (bundle-relative paths).
struct bundle_input {
  std::string root_agent;
  zeroclaw::value closure = zeroclaw::value::make_table();
  zeroclaw::value manifest = zeroclaw::value::make_table();
  std::map<std::string, std::string> files;
  /// `skills/<alias>/<skill>` -> the audit's blocking summary, for skills the audit refused.
  std::map<std::string, std::string> blocked_skills;
};

/// How the mapping may decide.
struct map_options {
  /// Accept a target setting stricter than the source where none is exactly as strict.
  bool allow_narrowing = false;
  openclaw::limits limits;
  /// The target runtime as a refusal names it.
  std::string target = "OpenClaw";
};

/// A mapped package: target-relative path -> bytes, and the loss report.
struct mapped {
  std::string agent;
  std::map<std::string, std::string> files;
  std::vector<loss> losses;
};

/// The five names `workspace.bootstrapFiles` accepts, in OpenClaw's plan order.
inline constexpr const char* claw_bootstrap_names[] = {"AGENTS.md", "SOUL.md", "IDENTITY.md",
                                                       "TOOLS.md", "HEARTBEAT.md"};

/// The tool names that differ between the runtimes (ZeroClaw <-> OpenClaw); every other name
/// (MCP tools `server__tool` included) is the same on both.
struct tool_name_pair {
  const char* zeroclaw;
  const char* openclaw;
};
inline constexpr tool_name_pair tool_names[] = {
    {"shell", "exec"}, {"file_read", "read"}, {"file_write", "write"}, {"file_edit", "edit"}};

inline std::string openclaw_tool(const std::string& z) {
  for (const tool_name_pair& p : tool_names)
    if (z == p.zeroclaw) return p.openclaw;
  return z;
}
inline std::string zeroclaw_tool(const std::string& o) {
  for (const tool_name_pair& p : tool_names)
    if (o == p.openclaw) return p.zeroclaw;
  return o;
}

/// `alias` made valid for OpenClaw's id grammar `^[a-z][a-z0-9_-]{0,63}$`: ASCII lowered,
/// any other character `-`, a leading non-letter prefixed with `a-`, cut at 64.
inline std::string to_agent_id(const std::string& alias) {
  std::string id;
  for (const char c : alias) {
    const char l = text::ascii_lower(c);
    const bool ok = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') || l == '_' || l == '-';
    id += ok ? l : '-';
  }
  if (id.empty() || !(id[0] >= 'a' && id[0] <= 'z')) id = "a-" + id;
  if (id.size() > 64) id.resize(64);
  return id;
}

/// An environment reference name for `key` (`${NAME}`): upper-cased, other characters `_`.
inline std::string env_reference_name(const std::string& key) {
  std::string n;
  for (const char c : key) {
    const char u = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c;
    n += ((u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_') ? u : '_';
  }
  if (n.empty() || (n[0] >= '0' && n[0] <= '9')) n = "_" + n;
  return n;
}

namespace detail {

using json = nlohmann::ordered_json;

inline const zeroclaw::value* at(const zeroclaw::value* v, const std::string& key) {
  return (v != nullptr && v->is_table()) ? v->find(key) : nullptr;
}
inline std::string str_at(const zeroclaw::value* v, const std::string& key,
                          const std::string& fallback = "") {
  const zeroclaw::value* s = at(v, key);
  return (s != nullptr && s->is_string()) ? s->text : fallback;
}
inline std::optional<bool> bool_at(const zeroclaw::value* v, const std::string& key) {
  const zeroclaw::value* b = at(v, key);
  if (b == nullptr || !b->is_boolean()) return std::nullopt;
  return b->boolean;
}
inline std::vector<std::string> strings_at(const zeroclaw::value* v, const std::string& key) {
  std::vector<std::string> out;
  const zeroclaw::value* a = at(v, key);
  if (a == nullptr || !a->is_array()) return out;
  for (const zeroclaw::value& i : a->items)
    if (i.is_string()) out.push_back(i.text);
  return out;
}
inline std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

inline std::string diagnostics_text(const std::vector<openclaw::diagnostic>& ds) {
  std::string s;
  for (const openclaw::diagnostic& d : ds)
    if (d.level == openclaw::level::error) s += (s.empty() ? "" : "; ") + d.path + ": " + d.message;
  return s;
}

/// Loss entries for the agent-entry keys and top-level tables the mapping does not consume.
inline void closure_losses(const bundle_input& in, std::vector<loss>& losses) {
  const std::string a = "agents." + in.root_agent;
  const zeroclaw::value* agent = at(at(&in.closure, "agents"), in.root_agent);
  static const std::set<std::string> agent_mapped = {"risk_profile", "skill_bundles", "mcp_bundles",
                                                     "identity", "workspace"};
  if (agent != nullptr && agent->is_table()) {
    for (const zeroclaw::member& m : agent->members) {
      if (agent_mapped.count(m.key)) continue;
      // `false` means no auto-delegation: nothing a Claw would have to express.
      if (m.key == "delegate_same_risk_profile" && m.val.is_boolean() && !m.val.boolean) continue;
      const std::string p = a + "." + m.key;
      std::string why = "no counterpart in a Claw package";
      if (m.key.find("provider") != std::string::npos)
        why =
            "model, TTS and transcription providers are host configuration in OpenClaw; a Claw "
            "carries no provider or credential, so configure one on the target";
      else if (m.key == "runtime_profile")
        why = "runtime profile knobs (iterations, budgets, compression) have no Claw counterpart";
      else if (m.key == "knowledge_bundles")
        why = "knowledge bundles have no Claw counterpart";
      else if (m.key == "delegate_same_risk_profile" || m.key == "delegates")
        why = "delegation has no Claw counterpart";
      else if (m.key == "memory")
        why = "the memory backend is host configuration in OpenClaw";
      losses.push_back({p, loss_kind::dropped, why});
    }
    if (const zeroclaw::value* ws = at(agent, "workspace")) {
      for (const zeroclaw::member& m : ws->members)
        if (m.key != "unrestricted_filesystem")
          losses.push_back(
              {a + ".workspace." + m.key, loss_kind::dropped, "no counterpart in a Claw package"});
    }
  }
  for (const zeroclaw::member& top : in.closure.members) {
    const std::string& k = top.key;
    if (k == "schema_version" || k == "agents" || k == "risk_profiles" || k == "skill_bundles" ||
        k == "mcp_bundles")
      continue;
    if (k == "mcp") {
      for (const zeroclaw::member& m : top.val.members)
        if (m.key != "servers")
          losses.push_back({"mcp." + m.key, loss_kind::dropped,
                            "install-wide MCP settings have no Claw counterpart"});
      continue;
    }
    if (k == "providers") {
      for (const zeroclaw::member& cat : top.val.members)
        for (const zeroclaw::member& fam : cat.val.members)
          for (const zeroclaw::member& e : fam.val.members)
            losses.push_back({"providers." + cat.key + "." + fam.key + "." + e.key,
                              loss_kind::dropped,
                              "providers and their credentials never enter a Claw package; "
                              "configure the provider on the OpenClaw host"});
      continue;
    }
    if (top.val.is_table()) {
      for (const zeroclaw::member& m : top.val.members)
        losses.push_back({k + "." + m.key, loss_kind::dropped, "no counterpart in a Claw package"});
    } else {
      losses.push_back({k, loss_kind::dropped, "no counterpart in a Claw package"});
    }
  }
  // What the export already left behind travels in the report too.
  if (const zeroclaw::value* dropped = at(&in.manifest, "dropped")) {
    for (const zeroclaw::value& d : dropped->items)
      losses.push_back(
          {str_at(&d, "path"), loss_kind::dropped,
           "dropped by the export (" + str_at(&d, "reason") + "): " + str_at(&d, "detail")});
  }
}

/// The refusal of the narrowing `l` without --allow-narrowing (errc::config_invalid).
inline error narrowing_refused(const std::string& target, const loss& l) {
  return error(errc::config_invalid,
               target + " cannot express " + l.path + " as strictly as the source: " + l.detail +
                   ". Pass --allow-narrowing to convert with the stricter setting; nothing "
                   "was written",
               l.path);
}

/// One narrowing: recorded, or refused without --allow-narrowing.
inline void narrow(const map_options& o, std::vector<loss>& losses, const std::string& path,
                   const std::string& detail) {
  loss l{path, loss_kind::narrowed, detail};
  if (!o.allow_narrowing) throw narrowing_refused(o.target, l);
  losses.push_back(std::move(l));
}

/// The risk profile (and the agent's filesystem flag) as the profile's `agent` object.
inline json map_risk(const bundle_input& in, const map_options& o, std::vector<loss>& losses) {
  const zeroclaw::value* agent = at(at(&in.closure, "agents"), in.root_agent);
  const std::string rname = str_at(agent, "risk_profile");
  const zeroclaw::value* rp = rname.empty() ? nullptr : at(at(&in.closure, "risk_profiles"), rname);
  const std::string r = "risk_profiles." + (rname.empty() ? std::string("<default>") : rname);
  const std::string level = str_at(rp, "level", "supervised");
  const bool workspace_only = bool_at(rp, "workspace_only").value_or(true);
  const bool unrestricted =
      bool_at(at(agent, "workspace"), "unrestricted_filesystem").value_or(false);
  std::vector<std::string> deny;
  const auto add_deny = [&deny](const std::string& t) {
    if (std::find(deny.begin(), deny.end(), t) == deny.end()) deny.push_back(t);
  };
  for (const std::string& t : strings_at(rp, "excluded_tools")) add_deny(openclaw_tool(t));
  std::vector<std::string> allow;
  for (const std::string& t : strings_at(rp, "allowed_tools")) allow.push_back(openclaw_tool(t));
  const bool shell_excluded =
      std::find(deny.begin(), deny.end(), "exec") != deny.end() ||
      (!allow.empty() && std::find(allow.begin(), allow.end(), "exec") == allow.end());

  if (level == "readonly") {
    for (const char* t : {"write", "edit", "apply_patch", "exec", "process"}) add_deny(t);
  } else if (!shell_excluded) {
    narrow(o, losses, r + ".allowed_commands",
           "ZeroClaw runs shell commands only from an allow-list (" +
               std::string(level == "full" ? "with high-risk commands blocked"
                                           : "with approval prompts for medium-risk commands") +
               "); a Claw profile has no command allow-list or approval prompt, so exec and "
               "process are denied");
    add_deny("exec");
    add_deny("process");
  }
  for (const std::string& t : strings_at(rp, "always_ask")) {
    const std::string mapped = openclaw_tool(t);
    if (mapped == "exec" || std::find(deny.begin(), deny.end(), mapped) != deny.end()) continue;
    narrow(o, losses, r + ".always_ask",
           "`" + t +
               "` asks for approval on every use; a Claw profile has no approval prompt, "
               "so the tool is denied");
    add_deny(mapped);
  }
  const bool confined = level != "full" && workspace_only && !unrestricted;
  if (!confined) {
    narrow(o, losses,
           unrestricted ? "agents." + in.root_agent + ".workspace.unrestricted_filesystem"
                        : r + ".workspace_only",
           "the source is not confined to the workspace but still keeps forbidden_paths; a Claw "
           "profile cannot forbid paths, so tools.fs.workspaceOnly is set");
  } else if (!strings_at(rp, "allowed_roots").empty()) {
    narrow(o, losses, r + ".allowed_roots",
           "extra filesystem roots (" + joined(strings_at(rp, "allowed_roots")) +
               ") have no Claw counterpart; the agent is confined to its workspace");
  }
  if (!strings_at(rp, "shell_env_passthrough").empty())
    losses.push_back({r + ".shell_env_passthrough", loss_kind::dropped,
                      "host environment passthrough has no Claw counterpart (shell access is "
                      "denied or host-managed)"});
  for (const char* k :
       {"delegation_policy", "approval_route", "sandbox_backend", "firejail_args", "auto_approve",
        "forbidden_paths", "require_approval_for_medium_risk", "block_high_risk_commands"}) {
    if (at(rp, k) != nullptr)
      losses.push_back({r + "." + k, loss_kind::dropped,
                        "no Claw counterpart (the mapping above is at least as strict)"});
  }

  json agent_profile = json::object();
  if (bool_at(rp, "sandbox_enabled").value_or(false)) {
    agent_profile["sandbox"] = {{"mode", "all"},
                                {"scope", "agent"},
                                {"workspaceAccess", level == "readonly" ? "ro" : "rw"}};
  }
  json tools = json::object();
  if (!allow.empty()) tools["allow"] = allow;
  if (!deny.empty()) tools["deny"] = deny;
  tools["fs"] = {{"workspaceOnly", true}};
  agent_profile["tools"] = std::move(tools);
  return agent_profile;
}

/// The granted MCP servers as `mcpServers`.
inline json map_mcp(const bundle_input& in, std::vector<loss>& losses) {
  json servers = json::object();
  const zeroclaw::value* list = at(at(&in.closure, "mcp"), "servers");
  if (list == nullptr) return servers;
  const zeroclaw::value* agent = at(at(&in.closure, "agents"), in.root_agent);
  if (!strings_at(agent, "mcp_bundles").empty())
    losses.push_back({"agents." + in.root_agent + ".mcp_bundles", loss_kind::changed,
                      "the bundles' grants are flattened: every granted server is one "
                      "mcpServers entry (" +
                          joined(strings_at(agent, "mcp_bundles")) + ")"});
  for (const zeroclaw::value& s : list->items) {
    const std::string zname = str_at(&s, "name");
    const std::string p = "mcp.servers." + zname;
    std::string name = zname;
    if (!openclaw::is_agent_id(name)) {
      name = to_agent_id(zname);
      losses.push_back(
          {p + ".name", loss_kind::changed,
           "`" + zname + "` is not a valid OpenClaw MCP server name; it is `" + name + "`"});
    }
    if (servers.contains(name))
      throw error(errc::config_invalid,
                  "two MCP servers map to the OpenClaw name `" + name + "`; rename one", p);
    const std::string transport = str_at(&s, "transport", "stdio");
    json out = json::object();
    if (transport == "stdio") {
      out["command"] = str_at(&s, "command");
      const std::vector<std::string> args = strings_at(&s, "args");
      if (!args.empty()) out["args"] = args;
      if (const zeroclaw::value* env = at(&s, "env"); env != nullptr && !env->members.empty()) {
        json e = json::object();
        for (const zeroclaw::member& m : env->members) {
          // Never the value: a reference the target's environment resolves.
          e[m.key] = "${" + env_reference_name(m.key) + "}";
        }
        out["env"] = std::move(e);
        losses.push_back({p + ".env", loss_kind::changed,
                          "secret values never travel: each key is an environment reference "
                          "(${NAME}) to set on the target"});
      }
    } else {
      out["url"] = str_at(&s, "url");
      out["transport"] = transport == "sse" ? "sse" : "streamable-http";
      if (at(&s, "headers") != nullptr && !at(&s, "headers")->members.empty())
        losses.push_back({p + ".headers", loss_kind::dropped,
                          "a remote Claw MCP server carries no headers or tokens; authenticate "
                          "the server on the target"});
    }
    if (const zeroclaw::value* t = at(&s, "tool_timeout_secs");
        t != nullptr && t->type == zeroclaw::value::kind::integer && t->integer > 0)
      out["timeout"] = t->integer;
    for (const char* k : {"pinned_resources", "tls_ca_cert_path"})
      if (at(&s, k) != nullptr)
        losses.push_back({p + "." + k, loss_kind::dropped, "no Claw counterpart"});
    servers[name] = std::move(out);
  }
  return servers;
}

/// The bundle files a Claw carries, with their workspace destinations: the workspace's and
/// the skill bundles' (skills become workspace-local); the losses of what is not carried.
struct placed {
  std::string source;  // bundle path
  std::string dest;    // workspace-relative
};

/// The logical name of the skill in the bundle directory `dir` as ZeroClaw's loader reads
/// it: from the manifest it prefers (SKILL.toml, manifest.toml, SKILL.md), else the
/// directory's name (also when the manifest does not parse: the audit has passed it).
inline std::string skill_name_in(const bundle_input& in, const std::string& dir) {
  const std::string leaf = dir.substr(dir.rfind('/') + 1);
  try {
    for (const auto kind :
         {skills::manifest_kind::skill_toml, skills::manifest_kind::manifest_toml})
      if (const auto it = in.files.find(paths::join(dir, skills::manifest_file(kind)));
          it != in.files.end())
        return skills::parse_skill_toml(it->second, it->first).name;
    if (const auto it = in.files.find(dir + "/SKILL.md"); it != in.files.end())
      return skills::skill_from_markdown(it->second, leaf).name;
  } catch (const error&) {
  }
  return leaf;
}

/// The skills of the Claw's `skills/`: logical name -> where it came from (bundle path),
/// and each directory taken there -> the same.
struct skill_claims {
  std::map<std::string, std::string> names;
  std::map<std::string, std::string> dirs;
};

/// The workspace's own skills (`workspace/skills/<dir>`), which come first on ZeroClaw.
inline skill_claims workspace_skills(const bundle_input& in) {
  skill_claims c;
  for (const auto& f : in.files) {
    if (f.first.rfind("workspace/skills/", 0) != 0) continue;
    const std::size_t slash = f.first.find('/', 17);
    if (slash == std::string::npos) continue;
    const std::string dir = f.first.substr(0, slash);
    if (c.dirs.count(dir.substr(10))) continue;
    c.dirs[dir.substr(10)] = dir;
    c.names.emplace(skill_name_in(in, dir), dir);
  }
  return c;
}

/// The skill directories of the skill bundles (`skills/<alias>/<skill>`), the bundles in
/// the order the agent lists them (ZeroClaw's "first source wins"), then any other.
inline std::vector<std::string> bundle_skill_dirs(const bundle_input& in) {
  std::vector<std::string> aliases;
  if (const zeroclaw::value* a = at(at(at(&in.closure, "agents"), in.root_agent), "skill_bundles"))
    for (const zeroclaw::value& v : a->items) aliases.push_back(v.text);
  std::vector<std::string> dirs;
  for (const auto& f : in.files) {
    if (f.first.rfind("skills/", 0) != 0) continue;
    const std::size_t s1 = f.first.find('/', 7);
    const std::size_t s2 = s1 == std::string::npos ? s1 : f.first.find('/', s1 + 1);
    if (s2 == std::string::npos) continue;
    const std::string dir = f.first.substr(0, s2);
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
    const std::string alias = f.first.substr(7, s1 - 7);
    if (std::find(aliases.begin(), aliases.end(), alias) == aliases.end()) aliases.push_back(alias);
  }
  std::stable_sort(dirs.begin(), dirs.end(), [&](const std::string& x, const std::string& y) {
    const auto rank = [&](const std::string& d) {
      return std::find(aliases.begin(), aliases.end(), d.substr(7, d.find('/', 7) - 7)) -
             aliases.begin();
    };
    return rank(x) < rank(y);
  });
  return dirs;
}

/// Claims the Claw's `skills/<skill>/` for the bundle skill `dir`. Returns the winner's
/// path when a skill of the same name comes first (this one is shadowed, as on ZeroClaw);
/// refuses (errc::config_invalid, naming both and the fix) a directory name that another
/// skill of another name already takes in the Claw.
inline std::optional<std::string> claim_skill(const bundle_input& in, const std::string& dir,
                                              skill_claims& claims) {
  const std::string name = skill_name_in(in, dir);
  if (const auto it = claims.names.find(name); it != claims.names.end()) return it->second;
  const std::string dest = "skills/" + dir.substr(dir.find('/', 7) + 1);
  if (const auto it = claims.dirs.find(dest); it != claims.dirs.end())
    throw error(errc::config_invalid,
                "the converted Claw would hold " + it->second + " and " + dir +
                    " both at workspace " + dest +
                    "/ (skills of different names); rename one "
                    "of the two directories in the source install and export again; nothing "
                    "was written",
                dir);
  claims.names.emplace(name, dir);
  claims.dirs.emplace(dest, dir);
  return std::nullopt;
}

inline std::vector<placed> claw_files(const bundle_input& in, std::vector<loss>& losses) {
  std::vector<placed> files;
  const auto blocked = [&in](const std::string& path) {
    for (const auto& b : in.blocked_skills)
      if (path.rfind(b.first + "/", 0) == 0) return true;
    return false;
  };
  for (const auto& f : in.files) {
    if (f.first.rfind("workspace/", 0) != 0 || blocked(f.first)) continue;
    if (const auto kind = bundle::private_workspace_entry(f.first.substr(10))) {
      // issue 30: a bundle (upstream's may carry them) never yields them in a Claw
      losses.push_back({f.first, loss_kind::dropped,
                        "a Claw never carries it (private_data): " +
                            std::string(bundle::private_reason(*kind))});
      continue;
    }
    files.push_back({f.first, f.first.substr(10)});
  }
  skill_claims claims = workspace_skills(in);
  std::set<std::string> skill_names;  // `<alias>/<skill>` carried
  std::set<std::string> shadowed;
  for (const std::string& dir : bundle_skill_dirs(in)) {
    if (blocked(dir + "/")) continue;
    if (const auto winner = claim_skill(in, dir, claims)) {
      shadowed.insert(dir);
      losses.push_back(
          {dir, loss_kind::dropped,
           "its name `" + skill_name_in(in, dir) + "` is also the skill at " + *winner +
               ", which comes first on ZeroClaw (this one is shadowed there); a Claw holding "
               "both would have two skills of that name, so it is not carried (to keep both, "
               "give one another `name` in its manifest)"});
      continue;
    }
    skill_names.insert(dir.substr(7));
  }
  for (const auto& f : in.files) {
    if (f.first.rfind("skills/", 0) != 0) continue;
    const std::string rest = f.first.substr(7);  // <alias>/<skill>/...
    const std::size_t s1 = rest.find('/');
    const std::size_t s2 = s1 == std::string::npos ? s1 : rest.find('/', s1 + 1);
    if (s2 == std::string::npos || blocked(f.first)) continue;
    if (shadowed.count("skills/" + rest.substr(0, s2))) continue;
    files.push_back({f.first, "skills/" + rest.substr(s1 + 1)});
  }
  for (const auto& b : in.blocked_skills)
    losses.push_back({b.first, loss_kind::dropped,
                      "the skill audit refused it (" + b.second + "); it is not carried"});
  for (const std::string& s : skill_names)
    losses.push_back({"skills/" + s, loss_kind::changed,
                      "the skill-bundle skill is a workspace-local skill at skills/" +
                          s.substr(s.find('/') + 1) + "/ (audited clean)"});
  return files;
}

/// The Claw's workspace: each file checked against OpenClaw's limits and path rules, copied
/// into `res.files`; returns the manifest's {bootstrapFiles, files}.
inline std::pair<json, json> place_claw_files(const bundle_input& in, const map_options& o,
                                              const std::vector<placed>& files, mapped& res) {
  std::vector<loss>& losses = res.losses;
  std::map<std::string, std::string> keys;  // portable key -> destination
  std::uint64_t total = 0;
  json bootstrap = json::object();
  json extra = json::array();
  std::optional<std::string> bootstrap_md;
  for (const placed& p : files) {
    const std::string& bytes = in.files.at(p.source);
    if (!openclaw::is_safe_relative_path(p.dest))
      throw error(errc::unsafe_path,
                  "the file " + p.source +
                      " has a path OpenClaw refuses in a Claw package (a reserved name or "
                      "character); rename it, nothing was written",
                  p.source);
    if (bytes.size() > o.limits.workspace_source)
      throw error(errc::limit_exceeded,
                  "the file " + p.source + " is " + std::to_string(bytes.size()) +
                      " bytes; OpenClaw takes at most " +
                      std::to_string(o.limits.workspace_source) +
                      " bytes per workspace file; nothing was written",
                  p.source);
    total += bytes.size();
    if (total > o.limits.workspace_total)
      throw error(errc::limit_exceeded,
                  "the workspace files reach " + std::to_string(total) + " bytes at " + p.source +
                      "; OpenClaw takes at most " + std::to_string(o.limits.workspace_total) +
                      " bytes in all; nothing was written",
                  p.source);
    const std::string key = openclaw::portable_key(p.dest);
    for (const auto& k : keys) {
      if (openclaw::keys_conflict(k.first, key))
        throw error(errc::unsafe_path,
                    "the files " + k.second + " and " + p.dest +
                        " are the same file to OpenClaw (its destinations compare without case "
                        "and in NFC, and a file cannot sit below another); nothing was written",
                    p.source);
    }
    keys[key] = p.dest;
    if (p.dest == "BOOTSTRAP.md") {
      bootstrap_md = bytes;
      losses.push_back({p.source, loss_kind::changed,
                        "a workspace BOOTSTRAP.md is OpenClaw's package-root BOOTSTRAP.md, "
                        "seeded once into a new workspace"});
      continue;
    }
    const std::string source = "workspace/" + p.dest;
    res.files[source] = bytes;
    bool named = false;
    for (const char* n : claw_bootstrap_names) named = named || p.dest == n;
    if (named) {
      bootstrap[p.dest] = {{"source", source}};
    } else {
      extra.push_back({{"source", source}, {"path", p.dest}});
    }
  }
  if (bootstrap_md) res.files["BOOTSTRAP.md"] = *bootstrap_md;
  json ordered_bootstrap = json::object();
  for (const char* n : claw_bootstrap_names)
    if (bootstrap.contains(n)) ordered_bootstrap[n] = bootstrap[n];

  return {ordered_bootstrap, extra};
}

/// The manifest's agent: id, name, and what an AIEOS identity maps to.
inline json claw_agent(const bundle_input& in, const zeroclaw::value* agent, const std::string& id,
                       std::vector<loss>& losses) {
  json agent_json = json::object();
  agent_json["id"] = id;
  agent_json["name"] = in.root_agent;
  const zeroclaw::value* identity = detail::at(agent, "identity");
  const std::string format = detail::str_at(identity, "format", "openclaw");
  if (identity != nullptr && format == "aieos") {
    std::string doc = detail::str_at(identity, "aieos_inline");
    const std::string path = detail::str_at(identity, "aieos_path");
    const std::string ipath = "agents." + in.root_agent + ".identity";
    if (doc.empty() && !path.empty() && in.files.count("workspace/" + path))
      doc = in.files.at("workspace/" + path);
    const json aieos = json::parse(doc, nullptr, false);
    std::string name;
    if (aieos.is_object() && aieos.contains("identity") && aieos["identity"].is_object()) {
      const json& id = aieos["identity"];
      if (id.contains("names") && id["names"].is_object() && id["names"].contains("first") &&
          id["names"]["first"].is_string())
        name = text::js_trim(id["names"]["first"].get<std::string>());
      if (id.contains("bio") && id["bio"].is_string() &&
          openclaw::is_canonical(id["bio"].get<std::string>()))
        agent_json["description"] = id["bio"];
    }
    if (!name.empty()) agent_json["identity"] = {{"name", name}};
    losses.push_back({ipath, loss_kind::changed,
                      "the AIEOS identity document maps to agent.identity.name" +
                          std::string(name.empty() ? " (it names no one)" : " `" + name + "`") +
                          " and agent.description; its other fields have no counterpart" +
                          (path.empty() ? "" : " (the document travels as " + path + ")")});
  }

  return agent_json;
}

/// Drops each MCP server OpenClaw's own rules refuse in a Claw (an unpinned package-manager
/// command, a plain-http remote) with one loss; a blocked environment key and every other
/// refusal (a mapping bug) throw.
inline void drop_refused_servers(json& manifest, std::vector<loss>& losses) {
  for (int round = 0; round < 64; ++round) {
    const openclaw::manifest_result check = openclaw::validate_manifest(manifest);
    if (check.ok()) break;
    bool removed = false;
    for (const openclaw::diagnostic& d : check.diagnostics) {
      if (d.level != openclaw::level::error || d.path.rfind("$.mcpServers.", 0) != 0) continue;
      std::string name = d.path.substr(13);
      const std::string rest = name.substr(std::min(name.size(), name.find_first_of(".[")));
      name = name.substr(0, name.find_first_of(".["));
      if (rest.rfind(".env.", 0) == 0)
        // OpenClaw's host environment policy (the one list, openclaw/schema.hpp): refused.
        throw error(errc::unsafe_path,
                    "MCP server `" + name + "` sets the environment key " + rest.substr(5) +
                        ", which OpenClaw refuses: " + d.message +
                        " (a blocked key changes how the spawned process loads code); nothing "
                        "was written",
                    "mcp.servers." + name + ".env." + rest.substr(5));
      if (!manifest["mcpServers"].contains(name)) continue;
      manifest["mcpServers"].erase(name);
      // The server's own entries are moot now: one entry says it is not converted.
      const std::string prefix = "mcp.servers." + name + ".";
      losses.erase(
          std::remove_if(losses.begin(), losses.end(),
                         [&prefix](const loss& l) { return l.path.rfind(prefix, 0) == 0; }),
          losses.end());
      losses.push_back({"mcp.servers." + name, loss_kind::dropped,
                        "OpenClaw refuses this server in a Claw (" + d.message +
                            "); it is not converted, grant it on the target by hand"});
      removed = true;
      break;
    }
    if (!removed)
      throw error(errc::config_invalid,
                  "the converted manifest does not validate: " +
                      diagnostics_text(check.diagnostics) + " (a clawport mapping bug)",
                  "CLAW.md");
  }
}

}  // namespace detail

/// Maps a verified bundle to the files of a Claw package (package.json, CLAW.md,
/// profiles/openclaw.yml, workspace/...). CONVERSION.md is added by the caller, which
/// knows the timestamp. Throws clawport::error for what must not be converted: a limit of
/// OpenClaw (errc::limit_exceeded, naming the file), an unsafe or colliding path
/// (errc::unsafe_path), a blocked environment key, a risk profile that needs narrowing
/// without `allow_narrowing` (errc::config_invalid).
inline mapped map_to_claw(const bundle_input& in, const map_options& o = {}) {
  using json = nlohmann::ordered_json;
  mapped res;
  std::vector<loss>& losses = res.losses;
  res.agent = to_agent_id(in.root_agent);
  if (res.agent != in.root_agent)
    losses.push_back(
        {"agents." + in.root_agent, loss_kind::changed,
         "the alias is not a valid OpenClaw agent id; the agent id is `" + res.agent + "`"});
  const zeroclaw::value* agent = detail::at(detail::at(&in.closure, "agents"), in.root_agent);

  // ---- the workspace (and the skills, which become workspace-local) ----
  const std::vector<detail::placed> files = detail::claw_files(in, losses);
  const auto [ordered_bootstrap, extra] = detail::place_claw_files(in, o, files, res);

  // ---- the agent and its identity ----
  const json agent_json = detail::claw_agent(in, agent, res.agent, losses);

  // ---- profile, MCP servers ----
  json profile = json::object();
  profile["schemaVersion"] = 1;
  profile["agent"] = detail::map_risk(in, o, losses);
  json servers = detail::map_mcp(in, losses);

  json manifest = json::object();
  manifest["schemaVersion"] = 1;
  manifest["agent"] = agent_json;
  // No `openclaw.config` pointer: OpenClaw discovers profiles/openclaw.yml, and warns
  // (deprecated_openclaw_profile_pointer) on a package that still names it.
  manifest["metadata"] = {{"dev.clawport.converted-from", "zeroclaw-bundle:" + in.root_agent}};
  manifest["workspace"] = {{"bootstrapFiles", ordered_bootstrap}, {"files", extra}};
  manifest["mcpServers"] = servers;
  detail::drop_refused_servers(manifest, losses);
  const openclaw::profile_result pcheck =
      openclaw::validate_profile(profile, "$.profiles.openclaw");
  if (!pcheck.ok())
    throw error(errc::config_invalid,
                "the converted profile does not validate: " +
                    detail::diagnostics_text(pcheck.diagnostics) + " (a clawport mapping bug)",
                "profiles/openclaw.yml");
  detail::closure_losses(in, losses);

  json package = json::object();
  package["name"] = "openclaw-claw-" + res.agent;
  package["version"] = "0.0.0-convert";
  package["type"] = "module";
  package["description"] = "Converted by clawport from the ZeroClaw agent bundle of " +
                           in.root_agent + "; see CONVERSION.md.";
  package["openclaw"] = {{"claw", "CLAW.md"}};
  res.files["package.json"] = clawport::json::js_stringify(package, 2) + "\n";
  res.files["CLAW.md"] = "---\n" + yaml::to_yaml(manifest) + "---\n";
  res.files["profiles/openclaw.yml"] = yaml::to_yaml(profile);
  return res;
}

}  // namespace convert
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
