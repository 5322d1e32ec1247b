// SPDX-License-Identifier: MIT
// The strict Claw manifest schema v1 and its cross-field rules (docs/openclaw.md): the
// structure, then the workspace, declaration and avatar rules on the typed manifest. Pure
// functions on JSON data: every problem becomes a diagnostic with OpenClaw's code, phase and
// path, and all of them are reported. The parts are their own headers: the model
// (manifest.hpp), the validator (checker.hpp), time (cron.hpp), MCP servers
// (mcp_schema.hpp) and the profile schema (profile.hpp).
#pragma once

#include "../core/config.hpp"

#include "checker.hpp"
#include "cron.hpp"
#include "diagnostics.hpp"
#include "grammar.hpp"
#include "manifest.hpp"
#include "mcp_schema.hpp"
#include "profile.hpp"
#include "tools.hpp"
#include "value.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

namespace detail {

inline void check_cron_job(checker& c, const value& j, const std::string& path) {
  if (!c.object(j, path)) return;
  if (c.string(c.field(j, "id"), member(path, "id")) && !is_agent_id(j["id"].get<std::string>())) {
    c.issue(member(path, "id"), "Invalid cron job id.");
  }
  if (const value* n = get(j, "name")) c.string(*n, member(path, "name"));
  {
    const std::string sp = member(path, "schedule");
    const value& s = c.field(j, "schedule");
    if (c.object(s, sp)) {
      const bool a = c.string(c.field(s, "cron"), member(sp, "cron"));
      const bool b = c.string(c.field(s, "timezone"), member(sp, "timezone"));
      c.strict(s, sp, {"cron", "timezone"});  // zod 4: unknown keys after the members
      if (a && b &&
          !is_valid_cron(s["cron"].get<std::string>(), s["timezone"].get<std::string>())) {
        c.issue(member(sp, "cron"), "Invalid cron expression or timezone.");
      }
    }
  }
  c.one_of(c.field(j, "session"), member(path, "session"), {"main", "isolated"});
  c.string(c.field(j, "message"), member(path, "message"));
  if (const value* d = get(j, "delivery")) {
    const std::string dp = member(path, "delivery");
    if (c.object(*d, dp)) {
      bool ok = c.one_of(c.field(*d, "mode"), member(dp, "mode"), {"none", "announce"});
      if (const value* ch = get(*d, "channel"))
        ok = c.one_of(*ch, member(dp, "channel"), {"last"}) && ok;
      c.strict(*d, dp, {"mode", "channel"});
      if (ok) {
        const bool none = (*d)["mode"] == "none";
        if (none == d->contains("channel")) {
          c.issue(
              dp,
              "Cron delivery must be {mode: \"none\"} or {mode: \"announce\", channel: \"last\"}.");
        }
      }
    }
  }
  c.strict(j, path, {"id", "name", "schedule", "session", "message", "delivery"});
}

/// An image data URL avatar. Empty string when valid, else the problem.
inline std::string data_url_problem(const std::string& s) {
  if (s.size() > 2796230) return "Avatar data URLs are limited to 2,796,230 characters.";
  const std::size_t comma = s.find(',');
  const std::string meta = s.substr(0, comma);
  const std::string payload = s.substr(comma + 1);
  if (payload.empty()) return "Avatar data URLs need a non-empty payload.";
  const std::string low = text::to_lower_ascii(meta);
  if (low.find(";base64") == std::string::npos) {
    return payload.size() <= 2 * 1024 * 1024 ? "" : "Avatar images are limited to 2 MiB.";
  }
  auto b64 = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
           c == '/';
  };
  if (payload.size() % 4 != 0) return "Avatar data URL payloads must be strict base64.";
  std::size_t pad = 0;
  for (std::size_t k = 0; k < payload.size(); ++k) {
    const char c = payload[k];
    if (c == '=') {
      if (k + 2 < payload.size()) return "Avatar data URL payloads must be strict base64.";
      ++pad;
    } else if (pad || !b64(c)) {
      return "Avatar data URL payloads must be strict base64.";
    }
  }
  const std::size_t decoded = payload.size() / 4 * 3 - pad;
  if (decoded < 1 || decoded > 2 * 1024 * 1024)
    return "Avatar images must decode to 1 byte to 2 MiB.";
  return "";
}

inline bool has_image_extension(const std::string& p) {
  const std::string low = text::to_lower_ascii(p);
  for (const char* ext : {".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg"}) {
    const std::size_t n = std::char_traits<char>::length(ext);
    if (low.size() > n && low.compare(low.size() - n, n, ext) == 0) return true;
  }
  return false;
}

/// `$.agent`: the id (the agent-id grammar), name, description and identity strings.
inline void check_manifest_agent(checker& c, const value& a) {
  if (c.string(c.field(a, "id"), "$.agent.id") && !is_agent_id(a["id"].get<std::string>())) {
    c.issue("$.agent.id",
            "Agent id must start with a lowercase letter and contain only lowercase letters, "
            "digits, underscores, or hyphens.");
  }
  for (const char* k : {"name", "description"})
    if (const value* v = get(a, k)) c.string(*v, member("$.agent", k));
  if (const value* id = get(a, "identity")) {
    if (c.object(*id, "$.agent.identity")) {
      for (const char* k : {"name", "theme", "emoji", "avatar"})
        if (const value* v = get(*id, k)) c.string(*v, member("$.agent.identity", k));
      c.strict(*id, "$.agent.identity", {"name", "theme", "emoji", "avatar"});
    }
  }
  c.strict(a, "$.agent", {"id", "name", "description", "identity"});
}

/// `$.metadata`: canonical keys, string values.
inline void check_manifest_metadata(checker& c, const value& md) {
  if (!c.object(md, "$.metadata")) return;
  for (auto it = md.begin(); it != md.end(); ++it) {
    const std::string p = member("$.metadata", it.key());
    if (!is_canonical(it.key())) c.issue(p, "Metadata keys must be canonical non-empty strings.");
    c.any_string(it.value(), p);
  }
}

/// `$.workspace`: the bootstrap files by name and the `files` list, every path safe.
inline void check_manifest_workspace(checker& c, const value& ws) {
  if (!c.object(ws, "$.workspace")) return;
  if (const value* bf = get(ws, "bootstrapFiles")) {
    const std::string bp = "$.workspace.bootstrapFiles";
    if (c.object(*bf, bp)) {
      for (auto it = bf->begin(); it != bf->end(); ++it) {
        const std::string p = member(bp, it.key());
        if (!c.object(it.value(), p)) continue;
        c.safe_path(c.field(it.value(), "source"), member(p, "source"));
        c.strict(it.value(), p, {"source"});
      }
      c.strict(*bf, bp, {"AGENTS.md", "SOUL.md", "IDENTITY.md", "TOOLS.md", "HEARTBEAT.md"});
    }
  }
  if (const value* files = get(ws, "files")) {
    if (c.array(*files, "$.workspace.files")) {
      for (std::size_t k = 0; k < files->size(); ++k) {
        const std::string p = index("$.workspace.files", k);
        const value& f = (*files)[k];
        if (!c.object(f, p)) continue;
        c.safe_path(c.field(f, "source"), member(p, "source"));
        c.safe_path(c.field(f, "path"), member(p, "path"));
        c.strict(f, p, {"source", "path"});
      }
    }
  }
  c.strict(ws, "$.workspace", {"bootstrapFiles", "files"});  // zod 4: unknown keys last
}

/// `$.packages`: ClawHub skills and plugins pinned to exact versions.
inline void check_manifest_packages(checker& c, const value& pk) {
  if (!c.array(pk, "$.packages")) return;
  for (std::size_t k = 0; k < pk.size(); ++k) {
    const std::string p = index("$.packages", k);
    const value& e = pk[k];
    if (!c.object(e, p)) continue;
    c.one_of(c.field(e, "kind"), member(p, "kind"), {"skill", "plugin"});
    c.one_of(c.field(e, "source"), member(p, "source"), {"clawhub"});
    if (c.string(c.field(e, "ref"), member(p, "ref")) &&
        !is_package_name(e["ref"].get<std::string>())) {
      c.issue(member(p, "ref"),
              "ClawHub package references must use their canonical lowercase name.");
    }
    if (c.string(c.field(e, "version"), member(p, "version")) &&
        !is_semver(e["version"].get<std::string>())) {
      c.issue(member(p, "version"), "Package version must be an exact semantic version.");
    }
    c.strict(e, p, {"kind", "source", "ref", "version"});  // zod 4: unknown keys last
  }
}

/// The strict structure of every top-level member, in schema order.
inline void check_manifest_structure(checker& c, const value& m) {
  c.literal_one(c.field(m, "schemaVersion"), "$.schemaVersion");
  if (c.object(c.field(m, "agent"), "$.agent")) check_manifest_agent(c, m["agent"]);
  if (const value* md = get(m, "metadata")) check_manifest_metadata(c, *md);
  if (const value* ws = get(m, "workspace")) check_manifest_workspace(c, *ws);
  if (const value* pk = get(m, "packages")) check_manifest_packages(c, *pk);
  if (const value* mcp = get(m, "mcpServers")) {
    if (c.object(*mcp, "$.mcpServers")) {
      for (auto it = mcp->begin(); it != mcp->end(); ++it) {
        const std::string p = member("$.mcpServers", it.key());
        if (!is_agent_id(it.key())) {
          c.issue(p, "Invalid MCP server name.");
          continue;
        }
        check_mcp_server(c, it.value(), p);
      }
    }
  }
  if (const value* cj = get(m, "cronJobs")) {
    if (c.array(*cj, "$.cronJobs")) {
      for (std::size_t k = 0; k < cj->size(); ++k)
        check_cron_job(c, (*cj)[k], index("$.cronJobs", k));
    }
  }
  // zod 4 reports an object's unknown keys after its members' issues.
  c.strict(
      m, "$",
      {"schemaVersion", "agent", "metadata", "workspace", "packages", "mcpServers", "cronJobs"});
}

/// `agent` of a structurally valid manifest.
inline manifest_agent normalised_agent(const value& a) {
  const auto opt = [](const value& o, const char* k) -> std::optional<std::string> {
    if (!o.contains(k)) return std::nullopt;
    return o[k].get<std::string>();
  };
  manifest_agent out;
  out.id = a["id"].get<std::string>();
  out.name = opt(a, "name");
  out.description = opt(a, "description");
  if (a.contains("identity")) {
    const value& i = a["identity"];
    out.identity =
        agent_identity{opt(i, "name"), opt(i, "theme"), opt(i, "emoji"), opt(i, "avatar")};
  }
  return out;
}

/// One MCP server of a structurally valid manifest: what the plan asks of it, read here once.
inline mcp_server_decl mcp_server_of(const std::string& name, const value& s) {
  mcp_server_decl out{name, s, {}, false, false};
  if (s.contains("env") && s["env"].is_object())
    for (const auto& v : s["env"])
      if (v.is_string()) out.env_values.push_back(v.get<std::string>());
  out.oauth = s.contains("auth") && s["auth"] == "oauth";
  out.remote = s.contains("url");
  return out;
}

/// One cron job of a structurally valid manifest: its id and whether it delivers to the
/// last channel.
inline cron_job_decl cron_job_of(const value& j) {
  cron_job_decl out{j.contains("id") && j["id"].is_string() ? j["id"].get<std::string>() : "", j,
                    false};
  out.last_channel = j.contains("delivery") && j["delivery"].is_object() &&
                     j["delivery"].contains("channel") && j["delivery"]["channel"] == "last";
  return out;
}

/// The model of a structurally valid `m`: bootstrap files in name order, then `files`,
/// `\` → `/` in paths, absent lists empty.
inline claw_manifest normalised_manifest(const value& m) {
  claw_manifest out;
  out.agent = normalised_agent(m["agent"]);
  if (m.contains("metadata")) {
    for (auto it = m["metadata"].begin(); it != m["metadata"].end(); ++it)
      out.metadata.emplace_back(it.key(), it.value().get<std::string>());
  }
  const value* w = get(m, "workspace");
  if (w != nullptr && w->contains("bootstrapFiles")) {
    for (const char* name : bootstrap_file_names) {
      if (!(*w)["bootstrapFiles"].contains(name)) continue;
      out.bootstrap_files.push_back(workspace_decl{
          forward_slashes((*w)["bootstrapFiles"][name]["source"].get<std::string>()), name});
    }
  }
  if (w != nullptr && w->contains("files")) {
    for (const auto& f : (*w)["files"]) {
      out.files.push_back(workspace_decl{forward_slashes(f["source"].get<std::string>()),
                                         forward_slashes(f["path"].get<std::string>())});
    }
  }
  if (m.contains("packages")) {
    for (const auto& p : m["packages"]) {
      out.packages.push_back(
          package_decl{p["kind"].get<std::string>(), p["source"].get<std::string>(),
                       p["ref"].get<std::string>(), p["version"].get<std::string>()});
    }
  }
  if (m.contains("mcpServers") && m["mcpServers"].is_object())
    for (auto s = m["mcpServers"].begin(); s != m["mcpServers"].end(); ++s)
      out.mcp_servers.push_back(mcp_server_of(s.key(), s.value()));
  if (m.contains("cronJobs") && m["cronJobs"].is_array())
    for (const auto& j : m["cronJobs"]) out.cron_jobs.push_back(cron_job_of(j));
  return out;
}

/// Workspace destinations: each declared once (portable keys) and none the reserved
/// BOOTSTRAP.md.
inline void check_workspace_destinations(checker& c, const claw_manifest& m) {
  std::vector<std::string> keys;
  for (const auto& b : m.bootstrap_files) keys.push_back(portable_key(b.path));
  for (std::size_t k = 0; k < m.files.size(); ++k) {
    const std::string& dest = m.files[k].path;
    const std::string key = portable_key(dest);
    const std::string p = index("$.workspace.files", k) + ".path";
    bool clash = false;
    for (const auto& other : keys) clash = clash || keys_conflict(key, other);
    // Both can hold for one file, reserved first (upstream's order).
    if (keys_conflict(key, "bootstrap.md")) {
      c.issue(p,
              "Package-root BOOTSTRAP.md uses the native seed-once lifecycle and cannot be a "
              "managed workspace destination.");
    }
    if (clash)
      c.issue(p, "Workspace destination " + value(dest).dump() + " is declared more than once.");
    keys.push_back(key);
  }
}

/// Packages (kind, source, case-folded ref) and cron job ids each declared once.
inline void check_unique_declarations(checker& c, const claw_manifest& m) {
  std::set<std::string> packages;
  for (std::size_t k = 0; k < m.packages.size(); ++k) {
    const package_decl& p = m.packages[k];
    const std::string key = p.kind + ":" + p.source + ":" + unicode::to_lower(p.ref);
    if (!packages.insert(key).second) {
      c.issue(index("$.packages", k),
              "Package " + value(p.ref).dump() + " is declared more than once for " + p.kind + ".");
    }
  }
  std::set<std::string> crons;
  for (std::size_t k = 0; k < m.cron_jobs.size(); ++k) {
    const std::string& id = m.cron_jobs[k].id;
    if (!crons.insert(id).second) {
      c.issue(index("$.cronJobs", k) + ".id",
              "Cron job id " + value(id).dump() + " is declared more than once.");
    }
  }
}

/// The avatar: an image data URL, or a safe image path that is a managed workspace file.
inline void check_avatar(checker& c, const claw_manifest& m) {
  if (!m.agent.identity || !m.agent.identity->avatar) return;
  const std::string& av = *m.agent.identity->avatar;
  const std::string p = "$.agent.identity.avatar";
  const std::string low = text::to_lower_ascii(av.substr(0, 11));
  if (low == "data:image/" && av.find(',') != std::string::npos) {
    const std::string problem = data_url_problem(av);
    if (!problem.empty()) c.issue(p, problem);
  } else if (!is_safe_relative_path(av) || !has_image_extension(av)) {
    c.issue(p,
            "Avatars must be an image data URL or a safe workspace-relative image path "
            "(.png, .jpg, .jpeg, .gif, .webp, .svg); remote URLs are not portable.");
  } else {
    const std::string key = portable_key(av);
    bool declared = false;
    for (const auto& f : m.files) declared = declared || portable_key(f.path) == key;
    if (!declared)
      c.issue(p, "Local avatar " + av + " must be a managed workspace.files destination.");
  }
}

}  // namespace detail

/// What validating a manifest gives: the model and its JSON rendering (when valid: the
/// manifest with defaults filled in, in schema key order), and every diagnostic.
struct manifest_result {
  claw_manifest model;
  value manifest;  ///< `to_json(model)`, the form plans, digests and documents carry
  std::vector<diagnostic> diagnostics;
  bool ok() const { return !has_errors(diagnostics); }
};

/// Strict manifest schema v1, then the cross-field rules when the structure
/// is sound. Code `invalid_manifest`, phase `schema`.
inline manifest_result validate_manifest(const value& m) {
  manifest_result r;
  detail::checker c(r.diagnostics, errc::invalid_manifest);
  if (!c.object(m, "$")) return r;
  detail::check_manifest_structure(c, m);
  if (c.aborted()) return r;
  r.model = detail::normalised_manifest(m);
  detail::check_workspace_destinations(c, r.model);
  detail::check_unique_declarations(c, r.model);
  detail::check_avatar(c, r.model);
  r.manifest = to_json(r.model);
  return r;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
