// SPDX-License-Identifier: MIT
// Scanning skill directories and an agent's effective skill set (docs/library.md, Skills,
// docs/library.md, Skills), through the Fs policy. Entries are visited in byte order of their names
// where upstream uses the unspecified `read_dir` order, so "first wins" is deterministic here.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../fs/policy.hpp"
#include "../fs/read_file.hpp"
#include "audit.hpp"
#include "filter.hpp"
#include "locations.hpp"
#include "manifest.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// A skill the scan kept.
struct loaded_skill {
  skill data;
  std::string dir_name;  ///< the directory's name (not the logical name)
  std::string location;  ///< path of the manifest actually read
  manifest_kind manifest = manifest_kind::skill_md;
  audit_report audit;  ///< clean, but may hold non-blocking findings
};

/// Why the scan dropped a skill (upstream `DroppedReason`).
enum class drop_reason { audit_error, audit_findings, manifest_parse_error };

/// Wire name: `audit_error`, `audit_findings`, `manifest_parse_error`.
inline constexpr std::string_view drop_reason_names[] = {"audit_error", "audit_findings",
                                                         "manifest_parse_error"};
constexpr std::string_view to_string(drop_reason r) noexcept {
  return wire_name<drop_reason::manifest_parse_error>(r, drop_reason_names, "audit_error");
}

/// A skill the scan dropped. `name` is the directory name (upstream's dropped record).
struct dropped_skill {
  std::string name;
  std::string location;  ///< the skill directory
  drop_reason reason = drop_reason::audit_error;
  std::string detail;  ///< the error text or the audit summary
  bool scripts_blocked = false;
  audit_report audit;  ///< for audit_findings
};

/// Result of scanning one skills directory.
struct scan_result {
  std::vector<loaded_skill> skills;
  std::vector<dropped_skill> dropped;
};

namespace detail {

/// A manifest's text, read by fs::read_file's rule; nullopt when absent, a symlink or not a
/// regular file. Past audit_max_text_bytes: errc::limit_exceeded.
template <class Fs>
std::optional<std::string> read_small_file(Fs& fs, const typename Fs::dir& d,
                                           std::string_view name) {
  fs::read_result r =
      fs::try_read_file_at(fs, d, name, audit_max_text_bytes, fs::read_kinds::hard_linked);
  switch (r.refusal) {
    case fs::read_refusal::none:
      return std::move(r.bytes);
    case fs::read_refusal::missing:
    case fs::read_refusal::symlink:
    case fs::read_refusal::not_regular:
      return std::nullopt;
    default:
      throw fs::read_refusal_error(r.refusal, std::string(name), audit_max_text_bytes);
  }
}

}  // namespace detail

/// A skill directory's manifest, read through the directory's handle (never by path, and
/// a symlinked manifest is not followed). `data` is empty when the directory holds no
/// readable SKILL.md (the runtime then skips it without a record).
struct manifest_read {
  manifest_kind kind = manifest_kind::skill_md;
  std::string file;  ///< the manifest's name in the directory
  std::optional<skill> data;
};

/// Reads the skill in the opened directory `sd` named `dir_name` the way the runtime
/// does: SKILL.toml › manifest.toml › SKILL.md, the first present wins with no fallback.
/// Throws `errc::config_parse` / `errc::skill_invalid` for a TOML manifest that does not
/// parse or is not a regular file (the runtime drops such a skill).
template <class Fs>
manifest_read read_skill_at(Fs& fs, const typename Fs::dir& sd, std::string_view dir_name) {
  manifest_read out;
  if (fs.stat_at(sd, "SKILL.toml")) {
    out.kind = manifest_kind::skill_toml;
  } else if (fs.stat_at(sd, "manifest.toml")) {
    out.kind = manifest_kind::manifest_toml;
  }
  out.file = std::string(manifest_file(out.kind));
  const auto text = detail::read_small_file(fs, sd, out.file);
  if (out.kind != manifest_kind::skill_md) {
    if (!text) throw error(errc::skill_invalid, out.file + " is not a regular file", out.file);
    out.data = parse_skill_toml(*text, out.file);
  } else if (text) {
    out.data = skill_from_markdown(*text, dir_name);
  }
  return out;
}

/// The logical name of the skill in the opened directory `sd` (its manifest's name, as
/// the runtime and `skills list --agent` use it for include/exclude); the directory name
/// when no manifest can be read, which is also the name the runtime's dropped record uses.
/// The exporter filters a bundle's skills by this name, so the two can never disagree.
template <class Fs>
std::string skill_name_at(Fs& fs, const typename Fs::dir& sd, std::string_view dir_name) {
  try {
    manifest_read m = read_skill_at(fs, sd, dir_name);
    if (m.data) return std::move(m.data->name);
  } catch (const error& e) {
    if (e.code() != errc::config_parse && e.code() != errc::skill_invalid &&
        e.code() != errc::limit_exceeded) {
      throw;
    }
  }
  return std::string(dir_name);
}

/// Scans one directory one level deep (upstream `load_skills_from_directory`): every
/// sub-directory (a symlink to one is followed, as upstream does) is audited, then read
/// from SKILL.toml › manifest.toml › SKILL.md. A TOML manifest that fails to parse drops
/// the skill with no fallback to SKILL.md. A missing directory gives an empty result.
template <class Fs>
scan_result scan_skills_directory(Fs& fs, const std::string& dir, const audit_options& opt = {}) {
  static_assert(fs::check_policy<Fs>());
  scan_result out;
  std::optional<typename Fs::dir> root;
  try {
    root.emplace(fs.open_root(dir));
  } catch (const error&) {
    return out;  // absent or unlistable: nothing to load, as upstream
  }
  std::vector<std::string> names;
  fs.for_each_entry(*root, [&](std::string_view n) { names.emplace_back(n); });
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    if (!utf8::valid(name)) continue;
    const auto st = fs.stat_at(*root, name);
    if (!st) continue;
    const std::string skill_dir = paths::join(dir, name);
    if (st->kind == fs::file_kind::symlink) {
      try {
        (void)fs.open_root(skill_dir);  // a candidate only if it leads to a directory
      } catch (const error&) {
        continue;
      }
    } else if (st->kind != fs::file_kind::directory) {
      continue;  // loose files at this level are ignored
    }
    dropped_skill drop{name, skill_dir, drop_reason::audit_error, {}, false, {}};
    audit_report report;
    try {
      report = audit_skill_directory(fs, skill_dir, opt);
    } catch (const error& e) {
      drop.detail = e.what();
      out.dropped.push_back(std::move(drop));
      continue;
    }
    if (!report.clean()) {
      drop.reason = drop_reason::audit_findings;
      drop.detail = report.summary();
      drop.scripts_blocked = report.scripts_blocked;
      drop.audit = std::move(report);
      out.dropped.push_back(std::move(drop));
      continue;
    }
    try {
      auto sd = fs.open_root(skill_dir);
      manifest_read m = read_skill_at(fs, sd, name);
      if (!m.data) continue;  // upstream skips an unreadable SKILL.md without a record
      out.skills.push_back(
          {std::move(*m.data), name, paths::join(skill_dir, m.file), m.kind, std::move(report)});
    } catch (const error& e) {
      drop.reason = drop_reason::manifest_parse_error;
      drop.detail = e.what();
      out.dropped.push_back(std::move(drop));
    }
  }
  return out;
}

/// Where a skill in an agent's view comes from.
enum class skill_origin { workspace, bundle, global };

/// Wire name: `workspace`, `bundle`, `global`.
inline constexpr std::string_view skill_origin_names[] = {"workspace", "bundle", "global"};
constexpr std::string_view to_string(skill_origin o) noexcept {
  return wire_name<skill_origin::global>(o, skill_origin_names, "workspace");
}

/// Why a skill an agent could see is not loaded.
enum class skill_status { loaded, excluded, shadowed, dropped, global_only };

/// Wire name: `loaded`, `excluded`, `shadowed`, `dropped`, `global_only`.
inline constexpr std::string_view skill_status_names[] = {"loaded", "excluded", "shadowed",
                                                          "dropped", "global_only"};
constexpr std::string_view to_string(skill_status s) noexcept {
  return wire_name<skill_status::global_only>(s, skill_status_names, "loaded");
}

/// One row of an agent's (or a bundle's) skill view.
struct skill_entry {
  std::string name;  ///< logical name; the directory name for dropped skills
  skill_origin origin = skill_origin::workspace;
  std::string bundle;  ///< bundle alias, empty unless origin is `bundle`
  std::string path;    ///< manifest file when read, else the skill directory
  skill_status status = skill_status::loaded;
  std::string reason;  ///< empty when loaded
  std::optional<drop_reason> drop;
  std::optional<skill> data;  ///< when a manifest was read
  bool loaded() const { return status == skill_status::loaded; }
};

/// An agent's skills: `entries` holds loaded skills in precedence order, then every skill
/// it does not load with the reason; `warnings` names bundles that could not be used.
struct skill_view {
  std::vector<skill_entry> entries;
  std::vector<std::string> warnings;
};

namespace detail {

inline skill_entry dropped_entry(dropped_skill&& d, skill_origin origin, std::string bundle) {
  skill_entry e;
  e.name = std::move(d.name);
  e.origin = origin;
  e.bundle = std::move(bundle);
  e.path = std::move(d.location);
  e.status = skill_status::dropped;
  e.drop = d.reason;
  switch (d.reason) {
    case drop_reason::audit_findings:
      e.reason = "failed audit: " + d.detail;
      if (d.scripts_blocked) e.reason += " (set `skills.allow_scripts = true` to allow scripts)";
      break;
    case drop_reason::audit_error:
      e.reason = "unauditable: " + d.detail;
      break;
    case drop_reason::manifest_parse_error:
      e.reason = "manifest parse error: " + d.detail;
      break;
  }
  return e;
}

inline skill_entry loaded_entry(loaded_skill&& s, skill_origin origin, std::string bundle) {
  skill_entry e;
  e.name = s.data.name;
  e.origin = origin;
  e.bundle = std::move(bundle);
  e.path = std::move(s.location);
  e.data = std::move(s.data);
  return e;
}

inline void order_loaded_first(skill_view& view) {
  std::stable_partition(view.entries.begin(), view.entries.end(),
                        [](const skill_entry& e) { return e.loaded(); });
}

}  // namespace detail

/// Where to look: the install root (directory of config.toml) and the data directory
/// (`<install>/data` unless ZEROCLAW_DATA_DIR says otherwise; the caller decides).
struct install_paths {
  std::string install_root;
  std::string data_dir;  ///< empty: `<install>/data`
  std::string data() const {
    return data_dir.empty() ? paths::join(install_root, "data") : data_dir;
  }
};

/// An agent's effective skill set (upstream `load_skills_for_agent_audited`, docs/library.md,
/// Skills): its workspace skills, then each bundle it lists, in list order, through the bundle's
/// filter; a name already taken is shadowed. Global skills are listed as `global_only`.
/// Open-skills and plugin skills are not modelled (both are opt-in upstream features
/// that live outside the install). Throws `errc::unknown_agent` for an unknown alias.
template <class Fs>
skill_view agent_skills(Fs& fs, const skills_config& cfg, const install_paths& where,
                        std::string_view agent) {
  const auto ait = cfg.agents.find(std::string(agent));
  if (ait == cfg.agents.end()) {
    throw error(errc::unknown_agent, "agent '" + std::string(agent) + "' is not configured",
                "agents." + std::string(agent));
  }
  const audit_options opt{cfg.allow_scripts};
  skill_view view;
  std::set<std::string> seen;
  std::vector<std::pair<std::string, std::string>> winners;  // name -> who loaded it
  const auto winner_of = [&](const std::string& name) {
    for (const auto& w : winners) {
      if (w.first == name) return w.second;
    }
    return std::string("an earlier skill");
  };
  scan_result ws = scan_skills_directory(
      fs, paths::join(agent_workspace_dir(cfg, where.install_root, agent), "skills"), opt);
  for (auto& d : ws.dropped)
    view.entries.push_back(detail::dropped_entry(std::move(d), skill_origin::workspace, {}));
  for (auto& s : ws.skills) {
    seen.insert(s.data.name);
    winners.emplace_back(s.data.name, "the workspace");
    view.entries.push_back(detail::loaded_entry(std::move(s), skill_origin::workspace, {}));
  }
  for (const std::string& raw_alias : ait->second.skill_bundles) {
    const std::string alias(text::trim(raw_alias));
    if (alias.empty()) continue;
    const auto bit = cfg.bundles.find(alias);
    if (bit == cfg.bundles.end()) {
      view.warnings.push_back("agents." + std::string(agent) + ".skill_bundles names '" + alias +
                              "' but skill_bundles." + alias +
                              " is not configured; the runtime skips it");
      continue;
    }
    const std::string dir = resolve_directory(cfg, where.install_root, alias);
    try {
      validate_directory(dir, where.install_root);
    } catch (const error& e) {
      view.warnings.push_back(std::string(e.what()) + " (skill_bundles." + alias +
                              ".directory); zeroclaw refuses this config at startup");
    }
    scan_result sr = scan_skills_directory(fs, dir, opt);
    for (auto& d : sr.dropped) {
      view.entries.push_back(detail::dropped_entry(std::move(d), skill_origin::bundle, alias));
    }
    for (auto& s : sr.skills) {
      const std::string name = s.data.name;
      skill_entry e = detail::loaded_entry(std::move(s), skill_origin::bundle, alias);
      if (!bit->second.filter.admits_skill(name)) {
        e.status = skill_status::excluded;
        e.reason = "excluded by skill_bundles." + alias + " (" +
                   std::string(bit->second.filter.rejection(name)) + ")";
      } else if (seen.count(name)) {
        e.status = skill_status::shadowed;
        e.reason = "shadowed by '" + name + "' from " + winner_of(name);
      } else {
        seen.insert(name);
        winners.emplace_back(name, "bundle " + alias);
      }
      view.entries.push_back(std::move(e));
    }
  }
  scan_result gl = scan_skills_directory(fs, global_skills_dir(where.data()), opt);
  for (auto& d : gl.dropped)
    view.entries.push_back(detail::dropped_entry(std::move(d), skill_origin::global, {}));
  for (auto& s : gl.skills) {
    skill_entry e = detail::loaded_entry(std::move(s), skill_origin::global, {});
    e.status = skill_status::global_only;
    e.reason = "global only: agents never load the global skills directory";
    view.entries.push_back(std::move(e));
  }
  detail::order_loaded_first(view);
  return view;
}

/// The skills of one bundle as `skills list --bundle` shows them: audited and parsed,
/// but the bundle's include/exclude is NOT applied (upstream does not either).
template <class Fs>
skill_view bundle_skills(Fs& fs, const skills_config& cfg, const install_paths& where,
                         std::string_view alias) {
  const std::string dir = resolve_directory(cfg, where.install_root, alias);
  skill_view view;
  scan_result sr = scan_skills_directory(fs, dir, audit_options{cfg.allow_scripts});
  for (auto& s : sr.skills) {
    view.entries.push_back(
        detail::loaded_entry(std::move(s), skill_origin::bundle, std::string(alias)));
  }
  for (auto& d : sr.dropped) {
    view.entries.push_back(
        detail::dropped_entry(std::move(d), skill_origin::bundle, std::string(alias)));
  }
  return view;
}

/// Every configured bundle (in alias order) and the global directory, unfiltered.
template <class Fs>
skill_view all_skills(Fs& fs, const skills_config& cfg, const install_paths& where) {
  skill_view view;
  for (const auto& b : cfg.bundles) {
    skill_view one = bundle_skills(fs, cfg, where, b.first);
    for (auto& e : one.entries) view.entries.push_back(std::move(e));
  }
  scan_result gl =
      scan_skills_directory(fs, global_skills_dir(where.data()), audit_options{cfg.allow_scripts});
  for (auto& s : gl.skills) {
    skill_entry e = detail::loaded_entry(std::move(s), skill_origin::global, {});
    e.status = skill_status::global_only;
    e.reason = "global only: agents never load the global skills directory";
    view.entries.push_back(std::move(e));
  }
  for (auto& d : gl.dropped)
    view.entries.push_back(detail::dropped_entry(std::move(d), skill_origin::global, {}));
  detail::order_loaded_first(view);
  return view;
}

/// The name of a listed skill's directory: what `skills remove` and `skills test` take and
/// completion offers (`skills list` shows a read manifest's name, which may differ).
inline std::string directory_name_of(const skill_entry& e) {
  return paths::file_name(e.data ? paths::parent(e.path) : e.path);
}

/// `e`, a lookup's errc::not_found for skill `name`, told with the directory to use when a
/// configured bundle's or the global directory's skill is named `name` by its manifest
/// ("skill `house_tone` is the directory `tone` in bundle house_style: use `tone`"); else
/// `e` as it is.
template <class Fs>
error with_directory_hint(Fs& fs, const skills_config& cfg, const install_paths& where,
                          const std::string& name, const error& e) {
  if (e.code() != errc::not_found) return e;
  std::string hint;
  try {
    for (const skill_entry& s : all_skills(fs, cfg, where).entries) {
      const std::string dir = directory_name_of(s);
      if (s.name != name || dir == name) continue;
      const std::string in =
          s.bundle.empty() ? std::string("the global skills directory") : "bundle " + s.bundle;
      hint +=
          "; skill `" + name + "` is the directory `" + dir + "` in " + in + ": use `" + dir + "`";
    }
  } catch (const error&) {
    return e;  // an unreadable install: the lookup's own error says enough
  }
  return hint.empty() ? e : error(errc::not_found, e.what() + hint, e.subject(), e.sys_errno());
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
