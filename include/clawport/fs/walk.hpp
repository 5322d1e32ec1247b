// SPDX-License-Identifier: MIT
// The one tree walk of the library: every module that visits a tree below a directory
// handle (the copy of fs/copy.hpp, verify, the skill audit, OpenClaw's workspace listing)
// walks it here. The walk lists a directory through the Fs policy, builds each entry's
// path relative to the walk's root, classifies the entry with `stat_at` (never following
// a link) and descends into a directory only through a handle the visitor opened below its
// parent's handle (openat-style), so nothing is ever resolved by path. It enforces the one
// depth rule: a directory nested deeper than `walk_options::max_depth` below the root is a
// clawport::error (errc::limit_exceeded) naming that directory, never a silent skip.
//
// A visitor says what happens to what the walk meets; it derives from `walk_visitor`, whose
// members are the defaults, and provides at least `visit` and `enter`:
//
//   bool visit(const dir& parent, std::string_view name, const std::string& rel,
//              const stat_info& info);
//       every classified entry; for a directory, true asks the walk to descend into it;
//   std::optional<dir> enter(const dir& parent, std::string_view name, const std::string& rel,
//                            const stat_info& info);
//       opens a directory the walk descends into (after the depth check); nullopt skips it
//       (or a std::shared_ptr<dir>, null to skip, for a visitor that shares the handle with
//       work still running after the walk has left the directory);
//   void leave(const std::string& rel);      after the walk of a directory `enter` opened;
//   bool admit(std::string_view name, const std::string& rel);
//       before an entry is classified; false skips it unvisited (never opened; stat'ed only
//       by a sorted walk placing a name a sibling extends with a byte below '/');
//   void listing_failed(const error& e, const std::string& rel);
//   void stat_failed(const error& e, const std::string& rel);
//       called inside the catch block: rethrow (the default: `throw;`), throw another error,
//       or return to carry on (the directory is then not visited, or the entry skipped);
//   error too_deep(const std::string& rel, std::size_t max_depth);
//       the error thrown for a directory past the depth limit (the text, never the rule);
//   bool stopped() const;                    true ends a sorted walk before the next entry.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "policy.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

/// How a walk visits a tree.
struct walk_options {
  /// Directories may nest this deep below the walk's root (the root's own entries are at
  /// depth 0, a directory among them is at depth 1); a deeper one is `too_deep`.
  std::size_t max_depth = CLAWPORT_MAX_TREE_DEPTH;
  /// Each directory's entries in path order (byte order of their names, a directory's
  /// name taken with its '/'), all listed before the first is visited, so the walk visits
  /// every file in byte order of its path; false visits them as the Fs lists them, while
  /// it lists them (a copy keeps no list of names).
  bool sorted = true;
  /// Sorted walks only: at most this many names of one directory are kept (a verifier that
  /// stops after its file limit needs one more than that limit, never the whole listing).
  std::size_t max_listed = SIZE_MAX;
};

/// The default of every optional hook of a walk's visitor (see the top of this file).
struct walk_visitor {
  bool admit(std::string_view, const std::string&) { return true; }
  void leave(const std::string&) {}
  [[noreturn]] void listing_failed(const error&, const std::string&) { throw; }
  [[noreturn]] void stat_failed(const error&, const std::string&) { throw; }
  bool stopped() const { return false; }
  error too_deep(const std::string& rel, std::size_t max_depth) {
    return error(errc::limit_exceeded,
                 "failed to walk " + rel + ": the tree is nested deeper than " +
                     std::to_string(max_depth) + " directories (CLAWPORT_MAX_TREE_DEPTH)",
                 rel);
  }
};

/// Calls `each(name)` for every entry of `d`; a failure to list `d` goes to
/// `listing_failed(error)`, while what `each` throws propagates as it is (an error from an
/// entry is not a failure to list).
template <class Fs, class Each, class Failed>
void for_each_entry_or(Fs& fs, const typename Fs::dir& d, Each&& each, Failed&& listing_failed) {
  bool nested = false;
  try {
    fs.for_each_entry(d, [&](std::string_view name) {
      try {
        each(name);
      } catch (...) {
        nested = true;
        throw;
      }
    });
  } catch (const error& e) {
    if (nested) throw;
    listing_failed(e);
  }
}

namespace detail {

template <class Fs, class Visitor>
class tree_walk {
 public:
  using dir = typename Fs::dir;

  tree_walk(Fs& fs, Visitor& v, const walk_options& opt, std::string_view prefix)
      : fs_(fs), v_(v), opt_(opt), rel_(prefix) {}

  void walk_dir(const dir& d, std::size_t depth) {
    if (opt_.sorted) return walk_sorted(d, depth);
    for_each_entry_or(
        fs_, d, [&](std::string_view name) { entry(d, name, depth); },
        [&](const error& e) { v_.listing_failed(e, rel_); });
  }

 private:
  /// One relative-path buffer for the whole walk: each entry appends its name and the
  /// guard trims it back, so no allocation grows with the number of entries.
  struct rel_guard {
    std::string& s;
    std::size_t n;
    ~rel_guard() { s.resize(n); }
  };

  void walk_sorted(const dir& d, std::size_t depth) {
    std::vector<std::string> names;
    try {
      fs_.for_each_entry(d, [&](std::string_view n) {
        if (names.size() < opt_.max_listed) names.emplace_back(n);
      });
    } catch (const error& e) {
      v_.listing_failed(e, rel_);
      return;
    }
    std::sort(names.begin(), names.end());
    place_directories(d, names);
    for (const std::string& name : names) {
      if (v_.stopped()) return;
      entry(d, name, depth);
    }
  }

  /// Byte order of names is path order except where a sibling extends a directory's name
  /// with a byte below '/' (`a.txt` sorts after `a` but before `a/x`). Only such a name is
  /// classified here (once more, never followed), and a directory is then placed as its
  /// name plus '/' sorts, so the whole walk visits files in the order of their paths.
  void place_directories(const dir& d, std::vector<std::string>& names) {
    std::vector<std::size_t> dirs;  // indices of directories to place after their extensions
    for (std::size_t i = 0; i + 1 < names.size(); ++i) {
      const std::string& a = names[i];
      const std::string& b = names[i + 1];
      if (b.size() <= a.size() || b.compare(0, a.size(), a) != 0 ||
          static_cast<unsigned char>(b[a.size()]) >= '/')
        continue;
      std::optional<stat_info> info;
      try {
        info = fs_.stat_at(d, a);
      } catch (const error&) {
        continue;  // left in place: the entry's own classification reports it
      }
      if (info && info->kind == file_kind::directory) dirs.push_back(i);
    }
    if (dirs.empty()) return;
    for (const std::size_t i : dirs) names[i] += '/';  // '/' never occurs in a name
    std::sort(names.begin(), names.end());
    for (std::string& n : names)
      if (!n.empty() && n.back() == '/') n.pop_back();
  }

  void entry(const dir& d, std::string_view name, std::size_t depth) {
    rel_guard guard{rel_, rel_.size()};
    if (!rel_.empty()) rel_ += '/';
    rel_.append(name.data(), name.size());
    if (!v_.admit(name, rel_)) return;
    std::optional<stat_info> info;
    try {
      info = fs_.stat_at(d, name);
    } catch (const error& e) {
      v_.stat_failed(e, rel_);
      return;
    }
    if (!info) return;  // gone since the listing: nothing to visit
    if (!v_.visit(d, name, rel_, *info) || info->kind != file_kind::directory) return;
    if (depth + 1 > opt_.max_depth) throw v_.too_deep(rel_, opt_.max_depth);
    // An optional<dir>, or a shared_ptr<dir> when the visitor's work outlives the walk's
    // stay in the directory (a walk with jobs, fs/jobs.hpp).
    auto child = v_.enter(d, name, rel_, *info);
    if (!child) return;
    walk_dir(*child, depth + 1);
    v_.leave(rel_);
  }

  Fs& fs_;
  Visitor& v_;
  const walk_options& opt_;
  std::string rel_;
};

}  // namespace detail

/// Walks the tree below the open directory `root` with `visitor` (see the top of this
/// file). `prefix` is the path of `root` below the walk's root, empty for the root itself:
/// every entry's `rel` starts with it. Throws what the visitor throws, and
/// `visitor.too_deep(rel, max_depth)` for a directory nested deeper than `opt.max_depth`.
template <class Fs, class Visitor>
void walk(Fs& fs, const typename Fs::dir& root, Visitor& visitor, const walk_options& opt = {},
          std::string_view prefix = {}) {
  static_assert(check_policy<Fs>());
  detail::tree_walk<Fs, Visitor>(fs, visitor, opt, prefix).walk_dir(root, 0);
}

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
