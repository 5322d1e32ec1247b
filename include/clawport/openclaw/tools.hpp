// SPDX-License-Identifier: MIT
// A Claw profile's `tools` as upstream's claws add persists them (openclaw 2026.9.6,
// src/claws/reader materializeClawToolProfile over src/agents/tool-policy-shared and
// tool-policy-match): the built-in profile resolved through the generated tool catalogue
// (tool_catalog.hpp, tools/gen_openclaw_tools.py), groups expanded, aliases applied, and the
// result pinned as `{profile: "full", allow: [...]}` so a later catalogue cannot widen it.
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"
#include "tool_catalog.hpp"
#include "value.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// A tool profile's allow and deny lists (upstream's resolveToolProfilePolicy).
struct tool_policy {
  std::vector<std::string> allow;
  std::vector<std::string> deny;
};

namespace detail {

inline std::vector<std::string> tool_list(const tool_catalog::named_list& l) {
  return std::vector<std::string>(l.items, l.items + l.size);
}

/// A tool name as policies compare it: trimmed, lowercased, its alias resolved.
inline std::string normalize_tool(std::string_view name) {
  while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.remove_prefix(1);
  while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
  std::string s = text::to_lower_ascii(name);
  for (const auto& a : tool_catalog::aliases)
    if (s == a[0]) return std::string(a[1]);
  return s;
}

/// Whether `name` matches the glob `pattern` (`*` any run of characters).
inline bool tool_glob(std::string_view name, std::string_view pattern) {
  if (pattern == "*") return true;
  std::size_t n = 0, p = 0, star = std::string_view::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

/// `<server>__<tool>`: a concrete tool of a bundled MCP server
/// (`^[A-Za-z][A-Za-z0-9_-]*__[A-Za-z][A-Za-z0-9_-]*$`, at most 64 characters).
inline bool concrete_bundle_mcp_tool(std::string_view s) {
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  const auto word = [&](char c) {
    return letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '-';
  };
  if (s.empty() || s.size() > 64 || !letter(s[0]) || !std::all_of(s.begin(), s.end(), word))
    return false;
  for (std::size_t i = 1; i + 2 < s.size(); ++i)
    if (s[i] == '_' && s[i + 1] == '_' && letter(s[i + 2])) return true;
  return false;
}

}  // namespace detail

/// A built-in profile's policy; none for a name the catalogue does not know.
inline std::optional<tool_policy> tool_profile_policy(std::string_view id) {
  for (const auto& p : tool_catalog::profiles)
    if (p.id == id) return tool_policy{detail::tool_list(p.allow), detail::tool_list(p.deny)};
  return std::nullopt;
}

/// The profile ids the catalogue knows, and those whose resolution holds `bundle-mcp`.
inline std::vector<std::string> tool_profile_ids(bool bundle_mcp_only = false) {
  std::vector<std::string> out;
  for (const auto& p : tool_catalog::profiles) {
    const auto allow = detail::tool_list(p.allow);
    if (!bundle_mcp_only || std::find(allow.begin(), allow.end(), "bundle-mcp") != allow.end())
      out.emplace_back(p.id);
  }
  return out;
}

/// Tool names normalised, groups expanded to their members, duplicates and blanks dropped
/// (upstream's expandToolGroups).
inline std::vector<std::string> expand_tool_groups(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  const auto add = [&](std::string s) {
    if (!s.empty() && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  };
  for (const auto& raw : names) {
    const std::string n = detail::normalize_tool(raw);
    const tool_catalog::named_list* group = nullptr;
    for (const auto& g : tool_catalog::groups)
      if (g.name == n) group = &g;
    if (group == nullptr) {
      add(n);
      continue;
    }
    for (const auto& member : detail::tool_list(*group)) add(member);
  }
  return out;
}

/// Whether `tool` is allowed by the allow list `allow` (globs, groups; `write` allows
/// `apply_patch`), as upstream's isToolAllowedByPolicyName with no deny list.
inline bool tool_allowed(const std::string& tool, const std::vector<std::string>& allow) {
  const std::vector<std::string> patterns = expand_tool_groups(allow);
  if (patterns.empty()) return true;
  const std::string name = detail::normalize_tool(tool);
  const auto any = [&](const std::string& n) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& p) { return detail::tool_glob(n, p); });
  };
  return any(name) || (name == "apply_patch" && any("write"));
}

/// `agent.tools` of a profile, typed by the profile reader (profile.hpp `tools_of`).
struct profile_tools {
  std::optional<std::string> profile;  ///< a registered built-in tool profile
  std::vector<std::string> allow;
  bool has_allow = false;                     ///< `allow` is set
  bool also_allow = false;                    ///< `alsoAllow` is set (it extends `profile`)
  std::vector<std::string> also_allow_tools;  ///< `alsoAllow`'s entries
  std::vector<std::string> deny;
  bool workspace_only = false;  ///< `fs.workspaceOnly` (it may only be true)
  std::optional<value> fs;      ///< `fs` as written (claws add keeps it)
};

namespace detail {

/// The allow list a profile with the Claw's grants resolves to (resolveClawToolProfileSnapshot).
inline std::vector<std::string> profile_snapshot_allow(const profile_tools& tools,
                                                       const tool_policy& profile) {
  const std::vector<std::string> profile_allow = expand_tool_groups(profile.allow);
  const auto has = [&](const char* t) {
    return std::find(profile_allow.begin(), profile_allow.end(), t) != profile_allow.end();
  };
  if (!tools.has_allow) {
    std::vector<std::string> all = profile.allow;
    for (auto& a : tools.also_allow_tools) all.push_back(a);
    return expand_tool_groups(all);
  }
  const std::vector<std::string>& grants = tools.allow;
  if (has("*")) return expand_tool_groups(grants);
  std::vector<std::string> out;
  for (const auto& t : profile_allow)
    if (tool_allowed(t, grants)) out.push_back(t);
  if (has("bundle-mcp"))
    for (const auto& g : grants)
      if (concrete_bundle_mcp_tool(g) && std::find(out.begin(), out.end(), g) == out.end())
        out.push_back(g);
  return out;
}

}  // namespace detail

/// A profile's `tools` as claws add persists them (materializeClawToolProfile): without a
/// profile, the grants expanded (`full` + allow when there are any); with one, the
/// profile's tools narrowed to the grants, pinned as `{profile: "full", allow, deny?, fs?}`.
/// `as_written` (the same tools as JSON) unchanged when the profile is unknown or resolves to
/// nothing bounded (the schema refuses those: a bounded allowlist is required).
inline value materialize_tools(const profile_tools& tools, const value& as_written) {
  value out = value::object();
  if (!tools.profile) {
    const auto allow = expand_tool_groups(tools.allow);
    const auto deny = expand_tool_groups(tools.deny);
    if (!allow.empty()) {
      out["profile"] = "full";
      out["allow"] = allow;
    }
    if (tools.also_allow) out["alsoAllow"] = expand_tool_groups(tools.also_allow_tools);
    if (!deny.empty()) out["deny"] = deny;
    if (tools.fs) out["fs"] = *tools.fs;
    return out;
  }
  const auto profile = tool_profile_policy(*tools.profile);
  if (!profile) return as_written;
  const std::vector<std::string> allow = detail::profile_snapshot_allow(tools, *profile);
  if (allow.empty() || std::find(allow.begin(), allow.end(), "bundle-mcp") != allow.end())
    return as_written;
  std::vector<std::string> deny_in = profile->deny;
  for (auto& d : tools.deny) deny_in.push_back(d);
  const auto deny = expand_tool_groups(deny_in);
  out["profile"] = "full";
  out["allow"] = allow;
  if (!deny.empty()) out["deny"] = deny;
  if (tools.fs) out["fs"] = *tools.fs;
  return out;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
