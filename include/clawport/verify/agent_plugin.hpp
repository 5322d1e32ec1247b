// SPDX-License-Identifier: MIT
// Checking an Agent Plugins 1.0.0 plugin directory as hostile input (`clawport verify <plugin
// dir>`, issue 46): `plugin.json`, `skills/<dir>/SKILL.md` and `mcp.json` against the spec's
// rules, each finding at the spec's failure boundary (the whole plugin, one component type,
// one skill, one server), so the report says what a client would still load. The rules are
// here once: `convert` checks what it writes and reads what it converts through them. The
// check is pure (a tree of files in, a report out); `read_plugin_tree` reads the tree.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/text.hpp"
#include "../core/utf8.hpp"
#include "../formats/json.hpp"
#include "../fs/read_file.hpp"
#include "../fs/walk.hpp"
#include "../skills/frontmatter.hpp"

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
namespace verify {

/// The exact 1.0.0 identifiers (a client recognises a plugin by these alone).
inline constexpr const char* plugin_schema_id =
    "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
inline constexpr const char* plugin_mcp_schema_id =
    "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";
/// The Agent Skills frontmatter keys (agentskills.io specification; skills-ref rejects others).
inline constexpr const char* agent_skill_keys[] = {"name",     "description",   "license",
                                                   "metadata", "allowed-tools", "compatibility"};
/// Files that make a client load the directory as another plugin format.
inline constexpr const char* plugin_foreign_manifests[] = {
    ".claude-plugin", ".codex-plugin", ".cursor-plugin", "openclaw.plugin.json"};

/// What one finding disables (the spec's failure boundaries, narrowest first).
enum class plugin_scope { field, server, skill, component, plugin };
inline const char* to_string(plugin_scope s) noexcept {
  return s == plugin_scope::field       ? "field"
         : s == plugin_scope::server    ? "server"
         : s == plugin_scope::skill     ? "skill"
         : s == plugin_scope::component ? "component"
                                        : "plugin";
}

struct plugin_finding {
  plugin_scope scope = plugin_scope::plugin;
  std::string path;  ///< plugin-relative file, with a JSON pointer or key where it helps
  std::string detail;
  bool warning = false;  ///< reported and ignored (the plugin still loads)
};

/// A plugin directory as read: regular files (relative path -> bytes), directories, and every
/// other entry (symlinks, devices: never followed, never read).
struct plugin_tree {
  std::map<std::string, std::string> files;
  std::set<std::string> dirs;
  std::set<std::string> others;
};

/// What `check_plugin` found, and what a client would load.
struct plugin_report {
  std::string plugin;                ///< the directory as the user named it
  std::string name;                  ///< plugin.json's name (empty when unreadable)
  std::vector<std::string> skills;   ///< skill directories that load, in path order
  std::vector<std::string> servers;  ///< MCP servers that load, in mcp.json order
  std::vector<plugin_finding> findings;

  /// Whether the plugin loads at all (no plugin-scope error).
  bool loads() const {
    return std::none_of(findings.begin(), findings.end(), [](const plugin_finding& f) {
      return !f.warning && f.scope == plugin_scope::plugin;
    });
  }
  /// Whether everything in it loads (warnings allowed): verify's exit 0.
  bool ok() const {
    return std::all_of(findings.begin(), findings.end(),
                       [](const plugin_finding& f) { return f.warning; });
  }
};

/// Whether `s` is a plugin name: 1-64 of `[a-z0-9.-]`, alphanumeric first and last, no `--`
/// and no `..` (the schema's `^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$`).
inline bool is_plugin_name(const std::string& s) {
  const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (s.empty() || s.size() > 64 || !alnum(s.front()) || !alnum(s.back())) return false;
  if (s.find("--") != std::string::npos || s.find("..") != std::string::npos) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) { return alnum(c) || c == '-' || c == '.'; });
}

/// Whether `s` is an Agent Skills name: a plugin name without `.`.
inline bool is_skill_name(const std::string& s) {
  return is_plugin_name(s) && s.find('.') == std::string::npos;
}

/// The top-level keys of a frontmatter (lines at column 0 of the form `key:`).
inline std::vector<std::string> frontmatter_keys(const std::string& fm) {
  std::vector<std::string> keys;
  std::size_t pos = 0;
  while (pos < fm.size()) {
    const std::size_t nl = fm.find('\n', pos);
    const std::string line = fm.substr(pos, nl == std::string::npos ? nl : nl - pos);
    pos = nl == std::string::npos ? fm.size() : nl + 1;
    const std::size_t colon = line.find(':');
    if (line.empty() || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' ||
        colon == std::string::npos)
      continue;
    keys.push_back(line.substr(0, colon));
  }
  return keys;
}

/// Code points of `s` (a byte that is not UTF-8 counts one).
inline std::size_t plugin_code_points(const std::string& s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++n) {
    const utf8::decoded d = utf8::decode_at(s, i);
    i += d.length == 0 ? 1 : d.length;
  }
  return n;
}

/// Why the plugin-relative path `p` (starting `./`) is not one inside the root, or nothing.
inline std::optional<std::string> relative_path_problem(const std::string& p) {
  if (p.rfind("./", 0) != 0) return std::string("does not start with ./");
  long depth = 0;
  for (const std::string& part : paths::components(p.substr(2))) {
    if (part == "..")
      --depth;
    else if (!part.empty() && part != ".")
      ++depth;
    if (depth < 0) return std::string("leaves the plugin's root");
  }
  return std::nullopt;
}

/// Why `cwd` is none of the spec's forms (`./…`, `${PLUGIN_ROOT}[/…]`, `${PLUGIN_DATA}[/…]`)
/// or escapes its base, or nothing.
inline std::optional<std::string> cwd_problem(const std::string& cwd) {
  for (const char* var : {"${PLUGIN_ROOT}", "${PLUGIN_DATA}"}) {
    const std::string v = var;
    if (cwd == v) return std::nullopt;
    if (cwd.rfind(v + "/", 0) == 0) return relative_path_problem("./" + cwd.substr(v.size() + 1));
  }
  if (cwd.rfind("./", 0) == 0) return relative_path_problem(cwd);
  return std::string("is not ./…, ${PLUGIN_ROOT}[/…] or ${PLUGIN_DATA}[/…]");
}

/// Why `url` is not a URL a client connects to (absolute http/https, no userinfo, no
/// fragment, https unless the host is localhost or a loopback IP literal), or nothing.
inline std::optional<std::string> url_problem(const std::string& url) {
  const std::string low = text::to_lower_ascii(url);
  const bool https = low.rfind("https://", 0) == 0;
  if (!https && low.rfind("http://", 0) != 0) return std::string("is not an http(s) URL");
  if (url.find('#') != std::string::npos) return std::string("has a fragment");
  if (url.find_first_of(" \t\r\n") != std::string::npos) return std::string("holds whitespace");
  const std::size_t start = https ? 8 : 7;
  const std::string authority = low.substr(start, low.find_first_of("/?", start) - start);
  if (authority.find('@') != std::string::npos) return std::string("has userinfo");
  std::string host = authority;
  if (!host.empty() && host[0] == '[')
    host = host.substr(0, host.find(']') + 1);
  else
    host = host.substr(0, host.find(':'));
  if (host.empty()) return std::string("has no host");
  const bool loopback = host == "localhost" || host == "[::1]" || host.rfind("127.", 0) == 0;
  if (!https && !loopback) return std::string("is http to a host that is not loopback");
  return std::nullopt;
}

/// Whether `name` is an HTTP field name (an RFC 9110 token).
inline bool is_header_name(const std::string& name) {
  if (name.empty()) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string("!#$%&'*+-.^_`|~").find(c) != std::string::npos;
    if (!ok) return false;
  }
  return true;
}

namespace detail {

using pjson = nlohmann::json;

inline void plugin_error(plugin_report& r, plugin_scope s, std::string path, std::string detail) {
  r.findings.push_back({s, std::move(path), std::move(detail), false});
}
inline void plugin_warning(plugin_report& r, plugin_scope s, std::string path, std::string detail) {
  r.findings.push_back({s, std::move(path), std::move(detail), true});
}

template <class J>
bool string_map(const J& j) {
  return j.is_object() && std::all_of(j.begin(), j.end(), [](const J& v) { return v.is_string(); });
}

/// plugin.json: the closed field set; a violation disables the plugin, an unknown field or
/// non-object `extensions` is reported and ignored.
template <class J = pjson>
void check_manifest(const plugin_tree& t, plugin_report& r) {
  const std::string P = "plugin.json";
  const auto it = t.files.find(P);
  if (it == t.files.end()) {
    plugin_error(
        r, plugin_scope::plugin, P,
        t.others.count(P) ? "is not a regular file (a link is not followed)" : "is missing");
    return;
  }
  const J m = J::parse(it->second, nullptr, false);
  if (!m.is_object()) return plugin_error(r, plugin_scope::plugin, P, "is not a JSON object");
  if (!m.contains("$schema") || !m["$schema"].is_string())
    plugin_error(r, plugin_scope::plugin, P + ":$schema", "is missing or not a string");
  else if (m["$schema"] != plugin_schema_id)
    plugin_error(r, plugin_scope::plugin, P + ":$schema",
                 "is not " + std::string(plugin_schema_id) + " (an unsupported version)");
  if (!m.contains("name") || !m["name"].is_string())
    plugin_error(r, plugin_scope::plugin, P + ":name", "is missing or not a string");
  else if (!is_plugin_name(m["name"].template get<std::string>()))
    plugin_error(r, plugin_scope::plugin, P + ":name",
                 "is not a plugin name (1-64 of a-z 0-9 - ., alphanumeric first and last, no "
                 "-- or ..)");
  else
    r.name = m["name"].template get<std::string>();
  for (auto f = m.begin(); f != m.end(); ++f) {
    const std::string k = f.key();
    const std::string at = P + ":" + k;
    if (k == "$schema" || k == "name") continue;
    if (k == "version" || k == "description" || k == "homepage" || k == "repository" ||
        k == "license") {
      if (!f->is_string()) plugin_error(r, plugin_scope::plugin, at, "is not a string");
    } else if (k == "keywords") {
      if (!f->is_array() ||
          !std::all_of(f->begin(), f->end(), [](const J& v) { return v.is_string(); }))
        plugin_error(r, plugin_scope::plugin, at, "is not an array of strings");
    } else if (k == "author") {
      bool good = f->is_object();
      for (auto a = good ? f->begin() : f->end(); a != f->end(); ++a)
        good =
            good && a->is_string() && (a.key() == "name" || a.key() == "email" || a.key() == "url");
      if (!good)
        plugin_error(r, plugin_scope::plugin, at,
                     "is not an object of only name, email and url strings");
    } else if (k == "extensions") {
      if (!f->is_object()) {
        plugin_warning(r, plugin_scope::field, at, "is not an object; ignored");
        continue;
      }
      for (auto n = f->begin(); n != f->end(); ++n)
        if (!n->is_object())
          plugin_error(r, plugin_scope::plugin, at + "." + n.key(),
                       "is not an object (the schema requires each namespace's value to be one)");
    } else {
      plugin_warning(r, plugin_scope::field, at, "is not an Agent Plugins 1.0.0 field; ignored");
    }
  }
}

/// One `skills/<dir>/SKILL.md` against Agent Skills; a violation skips that skill.
inline void check_skill(const std::string& dir, const std::string& text, plugin_report& r) {
  const std::string p = "skills/" + dir + "/SKILL.md";
  const skills::frontmatter_split split = skills::split_frontmatter(text);
  if (!split.found) return plugin_error(r, plugin_scope::skill, p, "has no YAML frontmatter");
  const skills::loader_frontmatter fm = skills::parse_loader_frontmatter(split.frontmatter);
  std::vector<std::string> problems;
  if (!fm.name || !is_skill_name(*fm.name))
    problems.push_back("its name is not 1-64 of a-z 0-9 - (no leading, trailing or doubled -)");
  else if (*fm.name != dir)
    problems.push_back("its name `" + *fm.name + "` is not its directory's");
  if (!fm.description || fm.description->empty() || plugin_code_points(*fm.description) > 1024)
    problems.push_back("it has no description of 1-1024 characters");
  for (const std::string& k : frontmatter_keys(split.frontmatter))
    if (std::none_of(std::begin(agent_skill_keys), std::end(agent_skill_keys),
                     [&](const char* a) { return k == a; }))
      problems.push_back("the frontmatter key `" + k + "` is not Agent Skills'");
  if (problems.empty()) {
    r.skills.push_back(dir);
    return;
  }
  std::string why;
  for (const std::string& s : problems) why += (why.empty() ? "" : "; ") + s;
  plugin_error(r, plugin_scope::skill, p, why + "; the skill is skipped");
}

/// The immediate children of `skills/` holding a regular `SKILL.md`.
inline void check_skills(const plugin_tree& t, plugin_report& r) {
  if (t.files.count("skills") || t.others.count("skills"))
    return plugin_error(r, plugin_scope::component, "skills", "is not a directory; no skill loads");
  for (const std::string& d : t.dirs) {
    if (d.rfind("skills/", 0) != 0 || d.find('/', 7) != std::string::npos) continue;
    const std::string dir = d.substr(7);
    const auto it = t.files.find(d + "/SKILL.md");
    if (it != t.files.end())
      check_skill(dir, it->second, r);
    else if (t.others.count(d + "/SKILL.md"))
      plugin_error(r, plugin_scope::skill, d + "/SKILL.md",
                   "is not a regular file (a link is not followed); the skill is skipped");
  }
  for (const std::string& o : t.others)
    if (o.rfind("skills/", 0) == 0 && o.find('/', 7) == std::string::npos)
      plugin_warning(r, plugin_scope::skill, o, "is not a directory (a link is not followed)");
}

/// A stdio server's command, args, env and cwd.
template <class J>
void check_stdio(const J& s, std::vector<std::string>& why) {
  if (!s.contains("command") || !s["command"].is_string() ||
      s["command"].template get<std::string>().empty())
    why.push_back("command is missing or empty");
  else {
    const std::string c = s["command"].template get<std::string>();
    if (c.find_first_of(" \t\r\n") != std::string::npos)
      why.push_back("command `" + c + "` is not one executable token (no shell runs it)");
    else if (c.rfind("./", 0) == 0) {
      if (const auto p = relative_path_problem(c)) why.push_back("command " + *p);
    } else if (c.find_first_of("/\\") != std::string::npos)
      why.push_back("command is neither a bare name nor ./ inside the plugin");
  }
  if (s.contains("args") &&
      (!s["args"].is_array() ||
       !std::all_of(s["args"].begin(), s["args"].end(), [](const J& a) { return a.is_string(); })))
    why.push_back("args is not an array of strings");
  if (s.contains("env")) {
    if (!string_map(s["env"])) why.push_back("env is not an object of strings");
    for (const char* k : {"PLUGIN_ROOT", "PLUGIN_DATA"})
      if (s["env"].is_object() && s["env"].contains(k))
        why.push_back(std::string("env sets the reserved ") + k);
  }
  if (s.contains("cwd")) {
    if (!s["cwd"].is_string())
      why.push_back("cwd is not a string");
    else if (const auto p = cwd_problem(s["cwd"].template get<std::string>()))
      why.push_back("cwd " + *p);
  }
}

/// A remote server's url and headers.
template <class J>
void check_remote(const J& s, std::vector<std::string>& why) {
  if (!s.contains("url") || !s["url"].is_string())
    why.push_back("url is missing or not a string");
  else if (const auto p = url_problem(s["url"].template get<std::string>()))
    why.push_back("url " + *p);
  if (!s.contains("headers")) return;
  if (!string_map(s["headers"])) return why.push_back("headers is not an object of strings");
  std::set<std::string> seen;
  for (auto h = s["headers"].begin(); h != s["headers"].end(); ++h) {
    if (!is_header_name(h.key())) why.push_back("the header name `" + h.key() + "` is not a token");
    if (!seen.insert(text::to_lower_ascii(h.key())).second)
      why.push_back("the header `" + h.key() + "` is given twice (names ignore case)");
    if (h->template get<std::string>().find_first_of("\r\n") != std::string::npos)
      why.push_back("the header `" + h.key() + "` has a line break in its value");
  }
}

/// One `mcpServers` entry: exactly one closed variant; a violation skips that server.
template <class J>
void check_server(const std::string& name, const J& s, plugin_report& r) {
  const std::string at = "mcp.json:mcpServers." + name;
  std::vector<std::string> why;
  const std::string type = s.is_object() && s.contains("type") && s["type"].is_string()
                               ? s["type"].template get<std::string>()
                               : std::string();
  const bool stdio = type == "stdio";
  if (!s.is_object())
    why.push_back("is not an object");
  else if (!stdio && type != "streamable-http" && type != "sse")
    why.push_back("type is not stdio, streamable-http or sse");
  else {
    const std::set<std::string> keys =
        stdio ? std::set<std::string>{"type", "command", "args", "env", "cwd"}
              : std::set<std::string>{"type", "url", "headers"};
    for (auto k = s.begin(); k != s.end(); ++k)
      if (!keys.count(k.key()))
        why.push_back("has the field `" + k.key() + "` its type does not define");
    if (stdio)
      check_stdio(s, why);
    else
      check_remote(s, why);
  }
  if (why.empty()) {
    r.servers.push_back(name);
    return;
  }
  std::string all;
  for (const std::string& w : why) all += (all.empty() ? "" : "; ") + w;
  plugin_error(r, plugin_scope::server, at, all + "; the server is skipped");
}

/// mcp.json: exactly `$schema` (1.0.0) and `mcpServers`, else no server loads.
template <class J = pjson>
void check_mcp(const plugin_tree& t, plugin_report& r) {
  const std::string P = "mcp.json";
  const auto it = t.files.find(P);
  if (it == t.files.end()) {
    if (t.dirs.count(P) || t.others.count(P))
      plugin_error(r, plugin_scope::component, P,
                   "is not a regular file (a link is not followed); no MCP server loads");
    return;
  }
  const J m = J::parse(it->second, nullptr, false);
  std::string why;
  if (!m.is_object())
    why = "is not a JSON object";
  else if (!m.contains("$schema") || m["$schema"] != plugin_mcp_schema_id)
    why = "$schema is not " + std::string(plugin_mcp_schema_id) + " (plugin.json's version)";
  else if (!m.contains("mcpServers") || !m["mcpServers"].is_object())
    why = "has no mcpServers object";
  else
    for (auto k = m.begin(); k != m.end(); ++k)
      if (k.key() != "$schema" && k.key() != "mcpServers")
        why = "has the top-level field `" + k.key() + "`";
  if (!why.empty())
    return plugin_error(r, plugin_scope::component, P, why + "; no MCP server loads");
  // J sorts keys; mcp.json's order is the one a person reads, so keep it.
  const ::clawport::json::ordered_json_for<J> o =
      ::clawport::json::ordered_json_for<J>::parse(it->second, nullptr, false);
  for (auto s = o["mcpServers"].begin(); s != o["mcpServers"].end(); ++s)
    check_server(s.key(), J(s.value()), r);
}

}  // namespace detail

/// Checks a plugin tree against the Agent Plugins 1.0.0 rules. A plugin-scope error means
/// nothing loads; the components are then not checked. The checks are templates on their
/// JSON type (always nlohmann::json) so that only a TU that checks a plugin instantiates
/// them (issue 48).
template <class J = nlohmann::json>
plugin_report check_plugin(const plugin_tree& t) {
  plugin_report r;
  detail::check_manifest<J>(t, r);
  if (!r.loads()) return r;
  for (const char* f : plugin_foreign_manifests)
    if (t.files.count(f) || t.dirs.count(f) || t.others.count(f))
      detail::plugin_warning(r, plugin_scope::plugin, f,
                             "makes a client (OpenClaw) load this directory as another plugin "
                             "format, not as an Agent Plugin");
  detail::check_skills(t, r);
  detail::check_mcp<J>(t, r);
  return r;
}

/// Whether the directory `path` is a plugin (holds `plugin.json`) rather than a bundle.
template <class Fs>
bool is_plugin_dir(Fs& fs, const std::string& path) {
  try {
    typename Fs::dir root = fs.open_root(path);
    return fs.stat_at(root, "plugin.json").has_value() &&
           !fs.stat_at(root, "zeroclaw-agent.toml").has_value();
  } catch (const error&) {
    return false;
  }
}

/// Reads a plugin directory without following a link: every regular file at most `max_file`
/// bytes, at most `max_files` files (errc::limit_exceeded past either).
template <class Fs>
plugin_tree read_plugin_tree(Fs& fs, const std::string& path, std::uint64_t max_file = 16u << 20,
                             std::size_t max_files = 20000) {
  struct visitor : fs::walk_visitor {
    Fs& fs;
    plugin_tree& t;
    std::uint64_t max_file;
    std::size_t max_files;
    visitor(Fs& f, plugin_tree& tr, std::uint64_t m, std::size_t n)
        : fs(f), t(tr), max_file(m), max_files(n) {}
    bool visit(const typename Fs::dir& parent, std::string_view name, const std::string& rel,
               const fs::stat_info& info) {
      if (info.kind == fs::file_kind::directory) {
        t.dirs.insert(rel);
        return true;
      }
      if (info.kind != fs::file_kind::regular) {
        t.others.insert(rel);
        return false;
      }
      if (t.files.size() >= max_files)
        throw error(errc::limit_exceeded,
                    "the plugin holds more than " + std::to_string(max_files) + " files", rel);
      t.files[rel] = fs::read_file_at(fs, parent, std::string(name), max_file,
                                      fs::read_kinds::hard_linked, rel);
      return false;
    }
    std::optional<typename Fs::dir> enter(const typename Fs::dir& parent, std::string_view name,
                                          const std::string&, const fs::stat_info&) {
      return fs.open_dir_at(parent, std::string(name));
    }
  };
  plugin_tree t;
  typename Fs::dir root = fs.open_root(path);
  visitor v(fs, t, max_file, max_files);
  fs::walk(fs, root, v);
  return t;
}

/// The terminal report of `clawport verify <plugin dir>`, every line through the one
/// terminal-safe renderer (a skill directory named with ESC cannot repaint the verdict).
inline std::string render_plugin_report(const plugin_report& r) {
  text::terminal_lines line;
  line(r.ok()      ? "plugin " + r.plugin + " verifies: an Agent Plugins 1.0.0 plugin"
       : r.loads() ? "plugin " + r.plugin + " loads, but a client skips part of it"
                   : "plugin " + r.plugin + " does not load: not an Agent Plugins 1.0.0 plugin");
  if (!r.name.empty()) line("  name:     " + r.name);
  line("  skills:   " + std::to_string(r.skills.size()) + " load");
  line("  servers:  " + std::to_string(r.servers.size()) + " load");
  for (const plugin_finding& f : r.findings)
    line(std::string(f.warning ? "  warning " : "  error ") + "[" + to_string(f.scope) + "] " +
         f.path + ": " + f.detail);
  return std::move(line.text);
}

/// The `--json` document of `clawport verify <plugin dir>`.
template <class J = nlohmann::json>
J plugin_to_json(const plugin_report& r) {
  J j;
  j["kind"] = "agent-plugin";
  j["plugin"] = r.plugin;
  j["name"] = r.name;
  j["ok"] = r.ok();
  j["loads"] = r.loads();
  j["skills"] = r.skills;
  j["servers"] = r.servers;
  j["findings"] = J::array();
  for (const plugin_finding& f : r.findings)
    j["findings"].push_back({{"scope", to_string(f.scope)},
                             {"path", f.path},
                             {"detail", f.detail},
                             {"warning", f.warning}});
  return j;
}

}  // namespace verify
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
