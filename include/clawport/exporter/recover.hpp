// SPDX-License-Identifier: MIT
// `recover`: cleans up after an export that died. A crash between staged_swap's two renames
// leaves the destination absent and the previous bundle at `.zeroclaw-export-old-<token>`;
// a killed export leaves its `.zeroclaw-export-<token>` staging tree. Recovery restores the
// previous bundle, removes dead staging trees, explains each step, refuses when it cannot
// tell which previous bundle is the right one, and never touches a directory a running
// export holds locked.
#pragma once

#include "../core/error.hpp"
#include "../fs/policy.hpp"
#include "../publish/names.hpp"
#include "destination.hpp"

#include <algorithm>
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
  std::size_t busy = 0;     ///< leftovers a running export holds (left alone)
};

namespace detail {

template <class Fs>
struct leftover {
  std::string name;
  typename Fs::dir handle;  ///< open and locked by recover while it works
};

}  // namespace detail

/// Recovers the destination called `name` inside the open directory `parent`; `display`
/// names it in messages. Throws errc::recover_ambiguous when several previous bundles
/// could be the destination's.
template <class Fs>
recover_report recover(Fs& fs, const typename Fs::dir& parent, std::string_view name,
                       const std::string& display) {
  fs::check_policy<Fs>();
  recover_report report;
  std::vector<std::string> names;
  fs.for_each_entry(parent, [&](std::string_view entry) {
    if (publish::is_staging_name(entry) || publish::is_retired_name(entry)) {
      names.emplace_back(entry);
    }
  });
  std::sort(names.begin(), names.end());  // deterministic report

  std::vector<detail::leftover<Fs>> staging;
  std::vector<detail::leftover<Fs>> retired;
  for (const std::string& n : names) {
    const std::optional<fs::stat_info> st = fs.stat_at(parent, n);
    if (!st) continue;
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
      report.actions.push_back("left " + n + " alone: a running export holds it");
      continue;
    }
    auto& into = publish::is_retired_name(n) ? retired : staging;
    into.push_back(detail::leftover<Fs>{n, std::move(handle)});
  }

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
    fs::rename_result done = fs.rename_at(parent, from, parent, name, fs::rename_mode::noreplace);
    if (done == fs::rename_result::unsupported) {
      if (fs.stat_at(parent, name)) {
        throw error(errc::recover_ambiguous,
                    display + " appeared while recover ran; nothing was changed", display);
      }
      fs.rename_at(parent, from, parent, name, fs::rename_mode::replace);
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
  for (const auto& s : staging) {
    // Still the object we locked? Then it is a dead export's staging tree.
    const std::optional<fs::stat_info> st = fs.stat_at(parent, s.name);
    if (!st || st->id != fs.stat(s.handle).id) continue;
    fs.remove_tree_at(parent, s.name);
    ++report.removed;
    report.actions.push_back("removed the incomplete staging tree " + s.name);
  }
  if (report.actions.empty()) {
    report.actions.push_back("nothing to recover beside " + display);
  }
  return report;
}

/// `recover` for a destination given as an absolute path: opens its parent once and
/// recovers beside it. `display` names the destination in messages (as typed).
template <class Fs>
recover_report recover_path(Fs& fs, const std::string& abs, const std::string& display) {
  const auto place = exporter_detail::split_parent(abs);
  if (abs.empty() || abs.front() != '/' || !place) {
    throw error(errc::invalid_argument,
                "recover needs a destination with a parent directory: " + display, display);
  }
  typename Fs::dir parent = [&] {
    try {
      return fs.open_root(place->first);
    } catch (const error& e) {
      throw error(e.code(), "failed to open " + place->first + ": " + e.what(), place->first,
                  e.sys_errno());
    }
  }();
  return recover(fs, parent, place->second, display);
}

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
