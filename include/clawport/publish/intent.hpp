// SPDX-License-Identifier: MIT
// The intent of a command that publishes several trees and then commits by replacing one
// file (`import`: the workspace and skill trees, then config.toml). Before the first tree
// is published the command records, in a locked directory beside the file
// (`.clawport-import-<token>.intent/record`), every tree it is about to publish (place and
// identity), the identity the file has now and a line the committed file will hold. A kill
// between the first publish and the commit leaves the record: a re-run of the same plan, or
// `clawport recover`, reads it and undoes the trees (the file was not committed: the
// command did not happen) or only removes the record (it was). It never removes a tree
// that is not the one recorded.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../fs/modes.hpp"
#include "../fs/open_path.hpp"
#include "../fs/policy.hpp"
#include "../fs/read_file.hpp"
#include "../fs/write_new_file.hpp"
#include "names.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

/// One tree the command publishes.
struct intent_tree {
  std::string path;                     ///< relative to the directory holding the record
  fs::file_id id;                       ///< the staged tree's identity (a rename keeps it)
  bool was_empty_dir = false;           ///< the place held an empty directory, put back on undo
  std::uint32_t mode = fs::modes::dir;  ///< that directory's mode
};

/// What the command is about to do.
struct intent_record {
  std::string commit_file;            ///< the file whose replacement commits
  std::optional<fs::file_id> before;  ///< its identity now (none: it does not exist)
  std::string marker;                 ///< a line the committed file holds
  std::vector<intent_tree> trees;     ///< in publish order
  /// Rows the command adds to a database before the commit (`import --with-memory`): the
  /// store (relative to the record's directory) and the agent whose rows undo removes.
  std::string rows_store;
  std::string rows_agent;
};

/// Removes the rows agent `agent` added to the store `store` (a path relative to the
/// directory holding the record); what undoes a killed command's rows (memory::target's
/// remove_agent, bound by the caller: this module never opens a database).
using rows_undo = std::function<void(const std::string& store, const std::string& agent)>;

/// The record's file inside the intent directory.
inline constexpr std::string_view intent_record_file = "record";

namespace detail {

inline std::string hex_of(std::string_view s) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : s) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

inline std::optional<std::string> unhex(std::string_view h) {
  if (h.size() % 2 != 0) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < h.size(); i += 2) {
    int v = 0;
    for (const char c : h.substr(i, 2)) {
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) return std::nullopt;
      v = v * 16 + d;
    }
    out.push_back(static_cast<char>(v));
  }
  return out;
}

}  // namespace detail

/// The record's text: one line per field, strings hex-encoded, `end` last (a record cut
/// short by a kill has no `end` and is read as none: nothing was published yet).
inline std::string intent_text(const intent_record& r) {
  std::string t = "clawport-intent 1\ncommit " + detail::hex_of(r.commit_file) + "\n";
  t += r.before ? "before " + std::to_string(r.before->dev) + " " + std::to_string(r.before->ino)
                : std::string("before none");
  t += "\nmarker " + detail::hex_of(r.marker) + "\n";
  for (const intent_tree& x : r.trees)
    t += "tree " + detail::hex_of(x.path) + " " + std::to_string(x.id.dev) + " " +
         std::to_string(x.id.ino) + " " + (x.was_empty_dir ? "1" : "0") + " " +
         std::to_string(x.mode) + "\n";
  if (!r.rows_store.empty())
    t += "rows " + detail::hex_of(r.rows_store) + " " + detail::hex_of(r.rows_agent) + "\n";
  return t + "end\n";
}

/// The record from its text; nullopt when it is incomplete or not one.
inline std::optional<intent_record> parse_intent(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string key, a;
  intent_record r;
  if (!(in >> key >> a) || key != "clawport-intent" || a != "1") return std::nullopt;
  const auto text_field = [&](const char* want, std::string& out) {
    std::string h;
    if (!(in >> key >> h) || key != want) return false;
    auto v = detail::unhex(h);
    if (!v) return false;
    out = std::move(*v);
    return true;
  };
  const auto text_field_value = [&](std::string& out) {
    std::string h;
    if (!(in >> h)) return false;
    auto v = detail::unhex(h);
    if (!v) return false;
    out = std::move(*v);
    return true;
  };
  if (!text_field("commit", r.commit_file)) return std::nullopt;
  if (!(in >> key >> a) || key != "before") return std::nullopt;
  if (a != "none") {
    fs::file_id id;
    std::istringstream dev(a);
    if (!(dev >> id.dev) || !(in >> id.ino)) return std::nullopt;
    r.before = id;
  }
  if (!text_field("marker", r.marker)) return std::nullopt;
  while (in >> key) {
    if (key == "end") return r;
    if (key == "rows") {
      if (!text_field_value(r.rows_store) || !text_field_value(r.rows_agent) ||
          r.rows_store.empty() || r.rows_store.front() == '/')
        return std::nullopt;
      continue;
    }
    if (key != "tree") return std::nullopt;
    intent_tree x;
    std::string h;
    int empty = 0;
    if (!(in >> h >> x.id.dev >> x.id.ino >> empty >> x.mode)) return std::nullopt;
    auto p = detail::unhex(h);
    if (!p || p->empty() || p->front() == '/') return std::nullopt;
    x.path = std::move(*p);
    x.was_empty_dir = empty != 0;
    r.trees.push_back(std::move(x));
  }
  return std::nullopt;
}

/// `.clawport-import-<token>.intent`: the intent directory of the import whose plan token
/// is `token` (publish/names.hpp matches it as the import family's).
inline std::string import_intent_name(std::string_view token) {
  return std::string(family_of(staging_kind::import).prefix) + std::string(token) + ".intent";
}

/// Writes `r` into the open, locked intent directory `dir`.
template <class Fs>
void write_intent(Fs& fs, const typename Fs::dir& dir, const intent_record& r) {
  const std::string text = intent_text(r);
  fs::write_new_file(fs, dir, intent_record_file, text, fs::modes::private_file);
}

/// What `resolve_intent` did, in recover's words.
struct intent_outcome {
  bool busy = false;       ///< a running command holds it: nothing done
  bool undone = false;     ///< the trees were removed (the command did not happen)
  bool committed = false;  ///< the commit had happened: only the record was removed
  bool unclear = false;    ///< the file changed otherwise: nothing done
  std::vector<std::string> actions;
};

namespace detail {

/// Calls `f(parent, leaf)` with the directory holding `rel` below `base`, opened without
/// following a symlink; not at all when a directory on the way is missing or is not one.
template <class Fs, class F>
void at_parent_of(Fs& fs, const typename Fs::dir& base, const std::string& rel, F&& f) {
  const std::string leaf = paths::file_name(rel);
  if (leaf.empty()) return;
  const fs::path_result<Fs> at = fs::try_open_path(fs, base, paths::parent(rel));
  if (at.ok()) f(at.get(base), leaf);
}

/// Removes each recorded tree that is still the tree recorded, newest first, putting back
/// an empty directory the place held.
template <class Fs>
void undo_trees(Fs& fs, const typename Fs::dir& base, const intent_record& r, intent_outcome& out) {
  for (auto it = r.trees.rbegin(); it != r.trees.rend(); ++it) {
    at_parent_of(fs, base, it->path, [&](const typename Fs::dir& parent, const std::string& leaf) {
      const auto st = fs.stat_at(parent, leaf);
      if (!st || st->id != it->id) return;  // never published, or not ours any more
      fs.remove_tree_at(parent, leaf);
      if (it->was_empty_dir) fs.make_dir_at(parent, leaf, it->mode);
      out.actions.push_back("removed " + it->path + ", which the killed command had placed");
    });
  }
}

}  // namespace detail

/// Finishes or undoes the command whose intent directory `name` lies in `base` (the
/// directory its record's paths are relative to): locked by a running command, nothing is
/// done (`busy`); with the commit file holding the marker, the command had committed and
/// only the record goes; with the commit file still the one recorded (or still absent), the
/// recorded rows (through `undo_rows`; without it nothing is done, `unclear`) and trees are
/// removed, then the record; otherwise nothing is done (`unclear`). A
/// record cut short (nothing published yet) is removed. Throws clawport::error when a step
/// fails (the record then stays, for the next try).
template <class Fs>
intent_outcome resolve_intent(Fs& fs, const typename Fs::dir& base, const std::string& name,
                              const rows_undo& undo_rows = {}) {
  intent_outcome out;
  typename Fs::dir d = fs.open_dir_at(base, name);
  if (!fs.try_lock(d)) {
    out.busy = true;
    return out;
  }
  const fs::read_result rec = fs::try_read_file_at(fs, d, intent_record_file, 1 << 20);
  const std::optional<intent_record> r =
      rec.refusal == fs::read_refusal::none ? parse_intent(rec.bytes) : std::nullopt;
  if (r) {
    const auto st = fs.stat_at(base, r->commit_file);
    const fs::read_result now =
        fs::try_read_file_at(fs, base, r->commit_file, std::uint64_t{1} << 26);
    const bool committed = now.refusal == fs::read_refusal::none && !r->marker.empty() &&
                           now.bytes.find(r->marker) != std::string::npos;
    const bool untouched = r->before ? (st && st->id == *r->before) : !st;
    if (committed) {
      out.committed = true;
      out.actions.push_back("the command had written " + r->commit_file +
                            ": its trees stay, its record " + name + " is removed");
    } else if (untouched && !r->rows_store.empty() && !undo_rows) {
      out.unclear = true;
      out.actions.push_back("left " + name + " alone: the killed command added memory rows to " +
                            r->rows_store +
                            " that only clawport's CLI can remove: run `clawport recover` on "
                            "this install's config");
      return out;
    } else if (untouched) {
      if (!r->rows_store.empty()) {
        undo_rows(r->rows_store, r->rows_agent);
        out.actions.push_back("removed the memory rows of agent " + r->rows_agent + " from " +
                              r->rows_store + ", which the killed command had added");
      }
      detail::undo_trees(fs, base, *r, out);
      out.undone = true;
      out.actions.push_back("undid the command killed before it wrote " + r->commit_file +
                            " (its record " + name + " is removed): run it again");
    } else {
      out.unclear = true;
      out.actions.push_back("left " + name + " alone: " + r->commit_file +
                            " changed since the command began, so recover cannot tell whether "
                            "it finished; its record lists the trees it placed");
      return out;
    }
  } else {
    out.actions.push_back("removed " + name + ": the command was killed before it placed anything");
  }
  fs.remove_tree_at(base, name);
  return out;
}

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
