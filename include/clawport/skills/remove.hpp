// SPDX-License-Identifier: MIT
// `skills remove` (docs/cli.md, `skills remove`): a bundle skill is archived under
// `<install>/shared/skills/_deleted/<bundle>-<name>-<unix-secs>` (a numbered suffix when
// that name is taken, so an earlier archive is never clobbered); `purge` and the global
// directory delete instead. Either way the skill leaves its directory in ONE rename: a
// purge first renames it into a staging directory, then deletes that through handles.
// A directory without a manifest is not a skill and is refused, as upstream.
#pragma once

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../core/error.hpp"
#include "../fs/modes.hpp"
#include "../fs/policy.hpp"
#include "../publish/names.hpp"
#include "../publish/rename.hpp"
#include "../publish/staged_dir.hpp"
#include "../publish/undo.hpp"
#include "locations.hpp"
#include "placement.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// The archive directory below the install root.
inline constexpr std::string_view archive_relative = "shared/skills/_deleted";

/// The name of an archive: upstream's `<bundle>-<name>-<secs>`, and `.<n>` after it when
/// that is taken. The suffix has no `-`, so the last `-` ends the name and an archive's
/// name reads one way only (a `-<n>` suffix would make `ops-x-5-<secs>`, skill `x-5`'s,
/// read as `x`'s too; skills/restore.hpp).
inline std::string archive_name(std::string_view bundle, std::string_view name, std::int64_t secs,
                                unsigned sequence) {
  std::string out = std::string(bundle) + "-" + std::string(name) + "-" + std::to_string(secs);
  if (sequence > 1) out += "." + std::to_string(sequence);
  return out;
}

/// What a removal did.
struct remove_result {
  std::string name;
  std::string bundle;       ///< empty for the global directory
  std::string directory;    ///< where the skill was
  std::string archived_to;  ///< empty when deleted
  std::vector<std::string> warnings;
};

namespace detail {

inline bool is_manifest_kind(const std::optional<fs::stat_info>& st) {
  return st && st->kind == fs::file_kind::regular;
}

template <class Fs>
bool has_manifest_file(Fs& fs, const typename Fs::dir& d) {
  for (const std::string_view m : {"SKILL.md", "SKILL.toml", "manifest.toml"}) {
    if (is_manifest_kind(fs.stat_at(d, m))) return true;
  }
  return false;
}

}  // namespace detail

/// Where `skills remove <name>` finds the skill: in `bundle` when given; else in the
/// bundles `agent` lists (when given), else in every configured bundle and the global
/// directory. Exactly one directory named `name` must exist: none is errc::not_found,
/// several errc::invalid_argument naming them.
template <class Fs>
skills_dir_location locate_skill(Fs& fs, const skills_config& cfg, const install_paths& where,
                                 const std::string& name, const std::string& bundle,
                                 const std::string& agent) {
  std::vector<skills_dir_location> places;
  if (!bundle.empty()) {
    places.push_back(bundle_location(cfg, where.install_root, bundle));
    return places.front();
  }
  if (!agent.empty()) {
    const auto it = cfg.agents.find(agent);
    if (it == cfg.agents.end()) {
      throw error(errc::unknown_agent, "agent '" + agent + "' is not configured",
                  "agents." + agent);
    }
    for (const std::string& b : it->second.skill_bundles) {
      const std::string alias(text::trim(b));
      if (!alias.empty() && cfg.bundles.count(alias)) {
        places.push_back(bundle_location(cfg, where.install_root, alias));
      }
    }
  } else {
    for (const auto& b : cfg.bundles) {
      places.push_back(bundle_location(cfg, where.install_root, b.first));
    }
    places.push_back(global_location(where));
  }
  const auto holds = [&](std::size_t i) {
    try {
      auto d = open_skills_dir(fs, places[i], false);
      const auto st = fs.stat_at(d, name);
      return st && st->kind != fs::file_kind::regular;
    } catch (const error&) {
      return false;  // a missing or unreadable directory holds no skill
    }
  };
  return places[find_one_skill(
      name, places.size(), holds, [&](std::size_t i) { return places[i].bundle; },
      agent.empty() ? std::string("looked in every configured bundle and the global skills "
                                  "directory")
                    : "looked in the bundles of agent '" + agent + "'")];
}

namespace detail {

/// The refusals before anything moves: `name` under `parent` must be a real directory
/// (not a symlink), still the one stat saw when opened, and carry a manifest, so only
/// bundle skills are ever removed. Returns its identity for the later re-check.
template <class Fs>
fs::file_id removable_skill_id(Fs& fs, const typename Fs::dir& parent, const std::string& name,
                               const std::string& shown, const std::string& directory) {
  const auto st = fs.stat_at(parent, name);
  if (!st) {
    throw error(errc::not_found, "Skill not found: " + shown + " (no " + directory + ")", directory,
                ENOENT);
  }
  if (st->kind == fs::file_kind::symlink) {
    throw error(errc::unsafe_path,
                directory + " is a symlink; clawport removes real skill directories only",
                directory);
  }
  if (st->kind != fs::file_kind::directory) {
    throw error(errc::skill_invalid, directory + " is not a skill directory", directory);
  }
  auto skill = fs.open_dir_at(parent, name);
  const fs::file_id id = fs.stat(skill).id;
  if (id != st->id) {
    throw error(errc::identity_changed, directory + " was replaced while it was inspected",
                directory);
  }
  if (!detail::has_manifest_file(fs, skill)) {
    throw error(errc::skill_invalid,
                "skill '" + shown +
                    "' is not editable: it is a non-bundle skill, only bundle skills are "
                    "writable (" +
                    directory +
                    " has no SKILL.md, SKILL.toml or manifest.toml); nothing "
                    "was removed",
                directory);
  }
  return id;
}

/// Moves the skill `entry` of `parent` (its bundle directory, or the staging directory an
/// upgrade swapped it into) into the install's archive as `archive_name` (never
/// over an earlier archive) and makes both directories durable; if that fails the skill is
/// put back. Returns the archive path it now has.
template <class Fs>
std::string archive_skill(Fs& fs, const typename Fs::dir& parent, std::string_view entry,
                          const skills_dir_location& loc, std::string_view install_root,
                          const std::string& name, const std::string& shown,
                          const std::string& directory, std::int64_t now_secs) {
  skills_dir_location archive;
  archive.anchor = paths::normalize(install_root);
  archive.relative = std::string(archive_relative);
  archive.path = paths::join(archive.anchor, archive.relative);
  archive.bundle = "_deleted";
  typename Fs::dir arch = open_skills_dir(fs, archive, true);
  const std::string base = archive_name(loc.bundle, name, now_secs, 1);
  std::string target = base;
  bool moved = false;
  for (unsigned n = 2; n <= 10000 && !moved; ++n) {
    try {
      moved = publish::rename_noreplace(fs, parent, entry, arch, target);
    } catch (const error& e) {
      throw with_context(e, "failed to move " + directory + " into " + archive.path, directory,
                         reason_of(e));
    }
    if (!moved) target = archive_name(loc.bundle, name, now_secs, n);
  }
  if (!moved) {
    throw error(errc::limit_exceeded, "too many archives named " + base + " in " + archive.path,
                archive.path);
  }
  publish::undo_journal undo;
  undo.add("the archive", publish::rename_back(fs, parent, entry, arch, target));
  try {
    fs.sync_dir(arch);
    fs.sync_dir(parent);
  } catch (const error& e) {
    if (!undo.run().empty()) {
      throw with_context(e,
                         "archived " + shown + " to " + paths::join(archive.path, target) +
                             " but could not make it durable",
                         directory, reason_of(e));
    }
    throw with_context(e, "failed to make the archive of " + shown + " durable", directory,
                       reason_of(e));
  }
  undo.commit();
  return paths::join(archive.path, target);
}

/// Deletes the skill: renamed into a fresh staging directory first (so a crash leaves it
/// where no agent loads it, never half-deleted in place), identity re-checked against
/// `id`, then the staging directory removed. A leftover is a warning, not a failure.
template <class Fs>
void delete_skill(Fs& fs, const typename Fs::dir& parent, const skills_dir_location& loc,
                  const std::string& name, const std::string& directory, const fs::file_id& id,
                  std::vector<std::string>& warnings) {
  std::optional<publish::staged_dir<Fs>> s;  // removed unless it keeps the skill
  try {
    s.emplace(fs, parent, publish::staging_kind::skills);
  } catch (const error& e) {
    throw with_context(e, "failed to create a staging directory in " + loc.path, loc.path,
                       reason_of(e));
  }
  const std::string stage = s->name();
  publish::undo_journal undo;  // the skill back from <stage>/<name>
  try {
    if (!publish::rename_noreplace(fs, parent, name, s->handle(), name))
      throw error(errc::io, "the fresh staging directory " + stage + " is not empty", directory);
    undo.add("the skill", publish::rename_back(fs, parent, name, s->handle(), name));
    const auto moved = fs.stat_at(s->handle(), name);
    if (!moved || moved->id != id) {
      throw error(errc::identity_changed,
                  directory + " was replaced while it was being removed; nothing was removed",
                  directory);
    }
    fs.sync_dir(parent);
  } catch (const error& e) {
    if (!undo.run().empty()) {
      s->release();  // it holds the skill now
      throw error(e.code(),
                  "failed to remove " + directory + ": " + e.what() + "; the skill was moved to " +
                      paths::join(loc.path, stage) + ", which no agent loads",
                  directory, e.sys_errno());
    }
    s.reset();  // inert if it stays: it has no manifest at its root
    if (e.code() == errc::identity_changed) throw;
    throw with_context(e, "failed to remove " + directory, directory, reason_of(e));
  }
  undo.commit();
  try {
    s->remove();
  } catch (const error& e) {
    warnings.push_back("the removed skill's files remain in " + paths::join(loc.path, stage) +
                       ", which no agent loads (" + e.what() + "); delete it");
  }
}

}  // namespace detail

/// Removes skill `name` from `loc` (see the file comment). `now_secs` stamps the archive
/// name (pass SOURCE_DATE_EPOCH or the clock). Throws errc::invalid_argument for a name
/// with `..`, `/` or `\`, errc::not_found for a missing skill, errc::skill_invalid for
/// a directory without a manifest, errc::unsafe_path for a symlink.
template <class Fs>
remove_result remove_skill(Fs& fs, const skills_dir_location& loc, std::string_view install_root,
                           const std::string& name, bool purge, std::int64_t now_secs) {
  static_assert(fs::check_policy<Fs>());
  check_skill_dir_name(name);
  remove_result out;
  out.name = name;
  out.bundle = loc.bundle;
  out.directory = paths::join(loc.path, name);
  const std::string shown = shown_skill(loc.bundle, name);

  std::optional<typename Fs::dir> parent;
  try {
    parent.emplace(open_skills_dir(fs, loc, false));
  } catch (const error& e) {
    if (e.code() != errc::not_found) throw;
    throw error(errc::not_found, "Skill not found: " + shown + " (" + loc.path + " does not exist)",
                out.directory);
  }
  const fs::file_id id = detail::removable_skill_id(fs, *parent, name, shown, out.directory);
  if (!purge && !loc.global()) {
    out.archived_to = detail::archive_skill(fs, *parent, name, loc, install_root, name, shown,
                                            out.directory, now_secs);
    return out;
  }
  detail::delete_skill(fs, *parent, loc, name, out.directory, id, out.warnings);
  return out;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
