// SPDX-License-Identifier: MIT
// `recover`: cleans up after a command that died, for every staging family of the registry
// (publish/names.hpp: export, import, claw, skills, convert; replace and update, the
// temporary files beside a file being replaced). A crash between staged_swap's
// two renames leaves the destination absent and the previous bundle at
// `.zeroclaw-export-old-<token>`; a killed command leaves its staging tree, or a temporary
// `.<file>.tmp-<token>` beside the file it was replacing. Recovery restores
// the previous bundle, removes dead staging trees, explains each step (what it removed, what
// it left alone and why), refuses when it cannot tell which previous bundle is the right one,
// and never touches a directory a running command holds locked.
#pragma once

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../formats/json.hpp"
#include "../fs/policy.hpp"
#include "../memory/target.hpp"
#include "../publish/intent.hpp"
#include "../publish/names.hpp"
#include "../publish/rename.hpp"
#include "../skills/upgrade_recovery.hpp"
#include "destination.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

/// What `recover` did, one sentence per action, in the order it acted.
struct recover_report {
  std::vector<std::string> actions;
  bool restored = false;    ///< a previous bundle was moved back to the destination
  std::size_t removed = 0;  ///< dead staging trees removed
  std::size_t busy = 0;     ///< leftovers a running command holds (left alone)
  /// Names beginning with a staging family's prefix that are not of the exact grammar that
  /// family generates (`.zeroclaw-export-<token>`, `.zeroclaw-export-old-<token>`, token = 6
  /// of [A-Za-z0-9]; publish::match_staging): never touched, each named in `actions`.
  std::vector<std::string> ignored;
  /// The staging trees (and temporary files) removed, by name (each also a sentence in
  /// `actions`).
  std::vector<std::string> removed_trees;
  /// Staging trees recover could not delete, each named with the cause in `actions`.
  std::vector<std::string> failed;
};

namespace detail {

/// Who holds a locked leftover, in recover's sentences.
inline std::string running(std::string_view name) {
  const publish::staging_family& f = *publish::match_staging(name).family;
  if (f.kind == publish::staging_kind::export_bundle) return "a running export";
  return "a running `clawport " + std::string(f.name) + "`";
}

template <class Fs>
struct leftover {
  std::string name;
  typename Fs::dir handle;  ///< open and locked by recover while it works
};

/// A temporary file a killed replace left beside the destination file.
struct leftover_file {
  std::string name;
  fs::file_id id;  ///< removed only while the name still is this file
};

/// " (left by <creator> that was killed)" for every family but the export's.
inline std::string left_by(const publish::staging_family& f) {
  return f.kind == publish::staging_kind::export_bundle
             ? std::string()
             : " (left by " + std::string(f.creator) + " that was killed)";
}

/// Removes the temporary files of `temps` (still the files seen), each named in `report`.
template <class Fs>
void remove_temp_files(Fs& fs, const typename Fs::dir& parent, std::string_view name,
                       const std::string& display, const std::vector<leftover_file>& temps,
                       recover_report& report) {
  for (const leftover_file& t : temps) {
    try {
      const std::optional<fs::stat_info> st = fs.stat_at(parent, t.name);
      if (!st || st->id != t.id || st->kind != fs::file_kind::regular) continue;
      fs.unlink_at(parent, t.name);
    } catch (const error& e) {
      report.failed.push_back(t.name);
      report.actions.push_back("failed to remove the incomplete temporary file " + t.name +
                               " beside " + display + " (" + e.what() + "): delete it yourself");
      continue;
    }
    ++report.removed;
    report.removed_trees.push_back(t.name);
    report.actions.push_back("removed the incomplete temporary file " + t.name +
                             left_by(*publish::match_staging(t.name, name).family));
  }
}

/// The exact-name leftovers beside the destination, sorted by what recover does with them.
template <class Fs>
struct leftovers {
  std::vector<leftover<Fs>> staging;  ///< locked staging trees of dead exports
  std::vector<leftover<Fs>> retired;  ///< locked previous bundles
  std::vector<leftover_file> temps;   ///< temporary files
};

/// Opens and locks each of `names` (exact staging matches beside `name`) that is still
/// the kind its family makes and still the object stat saw; one that is not, or that a
/// running export holds, is left alone with a line in `report` saying why.
template <class Fs>
leftovers<Fs> classify_leftovers(Fs& fs, const typename Fs::dir& parent, std::string_view name,
                                 const std::vector<std::string>& names, recover_report& report) {
  leftovers<Fs> found;
  for (const std::string& n : names) {
    const std::optional<fs::stat_info> st = fs.stat_at(parent, n);
    if (!st) continue;
    if (publish::match_staging(n, name).family->shape == publish::staging_shape::file) {
      if (st->kind == fs::file_kind::regular)
        found.temps.push_back({n, st->id});
      else
        report.actions.push_back("left " + n + " alone: it is not a regular file");
      continue;
    }
    if (st->kind != fs::file_kind::directory) {
      report.actions.push_back("left " + n + " alone: it is not a directory");
      continue;
    }
    typename Fs::dir handle = fs.open_dir_at(parent, n);
    if (fs.stat(handle).id != st->id) {
      report.actions.push_back("left " + n + " alone: it changed while recover inspected it");
      continue;
    }
    if (!fs.try_lock(handle)) {
      ++report.busy;
      report.actions.push_back("left " + n + " alone: " + running(n) + " holds it");
      continue;
    }
    auto& into = publish::is_retired_name(n) ? found.retired : found.staging;
    into.push_back(leftover<Fs>{n, std::move(handle)});
  }
  return found;
}

/// Finishes or undoes each command whose intent directory is in `intents`
/// (publish::resolve_intent: an import killed between placing its trees and writing its
/// config), saying what it did; a failure leaves the record for the next try.
template <class Fs>
void resolve_intents(Fs& fs, const typename Fs::dir& parent,
                     const std::vector<std::string>& intents, recover_report& report,
                     const publish::rows_undo& undo_rows) {
  for (const std::string& n : intents) {
    try {
      const std::optional<fs::stat_info> st = fs.stat_at(parent, n);
      if (!st || st->kind != fs::file_kind::directory) {
        report.actions.push_back("left " + n + " alone: it is not a directory");
        continue;
      }
      const publish::intent_outcome o = publish::resolve_intent(fs, parent, n, undo_rows);
      if (o.busy) {
        ++report.busy;
        report.actions.push_back("left " + n + " alone: a running `clawport import` holds it");
        continue;
      }
      for (const std::string& a : o.actions) report.actions.push_back(a);
      if (!o.unclear) {
        ++report.removed;
        report.removed_trees.push_back(n);
      }
    } catch (const error& e) {
      report.failed.push_back(n);
      report.actions.push_back("failed to finish or undo what " + n + " records (" + e.what() +
                               "): run recover again");
    }
  }
}

/// Restores the one previous bundle when the destination is missing; with several it
/// cannot tell which was the destination and refuses before changing anything. With the
/// destination present, previous bundles are not recover's to touch.
template <class Fs>
void restore_retired(Fs& fs, const typename Fs::dir& parent, std::string_view name,
                     const std::string& display, const std::vector<leftover<Fs>>& retired,
                     recover_report& report) {
  const bool destination_present = fs.stat_at(parent, name).has_value();
  if (!destination_present && retired.size() > 1) {
    std::string list;
    for (const auto& r : retired) list += (list.empty() ? "" : ", ") + r.name;
    throw error(errc::recover_ambiguous,
                display + " is missing and several previous bundles lie beside it (" + list +
                    "); recover cannot tell which one was " + display +
                    ", so nothing was changed: rename the right one to " + std::string(name) +
                    " yourself",
                display);
  }
  if (!destination_present && retired.size() == 1) {
    const std::string& from = retired.front().name;
    if (!publish::rename_noreplace(fs, parent, from, parent, name)) {
      throw error(errc::recover_ambiguous,
                  display + " appeared while recover ran; nothing was changed", display);
    }
    report.restored = true;
    report.actions.push_back("restored the previous bundle: moved " + from + " back to " + display);
  } else {
    for (const auto& r : retired) {
      report.actions.push_back("left " + r.name + " alone: " + display +
                               " exists, so it is not a bundle waiting to be restored (delete "
                               "it yourself if it is an old bundle you no longer need)");
    }
  }
}

/// Removes each locked staging tree that is still the object that was locked; a failure
/// is reported per tree and does not undo what was already done.
template <class Fs>
void remove_staging_trees(Fs& fs, const typename Fs::dir& parent, const std::string& display,
                          const std::vector<leftover<Fs>>& staging, recover_report& report) {
  for (const auto& s : staging) {
    // Still the object we locked? Then it is a dead export's staging tree.
    try {
      const std::optional<fs::stat_info> st = fs.stat_at(parent, s.name);
      if (!st || st->id != fs.stat(s.handle).id) continue;
      // A killed `skills install --upgrade` may have left the user's previous version here:
      // it is put back or archived first, never deleted with the tree.
      if (publish::match_staging(s.name).family->kind == publish::staging_kind::skills) {
        const skills::upgrade_recovery u =
            skills::recover_upgrade(fs, parent, paths::parent(display), s.name, s.handle);
        if (!u.action.empty()) report.actions.push_back(u.action);
        if (u.put_back) report.restored = true;
      }
      fs.remove_tree_at(parent, s.name);
    } catch (const error& e) {
      // What was already restored or removed stays done; name the tree that is left.
      report.failed.push_back(s.name);
      report.actions.push_back("failed to remove the incomplete staging tree " + s.name +
                               " beside " + display + " (" + e.what() +
                               "); part of it may remain: delete it yourself");
      continue;
    }
    ++report.removed;
    report.removed_trees.push_back(s.name);
    report.actions.push_back("removed the incomplete staging tree " + s.name +
                             left_by(*publish::match_staging(s.name).family));
  }
}

/// Why an export's creation directory `n` (`.zeroclaw-export-new-*`) is left, or nullopt
/// once it was removed: an empty one nobody holds is an export's that died between its mkdir
/// and its lock. Recover locks it first; an export that had not locked it yet finds it gone
/// or held and retries under a fresh name (publish::staged_dir).
template <class Fs>
std::optional<std::string> remove_dead_creation(Fs& fs, const typename Fs::dir& parent,
                                                const std::string& n, recover_report& report) {
  std::optional<fs::stat_info> st = fs.stat_at(parent, n);
  if (!st) return std::string();  // renamed by its export meanwhile
  if (st->kind != fs::file_kind::directory) return std::string("it is not a directory");
  std::optional<typename Fs::dir> handle;
  try {
    handle.emplace(fs.open_dir_at(parent, n));
  } catch (const error& e) {
    if (e.code() == errc::not_found || e.sys_errno() == ENOENT) return std::string();
    throw;
  }
  if (fs.stat(*handle).id != st->id) return std::string("it changed while recover inspected it");
  if (!fs.try_lock(*handle)) {
    ++report.busy;
    return std::string("a running export is creating its staging directory there");
  }
  if (!fs.is_empty(*handle)) {
    return std::string(
        "it is not empty, so not a directory an export died creating (look "
        "inside, then delete it yourself)");
  }
  st = fs.stat_at(parent, n);
  if (!st || st->id != fs.stat(*handle).id) return std::string();
  fs.remove_dir_at(parent, n);
  return std::nullopt;
}

/// Removes the dead exports' empty creation directories among `report.ignored` (no longer
/// ignored then) and says why each other ignored name is left.
template <class Fs>
void sweep_ignored(Fs& fs, const typename Fs::dir& parent, std::string_view name,
                   recover_report& report) {
  std::vector<std::string> kept;
  for (const std::string& n : report.ignored) {
    const publish::staging_match m = publish::match_staging(n, name);
    if (!m.creating) {
      kept.push_back(n);
      report.actions.push_back("left " + n + " alone: not a name " +
                               std::string(m.family->creator) +
                               " creates, so not recover's to touch");
      continue;
    }
    std::optional<std::string> why;
    try {
      why = remove_dead_creation(fs, parent, n, report);
    } catch (const error& e) {
      why = std::string("recover could not remove it (") + e.what() + "): delete it yourself";
    }
    if (!why) {
      ++report.removed;
      report.removed_trees.push_back(n);
      report.actions.push_back("removed the empty staging directory " + n +
                               " of an export killed before it locked it");
      continue;
    }
    if (why->empty()) continue;  // gone: its export renamed it meanwhile
    kept.push_back(n);
    report.actions.push_back("left " + n + " alone: " + *why);
  }
  report.ignored = std::move(kept);
}

}  // namespace detail

/// Recovers the destination called `name` inside the open directory `parent`; `display`
/// names it in messages. Throws errc::recover_ambiguous when several previous bundles
/// could be the destination's.
template <class Fs>
recover_report recover(Fs& fs, const typename Fs::dir& parent, std::string_view name,
                       const std::string& display, const publish::rows_undo& undo_rows = {}) {
  fs::check_policy<Fs>();
  recover_report report;
  std::vector<std::string> names;
  std::vector<std::string> intents;
  fs.for_each_entry(parent, [&](std::string_view entry) {
    const publish::staging_match m = publish::match_staging(entry, name);
    if (m.family == nullptr) return;
    (m.intent ? intents : m.exact ? names : report.ignored).emplace_back(entry);
  });
  std::sort(names.begin(), names.end());  // deterministic report
  std::sort(intents.begin(), intents.end());
  detail::resolve_intents(fs, parent, intents, report, undo_rows);
  std::sort(report.ignored.begin(), report.ignored.end());

  detail::leftovers<Fs> found = detail::classify_leftovers(fs, parent, name, names, report);
  detail::restore_retired(fs, parent, name, display, found.retired, report);
  detail::remove_staging_trees(fs, parent, display, found.staging, report);
  detail::remove_temp_files(fs, parent, name, display, found.temps, report);
  detail::sweep_ignored(fs, parent, name, report);
  if (report.actions.empty()) {
    report.actions.push_back("nothing to recover beside " + display);
  }
  return report;
}

/// The failure `clawport recover` reports when staging trees could not be deleted (and
/// nothing was restored): names every tree left and why.
inline error recover_failure(const recover_report& r, const std::string& display) {
  std::string msg;
  for (const std::string& a : r.actions) {
    if (a.rfind("failed to remove", 0) == 0) msg += (msg.empty() ? "" : "; ") + a;
  }
  return error(errc::io, msg.empty() ? "recover beside " + display + " failed" : msg,
               r.failed.empty() ? display : r.failed.front());
}

/// The `clawport recover --json` document: what was done, in the order it was done. A
/// template (J is always nlohmann::ordered_json): instantiated only where it is rendered.
template <class J = nlohmann::ordered_json>
J to_json(const recover_report& r) {
  using t = recover_report;
  return json::object_of<J>(r, json::field("restored", &t::restored),
                            json::field("removed", &t::removed), json::field("busy", &t::busy),
                            json::field("ignored", &t::ignored),
                            json::field("removed_trees", &t::removed_trees),
                            json::field("failed", &t::failed), json::field("actions", &t::actions));
}

/// `recover` for a destination given as an absolute path: opens its parent once and
/// recovers beside it. `display` names the destination in messages (as typed). A killed
/// `import --with-memory`'s rows are removed through `memory` (the CLI's SQLite target).
template <class Fs>
recover_report recover_path(Fs& fs, const std::string& abs, const std::string& display,
                            const memory::target& memory = {}) {
  const auto place = exporter_detail::split_parent(abs);
  if (abs.empty() || abs.front() != '/' || !place) {
    throw error(errc::invalid_argument,
                "recover needs a destination with a parent directory: " + display, display);
  }
  typename Fs::dir parent = [&] {
    try {
      return fs.open_root(place->first);
    } catch (const error& e) {
      throw with_context(e, "failed to open " + place->first, place->first);
    }
  }();
  publish::rows_undo undo_rows;
  if (memory)
    undo_rows = [&memory, &place](const std::string& store, const std::string& agent) {
      (void)memory.remove_agent(paths::join(place->first, store), agent);
    };
  return recover(fs, parent, place->second, display, undo_rows);
}

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
