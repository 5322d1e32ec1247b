// SPDX-License-Identifier: MIT
// A killed `skills install --upgrade` (docs/cli.md, `recover`): the one reading of its dead
// staging tree, which `status` says and `recover` acts on, and what `recover` does with the
// previous version (put back or archived, never deleted). Apart from skills/install.hpp so
// that the exporter's `recover` and the importer's `status` do not parse the install
// lifecycle (git, the process runner, skill tests; issue 48).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../fs/policy.hpp"
#include "../publish/rename.hpp"
#include "locations.hpp"
#include "placement.hpp"
#include "remove.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// What `recover_upgrade` did with a skills staging tree.
struct upgrade_recovery {
  bool previous_found = false;  ///< the tree held the user's previous version
  bool put_back = false;        ///< it went back to the skill's vacant name
  std::string action;           ///< one sentence for recover's report (empty: nothing)
};

/// What a dead skills staging tree holds of a killed upgrade, read without changing
/// anything: its intent, where the previous version is, what is at the skill's name.
/// `recover_upgrade` acts on it; `status` says it (`upgrade_leftover_text`).
struct upgrade_leftover {
  upgrade_intent intent;
  std::string previous_entry;      ///< the previous version's entry in the tree; empty: not there
  bool name_taken = false;         ///< something is at the skill's name
  bool previous_in_place = false;  ///< that is the previous version (not replaced yet)
  std::string shown;               ///< `<bundle>/<name>` or `global/<name>`
  /// The previous version goes back to the vacant name.
  bool puts_back() const { return !previous_entry.empty() && !name_taken; }
  /// The previous version is archived (deleted for a global skill, as upgrade does).
  bool retires() const { return !previous_entry.empty() && name_taken; }
};

/// The killed upgrade whose intent the staging tree `stage` in `parent` records; nullopt
/// without one (the tree then holds only a staged copy, deleted with it).
template <class Fs>
std::optional<upgrade_leftover> inspect_upgrade(Fs& fs, const typename Fs::dir& parent,
                                                const typename Fs::dir& stage) {
  std::optional<upgrade_intent> intent = read_upgrade_intent(fs, stage);
  if (!intent) return std::nullopt;
  upgrade_leftover u;
  u.intent = std::move(*intent);
  fs.for_each_entry(stage, [&](std::string_view n) {
    const auto st = fs.stat_at(stage, n);
    if (st && st->kind == fs::file_kind::directory && st->id == u.intent.previous)
      u.previous_entry = std::string(n);
  });
  const auto at_name = fs.stat_at(parent, u.intent.name);
  u.name_taken = at_name.has_value();
  u.previous_in_place = at_name && at_name->id == u.intent.previous;
  u.shown =
      shown_skill(u.intent.install_root.empty() ? std::string() : u.intent.bundle, u.intent.name);
  return u;
}

/// One sentence for `status`: which version of the skill is in place, and what `recover`
/// (recover_upgrade, then the tree's removal) will do.
inline std::string upgrade_leftover_text(const upgrade_leftover& u) {
  const std::string skill = "a killed upgrade of skill '" + u.shown + "': ";
  if (u.puts_back())
    return skill + "the skill is missing and its previous version is in this staging tree; " +
           "recover puts it back";
  if (u.retires())
    return skill + "the copy in place is the new version; recover " +
           (u.intent.install_root.empty()
                ? std::string("deletes the previous version, as an upgrade of a global skill does")
                : "archives the previous version (`clawport skills restore " + u.intent.name +
                      "` brings it back)");
  if (u.previous_in_place)
    return skill + "the copy in place is the previous version (it was not replaced); " +
           "recover deletes the staged new copy";
  return skill +
         (u.name_taken ? "the copy in place is the new version (the previous one was "
                         "already archived); "
                       : "nothing is at the skill's name and the previous version is "
                         "not in this tree; ") +
         "recover deletes the staging tree";
}

/// Finishes or undoes the upgrade a kill interrupted, from the intent recorded in the dead
/// skills staging tree `stage` (named `stage_name` in `parent`, held locked by the caller):
/// when the tree holds the installed version the upgrade was replacing, that version is put
/// back if the skill's name is vacant, else archived as the upgrade would have (a global
/// skill's is left to be deleted, as upgrade deletes it). Without an intent, or with the
/// previous version not in the tree, nothing is done: the tree holds only a staged copy.
/// Throws clawport::error when the previous version could not be moved (the caller then
/// must not delete the tree).
template <class Fs>
upgrade_recovery recover_upgrade(Fs& fs, const typename Fs::dir& parent,
                                 const std::string& parent_path, const std::string& stage_name,
                                 const typename Fs::dir& stage) {
  upgrade_recovery out;
  const std::optional<upgrade_leftover> u = inspect_upgrade(fs, parent, stage);
  if (!u || u->previous_entry.empty()) return out;
  const upgrade_intent& intent = u->intent;
  const std::string& entry = u->previous_entry;
  const std::string& shown = u->shown;
  out.previous_found = true;
  const std::string directory = paths::join(parent_path, intent.name);
  const std::string held = paths::join(paths::join(parent_path, stage_name), entry);
  if (u->puts_back()) {
    if (!publish::rename_noreplace(fs, stage, entry, parent, intent.name))
      throw error(errc::identity_changed, directory + " appeared while recover ran", directory);
    fs.sync_dir(parent);
    out.put_back = true;
    out.action = "put the previous version of skill '" + shown + "' back at " + directory +
                 " from " + held + " (an upgrade was killed before it replaced it)";
    return out;
  }
  if (intent.install_root.empty()) {
    out.action = "deleted the previous version of the global skill '" + shown +
                 "' that a killed upgrade had replaced, as an upgrade of a global skill does";
    return out;
  }
  skills_dir_location loc;
  loc.bundle = intent.bundle;
  const std::string archived = detail::archive_skill(
      fs, stage, entry, loc, intent.install_root, intent.name, shown, directory, intent.now_secs);
  out.action = "archived the previous version of skill '" + shown + "' to " + archived +
               " (a killed upgrade had replaced it; `clawport skills restore " + intent.name +
               "` brings it back)";
  return out;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
