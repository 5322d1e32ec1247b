// SPDX-License-Identifier: MIT
// The OpenClaw profile schema (`profiles/openclaw.yml` or the manifest's pointer): its agent
// settings, tools, memory search, heartbeat and extensions, and the typed profile.
#pragma once

#include "../core/config.hpp"
#include "checker.hpp"
#include "cron.hpp"
#include "manifest.hpp"
#include "tools.hpp"
#include "value.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
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

inline std::vector<std::string> strings_of(const value& tools, const char* key) {
  std::vector<std::string> out;
  if (tools.contains(key) && tools[key].is_array())
    for (const auto& v : tools[key])
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

}  // namespace detail

/// `agent.tools` typed (the fields materialize_tools and the converters read).
inline profile_tools tools_of(const value& t) {
  profile_tools tools;
  if (t.contains("profile") && t["profile"].is_string())
    tools.profile = t["profile"].get<std::string>();
  tools.allow = detail::strings_of(t, "allow");
  tools.has_allow = t.contains("allow");
  tools.also_allow = t.contains("alsoAllow");
  tools.also_allow_tools = detail::strings_of(t, "alsoAllow");
  tools.deny = detail::strings_of(t, "deny");
  if (t.contains("fs")) tools.fs = t["fs"];
  tools.workspace_only = tools.fs && tools.fs->is_object() && tools.fs->contains("workspaceOnly");
  return tools;
}

namespace detail {

/// `tools.allow` / `alsoAllow` / `deny`: non-empty string lists; the grants bounded (no
/// globs, no `group:plugins` or `bundle-mcp`).
inline void check_tool_grants(checker& c, const value& t, const std::string& tp) {
  for (const char* k : {"allow", "alsoAllow", "deny"}) {
    const value* v = get(t, k);
    if (v == nullptr || !c.string_array(*v, member(tp, k), true)) continue;
    if (std::string(k) == "deny") continue;
    for (std::size_t i = 0; i < v->size(); ++i) {
      // Upstream's isBoundedClawToolGrant: no globs, no open-ended set, no unknown group.
      const std::string g = detail::normalize_tool((*v)[i].get<std::string>());
      const bool bounded = g.find_first_of("*?[]{}") == std::string::npos && g != "group:plugins" &&
                           g != "bundle-mcp" &&
                           (g.rfind("group:", 0) != 0 || expand_tool_groups({g}).front() != g);
      if (!bounded) c.issue(index(member(tp, k), i), "Tool grants must be bounded.");
    }
  }
}

/// The cross-field rules of `agent.tools` over the tool catalogue (upstream's superRefine,
/// in its order), once the fields themselves are sound.
inline void check_tool_rules(checker& c, const value& t, const std::string& tp,
                             const std::string& profile) {
  const std::optional<tool_policy> policy =
      profile.empty() ? std::nullopt : tool_profile_policy(profile);
  if (profile == "full" && !t.contains("allow"))
    c.issue(member(tp, "profile"), "The full tool profile requires a bounded explicit allowlist.");
  if (policy && profile != "full" && t.contains("allow")) {
    const std::vector<std::string> profile_allow = expand_tool_groups(policy->allow);
    const bool bundle =
        std::find(profile_allow.begin(), profile_allow.end(), "bundle-mcp") != profile_allow.end();
    for (const auto& g : strings_of(t, "allow")) {
      const bool overlaps =
          std::any_of(profile_allow.begin(), profile_allow.end(),
                      [&](const std::string& tool) { return tool_allowed(tool, {g}); });
      if (!overlaps && !(bundle && concrete_bundle_mcp_tool(g))) {
        c.issue(member(tp, "allow"),
                "Every agent tools allow grant must overlap the selected profile.");
        break;
      }
    }
  }
  if (policy) {
    const std::vector<std::string> snapshot = profile_snapshot_allow(tools_of(t), *policy);
    if (std::find(snapshot.begin(), snapshot.end(), "bundle-mcp") != snapshot.end())
      c.issue(member(tp, "allow"),
              "Profiles containing bundle-mcp require a bounded allowlist of concrete tool names.");
  }
  if (t.contains("alsoAllow") && !t.contains("profile"))
    c.issue(member(tp, "alsoAllow"),
            "Agent tools can set alsoAllow only when a bounded profile is selected.");
  if (t.contains("allow") && t.contains("alsoAllow"))
    c.issue(member(tp, "alsoAllow"),
            "Agent tools cannot set both allow and alsoAllow; use allow alone or profile with "
            "alsoAllow.");
}

/// `agent.tools`: a registered profile, bounded grants, the catalogue's cross-field rules
/// (check_tool_rules), `fs.workspaceOnly` only ever true.
inline void check_profile_tools(checker& c, const value& t, const std::string& tp,
                                const host_catalog& host) {
  if (!c.object(t, tp)) return;
  const std::size_t before = c.count();
  std::string profile;
  if (const value* v = get(t, "profile")) {
    if (c.string(*v, member(tp, "profile"))) {
      profile = v->get<std::string>();
      if (std::find(host.tool_profiles.begin(), host.tool_profiles.end(), profile) ==
          host.tool_profiles.end()) {
        c.issue(member(tp, "profile"),
                "Tool profile must name a registered OpenClaw built-in profile.");
        profile.clear();
      }
    }
  }
  check_tool_grants(c, t, tp);
  if (const value* fsv = get(t, "fs")) {
    const std::string fp = member(tp, "fs");
    if (c.object(*fsv, fp)) {
      // z.literal(true): a Claw cannot weaken host filesystem confinement.
      if (const value* wo = get(*fsv, "workspaceOnly")) {
        if (!(wo->is_boolean() && wo->get<bool>()))
          c.fatal(member(fp, "workspaceOnly"), "Invalid input: expected true");
      }
      c.strict(*fsv, fp, {"workspaceOnly"});
    }
  }
  const bool members_ok = c.count() == before;
  // zod 4: the object's unknown keys after its members, its refinement (the rules) last.
  c.strict(t, tp, {"profile", "allow", "alsoAllow", "deny", "fs"});
  if (members_ok) check_tool_rules(c, t, tp, profile);
}

/// `agent.memory.search`: its members, unknown keys, then the sessions rule (sessions as a
/// source only when remembering across conversations).
inline void check_memory_search(checker& c, const value& search, const std::string& sp) {
  const value* s = &search;
  if (!c.object(*s, sp)) return;
  if (const value* v = get(*s, "enabled")) c.boolean(*v, member(sp, "enabled"));
  bool rac = false;
  if (const value* v = get(*s, "rememberAcrossConversations")) {
    if (c.boolean(*v, member(sp, "rememberAcrossConversations"))) rac = v->get<bool>();
  }
  bool sessions = false;
  if (const value* v = get(*s, "sources")) {
    const std::string srcp = member(sp, "sources");
    if (c.nonempty_array(*v, srcp)) {
      for (std::size_t i = 0; i < v->size(); ++i) {
        if (c.one_of((*v)[i], index(srcp, i), {"memory", "sessions"}) && (*v)[i] == "sessions")
          sessions = true;
      }
    }
  }
  c.strict(*s, sp, {"enabled", "rememberAcrossConversations", "sources"});
  if (sessions && !rac) {
    c.issue(member(sp, "rememberAcrossConversations"),
            "The sessions source requires rememberAcrossConversations: true in the OpenClaw "
            "profile.");  // upstream's words
  }
}

/// `agent.memory`: its `search`, then unknown keys.
inline void check_profile_memory(checker& c, const value& mem, const std::string& mp) {
  if (!c.object(mem, mp)) return;
  if (const value* s = get(mem, "search")) check_memory_search(c, *s, member(mp, "search"));
  c.strict(mem, mp, {"search"});  // zod 4: unknown keys after the members
}

/// `heartbeat.activeHours`: HH:MM start and end (24:00 allowed at the end), an IANA zone.
inline void check_active_hours(checker& c, const value& ah, const std::string& ahp) {
  if (!c.object(ah, ahp)) return;
  auto hhmm = [](const std::string& s, bool allow24) {
    if (allow24 && s == "24:00") return true;
    return s.size() == 5 && s[2] == ':' && s[0] >= '0' && s[0] <= '2' && s[1] >= '0' &&
           s[1] <= '9' && (s[0] < '2' || s[1] <= '3') && s[3] >= '0' && s[3] <= '5' &&
           s[4] >= '0' && s[4] <= '9';
  };
  if (const value* v = get(ah, "start")) {
    if (c.string(*v, member(ahp, "start")) && !hhmm(v->get<std::string>(), false)) {
      c.issue(member(ahp, "start"), "activeHours.start must be HH:MM between 00:00 and 23:59.");
    }
  }
  if (const value* v = get(ah, "end")) {
    if (c.string(*v, member(ahp, "end")) && !hhmm(v->get<std::string>(), true)) {
      c.issue(member(ahp, "end"),
              "activeHours.end must be HH:MM between 00:00 and 23:59, or 24:00.");
    }
  }
  if (const value* v = get(ah, "timezone")) {
    if (c.string(*v, member(ahp, "timezone")) && !is_timezone(v->get<std::string>())) {
      c.issue(member(ahp, "timezone"), "activeHours.timezone must be a valid IANA time zone.");
    }
  }
  c.strict(ah, ahp, {"start", "end", "timezone"});  // zod 4: unknown keys after the members
}

/// `agent.heartbeat`: the retired skipWhenBusy first, then unknown keys, the duration,
/// the active hours, the flags and the timeout.
inline void check_profile_heartbeat(checker& c, const value& h, const std::string& hp,
                                    std::vector<diagnostic>& out) {
  if (!c.object(h, hp)) return;
  if (h.contains("skipWhenBusy")) {
    c.issue(hp, "heartbeat.skipWhenBusy is retired; remove it.");  // at the heartbeat, as upstream
  }
  if (const value* v = get(h, "every")) {
    double ms = 0;
    if (c.string(*v, member(hp, "every")) && !parse_duration_ms(v->get<std::string>(), ms)) {
      c.issue(member(hp, "every"), "Invalid heartbeat duration.");
    }
  }
  if (const value* ah = get(h, "activeHours"))
    check_active_hours(c, *ah, member(hp, "activeHours"));
  for (const char* k : {"lightContext", "isolatedSession"})
    if (const value* v = get(h, k)) c.boolean(*v, member(hp, k));
  if (const value* v = get(h, "timeoutSeconds")) c.integer(*v, member(hp, "timeoutSeconds"), 1);
  // zod 4: unknown keys after the members (not aborting the outer refinements).
  std::vector<diagnostic> unk;
  checker u(unk, errc::invalid_manifest);
  u.strict(h, hp,
           {"every", "activeHours", "lightContext", "isolatedSession", "timeoutSeconds",
            "skipWhenBusy"});
  for (auto& d : unk) out.push_back(d);
}

/// The profile's `agent`: the legacy model/subagents refusal (naming the fields and `file`,
/// the profile's package path), unknown keys, then each setting group in schema order.
inline void check_profile_agent(checker& c, const value& a, const std::string& ap,
                                const host_catalog& host, const std::string& file,
                                std::vector<diagnostic>& out) {
  std::vector<std::string> legacy;
  for (const char* k : {"model", "subagents"}) {
    if (!a.contains(k)) continue;
    if (a[k].is_object()) {
      legacy.push_back(std::string("agent.") + k);
    } else {  // upstream's schema (2026.9.6) has both as objects: its type error, in its words
      c.issue(member(ap, k), "Invalid input: expected object, received " + type_name(a[k]));
    }
  }
  if (!legacy.empty()) {
    const std::string fields = legacy.size() == 1 ? legacy[0] : legacy[0] + " and " + legacy[1];
    out.push_back(error_at(errc::legacy_openclaw_profile_requires_conversion, phase::schema, ap,
                           "Released-v1 OpenClaw profile contains " + fields +
                               ". Copy the package and remove these fields from " + file +
                               "; configure model and delegation on the host, then run claws "
                               "add --dry-run for a fresh consent plan."));
  }
  std::vector<diagnostic> unknown;
  {
    checker u(unknown, errc::invalid_manifest);
    u.strict(a, ap,
             {"model", "subagents", "groupChat", "sandbox", "tools", "memory", "heartbeat",
              "humanDelay"});
  }
  for (auto& d : unknown) out.push_back(d);
  if (const value* g = get(a, "groupChat")) {
    const std::string gp = member(ap, "groupChat");
    if (c.object(*g, gp)) {
      if (const value* mp = get(*g, "mentionPatterns"))
        c.string_array(*mp, member(gp, "mentionPatterns"), true);
      c.strict(*g, gp, {"mentionPatterns"});
    }
  }
  if (const value* s = get(a, "sandbox")) {
    const std::string sp = member(ap, "sandbox");
    if (c.object(*s, sp)) {
      if (const value* v = get(*s, "mode"))
        c.one_of(*v, member(sp, "mode"), {"off", "non-main", "all"});
      if (const value* v = get(*s, "scope"))
        c.one_of(*v, member(sp, "scope"), {"session", "agent", "shared"});
      if (const value* v = get(*s, "workspaceAccess"))
        c.one_of(*v, member(sp, "workspaceAccess"), {"none", "ro", "rw"});
      c.strict(*s, sp, {"mode", "scope", "workspaceAccess"});
    }
  }
  if (const value* t = get(a, "tools")) check_profile_tools(c, *t, member(ap, "tools"), host);
  if (const value* mem = get(a, "memory")) check_profile_memory(c, *mem, member(ap, "memory"));
  if (const value* h = get(a, "heartbeat"))
    check_profile_heartbeat(c, *h, member(ap, "heartbeat"), out);
  if (const value* hd = get(a, "humanDelay")) {
    const std::string hp = member(ap, "humanDelay");
    if (c.object(*hd, hp)) {
      if (const value* v = get(*hd, "mode"))
        c.one_of(*v, member(hp, "mode"), {"off", "natural", "custom"});
      for (const char* k : {"minMs", "maxMs"})
        if (const value* v = get(*hd, k)) c.integer(*v, member(hp, k), 0);
      c.strict(*hd, hp, {"mode", "minMs", "maxMs"});
    }
  }
}

/// One `extensions[k]` entry; `ids` and `refs` collect what earlier entries declared.
inline void check_profile_extension(checker& c, const value& e, const std::string& xp,
                                    std::set<std::string>& ids, std::set<std::string>& refs) {
  if (!c.object(e, xp)) return;
  if (c.string(c.field(e, "id"), member(xp, "id"))) {
    if (!is_agent_id(e["id"].get<std::string>()))
      c.issue(member(xp, "id"), "Invalid extension id.");
    if (!ids.insert(e["id"].get<std::string>()).second)
      c.issue(member(xp, "id"), "Extension ids must be unique.");
  }
  c.one_of(c.field(e, "kind"), member(xp, "kind"), {"plugin"});
  c.one_of(c.field(e, "format"), member(xp, "format"), {"openclaw", "claude", "codex", "cursor"});
  c.one_of(c.field(e, "source"), member(xp, "source"), {"clawhub"});
  if (c.string(c.field(e, "ref"), member(xp, "ref"))) {
    if (!is_package_name(e["ref"].get<std::string>())) {
      c.issue(member(xp, "ref"), "Extension refs must be canonical ClawHub package names.");
    }
    if (!refs.insert(unicode::to_lower(e["ref"].get<std::string>())).second) {
      c.issue(member(xp, "ref"), "Extension refs must be unique.");
    }
  }
  if (c.string(c.field(e, "version"), member(xp, "version")) &&
      !is_semver(e["version"].get<std::string>())) {
    c.issue(member(xp, "version"), "Extension versions must be exact SemVer versions.");
  }
  c.strict(e, xp, {"id", "kind", "format", "source", "ref", "version"});  // zod 4: last
}

}  // namespace detail

/// What validating a profile gives: the profile (defaults filled in) and its diagnostics.
/// `agent.sandbox` of a valid profile, with OpenClaw's defaults for what it leaves out.
struct profile_sandbox {
  std::string mode = "off";             ///< off | non-main | all
  std::string scope = "agent";          ///< session | agent | shared
  std::string workspace_access = "rw";  ///< none | ro | rw
};

/// A valid OpenClaw profile. `agent` keeps the settings as written, since `claw add` merges
/// them into the agent's entry of openclaw.json; what clawport itself decides on is typed.
struct openclaw_profile {
  value agent = value::object();
  std::optional<profile_tools> tools;
  std::optional<profile_sandbox> sandbox;
  value extensions = value::array();  ///< the plugin entries as written (the add plan shows them)

  /// Whether `agent` sets `setting` (groupChat, memory, heartbeat, humanDelay, ...).
  bool sets(const std::string& setting) const { return agent.contains(setting); }
};

/// The profile document `{schemaVersion: 1, agent, extensions}` (`claw inspect` shows it).
inline value to_json(const openclaw_profile& p) {
  value out = value::object();
  out["schemaVersion"] = 1;
  out["agent"] = p.agent;
  out["extensions"] = p.extensions;
  return out;
}

struct profile_result {
  openclaw_profile profile;
  std::vector<diagnostic> diagnostics;
  bool ok() const { return !has_errors(diagnostics); }
};

namespace detail {

inline std::vector<std::string> profile_strings(const value& list) {
  std::vector<std::string> out;
  for (const auto& s : list) out.push_back(s.get<std::string>());
  return out;
}

/// The typed profile of `p`, which validate_profile found valid.
inline openclaw_profile typed_profile(const value& p) {
  openclaw_profile out;
  out.agent = p.at("agent");
  if (const value* ex = get(p, "extensions")) out.extensions = *ex;
  if (const value* t = get(out.agent, "tools")) {
    out.tools = tools_of(*t);
  }
  if (const value* s = get(out.agent, "sandbox")) {
    profile_sandbox sandbox;
    if (const value* v = get(*s, "mode")) sandbox.mode = v->get<std::string>();
    if (const value* v = get(*s, "scope")) sandbox.scope = v->get<std::string>();
    if (const value* v = get(*s, "workspaceAccess"))
      sandbox.workspace_access = v->get<std::string>();
    out.sandbox = std::move(sandbox);
  }
  return out;
}

}  // namespace detail

/// The strict OpenClaw profile schema. `root` is where diagnostics are rooted
/// (`$.profiles.openclaw` or `$.metadata.openclaw.config`); `file` is the profile's package
/// path, named in messages. Code `invalid_manifest`, as upstream's schema errors of a profile.
inline profile_result validate_profile(const value& p, const std::string& root,
                                       const host_catalog& host = {},
                                       const std::string& file = "profiles/openclaw.yml") {
  profile_result r;
  detail::checker c(r.diagnostics, errc::invalid_manifest);
  if (!c.object(p, root)) return r;
  c.literal_one(c.field(p, "schemaVersion"), member(root, "schemaVersion"));
  const std::string ap = member(root, "agent");
  if (c.object(c.field(p, "agent"), ap))
    detail::check_profile_agent(c, p["agent"], ap, host, file, r.diagnostics);
  if (const value* ex = detail::get(p, "extensions")) {
    const std::string ep = member(root, "extensions");
    if (c.array(*ex, ep)) {
      std::set<std::string> ids;
      std::set<std::string> refs;
      for (std::size_t k = 0; k < ex->size(); ++k)
        detail::check_profile_extension(c, (*ex)[k], index(ep, k), ids, refs);
    }
  }
  c.strict(p, root, {"schemaVersion", "agent", "extensions"});  // zod 4: unknown keys last
  if (!r.diagnostics.empty()) return r;
  r.profile = detail::typed_profile(p);
  return r;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
