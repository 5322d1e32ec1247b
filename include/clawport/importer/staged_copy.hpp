// SPDX-License-Identifier: MIT
// The staged copy of a verified bundle: one tree of the bundle (`workspace`,
// `skills/<alias>`, `skills`) walked with the export's safe copy into any sink (import's
// staging directory, convert's memory), every byte hashed in the same pass and checked
// against the digest list the bundle was verified with. A file whose bytes differ, a file
// the list does not name, a listed file that is gone, and any entry the walk had to skip
// (a link, a special file, a replaced entry) refuse the whole copy: the caller discards
// what was staged, so nothing that was not verified is ever installed.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../digest/sha256.hpp"
#include "../fs/copy.hpp"
#include "../fs/open_path.hpp"
#include "../fs/policy.hpp"
#include "../verify/report.hpp"
#include "../verify/verify.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

namespace detail {

/// The refusal of a bundle that changed between its verify and the read that found it
/// (`why`, naming `subject`): the one wording for the copy and the digest list.
inline error bundle_changed(const std::string& why, const std::string& subject) {
  return error(
      errc::identity_changed,
      "the bundle changed after it was verified (" + why + "); nothing of it was installed",
      subject);
}

/// Hashes each file the walk reads and compares it with the verified digest list.
/// The first difference is kept (and stops the copy of that file once it overruns the
/// verified size); `problem()` names it. A copy with jobs gives each file a fork, which
/// reads the parent's range of the verified list (never changed while files are copied)
/// and is merged back in walk order.
class verifying_observer final : public fs::copy_sink {
 public:
  /// `files` sorted by path (as verify returns them): the tree's are a range of it, looked
  /// up by bisection, with one bit each for "copied" (no second index of the paths).
  verifying_observer(const std::vector<verify::bundle_file>& files, const std::string& tree) {
    const std::string prefix = tree + "/";
    const auto by_path = [](const verify::bundle_file& f, const std::string& p) {
      return f.path < p;
    };
    first_ = std::lower_bound(files.begin(), files.end(), prefix, by_path);
    last_ = first_;
    while (last_ != files.end() && last_->path.compare(0, prefix.size(), prefix) == 0) ++last_;
    copied_.assign(static_cast<std::size_t>(last_ - first_), false);
  }
  verifying_observer(const verifying_observer&) = delete;
  verifying_observer& operator=(const verifying_observer&) = delete;
  std::unique_ptr<fs::copy_sink> fork() override {
    return std::unique_ptr<fs::copy_sink>(new verifying_observer(first_, last_));
  }
  void merge(fs::copy_sink& forked) override {
    auto& f = static_cast<verifying_observer&>(forked);
    if (f.finished_) copied_[*f.finished_] = true;
    if (f.problem_ && !problem_) {
      problem_ = f.problem_;
      subject_ = f.subject_;
    }
  }
  void begin_file(std::string_view bundle_path) override {
    path_.assign(bundle_path.data(), bundle_path.size());
    const auto it = std::lower_bound(
        first_, last_, path_,
        [](const verify::bundle_file& f, const std::string& p) { return f.path < p; });
    // a fork cannot see the parent's bits: a path copied twice is a walk's bug, not input
    current_ = it != last_ && it->path == path_ && (fork_ || !copied_[index(it)]) ? &*it : nullptr;
    if (current_ == nullptr) fail(path_ + " is not in the digest list it was verified with");
    hash_.reset();
    size_ = 0;
  }
  void bytes(const char* data, std::size_t size) override {
    size_ += size;
    if (current_ != nullptr && size_ > current_->size) {
      fail(path_ + " grew past the " + std::to_string(current_->size) + " bytes verified");
      throw error(errc::identity_changed, *problem_, path_);  // stop reading it
    }
    hash_.update(data, size);
  }
  void end_file() override {
    if (current_ == nullptr) return;
    if (digest::to_hex(hash_.finish()) != current_->sha256 || size_ != current_->size)
      fail(path_ + " does not match the digest it was verified with");
    const std::size_t i = static_cast<std::size_t>(current_ - &*first_);
    if (fork_) {
      finished_ = i;
    } else {
      copied_[i] = true;
    }
  }
  /// Every listed file must have been copied.
  void check_complete() {
    for (auto it = first_; it != last_; ++it) {
      if (copied_[index(it)]) continue;
      path_ = it->path;
      fail(path_ + " is gone");
      return;
    }
  }
  void finish() { check_complete(); }
  const std::optional<std::string>& problem() const noexcept { return problem_; }
  const std::string& subject() const noexcept { return subject_; }
  /// Never set: the files are in memory, no list is read while copying.
  const std::optional<error>& stream_error() const noexcept { return no_stream_error_; }

 private:
  using iterator = std::vector<verify::bundle_file>::const_iterator;

  /// A fork: reads the parent's range.
  verifying_observer(iterator first, iterator last) : first_(first), last_(last), fork_(true) {}

  void fail(const std::string& why) {
    if (problem_) return;
    problem_ = why;
    subject_ = path_.empty() ? why : path_;
  }

  std::size_t index(iterator it) const { return static_cast<std::size_t>(it - first_); }

  iterator first_, last_;  ///< the tree's files, a range of the sorted list
  bool fork_ = false;
  std::vector<bool> copied_;             ///< one bit per file of the range (the parent's only)
  std::optional<std::size_t> finished_;  ///< a fork's file, seen to its end
  const verify::bundle_file* current_ = nullptr;
  digest::sha256 hash_;
  std::string path_;
  std::uint64_t size_ = 0;
  std::optional<std::string> problem_;
  std::string subject_;
  std::optional<error> no_stream_error_;
};

/// The staged copy both checks share: opens `tree` under `bundle_root` (never through a
/// link: open_dir_at is nofollow), copies it into `dst` with `check` seeing every byte,
/// and turns what `check` found into errc::identity_changed naming the file. `jobs`: threads
/// that copy and hash (fs/jobs.hpp; `check` forks per file): what is staged and refused is
/// that of one.
template <class Fs, class Sink, class Check>
fs::copy_tally copy_checked(Fs& fs, Sink& sink, const typename Fs::dir& bundle_root,
                            const std::string& tree, const typename Sink::dir& dst, Check& check,
                            bool sorted, std::uint32_t umask, unsigned jobs) {
  std::optional<typename Fs::dir> src;
  try {
    src = fs::open_path(fs, bundle_root, tree).dir;
  } catch (const error& e) {
    throw with_context(e, "failed to open the bundle's " + tree, tree);
  }
  fs::copy_spec spec(tree);
  spec.sink = &check;
  spec.umask = umask;
  spec.sorted = sorted;
  spec.jobs = jobs;
  fs::copy_tally t;
  try {
    fs::walk_tree(fs, sink, *src, dst, spec, t);
  } catch (const error&) {
    if (check.stream_error()) throw *check.stream_error();
    if (check.problem()) throw bundle_changed(*check.problem(), check.subject());
    throw;
  }
  if (t.symlinks_skipped + t.others_skipped + t.hard_links_skipped + t.replaced_skipped > 0)
    throw bundle_changed(tree + " holds an entry that is not a plain file or directory any more",
                         tree);
  check.finish();
  if (check.problem()) throw bundle_changed(*check.problem(), check.subject());
  return t;
}

}  // namespace detail

/// Copies the tree `tree` of the bundle opened at `bundle_root` into the sink's `dst`,
/// each file given its `fs::copied_mode` under `umask`, hashing every byte as it is copied.
/// `files` is the bundle as verified (`verify::report::files`, the plan's `files`).
/// Refuses with errc::identity_changed, naming the file, when anything copied differs from
/// what was verified; the caller then discards `dst`. Used by `import` (into its staging
/// directory) and `convert` (into memory): one staged copy for both. `jobs`: threads that
/// copy and hash (fs/jobs.hpp); what is staged and refused is that of one.
template <class Fs, class Sink>
fs::copy_tally copy_verified(Fs& fs, Sink& sink, const typename Fs::dir& bundle_root,
                             const std::string& tree, const typename Sink::dir& dst,
                             const std::vector<verify::bundle_file>& files, std::uint32_t umask = 0,
                             unsigned jobs = 1) {
  detail::verifying_observer check(files, tree);
  return detail::copy_checked(fs, sink, bundle_root, tree, dst, check, false, umask, jobs);
}

namespace detail {

/// Hashes each file the walk reads (in path order) and checks it against the next lines of
/// the bundle's digest list (`list`, a source of entries in path order: importer/file_stream.hpp),
/// joined as verify joins them (verify::list_join). The first difference stops the
/// copy; `problem()` names it. A copy with jobs hashes each file in a fork (fs/jobs.hpp);
/// the forks are merged, and their files joined with the list, in walk order, which the
/// sorted walk makes path order: the list's order.
template <class List>
class listed_observer final : public fs::copy_sink {
 public:
  listed_observer(List& list, const std::string& tree) : list_(&list), prefix_(tree + "/") {}
  listed_observer(const listed_observer&) = delete;
  listed_observer& operator=(const listed_observer&) = delete;

  std::unique_ptr<fs::copy_sink> fork() override {
    return std::unique_ptr<fs::copy_sink>(new listed_observer());
  }
  /// The fork's file, if it was read to its end, joined with the list as end_file joins it.
  void merge(fs::copy_sink& forked) override {
    auto& f = static_cast<listed_observer&>(forked);
    if (f.ended_) join(f.file_);
  }

  void begin_file(std::string_view bundle_path) override {
    file_.path.assign(bundle_path.data(), bundle_path.size());
    file_.size = 0;
    hash_.reset();
  }
  void bytes(const char* data, std::size_t size) override {
    file_.size += size;
    hash_.update(data, size);
  }
  void end_file() override {
    file_.sha256 = digest::to_hex(hash_.finish());
    if (list_ == nullptr) {
      ended_ = true;  // a fork: joined when merged
      return;
    }
    join(file_);
  }
  /// After the walk: a line of the tree the walk did not meet is a file that is gone.
  void finish() {
    const digest::list_entry* e = list_->peek();
    if (e != nullptr && e->path.compare(0, prefix_.size(), prefix_) == 0 && !problem_) {
      problem_ = e->path + " is gone";
      subject_ = e->path;
    }
  }
  const std::optional<std::string>& problem() const noexcept { return problem_; }
  const std::string& subject() const noexcept { return subject_; }
  const std::optional<error>& stream_error() const noexcept { return stream_error_; }

 private:
  listed_observer() = default;  ///< a fork: hashes one file, joins nothing

  void join(verify::bundle_file& file) {
    try {
      join_.file(file, *list_);
    } catch (const error& e) {
      stream_error_ = e;  // the list stopped parsing: it changed since it was verified
      throw;
    }
    stop_if_differs();
  }

  void stop_if_differs() {
    if (join_.exact) return;
    const verify::finding& f = join_.missing.empty() ? join_.found.front() : join_.missing.front();
    subject_ = f.path;
    if (f.code == "missing_file")
      problem_ = f.path + " is gone";
    else if (f.code == "unlisted_file")
      problem_ = f.path + " is not in the digest list it was verified with";
    else
      problem_ = f.path + " does not match the digest it was verified with";
    throw error(errc::identity_changed, *problem_, subject_);  // stop reading the tree
  }

  List* list_ = nullptr;  ///< null in a fork
  std::string prefix_;    ///< "<tree>/": the lines of this tree
  verify::list_join join_;
  verify::bundle_file file_;  ///< the file being copied
  bool ended_ = false;        ///< a fork's file, read to its end
  digest::sha256 hash_;
  std::optional<std::string> problem_;
  std::string subject_;
  std::optional<error> stream_error_;
};

}  // namespace detail

/// copy_verified against the bundle's digest list read in path order (`list`: the lines
/// before the tree already taken; this tree's are taken here) instead of a list of every
/// file in memory: the tree is walked in path order (copy_spec::sorted), each file hashed
/// as it is copied and joined with the list's next lines. Refuses as copy_verified does
/// (errc::identity_changed naming the file); the caller then discards `dst`. `jobs`: threads
/// that copy and hash; the files are still joined with the list in its order.
template <class Fs, class Sink, class List>
fs::copy_tally copy_listed(Fs& fs, Sink& sink, const typename Fs::dir& bundle_root,
                           const std::string& tree, const typename Sink::dir& dst, List& list,
                           std::uint32_t umask = 0, unsigned jobs = 1) {
  detail::listed_observer<List> check(list, tree);
  // sorted: list order
  return detail::copy_checked(fs, sink, bundle_root, tree, dst, check, true, umask, jobs);
}

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
