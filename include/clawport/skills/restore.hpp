// SPDX-License-Identifier: MIT
// `skills restore` (docs/cli.md, `skills restore`): a skill that `skills remove` or
// `skills install --upgrade` archived under `<install>/shared/skills/_deleted/` as
// `<bundle>-<name>-<unix-secs>[.n]` goes back into its bundle with one no-replace rename.
// Bundle aliases have no `-`, so an archive's bundle is what precedes its first `-`, and the
// suffix has none, so the name ends at the last `-`. Archives of earlier versions end in
// `-<n>`, which reads two ways (`ops-x-5-<secs>`: skill `x-5`, or `x` at second 5): such an
// archive is taken as `name`'s only when its manifest names `name`.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../core/error.hpp"
#include "../core/text.hpp"
#include "../fs/policy.hpp"
#include "../publish/rename.hpp"
#include "../publish/undo.hpp"
#include "locations.hpp"
#include "placement.hpp"
#include "remove.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// One archive of a skill, parsed from its name.
struct skill_archive {
  std::string entry;   ///< the name under `_deleted/`
  std::string bundle;  ///< the bundle it was removed from
  std::int64_t removed_at = 0;
  unsigned sequence = 1;  ///< the `.n` (or earlier `-n`) suffix (1 when none)
  /// The entry also reads as another skill's archive: it ends in an earlier version's `-n`,
  /// or `name` itself ends in `-<digits>`. Its manifest's name decides (restore_skill).
  bool ambiguous = false;
};

/// Parses `<bundle>-<name>-<secs>[.n]` (or an earlier `<bundle>-<name>-<secs>-<n>`) for the
/// skill `name`; nullopt for another skill's archive or a name of another shape.
inline std::optional<skill_archive> parse_archive_name(std::string_view entry,
                                                       std::string_view name) {
  const std::size_t dash = entry.find('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  skill_archive a;
  a.entry = std::string(entry);
  a.bundle = std::string(entry.substr(0, dash));
  std::string_view rest = entry.substr(dash + 1);
  if (rest.size() <= name.size() + 1 || rest.substr(0, name.size()) != name ||
      rest[name.size()] != '-')
    return std::nullopt;
  rest.remove_prefix(name.size() + 1);
  const auto number = [](std::string_view digits, auto& out) {
    if (digits.empty() || digits.size() > 18) return false;
    out = 0;
    for (const char c : digits) {
      if (c < '0' || c > '9') return false;
      out = out * 10 + static_cast<std::remove_reference_t<decltype(out)>>(c - '0');
    }
    return true;
  };
  const std::size_t more = rest.find_first_of(".-");
  if (!number(rest.substr(0, more), a.removed_at)) return std::nullopt;
  if (more != std::string_view::npos && !number(rest.substr(more + 1), a.sequence))
    return std::nullopt;
  const bool legacy = more != std::string_view::npos && rest[more] == '-';
  const std::size_t last = name.rfind('-');
  std::uint64_t ignored = 0;
  a.ambiguous =
      legacy || (last != std::string_view::npos && number(name.substr(last + 1), ignored));
  return a;
}

/// What a restore did.
struct restore_result {
  std::string name;
  std::string bundle;
  std::string directory;                    ///< where the skill is now
  std::string restored_from;                ///< the archive it was
  std::vector<std::string> other_archives;  ///< the skill's archives still kept, newest first
};

namespace detail {

inline bool newer(const skill_archive& a, const skill_archive& b) {
  return a.removed_at != b.removed_at ? a.removed_at > b.removed_at : a.sequence > b.sequence;
}

/// The archives of `name` in the open archive directory, newest first, of `bundle` when
/// one is given.
template <class Fs>
std::vector<skill_archive> archives_of(Fs& fs, const typename Fs::dir& arch,
                                       const std::string& name, const std::string& bundle) {
  std::vector<skill_archive> found;
  fs.for_each_entry(arch, [&](std::string_view entry) {
    auto a = parse_archive_name(entry, name);
    if (!a || (!bundle.empty() && a->bundle != bundle)) return;
    const auto st = fs.stat_at(arch, entry);
    if (!st || st->kind != fs::file_kind::directory) return;
    // An entry that reads two ways is `name`'s only if its manifest says so.
    if (a->ambiguous && skill_name_at(fs, fs.open_dir_at(arch, entry), entry) != name) return;
    found.push_back(std::move(*a));
  });
  std::sort(found.begin(), found.end(), newer);
  return found;
}

/// Opens the archive directory `_deleted/` of the install at `install_root`, filling
/// `archive` with its location; its absence is a not-found naming what archives there.
template <class Fs>
typename Fs::dir open_archive(Fs& fs, std::string_view install_root, skills_dir_location& archive) {
  archive.anchor = paths::normalize(install_root);
  archive.relative = std::string(archive_relative);
  archive.path = paths::join(archive.anchor, archive.relative);
  archive.bundle = "_deleted";
  try {
    return open_skills_dir(fs, archive, false);
  } catch (const error& e) {
    if (e.code() != errc::not_found) throw;
    throw error(errc::not_found,
                "no archived skills: " + archive.path +
                    " does not exist (`skills remove` and "
                    "`skills install --upgrade` archive there)",
                archive.path);
  }
}

/// Puts the archive to restore first in `found`: the entry `from` when given, else the
/// newest; refuses when there is none, or when they come from several bundles and neither
/// `bundle` nor `from` chose.
inline void choose_archive(std::vector<skill_archive>& found, const std::string& name,
                           const std::string& bundle, const std::string& from,
                           const std::string& archive_path) {
  if (!from.empty()) {
    const auto it = std::find_if(found.begin(), found.end(),
                                 [&](const skill_archive& a) { return a.entry == from; });
    if (it == found.end()) {
      throw error(errc::not_found,
                  "--from " + from + " is not an archive of skill '" + name + "'" +
                      (bundle.empty() ? std::string() : " in bundle '" + bundle + "'") + " in " +
                      archive_path,
                  from);
    }
    std::rotate(found.begin(), it, it + 1);
  }
  if (found.empty()) {
    throw error(errc::not_found,
                "no archive of skill '" + name + "'" +
                    (bundle.empty() ? std::string() : " from bundle '" + bundle + "'") + " in " +
                    archive_path,
                name);
  }
  if (bundle.empty() && from.empty()) {
    for (const skill_archive& a : found) {
      if (a.bundle == found.front().bundle) continue;
      throw error(errc::invalid_argument,
                  "skill '" + name + "' was archived from several bundles (" +
                      found.front().bundle + ", " + a.bundle + ", ...); pass --bundle to choose",
                  name);
    }
  }
}

}  // namespace detail

/// Restores skill `name` from the archive of the install at `install_root`: the archive
/// `from` when given (an entry of `_deleted/`), else the newest of the skill's archives (of
/// `bundle` when given; archives of several bundles without `bundle` are refused, naming
/// them). The skill goes back into its bundle's directory, which must be configured; a
/// taken name is refused. Nothing is written by a refusal.
template <class Fs>
restore_result restore_skill(Fs& fs, const skills_config& cfg, std::string_view install_root,
                             const std::string& name, const std::string& bundle,
                             const std::string& from) {
  static_assert(fs::check_policy<Fs>());
  check_skill_dir_name(name);
  skills_dir_location archive;
  typename Fs::dir arch = detail::open_archive(fs, install_root, archive);
  std::vector<skill_archive> found = detail::archives_of(fs, arch, name, bundle);
  detail::choose_archive(found, name, bundle, from, archive.path);
  const skill_archive pick = found.front();
  if (!cfg.bundles.count(pick.bundle)) {
    throw error(
        errc::not_found,
        "skill '" + name + "' was archived from bundle '" + pick.bundle +
            "', which is no longer configured; `" +
            text::paste_command({"clawport", "skills", "bundle", "add", pick.bundle}).str() +
            "` configures it again",
        "skill_bundles." + pick.bundle);
  }
  const skills_dir_location loc = bundle_location(cfg, install_root, pick.bundle);
  restore_result out;
  out.name = name;
  out.bundle = pick.bundle;
  out.directory = paths::join(loc.path, name);
  out.restored_from = paths::join(archive.path, pick.entry);
  const std::string shown = pick.entry;
  const fs::file_id id = detail::removable_skill_id(fs, arch, pick.entry, shown, out.restored_from);
  typename Fs::dir parent = open_skills_dir(fs, loc, true);
  if (fs.stat_at(parent, name)) {
    throw error(
        errc::destination_refused,
        "skill '" + shown_skill(pick.bundle, name) + "' is installed at " + out.directory +
            "; remove it first (`" +
            text::paste_command({"clawport", "skills", "remove", name, "--bundle", pick.bundle})
                .str() +
            "`), then restore; nothing was written",
        out.directory);
  }
  bool moved = false;
  try {
    moved = publish::rename_noreplace(fs, arch, pick.entry, parent, name);
  } catch (const error& e) {
    throw with_context(e, "failed to move " + out.restored_from + " to " + out.directory,
                       out.directory, reason_of(e));
  }
  if (!moved) throw skill_exists(loc, name);
  publish::undo_journal undo;
  undo.add("the restore", publish::rename_back(fs, arch, pick.entry, parent, name));
  try {
    const auto st = fs.stat_at(parent, name);
    if (!st || st->id != id) {
      throw error(errc::identity_changed,
                  out.restored_from + " was replaced while it was being restored", out.directory);
    }
    fs.sync_dir(parent);
    fs.sync_dir(arch);
  } catch (const error& e) {
    if (!undo.run().empty()) {
      throw with_context(e, "restored " + out.directory + " but could not make it durable",
                         out.directory, reason_of(e));
    }
    throw with_context(e, "failed to restore " + out.directory, out.directory, reason_of(e));
  }
  undo.commit();
  for (std::size_t i = 1; i < found.size(); ++i) out.other_archives.push_back(found[i].entry);
  return out;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
