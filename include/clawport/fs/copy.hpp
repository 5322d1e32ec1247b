// SPDX-License-Identifier: MIT
// The handle-based tree copy on the one walk (fs/walk.hpp; docs/library.md, Tree copy), with a sink
// that says what happens to what is carried: `copying_sink` writes it into the bundle,
// `counting_sink` only counts it (the dry run). One walk, so the dry run and the export
// share every rule, count and refusal text. Every read goes through directory handles;
// each entry is classified without following links, opened with nofollow and carried only
// if the opened object is the one that was classified and has one name (nlink == 1) both
// at classification and once open. A carried file gets its permission bits less the
// spec's umask (`copied_mode`: setuid, setgid and sticky never travel, as `cp` without `-p`).
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/utf8.hpp"
#include "anchored.hpp"
#include "jobs.hpp"
#include "policy.hpp"
#include "walk.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

/// What a copy carried and what it skipped (one for the workspace, one for all skills).
struct copy_tally {
  std::uint64_t files = 0;               ///< regular files written into the bundle
  std::uint64_t bytes = 0;               ///< bytes actually copied
  std::uint64_t symlinks_skipped = 0;    ///< links are never followed into a bundle
  std::uint64_t others_skipped = 0;      ///< sockets, FIFOs, devices
  std::uint64_t hard_links_skipped = 0;  ///< files with nlink > 1 (classified or opened)
  std::uint64_t replaced_skipped = 0;    ///< opened object differed from the classified one
  std::uint64_t names_skipped = 0;       ///< entries whose name `copy_spec::carries_name` refuses
};

/// Which entries a copy visits, by path relative to the copy's root ("notes/plan.md").
/// An empty function admits everything. An excluded directory is never opened.
using entry_filter = std::function<bool(std::string_view relative)>;

/// Sees the bytes of every file a copy writes, on their way (the exporter hashes them
/// here, so the bundle is never read a second time). With a sink, files are copied
/// through a user-space buffer instead of `copy_data`. (An observer of the copying sink;
/// the dry run's counting sink writes nothing and calls none.)
class copy_sink {
 public:
  virtual ~copy_sink() = default;
  virtual void begin_file(std::string_view bundle_path) = 0;  ///< `workspace/notes.md`
  virtual void bytes(const char* data, std::size_t size) = 0;
  virtual void end_file() = 0;  ///< the file was written completely
  /// A copy asks for one observer per file (with one job too, so that what `merge` records
  /// and throws does not depend on the job count): a fork that sees that file's begin_file,
  /// bytes and end_file on whatever thread copies it, then is given back to `merge` on the
  /// copy's own thread, in the order the walk met the files (after a failure too: what the
  /// fork saw before it). Null, the default, keeps the copy on one thread with this observer.
  virtual std::unique_ptr<copy_sink> fork() { return nullptr; }
  virtual void merge(copy_sink& /*forked*/) {}
};

/// How a tree is named inside the bundle, and what it leaves out.
struct copy_spec {
  copy_spec() = default;
  copy_spec(std::string root_name, entry_filter entries = {})
      : root(std::move(root_name)), filter(std::move(entries)) {}

  std::string root;     ///< "workspace" or "skills/<alias>": prefixes every error path
  entry_filter filter;  ///< empty = everything
  /// Called with the identity of every directory and regular file the walk classified
  /// (before it is opened) and its bundle path; it may throw to refuse the whole copy
  /// (the exporter refuses a tree that holds the install's own root, config or key).
  std::function<void(const file_id& id, const std::string& bundle_path)> check_entry;
  /// Called with the root-relative path of every regular file the walk carried.
  std::function<void(std::string_view relative)> on_carried;
  copy_sink* sink = nullptr;  ///< sees every copied file's bytes; null = none
  /// A symlink anywhere in the tree is an error (errc::unsafe_path) instead of being
  /// counted and skipped: `skills install` refuses a source that holds one, as upstream.
  bool refuse_symlinks = false;
  /// Permission bits cleared from every copied file (`copied_mode`). `import` and `skills
  /// install` pass the process umask, read once by the caller; 0 keeps the bits (export).
  std::uint32_t umask = 0;
  /// Whether an entry's name may be carried; an entry it refuses is counted in
  /// `names_skipped`, reported to `on_name_skipped` (its bundle path) and never opened, as a
  /// symlink is skipped. Empty admits every name.
  std::function<bool(std::string_view name)> carries_name;
  std::function<void(const std::string& bundle_path)> on_name_skipped;
  /// Directories may nest this deep below the copy's root (errc::limit_exceeded past it).
  std::size_t max_depth = CLAWPORT_MAX_TREE_DEPTH;
  /// The tally may reach this many files (errc::limit_exceeded, before the next is opened).
  std::uint64_t max_files = UINT64_MAX;
  /// What the limit messages name as the setting to change.
  std::string limit_name = "CLAWPORT_MAX_TREE_DEPTH";
  /// Visit each directory's entries in path order (walk_options::sorted: one directory's
  /// names listed at a time), so `sink` sees the files in byte order of their paths (the
  /// export spills its digest list as it goes); false copies them as they are listed.
  bool sorted = false;
  /// Threads that open, read, hash and write the files (fs/jobs.hpp): the walk stays one,
  /// and the copy's result, tally, observer records and first error are those of one
  /// thread. Used only when the Fs policy is thread-safe (`usable_jobs`), the sink copies
  /// with a caller's buffer (copying and discarding sinks) and the observer, if any, forks.
  unsigned jobs = 1;
};

/// Permission bits a carried file keeps: rwx for user, group and others. Setuid, setgid
/// and sticky never travel (a root-run export must not mint a setuid root-owned file).
inline constexpr std::uint32_t carried_mode_mask = 0777;

/// The mode a copied file is given, as `cp` without `-p` gives it: the source's permission
/// bits less `umask`; setuid, setgid and sticky never. The one rule of every tree copy
/// (export, import, skills install).
inline constexpr std::uint32_t copied_mode(std::uint32_t source_mode,
                                           std::uint32_t umask) noexcept {
  return source_mode & carried_mode_mask & ~umask;
}

namespace detail {

/// Reads the file `opened` describes through `buffer`, showing every byte to `observer`
/// (which may be null) and handing it to `put`: a regular file with a size is read up to
/// that size (as it was when opened), one that reports size 0 to its end. One loop for
/// every sink that reads.
template <class Fs, class Put>
std::uint64_t read_through(Fs& fs, typename Fs::file& in, const stat_info& opened,
                           copy_sink* observer, std::string_view bundle_path,
                           std::vector<char>& buffer, Put&& put) {
  const std::uint64_t size = opened.kind == file_kind::regular ? opened.size : 0;
  if (buffer.empty()) buffer.resize(CLAWPORT_COPY_BUFFER_SIZE);
  if (observer != nullptr) observer->begin_file(bundle_path);
  std::uint64_t total = 0;
  for (;;) {
    std::size_t want = buffer.size();
    if (size != 0) {
      if (total >= size) break;
      if (size - total < want) want = static_cast<std::size_t>(size - total);
    }
    const std::size_t n = fs.read(in, buffer.data(), want);
    if (n == 0) break;
    if (observer != nullptr) observer->bytes(buffer.data(), n);
    put(buffer.data(), n);
    total += n;
  }
  if (observer != nullptr) observer->end_file();
  return total;
}

}  // namespace detail

/// The sink of the real export: what the walk carries is written under the destination
/// directory handles (created 0777 & umask, files 0600 then their `copied_mode`).
template <class Fs>
struct copying_sink {
  using dir = typename Fs::dir;
  using file_type = typename Fs::file;
  static constexpr bool writes = true;
  explicit copying_sink(Fs& backend) : fs(backend) {}
  Fs& fs;

  void make_dir(const dir& parent, std::string_view name) { fs.make_dir_at(parent, name, 0777); }
  dir open_dir(const dir& parent, std::string_view name) { return fs.open_dir_at(parent, name); }
  file_type create_file(const dir& parent, std::string_view name) {
    return fs.create_file_at(parent, name, 0600);
  }
  /// Copies the file `opened` describes. A regular file with a size is copied up to that
  /// size (as it was when opened): no call is spent confirming the end of the file. A
  /// file that reports size 0 is read to its end.
  std::uint64_t copy(typename Fs::file& in, file_type& out, const stat_info& opened,
                     copy_sink* observer, std::string_view bundle_path) {
    return copy(in, out, opened, observer, bundle_path, buffer);
  }
  /// The same through the caller's `buffer` (one per thread of a copy with jobs).
  std::uint64_t copy(typename Fs::file& in, file_type& out, const stat_info& opened,
                     copy_sink* observer, std::string_view bundle_path,
                     std::vector<char>& through) {
    const std::uint64_t size = opened.kind == file_kind::regular ? opened.size : 0;
    if (observer == nullptr) {
      if constexpr (detail::has_sized_copy_data<Fs>::value) {
        return fs.copy_data(in, out, size);
      } else {
        return fs.copy_data(in, out);
      }
    }
    return detail::read_through(
        fs, in, opened, observer, bundle_path, through,
        [&](const char* data, std::size_t n) { fs.write_all(out, data, n); });
  }
  void set_mode(file_type& out, std::uint32_t mode) { fs.set_mode(out, mode & carried_mode_mask); }
  void remove_tree(const dir& parent, std::string_view name) { fs.remove_tree_at(parent, name); }
  void remove_dir(const dir& parent, std::string_view name) { fs.remove_dir_at(parent, name); }

  std::vector<char> buffer;  ///< for copies through an observer
};

/// The sink of the dry run: nothing is created; a carried file counts its size as opened.
template <class Fs>
struct counting_sink {
  struct dir {};
  struct file_type {};
  static constexpr bool writes = false;
  explicit counting_sink(Fs& backend) : fs(backend) {}
  Fs& fs;

  void make_dir(const dir&, std::string_view) {}
  dir open_dir(const dir&, std::string_view) { return {}; }
  file_type create_file(const dir&, std::string_view) { return {}; }
  std::uint64_t copy(typename Fs::file&, file_type&, const stat_info& opened, copy_sink*,
                     std::string_view) {
    return opened.size;
  }
  void set_mode(file_type&, std::uint32_t) {}
  void remove_tree(const dir&, std::string_view) {}
  void remove_dir(const dir&, std::string_view) {}
};

/// The sink that reads into memory: nothing is created; every carried file's bytes are kept
/// in `files` under its path in the copy (`workspace/notes.md`), seen by the observer on
/// their way as with the copying sink (`convert` reads a verified bundle this way).
template <class Fs>
struct reading_sink {
  struct dir {};
  struct file_type {};
  static constexpr bool writes = false;
  explicit reading_sink(Fs& backend) : fs(backend) {}
  Fs& fs;
  std::map<std::string, std::string> files;

  void make_dir(const dir&, std::string_view) {}
  dir open_dir(const dir&, std::string_view) { return {}; }
  file_type create_file(const dir&, std::string_view) { return {}; }
  std::uint64_t copy(typename Fs::file& in, file_type& out, const stat_info& opened,
                     copy_sink* observer, std::string_view bundle_path) {
    return copy(in, out, opened, observer, bundle_path, buffer);
  }
  /// The same through the caller's `buffer` (one per thread of a copy with jobs): the bytes
  /// are read into a string of their own and kept under the lock, so several threads may
  /// read at once (`convert --jobs`).
  std::uint64_t copy(typename Fs::file& in, file_type&, const stat_info& opened,
                     copy_sink* observer, std::string_view bundle_path,
                     std::vector<char>& through) {
    std::string bytes;
    const std::uint64_t n =
        detail::read_through(fs, in, opened, observer, bundle_path, through,
                             [&](const char* data, std::size_t k) { bytes.append(data, k); });
    const std::lock_guard<std::mutex> hold(lock);
    files[std::string(bundle_path)] = std::move(bytes);
    return n;
  }
  void set_mode(file_type&, std::uint32_t) {}
  void remove_tree(const dir&, std::string_view) {}
  void remove_dir(const dir&, std::string_view) {}

  std::vector<char> buffer;
  std::mutex lock;  ///< guards `files` while a copy with jobs reads
};

/// The sink that only reads: nothing is created or kept; every carried file's bytes pass
/// the observer and are dropped (import checks a verified bundle tree it does not place).
template <class Fs>
struct discarding_sink {
  struct dir {};
  struct file_type {};
  static constexpr bool writes = false;
  explicit discarding_sink(Fs& backend) : fs(backend) {}
  Fs& fs;

  void make_dir(const dir&, std::string_view) {}
  dir open_dir(const dir&, std::string_view) { return {}; }
  file_type create_file(const dir&, std::string_view) { return {}; }
  std::uint64_t copy(typename Fs::file& in, file_type& out, const stat_info& opened,
                     copy_sink* observer, std::string_view bundle_path) {
    return copy(in, out, opened, observer, bundle_path, buffer);
  }
  std::uint64_t copy(typename Fs::file& in, file_type&, const stat_info& opened,
                     copy_sink* observer, std::string_view bundle_path,
                     std::vector<char>& through) {
    return detail::read_through(fs, in, opened, observer, bundle_path, through,
                                [](const char*, std::size_t) {});
  }
  void set_mode(file_type&, std::uint32_t) {}
  void remove_tree(const dir&, std::string_view) {}
  void remove_dir(const dir&, std::string_view) {}

  std::vector<char> buffer;
};

namespace detail {

/// Whether `Sink` copies through a caller's buffer (so several threads may copy at once).
template <class Fs, class Sink, class = void>
struct copies_with_buffer : std::false_type {};
template <class Fs, class Sink>
struct copies_with_buffer<
    Fs, Sink,
    std::void_t<decltype(lval<Sink>().copy(
        lval<typename Fs::file>(), lval<typename Sink::file_type>(), lval<const stat_info>(),
        static_cast<copy_sink*>(nullptr), std::string_view{}, lval<std::vector<char>>()))>>
    : std::true_type {};

/// What a copy does with what the one walk (fs/walk.hpp) meets: the spec's filters and
/// refusals, the identity checks, the sink's directories and files, the tally. Each regular
/// file is one item of `jobs_` (fs/jobs.hpp): opened, checked, created, copied and given its
/// mode on any thread; counted, observed and its failure thrown on the walk's, in walk order.
template <class Fs, class Sink>
class copy_visitor : public walk_visitor {
 public:
  using dir = typename Fs::dir;
  using out_dir = typename Sink::dir;

  copy_visitor(Fs& fs, Sink& sink, const copy_spec& spec, copy_tally& tally, const out_dir& dst,
               unsigned jobs)
      : fs_(fs),
        sink_(sink),
        spec_(spec),
        tally_(tally),
        buffers_(jobs),
        // An item holds its source and output directories and, running, a file of each.
        jobs_(jobs, jobs_window(jobs, 4)) {
    // Non-owning: the caller's handles outlive the walk (walk_tree finishes every item).
    srcs_.push_back(nullptr);
    outs_.push_back(std::shared_ptr<const out_dir>(std::shared_ptr<void>(), &dst));
  }

  /// The walk's root (the caller's handle, alive until the walk is finished).
  void root(const dir& src) { root_src_ = &src; }
  /// Completes every file still in work, in order (throws the first failure).
  void finish() { jobs_.finish(); }

  bool admit(std::string_view name, const std::string& rel) {
    if (spec_.filter && !spec_.filter(std::string_view(rel))) return false;
    if (spec_.carries_name && !spec_.carries_name(name)) {
      ++tally_.names_skipped;
      if (spec_.on_name_skipped) spec_.on_name_skipped(current_path(rel));
      return false;
    }
    return true;
  }

  [[noreturn]] void listing_failed(const error& e, const std::string& rel) {
    throw with_context(e, "failed to read " + bundle_path(rel), bundle_path(rel), reason_of(e));
  }
  [[noreturn]] void stat_failed(const error& e, const std::string& rel) {
    throw with_context(e, "failed to stat " + bundle_path(rel), bundle_path(rel), reason_of(e));
  }
  error too_deep(const std::string& rel, std::size_t max_depth) const {
    return error(errc::limit_exceeded,
                 "failed to copy " + bundle_path(rel) + ": the tree is nested deeper than " +
                     std::to_string(max_depth) + " directories (" + spec_.limit_name + ")",
                 bundle_path(rel));
  }

  bool visit(const dir& src, std::string_view name, const std::string& rel, const stat_info& info) {
    switch (info.kind) {
      case file_kind::symlink:
        if (spec_.refuse_symlinks) {
          throw error(errc::unsafe_path,
                      "Refusing to copy symlink within skill source: " + bundle_path(rel),
                      bundle_path(rel));
        }
        ++tally_.symlinks_skipped;
        return false;
      case file_kind::other:
        ++tally_.others_skipped;
        return false;
      case file_kind::directory:
        if (spec_.check_entry) spec_.check_entry(info.id, current_path(rel));
        return true;
      case file_kind::regular:
        // Files still in work may yet be carried: the limit is checked on the exact count.
        if (tally_.files + in_work_ >= spec_.max_files) jobs_.finish();
        if (tally_.files >= spec_.max_files) {
          throw error(errc::limit_exceeded,
                      "failed to copy " + bundle_path(rel) + ": the copy would hold more than " +
                          std::to_string(spec_.max_files) + " files (" + spec_.limit_name + ")",
                      bundle_path(rel));
        }
        if (spec_.check_entry) spec_.check_entry(info.id, current_path(rel));
        regular(src, name, rel, info);
        return false;
    }
    return false;
  }

  std::shared_ptr<dir> enter(const dir& src, std::string_view name, const std::string& rel,
                             const stat_info& info) {
    std::shared_ptr<dir> child;
    try {
      child = std::make_shared<dir>(fs_.open_dir_at(src, name));
    } catch (const error& e) {
      throw with_context(e, "failed to open " + bundle_path(rel), bundle_path(rel), reason_of(e));
    }
    try {
      sink_.make_dir(dst(), name);
    } catch (const error& e) {
      throw with_context(e, "failed to create " + bundle_path(rel) + " in the bundle",
                         bundle_path(rel), reason_of(e));
    }
    stat_info opened;
    try {
      opened = fs_.stat(*child);
    } catch (const error& e) {
      throw with_context(e, "failed to stat " + bundle_path(rel), bundle_path(rel), reason_of(e));
    }
    if (opened.id != info.id) {
      ++tally_.replaced_skipped;  // the empty directory just created stays, as upstream
      return nullptr;
    }
    try {
      outs_.push_back(std::make_shared<out_dir>(sink_.open_dir(dst(), name)));
    } catch (const error& e) {
      throw with_context(e, "failed to open " + bundle_path(rel) + " in the bundle",
                         bundle_path(rel), reason_of(e));
    }
    srcs_.push_back(child);
    return child;
  }

  void leave(const std::string&) {
    outs_.pop_back();
    srcs_.pop_back();
  }

 private:
  const out_dir& dst() const { return *outs_.back(); }

  std::string bundle_path(const std::string& rel) const {
    return rel.empty() ? spec_.root : paths::join(spec_.root, rel);
  }

  /// bundle_path() in a buffer reused for the whole walk (no allocation per file once it
  /// has grown to the longest path): valid until the next entry is visited.
  const std::string& current_path(const std::string& rel) {
    path_.assign(spec_.root);
    if (!rel.empty()) {
      path_ += '/';
      path_ += rel;
    }
    return path_;
  }

  enum class outcome { carried, not_regular, hard_link, replaced };

  /// One regular file in work: what it needs (its directories shared with the walk, which
  /// may have left them) and what it gave.
  struct file_work {
    std::shared_ptr<const dir> src;  ///< null: the walk's root
    std::shared_ptr<const out_dir> dst;
    std::string name;
    std::string rel;
    stat_info info;
    std::unique_ptr<copy_sink> observer;  ///< a fork of spec_.sink, else null
    outcome what = outcome::not_regular;
    std::uint64_t bytes = 0;
  };

  void regular(const dir&, std::string_view name, const std::string& rel, const stat_info& info) {
    // `srcs_.back()` is the directory the walk is in. A second name, seen when classified: never
    // opened. (Checked again once open, so a link renamed over the entry and removed after the open
    // is skipped either way.)
    if (info.nlink > 1) {
      ++tally_.hard_links_skipped;
      return;
    }
    auto w = std::make_shared<file_work>();
    w->src = srcs_.back();
    w->dst = outs_.back();
    w->name.assign(name.data(), name.size());
    w->rel = rel;
    w->info = info;
    // A fork with one job too: the observer's record (the exporter's digest line, which may
    // spill) is made in `carried` for every job count, so a failure there is the same one.
    if (spec_.sink != nullptr) w->observer = spec_.sink->fork();
    ++in_work_;
    jobs_.submit([this, w](unsigned worker) { copy_file(*w, worker); },
                 [this, w](std::exception_ptr failure) { carried(*w, failure); });
  }

  /// The work of one file, on any thread.
  void copy_file(file_work& w, unsigned worker) {
    const dir& src = w.src ? *w.src : *root_src_;
    copy_sink* observer = w.observer ? w.observer.get() : spec_.sink;
    std::optional<typename Fs::file> in;
    try {
      in.emplace(fs_.open_file_at(src, w.name));
    } catch (const error& e) {
      throw with_context(e, "failed to open " + bundle_path(w.rel), bundle_path(w.rel),
                         reason_of(e));
    }
    stat_info opened;
    try {
      opened = fs_.stat(*in);
    } catch (const error& e) {
      throw with_context(e, "failed to stat " + bundle_path(w.rel), bundle_path(w.rel),
                         reason_of(e));
    }
    if (opened.kind != file_kind::regular) return;
    if (opened.nlink > 1) {  // before identity, as upstream
      w.what = outcome::hard_link;
      return;
    }
    if (opened.id != w.info.id) {
      w.what = outcome::replaced;
      return;
    }
    std::optional<typename Sink::file_type> out;
    try {
      out.emplace(sink_.create_file(*w.dst, w.name));
    } catch (const error& e) {
      throw with_context(e, "failed to create " + bundle_path(w.rel) + " in the bundle",
                         bundle_path(w.rel), reason_of(e));
    }
    try {
      if constexpr (copies_with_buffer<Fs, Sink>::value) {
        w.bytes = sink_.copy(*in, *out, opened, observer, bundle_path(w.rel), buffers_[worker]);
      } else {
        w.bytes = sink_.copy(*in, *out, opened, observer, bundle_path(w.rel));
      }
    } catch (const error& e) {
      throw with_context(e, "failed to copy " + bundle_path(w.rel) + " into the bundle",
                         bundle_path(w.rel), reason_of(e));
    }
    try {
      sink_.set_mode(*out, copied_mode(opened.mode, spec_.umask));
    } catch (const error& e) {
      throw with_context(e, "failed to set permissions on " + bundle_path(w.rel),
                         bundle_path(w.rel), reason_of(e));
    }
    w.what = outcome::carried;
  }

  /// The record of one file, on the walk's thread, in walk order.
  void carried(file_work& w, std::exception_ptr failure) {
    --in_work_;
    if (w.observer) spec_.sink->merge(*w.observer);
    if (failure) std::rethrow_exception(failure);
    switch (w.what) {
      case outcome::carried:
        ++tally_.files;
        tally_.bytes += w.bytes;
        if (spec_.on_carried) spec_.on_carried(std::string_view(w.rel));
        break;
      case outcome::hard_link:
        ++tally_.hard_links_skipped;
        break;
      case outcome::replaced:
        ++tally_.replaced_skipped;
        break;
      case outcome::not_regular:
        break;
    }
  }

  Fs& fs_;
  Sink& sink_;
  const copy_spec& spec_;
  copy_tally& tally_;
  const dir* root_src_ = nullptr;
  std::vector<std::shared_ptr<const dir>> srcs_;      ///< the walk's open directories; [0]: root
  std::vector<std::shared_ptr<const out_dir>> outs_;  ///< the sink's, in step with srcs_
  std::string path_;                                  ///< current_path()'s buffer
  std::vector<std::vector<char>> buffers_;            ///< one per thread of jobs_
  std::size_t in_work_ = 0;                           ///< files submitted, not recorded
  ordered_jobs jobs_;  ///< last: destroyed (its threads joined) before what they use
};

using clawport::detail::valid_utf8;  // one rule: core/utf8.hpp

}  // namespace detail

/// The threads a copy of `spec` with `Sink` uses (copy_spec::jobs).
template <class Fs, class Sink>
unsigned copy_jobs(const copy_spec& spec) {
  if (!detail::copies_with_buffer<Fs, Sink>::value) return 1;
  const unsigned jobs = usable_jobs<Fs>(spec.jobs);
  if (jobs <= 1 || (spec.sink != nullptr && !spec.sink->fork())) return 1;
  return jobs;
}

/// Walks the entries of `src` into the sink's `dst` (docs/library.md), adding to `tally`.
/// `relative` is the path of `src` below the spec's root (empty for the root itself); errors name
/// entries by their bundle path (`workspace/notes.md`). Symlinks and special files are
/// counted and skipped; hard-linked files and entries replaced between classification and
/// open are counted and skipped; any failure to open, read, create or write is thrown.
/// Directories deeper than CLAWPORT_MAX_TREE_DEPTH give errc::limit_exceeded.
template <class Fs, class Sink>
void walk_tree(Fs& fs, Sink& sink, const typename Fs::dir& src, const typename Sink::dir& dst,
               const copy_spec& spec, copy_tally& tally, std::string_view relative = {}) {
  static_assert(check_policy<Fs>());
  detail::copy_visitor<Fs, Sink> visitor(fs, sink, spec, tally, dst, copy_jobs<Fs, Sink>(spec));
  visitor.root(src);
  walk_options opt;
  opt.max_depth = spec.max_depth;
  opt.sorted = spec.sorted;  // by default as listed: a copy keeps no list of names
  try {
    walk(fs, src, visitor, opt, relative);
  } catch (...) {
    // A file met before the walk's own failure fails first, as on one thread.
    visitor.finish();
    throw;
  }
  visitor.finish();
}

/// `walk_tree` with the copying sink: copies `src` into `dst`.
template <class Fs>
void copy_tree(Fs& fs, const typename Fs::dir& src, const typename Fs::dir& dst,
               const copy_spec& spec, copy_tally& tally, std::string_view relative = {}) {
  copying_sink<Fs> sink{fs};
  walk_tree(fs, sink, src, dst, spec, tally, relative);
}

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
