// SPDX-License-Identifier: MIT
// `verify`: a bundle is hostile input. Walks it through the Fs policy (handles,
// nofollow, identity checks), bounds everything, hashes every byte against the
// digest list, parses the manifest as format 1 only, re-checks the closure
// standing alone and its secrets, and lists every finding (`{code, path,
// detail}`), not only the first.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/error.hpp"
#include "../core/utf8.hpp"
#include "../digest/list.hpp"
#include "../digest/sha256.hpp"
#include "../fs/jobs.hpp"
#include "../fs/policy.hpp"
#include "../fs/walk.hpp"
#include "../memory/jsonl.hpp"
#include "../names/grammar.hpp"
#include "../signing/policy.hpp"
#include "../zeroclaw/api.hpp"
#include "../zeroclaw/closure.hpp"
#include "../zeroclaw/comment.hpp"
#include "../zeroclaw/document.hpp"
#include "../zeroclaw/parse.hpp"
#include "../zeroclaw/plan.hpp"
#include "../zeroclaw/render.hpp"
#include "../zeroclaw/schema_v3.hpp"
#include "../zeroclaw/shape.hpp"
#include "../zeroclaw/toml_writer.hpp"
#include "../zeroclaw/validate.hpp"
#include "report.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace verify {

namespace detail {

/// The agent's memory and its user's private data at `path`, a directory when `is_dir`
/// (bundle::private_workspace_entry, the rule the export filters with; issue 30). The
/// store and the snapshot never travel (§7.5): refused. A MEMORY.md or USER.md is a
/// warning, not a refusal: upstream ZeroClaw's export carries them, so every such upstream
/// bundle would be refused, while the privacy loss is the exporting side's and has
/// happened already; the importing operator is told the bundle holds another install's
/// memory or user profile.
inline std::optional<finding> private_finding(const std::string& path, bool is_dir) {
  const std::string prefix = std::string(bundle::workspace_dir) + "/";
  if (path.rfind(prefix, 0) != 0) return std::nullopt;
  const std::string rel = path.substr(prefix.size());
  if (rel.find('/') != std::string::npos) return std::nullopt;  // below memory/: named once
  const auto kind = bundle::private_workspace_entry(rel);
  if (!kind) return std::nullopt;
  const std::string shown = is_dir ? path + "/" : path;
  const std::string why(bundle::private_reason(*kind));
  if (*kind == bundle::private_kind::memory_store || *kind == bundle::private_kind::memory_snapshot)
    return finding{"memory_store", shown, "never travels in a bundle: " + why, false};
  return finding{"private_data", shown,
                 "the bundle carries another install's private data (clawport's export leaves "
                 "it home): " +
                     why,
                 true};
}

/// The digest list read through an open file, one chunk at a time (digest::line_reader):
/// `peek` is the next entry, nullptr at the end. Hashes every byte it reads, so the caller
/// can check that the list it joined is the list the walk hashed.
template <class Fs>
class list_cursor {
 public:
  list_cursor(Fs& fs, typename Fs::file f)
      : fs_(fs), file_(std::move(f)), lines_(std::string(bundle::digest_list_file)) {}

  const digest::list_entry* peek() {
    while (at_ == ready_.size() && !eof_) {
      ready_.clear();
      at_ = 0;
      if (buffer_.empty()) buffer_.resize(CLAWPORT_COPY_BUFFER_SIZE);
      const std::size_t n = fs_.read(file_, buffer_.data(), buffer_.size());
      if (n == 0) {
        eof_ = true;
        lines_.finish();
        break;
      }
      hash_.update(buffer_.data(), n);
      lines_.feed(std::string_view(buffer_.data(), n),
                  [&](digest::list_entry&& e) { ready_.push_back(std::move(e)); });
    }
    return at_ < ready_.size() ? &ready_[at_] : nullptr;
  }
  void pop() { ++at_; }
  /// The digest of every byte read; call after peek() returned nullptr.
  std::string hex() { return digest::to_hex(hash_.finish()); }

 private:
  Fs& fs_;
  typename Fs::file file_;
  digest::line_reader lines_;
  std::vector<digest::list_entry> ready_;  ///< the entries of the last chunk read
  std::size_t at_ = 0;
  bool eof_ = false;
  std::vector<char> buffer_;
  digest::sha256 hash_;
};

/// A parsed digest list in memory, in path order (a list not written sorted).
class list_in_memory {
 public:
  explicit list_in_memory(std::vector<digest::list_entry> entries) : entries_(std::move(entries)) {
    std::sort(
        entries_.begin(), entries_.end(),
        [](const digest::list_entry& a, const digest::list_entry& b) { return a.path < b.path; });
  }
  const digest::list_entry* peek() const {
    return at_ < entries_.size() ? &entries_[at_] : nullptr;
  }
  void pop() { ++at_; }

 private:
  std::vector<digest::list_entry> entries_;
  std::size_t at_ = 0;
};

/// The bundle's files in path order joined with the digest list's entries in path order,
/// one file at a time (no map of either side): what the list names below the next file is
/// missing from the bundle. Findings are kept apart, to be reported in verify's order.
struct list_join {
  std::vector<finding> found;    ///< unlisted_file and digest_mismatch, in path order
  std::vector<finding> missing;  ///< listed files the bundle lacks, in path order
  bool exact = true;

  /// `f` as the walk recorded it; a file whose bytes were deferred takes the list's digest
  /// (the copy checks the bytes against it).
  template <class Source>
  void file(bundle_file& f, Source& list) {
    // The signature signs the list, so the list cannot name it.
    if (f.path == bundle::digest_list_file || f.path == bundle::signature_file) return;
    const digest::list_entry* next = list.peek();
    for (; next != nullptr && next->path < f.path; next = list.peek()) {
      add(missing, next->path, "missing_file", "the digest list names a file the bundle lacks");
      list.pop();
    }
    if (next == nullptr || next->path != f.path) {
      add(found, f.path, "unlisted_file", "the file is not in the digest list");
      return;
    }
    if (f.sha256.empty()) {
      f.sha256 = next->hex;
    } else if (next->hex != f.sha256) {
      add(found, f.path, "digest_mismatch",
          "its SHA-256 is " + f.sha256 + "; the digest list says " + next->hex);
    }
    list.pop();
  }
  /// The entries after the last file are missing too.
  template <class Source>
  void finish(Source& list) {
    for (const digest::list_entry* e = list.peek(); e != nullptr; e = list.peek()) {
      add(missing, e->path, "missing_file", "the digest list names a file the bundle lacks");
      list.pop();
    }
  }

 private:
  void add(std::vector<finding>& to, const std::string& path, const char* code,
           std::string detail) {
    to.push_back({code, path, std::move(detail), false});
    exact = false;
  }
};

/// The digest list read once before the walk, in constant memory: whether it parses, is in
/// path order (as clawport writes it) and names each path once, and its digest.
struct list_survey {
  bool sorted = true;
  std::optional<error> problem;  ///< the first malformed line, or a path listed twice
  std::string hex;               ///< the digest of the bytes read
  std::string stream_hex;        ///< the digest of its lines as append_line writes them
};

template <class Fs>
list_survey survey_list(Fs& fs, typename Fs::file f) {
  list_survey out;
  list_cursor<Fs> c(fs, std::move(f));
  std::string last;
  std::optional<error> twice;
  digest::sha256 stream;
  std::string line;
  try {
    bool first = true;
    for (const digest::list_entry* e = c.peek(); e != nullptr; e = c.peek()) {
      if (!first && e->path == last && !twice)
        twice = digest::listed_twice(std::string(bundle::digest_list_file), e->path);
      if (!first && e->path < last) out.sorted = false;
      last = e->path;
      first = false;
      line.clear();
      digest::append_line(line, *e);
      stream.update(line);
      c.pop();
    }
  } catch (const error& e) {
    out.problem = e;  // a malformed line comes before any duplicate, as parse_list says
    return out;
  }
  // A duplicate in an unsorted list is found by parse_list, after sorting.
  if (out.sorted && twice) out.problem = twice;
  out.hex = c.hex();
  out.stream_hex = digest::to_hex(stream.finish());
  return out;
}

/// What verify does with what the one walk (fs/walk.hpp) meets: every problem
/// is a finding, never an exception; a limit reached ends the walk
/// (`truncated`). Each file to read is one item of `jobs_` (fs/jobs.hpp): opened, read and
/// hashed on any thread; everything the report records (findings, directories, files,
/// totals) is recorded on the walk's thread in walk order, so the report of N jobs is the
/// report of one.
template <class Fs>
class walker : public fs::walk_visitor {
 public:
  using dir = typename Fs::dir;

  walker(Fs& fs, const limits& lim, report& rep, unsigned jobs = 1)
      : fs_(fs),
        lim_(lim),
        rep_(rep),
        buffers_(jobs),
        // An item holds its directory and, running, the file it reads.
        jobs_(jobs, fs::jobs_window(jobs, 2)) {
    dirs_.push_back(nullptr);  // the root: the caller's handle
  }

  /// Keeps every file and directory in the report (`report::files`), not only the ones
  /// the checks after the walk read (the bundle's root and skills/).
  void keep_all() { keep_all_ = true; }
  /// Joins each file with the digest list `c` as the walk records it (in path order).
  void join(list_cursor<Fs>* c) { cursor_ = c; }
  /// The rest of the joined list, after the walk: every entry left is missing.
  void finish_join() {
    if (cursor_ == nullptr) return;
    try {
      joined.finish(*cursor_);
    } catch (const error& e) {
      join_error = e;
    }
  }
  /// Keeps the digest list's bytes (for a signature check, or a list joined after the walk).
  void keep_list_text() { keep_list_text_ = true; }

  /// Leaves the bytes of every file below one of `trees` (bundle-relative directories)
  /// unread: recorded with its size as classified and no digest, which the digest list
  /// supplies after the walk (defer_to_list). The caller checks those bytes as it copies
  /// them (importer::copy_verified): the file is read once, not twice.
  void defer(std::vector<std::string> trees) {
    for (std::string& t : trees) t += '/';
    deferred_ = std::move(trees);
  }

  void run(const dir& root) {
    root_ = &root;
    fs::walk_options opt;
    opt.max_depth = lim_.max_depth;
    // One name more than the file limit is enough to know it is passed.
    opt.max_listed = lim_.max_files >= SIZE_MAX ? SIZE_MAX : std::size_t(lim_.max_files) + 1;
    std::exception_ptr failure;
    try {
      fs::walk(fs_, root, *this, opt);
    } catch (const error&) {
      // the walk's depth failure is a finding (too_deep)
      if (!truncated_) failure = std::current_exception();
    } catch (...) {
      // Anything else (a simulated crash, bad_alloc) too waits for the work in flight: it
      // reads `root`, which the caller closes as the exception leaves.
      failure = std::current_exception();
    }
    jobs_.finish();  // the files met before, recorded before any failure is thrown
    if (failure) std::rethrow_exception(failure);
  }
  bool truncated() const { return truncated_; }

  // The hooks of the walk.
  bool stopped() const { return truncated_; }
  void listing_failed(const error& e, const std::string& rel) {
    add("unreadable", rel.empty() ? "." : rel, e.what());
  }
  void stat_failed(const error& e, const std::string& rel) { add("unreadable", rel, e.what()); }
  error too_deep(const std::string& rel, std::size_t max_depth) {
    const std::string text =
        "directories nest deeper than " + std::to_string(max_depth) + " levels";
    add("limit_exceeded", rel, text);
    truncated_ = true;
    return error(errc::limit_exceeded, text, rel);
  }

  bool admit(std::string_view name, const std::string& path) {
    if (name.size() > lim_.max_name_bytes) {
      add("limit_exceeded", path,
          "a name is " + std::to_string(name.size()) + " bytes long; the limit is " +
              std::to_string(lim_.max_name_bytes));
      return false;
    }
    if (!bundle::carries_name(name)) {
      add("name_invalid", path, "the name is not valid UTF-8 or holds a control character");
      return false;
    }
    return true;
  }

  bool visit(const dir& d, std::string_view name, const std::string& path,
             const fs::stat_info& info) {
    switch (info.kind) {
      case fs::file_kind::symlink:
        add("symlink", path, "a symbolic link; a bundle holds only regular files and directories");
        return false;
      case fs::file_kind::other:
        add("special_file", path,
            "a FIFO, socket or device; a bundle holds only regular files and "
            "directories");
        return false;
      case fs::file_kind::directory:
        return true;
      case fs::file_kind::regular:
        regular(d, name, path, info);
        return false;
    }
    return false;
  }

  std::shared_ptr<dir> enter(const dir& d, std::string_view name, const std::string& path,
                             const fs::stat_info& info) {
    std::shared_ptr<dir> child;
    try {
      child = std::make_shared<dir>(fs_.open_dir_at(d, name));
      if (fs_.stat(*child).id != info.id) {
        add("changed", path, "the directory was replaced while it was verified");
        return nullptr;
      }
    } catch (const error& e) {
      add("unreadable", path, e.what());
      return nullptr;
    }
    jobs_.then([this, path] { directory(path); });
    dirs_.push_back(child);
    return child;
  }

  void leave(const std::string&) { dirs_.pop_back(); }
  list_join joined;  ///< the digest list's findings, when it is joined during the walk
  std::optional<error> join_error;  ///< the joined list stopped parsing
  /// The bundle's private data (private_data_findings), directories and files apart.
  std::vector<finding> private_dirs, private_files;
  bool workspace_skills = false;  ///< a file below workspace/ is a workspace skill's

 private:
  /// A finding, recorded after those of every file still in work.
  void add(std::string code, std::string path, std::string detail) {
    jobs_.then([this, c = std::move(code), p = std::move(path), d = std::move(detail)]() mutable {
      rep_.findings.push_back({std::move(c), std::move(p), std::move(d), false});
    });
  }

  /// What the checks after the walk read: the bundle's root and the entries of skills/
  /// (a bundle holds few there); the rest is checked here, as it is met.
  static bool structural(const std::string& path) {
    const std::size_t slash = path.find('/');
    if (slash == std::string::npos) return true;
    // memory/ (format 2) is one file: every entry below it is kept for memory_findings.
    if (path.compare(0, slash, bundle::memory_dir) == 0) return true;
    return path.compare(0, slash, bundle::skills_dir) == 0 &&
           path.find('/', slash + 1) == std::string::npos;
  }

  void directory(const std::string& path) {
    private_entry(path, true);
    if (keep_all_ || structural(path)) rep_.directories.push_back(path);
  }

  /// A regular file the walk read (or deferred): counted, joined with the digest list,
  /// checked, and kept only when asked or structural.
  void record(bundle_file f) {
    ++rep_.file_count;
    rep_.total_bytes += f.size;
    if (cursor_ != nullptr) {
      try {
        joined.file(f, *cursor_);
      } catch (const error& e) {  // the list no longer parses: it changed since the survey
        join_error = e;
        cursor_ = nullptr;
      }
    }
    private_entry(f.path, false);
    const std::string prefix = std::string(bundle::workspace_dir) + "/";
    if (!workspace_skills && f.path.compare(0, prefix.size(), prefix) == 0 &&
        zeroclaw::is_workspace_skill_path(std::string_view(f.path).substr(prefix.size())))
      workspace_skills = true;
    if (keep_all_ || structural(f.path)) rep_.files.push_back(std::move(f));
  }

  void private_entry(const std::string& path, bool is_dir) {
    if (auto f = private_finding(path, is_dir))
      (is_dir ? private_dirs : private_files).push_back(std::move(*f));
  }

  std::uint64_t content_limit(const std::string& path) const { return lim_.file_limit(path); }

  bool deferred(const std::string& path) const {
    if (content_limit(path) != 0) return false;  // a file verify parses is always read
    return std::any_of(deferred_.begin(), deferred_.end(), [&](const std::string& prefix) {
      return path.compare(0, prefix.size(), prefix) == 0;
    });
  }

  /// One file read and hashed: what it needs and what it gave.
  struct file_read {
    std::shared_ptr<const dir> parent;  ///< null: the root
    std::string name;
    std::string path;
    fs::stat_info info;
    std::uint64_t keep_limit = 0;
    std::string problem;  ///< the finding's code, empty when read
    std::string detail;
    std::uint64_t size = 0;
    std::string hex;
    std::string kept;
  };

  void regular(const dir&, std::string_view name, const std::string& path,
               const fs::stat_info& info) {
    if (info.nlink > 1) {
      add("hard_link", path,
          "the file has " + std::to_string(info.nlink) +
              " hard links; a bundle file must have exactly one");
      return;
    }
    // The limits count what is recorded: files still in work are recorded first when they
    // could make the difference.
    if (rep_.file_count + in_work_ + 1 > lim_.max_files ||
        rep_.total_bytes + bytes_in_work_ + info.size > lim_.max_total_bytes)
      jobs_.finish();
    if (rep_.file_count + 1 > lim_.max_files) {
      add("limit_exceeded", path,
          "the bundle holds more than " + std::to_string(lim_.max_files) + " files");
      truncated_ = true;
      return;
    }
    const std::uint64_t keep_limit = content_limit(path);
    if (keep_limit != 0 && info.size > keep_limit) {
      add("limit_exceeded", path,
          "the file is " + std::to_string(info.size) + " bytes; the limit is " +
              std::to_string(keep_limit));
      return;
    }
    if (rep_.total_bytes + info.size > lim_.max_total_bytes) {
      add("limit_exceeded", path,
          "the bundle holds more than " + std::to_string(lim_.max_total_bytes) + " bytes");
      truncated_ = true;
      return;
    }
    if (deferred(path)) {
      ++in_work_;
      bytes_in_work_ += info.size;
      jobs_.then([this, path, size = info.size] {
        --in_work_;
        bytes_in_work_ -= size;
        record({path, size, std::string()});
      });
      return;
    }
    auto r = std::make_shared<file_read>();
    r->parent = dirs_.back();
    r->name.assign(name.data(), name.size());
    r->path = path;
    r->info = info;
    // the list's bytes are kept only for a signature check or a join after the walk
    r->keep_limit = path == bundle::digest_list_file && !keep_list_text_ ? 0 : keep_limit;
    ++in_work_;
    bytes_in_work_ += info.size;
    jobs_.submit([this, r](unsigned worker) { read_file(*r, buffers_[worker]); },
                 [this, r](std::exception_ptr failure) {
                   --in_work_;
                   bytes_in_work_ -= r->info.size;
                   if (failure) std::rethrow_exception(failure);
                   record_read(*r);
                 });
  }

  /// Reads and hashes one file, on any thread. (The total stays within its limit: the
  /// file's classified size was checked against it, and a file that grows past that size
  /// is `changed`.)
  void read_file(file_read& r, std::vector<char>& buffer) const {
    digest::sha256 hash(backend_);
    try {
      auto f = fs_.open_file_at(r.parent ? *r.parent : *root_, r.name);
      const fs::stat_info opened = fs_.stat(f);
      if (opened.id != r.info.id || opened.kind != fs::file_kind::regular || opened.nlink != 1) {
        r.problem = "changed";
        r.detail = "the file was replaced while it was verified";
        return;
      }
      if (buffer.empty()) buffer.resize(CLAWPORT_COPY_BUFFER_SIZE);
      for (;;) {
        const std::size_t n = fs_.read(f, buffer.data(), buffer.size());
        if (n == 0) break;
        r.size += n;
        if (r.size > r.info.size) {
          r.problem = "changed";
          r.detail = "the file grew while it was verified";
          return;
        }
        hash.update(buffer.data(), n);
        if (r.keep_limit != 0) r.kept.append(buffer.data(), n);
        // A read shorter than asked that reaches the size the open file had is its end (a
        // regular file reads short only there): no call is spent confirming it. A file that
        // grew still shows here, as a read past that size.
        if (n < buffer.size() && r.size == r.info.size) break;
      }
    } catch (const error& e) {
      r.problem = "unreadable";
      r.detail = e.what();
      return;
    }
    r.hex = digest::to_hex(hash.finish());
  }

  /// The record of one file read, on the walk's thread, in walk order.
  void record_read(file_read& r) {
    if (!r.problem.empty()) {
      rep_.findings.push_back(
          {std::move(r.problem), std::move(r.path), std::move(r.detail), false});
      return;
    }
    if (r.path == bundle::digest_list_file) list_hex_ = r.hex;
    record({r.path, r.size, std::move(r.hex)});
    if (r.path == bundle::manifest_file) rep_.manifest_text = std::move(r.kept);
    if (r.path == bundle::config_file) rep_.config_text = std::move(r.kept);
    if (r.path == bundle::digest_list_file) digest_list_ = std::move(r.kept);
    if (r.path == bundle::signature_file) rep_.signature_text = std::move(r.kept);
    if (r.path == bundle::memory_entries_file) rep_.memory_text = std::move(r.kept);
  }

 public:
  std::string digest_list_;
  std::string list_hex_;  ///< the digest of the list's bytes as the walk read them

 private:
  Fs& fs_;
  const limits& lim_;
  report& rep_;
  bool truncated_ = false;
  const dir* root_ = nullptr;
  std::vector<std::shared_ptr<const dir>> dirs_;  ///< the walk's open directories; [0]: root
  std::vector<std::vector<char>> buffers_;        ///< one per thread of jobs_
  digest::sha256_backend backend_ = digest::sha256_best_backend();
  std::vector<std::string> deferred_;  ///< "tree/" prefixes whose bytes are left unread
  bool keep_all_ = false;
  bool keep_list_text_ = false;
  list_cursor<Fs>* cursor_ = nullptr;
  std::size_t in_work_ = 0;          ///< files met and not yet recorded
  std::uint64_t bytes_in_work_ = 0;  ///< their classified sizes
  fs::ordered_jobs jobs_;            ///< last: destroyed (its threads joined) before what they use
};

inline bool known_risk_kind(std::string_view kind) {
  for (int k = 0; k <= static_cast<int>(zeroclaw::risk_kind::carried_workspace_skills); ++k)
    if (zeroclaw::to_string(static_cast<zeroclaw::risk_kind>(k)) == kind) return true;
  return false;
}

inline const zeroclaw::value* at_path(const zeroclaw::value& root,
                                      std::initializer_list<std::string_view> keys) {
  const zeroclaw::value* cur = &root;
  for (std::string_view k : keys) {
    if (cur == nullptr || !cur->is_table()) return nullptr;
    cur = cur->find(k);
  }
  return cur;
}

/// Every empty string leaf is given a placeholder (recording its path, in the
/// scrub's path syntax), so re-planning reports which of them are schema
/// secrets.
inline void fill_empty_strings(zeroclaw::value& v, const std::string& path,
                               std::set<std::string>& empty, std::string_view placeholder) {
  if (v.is_string()) {
    if (v.text.empty()) {
      empty.insert(path);
      v.text = std::string(placeholder);
    }
  } else if (v.is_table()) {
    for (zeroclaw::member& m : v.members)
      fill_empty_strings(m.val, path.empty() ? m.key : path + "." + m.key, empty, placeholder);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.items.size(); ++i)
      fill_empty_strings(v.items[i], path + "." + zeroclaw::element_segment(v.items[i], i), empty,
                         placeholder);
  }
}

inline void unfill(zeroclaw::value& v, std::string_view placeholder) {
  if (v.is_string()) {
    if (v.text == placeholder) v.text.clear();
  } else {
    for (zeroclaw::member& m : v.members) unfill(m.val, placeholder);
    for (zeroclaw::value& item : v.items) unfill(item, placeholder);
  }
}

/// The first path at which `a` and `b` differ, for the message.
inline std::string first_difference(const zeroclaw::value& a, const zeroclaw::value& b,
                                    const std::string& path) {
  const std::string here = path.empty() ? "the root" : path;
  if (a.type != b.type) return here;
  if (a.is_table()) {
    for (const zeroclaw::member& m : a.members) {
      const std::string p = path.empty() ? m.key : path + "." + m.key;
      const zeroclaw::value* o = b.find(m.key);
      if (o == nullptr) return p + " would not travel";
      if (!(m.val == *o)) return first_difference(m.val, *o, p);
    }
    for (const zeroclaw::member& m : b.members)
      if (a.find(m.key) == nullptr)
        return (path.empty() ? m.key : path + "." + m.key) + " is missing";
    return here;
  }
  if (a.is_array() && a.items.size() == b.items.size()) {
    for (std::size_t i = 0; i < a.items.size(); ++i)
      if (!(a.items[i] == b.items[i]))
        return first_difference(a.items[i], b.items[i], path + "." + std::to_string(i));
  }
  return here;
}

/// Issue 22 item 10: a bundle whose `workspace/skills/` holds a file carries
/// the `carried_workspace_skills` flag, derived from the files (the manifest is
/// not trusted to list it): added, with a warning, when the manifest does not.
/// The import plan shows it.
inline void derive_workspace_skills_flag(report& rep, bool carried) {
  const zeroclaw::risk_flag flag = zeroclaw::workspace_skills_flag();
  const std::string kind(zeroclaw::to_string(flag.kind));
  const bool listed = std::any_of(rep.risk_flags.begin(), rep.risk_flags.end(),
                                  [&](const finding& f) { return f.code == kind; });
  if (!carried || listed) return;
  rep.risk_flags.push_back({kind, flag.path, flag.detail, false});
  rep.findings.push_back({"risk_unlisted", flag.path,
                          "the bundle carries workspace/skills/ but its manifest does not flag "
                          "it (" +
                              kind + "); the flag is added here",
                          true});
}

inline void add_finding(report& rep, std::string code, std::string path, std::string detail) {
  rep.findings.push_back({std::move(code), std::move(path), std::move(detail), false});
}

/// The top level holds the three files, `workspace/` and `skills/`, and nothing
/// else.
inline void layout_findings(report& rep) {
  for (const bundle_file& f : rep.files) {
    if (f.path.find('/') != std::string::npos) continue;
    if (f.path != bundle::manifest_file && f.path != bundle::config_file &&
        f.path != bundle::digest_list_file && f.path != bundle::signature_file)
      add_finding(rep, "unexpected_entry", f.path,
                  "not part of the bundle format (config.toml, zeroclaw-agent.toml, "
                  "zeroclaw-agent.sha256, zeroclaw-agent.sha256.sig, workspace/, skills/)");
  }
  for (const std::string& d : rep.directories) {
    if (d.find('/') != std::string::npos) continue;
    // memory/ is checked against the format version once the manifest is read.
    if (d != bundle::workspace_dir && d != bundle::skills_dir && d != bundle::memory_dir)
      add_finding(rep, "unexpected_entry", d + "/", "not part of the bundle format");
  }
  for (std::string_view required : {bundle::manifest_file, bundle::config_file}) {
    if (rep.file(required) == nullptr && !rep.has_directory(required))
      add_finding(rep, "missing_file", std::string(required), "every bundle has this file");
  }
  if (rep.file(bundle::workspace_dir) != nullptr || rep.file(bundle::skills_dir) != nullptr) {
    add_finding(rep, "unexpected_entry", std::string(bundle::skills_dir), "must be a directory");
  }
}

/// The digest list's findings, after the walk (none when the walk was cut short):
/// joined during the walk (`joined`, through a cursor whose bytes must be the ones the walk
/// hashed), or refused by the survey, or joined here from the list's text (`list_text`, a
/// list not in path order: every file was kept); `authenticated` only when they match
/// exactly.
/// The finding of a bundle without a digest list: a warning, an error in strict mode
/// (`require_authenticated`, the CLI's `--strict`).
inline constexpr std::string_view unauthenticated_detail =
    "the bundle has no digest list (upstream ZeroClaw writes none): its bytes are "
    "unauthenticated, only its structure was checked (--strict refuses such a bundle)";

struct list_outcome {
  const list_join* joined = nullptr;  ///< the join done during the walk
  std::string cursor_hex;             ///< the joined list's digest, as the cursor read it
  const list_survey* survey = nullptr;
  std::optional<error> join_error;  ///< the cursor's list did not parse any more
  std::string walk_hex;             ///< the list's digest, as the walk read it
};

inline void digest_list_findings(report& rep, const std::string& list_text, bool truncated,
                                 const list_outcome& o) {
  const std::string name(bundle::digest_list_file);
  if (rep.file(name) == nullptr) {
    if (!rep.has_directory(name))
      rep.findings.push_back({"unauthenticated", name, std::string(unauthenticated_detail), true});
    return;
  }
  if (truncated) return;
  const auto changed = [&] {
    add_finding(rep, "changed", name, "the digest list changed while the bundle was verified");
  };
  if (o.survey == nullptr) return changed();  // it was not there before the walk
  if (o.survey->problem) {
    add_finding(rep, "digest_list_invalid", name, o.survey->problem->what());
    return;
  }
  if (o.joined != nullptr) {
    if (o.join_error || o.cursor_hex != o.survey->hex || o.walk_hex != o.survey->hex)
      return changed();
    for (const finding& f : o.joined->found) rep.findings.push_back(f);
    for (const finding& f : o.joined->missing) rep.findings.push_back(f);
    rep.authenticated = o.joined->exact;
    return;
  }
  try {
    list_in_memory listed(digest::parse_list(list_text, name));
    list_join j;
    for (bundle_file& f : rep.files) j.file(f, listed);
    j.finish(listed);
    for (finding& f : j.found) rep.findings.push_back(std::move(f));
    for (finding& f : j.missing) rep.findings.push_back(std::move(f));
    rep.authenticated = j.exact;
  } catch (const error& e) {
    add_finding(rep, "digest_list_invalid", name, e.what());
  }
}

/// The keys of a format 1 manifest `m`, read into `rep`; false (with findings)
/// when one is missing, mistyped or unknown.
inline bool manifest_fields(report& rep, const zeroclaw::value& m, const std::string& mf) {
  bool manifest_ok = true;
  const auto bad = [&](const std::string& key, const std::string& why) {
    add_finding(rep, "manifest_invalid", mf + ":" + key, why);
    manifest_ok = false;
  };
  static constexpr std::string_view known[] = {"format_version", "root_agent", "required_secrets",
                                               "skill_bundles",  "provenance", "dropped",
                                               "risk_flags",     "memory"};
  for (const zeroclaw::member& mem : m.members)
    if (std::find(std::begin(known), std::end(known), mem.key) == std::end(known))
      bad(mem.key, "not a format 1 manifest key");
  const auto strings = [&](const char* key, std::vector<std::string>& out) {
    const zeroclaw::value* v = m.find(key);
    if (v == nullptr || !v->is_array()) return bad(key, "missing, or not an array");
    for (const zeroclaw::value& item : v->items) {
      if (!item.is_string()) return bad(key, "holds a value that is not a string");
      out.push_back(item.text);
    }
  };
  const zeroclaw::value* root = m.find("root_agent");
  if (root == nullptr || !root->is_string() || root->text.empty()) {
    bad("root_agent", "missing, or not a non-empty string");
  } else {
    rep.root_agent = root->text;
  }
  // Import writes these into a TOML comment of the target config (its
  // provenance): a string that rule refuses would plan and then fail every
  // apply (issue 22 item 4).
  const auto commentable = [&](const std::string& key, const zeroclaw::value* v) {
    if (v == nullptr || !v->is_string()) return;
    if (const auto why = zeroclaw::comment_problem(v->text))
      bad(key, "import writes it into the target config's provenance comment, but " + *why);
  };
  commentable("root_agent", root);
  strings("required_secrets", rep.required_secrets);
  strings("skill_bundles", rep.skill_bundles);
  {
    std::vector<std::string> sorted = rep.required_secrets;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    if (sorted != rep.required_secrets) bad("required_secrets", "not sorted and unique");
  }
  const zeroclaw::value* prov = m.find("provenance");
  if (prov == nullptr || !prov->is_table()) {
    bad("provenance", "missing, or not a table");
  } else {
    for (const char* key : {"zeroclaw_version", "exported_at"}) {
      const zeroclaw::value* v = prov->find(key);
      if (v == nullptr || !v->is_string())
        bad(std::string("provenance.") + key, "missing, or not a string");
      commentable(std::string("provenance.") + key, v);
    }
  }
  const auto table_list = [&](const char* key, std::initializer_list<const char*> fields) {
    const zeroclaw::value* v = m.find(key);
    if (v == nullptr || !v->is_array()) return bad(key, "missing, or not an array of tables");
    for (const zeroclaw::value& item : v->items) {
      if (!item.is_table()) return bad(key, "holds an entry that is not a table");
      for (const char* field : fields) {
        const zeroclaw::value* f = item.find(field);
        if (f == nullptr || !f->is_string())
          return bad(key, std::string("an entry lacks the string `") + field + "`");
      }
    }
  };
  table_list("dropped", {"path", "reason", "detail"});
  table_list("risk_flags", {"kind", "path", "detail"});
  if (const zeroclaw::value* drops = m.find("dropped"); drops && drops->is_array()) {
    for (const zeroclaw::value& item : drops->items) {
      const zeroclaw::value* r = item.is_table() ? item.find("reason") : nullptr;
      const zeroclaw::value* p = item.is_table() ? item.find("path") : nullptr;
      const zeroclaw::value* dd = item.is_table() ? item.find("detail") : nullptr;
      if (r && p && dd && r->is_string() && p->is_string() && dd->is_string())
        rep.dropped.push_back({r->text, p->text, dd->text, false});
    }
  }
  if (const zeroclaw::value* flags = m.find("risk_flags"); flags && flags->is_array()) {
    for (const zeroclaw::value& item : flags->items) {
      if (!item.is_table()) continue;
      const zeroclaw::value* k = item.find("kind");
      const zeroclaw::value* p = item.find("path");
      const zeroclaw::value* dd = item.find("detail");
      if (k && p && dd && k->is_string() && p->is_string() && dd->is_string()) {
        if (!known_risk_kind(k->text)) {
          bad("risk_flags", "unknown risk kind `" + k->text + "`");
        } else {
          rep.risk_flags.push_back({k->text, p->text, dd->text, false});
        }
      }
    }
  }
  return manifest_ok;
}

/// A signature file is checked only by check_signature; without one it is noted, not
/// trusted (a warning: the bundle is as authenticated as its digest list alone).
inline void signature_presence(report& rep) {
  if (!rep.signature_present()) return;
  const std::string sig(bundle::signature_file);
  if (rep.file(bundle::digest_list_file) == nullptr) {
    add_finding(rep, "signature_invalid", sig,
                "a signature without the digest list it signs (zeroclaw-agent.sha256)");
    return;
  }
  rep.findings.push_back({"signature_unchecked", sig,
                          "the bundle is signed, but no allowed signers were given, so the "
                          "signature was not checked (verify --allowed-signers FILE, import "
                          "--require-signature --allowed-signers FILE)",
                          true});
}

/// The manifest: format 1 only, never half-read. False when the bundle has none
/// or it is not a valid format 1 manifest (the verification stops there).
inline bool read_manifest(report& rep) {
  const std::string mf(bundle::manifest_file);
  const bundle_file* f = rep.file(mf);
  if (f == nullptr) return false;
  rep.manifest_sha256 = f->sha256;
  try {
    rep.manifest = zeroclaw::parse_toml(rep.manifest_text, mf);
  } catch (const error& e) {
    add_finding(rep, "manifest_invalid", mf, e.what());
    return false;
  }
  const zeroclaw::value& m = rep.manifest;
  const zeroclaw::value* version = m.find("format_version");
  if (version == nullptr || version->type != zeroclaw::value::kind::integer) {
    add_finding(rep, "manifest_invalid", mf + ":format_version", "missing, or not an integer");
    return false;
  }
  if (version->integer > bundle::memory_format_version) {
    add_finding(rep, "format_newer", mf + ":format_version",
                "the bundle is format_version " + std::to_string(version->integer) +
                    "; this clawport reads formats 1 and 2 only (upgrade clawport)");
    return false;
  }
  rep.format_version = static_cast<int>(version->integer);
  if (version->integer != bundle::format_version &&
      version->integer != bundle::memory_format_version) {
    add_finding(rep, "manifest_invalid", mf + ":format_version",
                "format_version " + std::to_string(version->integer) + " does not exist");
    return false;
  }
  return manifest_fields(rep, m, mf);
}

/// memory/ (issue 47): only in format 2, exactly `memory/entries.jsonl`, which must hold
/// what its `[memory]` table says, in the shape memory::check_jsonl reads.
inline void memory_findings(report& rep) {
  const std::string mf(bundle::manifest_file);
  const std::string file(bundle::memory_entries_file);
  const zeroclaw::value* table = rep.manifest.find("memory");
  const bool carried = rep.has_directory(bundle::memory_dir) || rep.file(file) != nullptr;
  if (rep.format_version != bundle::memory_format_version) {
    if (table != nullptr)
      add_finding(rep, "manifest_invalid", mf + ":memory", "a format 1 manifest has no [memory]");
    if (carried)
      add_finding(rep, "unexpected_entry", std::string(bundle::memory_dir) + "/",
                  "memory travels only in a format 2 bundle (export --with-memory)");
    return;
  }
  const zeroclaw::value* schema = table != nullptr ? table->find("schema") : nullptr;
  const zeroclaw::value* entries = table != nullptr ? table->find("entries") : nullptr;
  if (table == nullptr || !table->is_table() || schema == nullptr || !schema->is_string() ||
      entries == nullptr || entries->type != zeroclaw::value::kind::integer)
    return add_finding(rep, "manifest_invalid", mf + ":memory",
                       "a format 2 manifest has a [memory] table with `schema` and `entries`");
  if (schema->text != memory::jsonl_schema)
    return add_finding(rep, "memory_invalid", mf + ":memory.schema",
                       "memory schema `" + schema->text + "` is not one this clawport reads (" +
                           std::string(memory::jsonl_schema) + "; upgrade clawport)");
  for (const bundle_file& f : rep.files)
    if (f.path.rfind(std::string(bundle::memory_dir) + "/", 0) == 0 && f.path != file)
      add_finding(rep, "unexpected_entry", f.path, "memory/ holds entries.jsonl only");
  if (rep.file(file) == nullptr)
    return add_finding(rep, "missing_file", file, "a format 2 bundle carries its memory here");
  const memory::jsonl_check check = memory::check_jsonl(rep.memory_text);
  for (const auto& [line, what] : check.problems)
    add_finding(rep, "memory_invalid", line == 0 ? file : file + ":" + std::to_string(line), what);
  if (static_cast<std::int64_t>(check.entries) != entries->integer && check.problems.empty())
    add_finding(rep, "memory_invalid", file,
                "holds " + std::to_string(check.entries) + " memories; the manifest says " +
                    std::to_string(entries->integer));
  memory::summary sum;
  sum.entries = check.entries;
  sum.categories = check.categories;
  if (const zeroclaw::value* b = table->find("backend"); b != nullptr && b->is_string())
    sum.backend = b->text;
  if (const zeroclaw::value* e = table->find("embedding_model"); e != nullptr && e->is_string())
    sum.embedding_model = e->text;
  rep.memory = std::move(sum);
}

/// skills/: exactly the aliases the manifest advertises, each a directory.
inline void skills_findings(report& rep) {
  const std::string mf(bundle::manifest_file);
  std::set<std::string> seen;
  for (const std::string& alias : rep.skill_bundles) {
    const std::string path = "skills/" + alias;
    if (!seen.insert(alias).second)
      add_finding(rep, "manifest_invalid", mf + ":skill_bundles", "lists `" + alias + "` twice");
    if (const auto why = names::portable::unportable_reason(alias)) {
      add_finding(rep, "name_invalid", path, "the skill-bundle alias " + std::string(*why));
      continue;
    }
    if (!rep.has_directory(path))
      add_finding(
          rep, "skill_missing", path + "/",
          "the manifest lists skill bundle `" + alias + "` but the bundle has no " + path + "/");
  }
  for (const std::string& d : rep.directories) {
    if (d.rfind("skills/", 0) != 0) continue;
    const std::string rest = d.substr(7);
    if (rest.find('/') != std::string::npos) continue;
    if (!seen.count(rest))
      add_finding(rep, "skill_unlisted", d + "/",
                  "a skill-bundle directory the manifest's skill_bundles does "
                  "not list");
  }
  for (const bundle_file& f : rep.files) {
    if (f.path.rfind("skills/", 0) != 0) continue;
    const std::string rest = f.path.substr(7);
    if (rest.find('/') == std::string::npos)
      add_finding(rep, "unexpected_entry", f.path,
                  "only skill-bundle directories sit under skills/");
  }
}

/// Secrets: re-plans the closure with every empty string filled in; the scrub
/// then names exactly the schema-secret leaves. Those that were empty must be
/// required_secrets, those that held a value are refused, and the closure must
/// plan back to itself.
template <class Schema>
void secret_findings(report& rep) {
  const std::string cf(bundle::config_file);
  static constexpr std::string_view placeholder = "clawport-verify-placeholder";
  zeroclaw::value filled = rep.closure;
  std::set<std::string> empty;
  fill_empty_strings(filled, "", empty, placeholder);
  std::optional<zeroclaw::export_plan> replan;
  try {
    replan =
        zeroclaw::plan_export<Schema>(zeroclaw::toml_writer::write(filled, false), rep.root_agent);
  } catch (const error& e) {
    add_finding(rep, "closure_invalid", e.subject().empty() ? cf : e.subject(),
                std::string("the closure does not plan as a config of its own: ") + e.what());
    return;
  }
  // The host-local settings the closure carries, as the export reported them (a note on
  // a field that was blank speaks of the placeholder, not the bundle: left out).
  for (const zeroclaw::host_local_note& n : replan->host_local)
    if (!empty.count(n.path) && n.detail.find(placeholder) == std::string::npos)
      rep.host_local.push_back({std::string(zeroclaw::to_string(n.kind)), n.path, n.detail, false});
  std::set<std::string> empty_secrets;
  for (const std::string& s : replan->required_secrets) {
    if (empty.count(s)) {
      empty_secrets.insert(s);
    } else {
      add_finding(rep, "secret_value", s,
                  "a secret field holds a value; a bundle carries every secret "
                  "blank, to be "
                  "supplied on the target");
    }
  }
  // The closure must be closed: planning it again carries exactly it (an entry
  // the agent does not reach, or a key the export would have dropped, is
  // refused here).
  zeroclaw::value again = replan->closure;
  unfill(again, placeholder);
  if (!(again == rep.closure)) {
    add_finding(rep, "closure_invalid", cf,
                "the closure is not closed: exporting it again would not carry "
                "exactly it (" +
                    first_difference(rep.closure, again, "") + ")");
  }
  const std::set<std::string> required(rep.required_secrets.begin(), rep.required_secrets.end());
  // An empty secret the manifest does not list was empty on the source too (the
  // export records only the secrets it blanked): the target must supply it all
  // the same.
  for (const std::string& s : empty_secrets)
    if (!required.count(s))
      rep.findings.push_back({"secret_unlisted", s,
                              "an empty secret field that required_secrets does not list (it "
                              "was empty on the source); supply it on the target",
                              true});
  for (const std::string& s : required)
    if (!empty_secrets.count(s))
      add_finding(rep, "secrets_mismatch", s,
                  "required_secrets lists a path that is not an empty secret field of "
                  "config.toml");
}

/// The closure: it parses, validates standing alone, configures exactly the
/// root agent and the advertised skill bundles, and carries no secret.
template <class Schema>
void closure_findings(report& rep) {
  const std::string cf(bundle::config_file);
  if (rep.file(cf) == nullptr) return;
  try {
    rep.closure = zeroclaw::parse_toml(rep.config_text, cf);
  } catch (const error& e) {
    add_finding(rep, "closure_invalid", cf, e.what());
    return;
  }
  if (const auto problem = zeroclaw::validate_config<Schema>(rep.closure)) {
    add_finding(rep, "closure_invalid", problem->path.empty() ? cf : problem->path,
                "the closure does not validate standing alone: " + problem->display());
    return;
  }
  const zeroclaw::value* agents = rep.closure.find("agents");
  if (agents == nullptr || !agents->is_table() || agents->members.size() != 1 ||
      agents->find(rep.root_agent) == nullptr) {
    add_finding(rep, "closure_invalid", "agents",
                "the closure must configure exactly one agent, the manifest's "
                "root_agent `" +
                    rep.root_agent + "`");
    return;
  }
  for (const std::string& alias : rep.skill_bundles) {
    if (at_path(rep.closure, {"skill_bundles", alias}) == nullptr)
      add_finding(
          rep, "skill_missing", "skill_bundles." + alias,
          "the manifest lists skill bundle `" + alias + "` but config.toml does not configure it");
  }
  if (const auto hit = zeroclaw::find_ciphertext(rep.closure))
    add_finding(rep, "secret_value", *hit, "an encrypted secret (enc:/enc2:) is in the bundle");
  secret_findings<Schema>(rep);
}

/// The bundle's root directory; a file given instead (the manifest, a tarball) is
/// errc::invalid_argument saying that a bundle is a directory.
template <class Fs>
typename Fs::dir open_bundle_root(Fs& fs, const std::string& bundle_path) {
  try {
    return fs.open_root(bundle_path);
  } catch (const error& e) {
    if (e.sys_errno() != ENOTDIR) throw;
    throw error(errc::invalid_argument,
                bundle_path + " is a file; a bundle is a directory (the one that holds " +
                    std::string(bundle::manifest_file) + "): give that directory",
                bundle_path);
  }
}

}  // namespace detail

namespace detail {

/// Files the walk left unread that the digest list did not vouch for (the list vanished or
/// was replaced after it was seen): the bundle is then not verified.
inline void check_deferred(report& rep) {
  for (const bundle_file& f : rep.files) {
    if (!f.sha256.empty()) continue;
    if (rep.ok())
      add_finding(rep, "changed", std::string(bundle::digest_list_file),
                  "the digest list changed while the bundle was verified");
    return;
  }
}

/// The digest list, opened before the walk when it is a regular file within its limit
/// (else the walk reports what it is).
template <class Fs>
std::optional<typename Fs::file> open_list(Fs& fs, const typename Fs::dir& root,
                                           const limits& lim) {
  try {
    const auto st = fs.stat_at(root, bundle::digest_list_file);
    if (!st || st->kind != fs::file_kind::regular || st->nlink != 1 ||
        st->size > lim.max_digest_list_bytes)
      return std::nullopt;
    auto f = fs.open_file_at(root, bundle::digest_list_file);
    const fs::stat_info opened = fs.stat(f);
    if (opened.id != st->id || opened.kind != fs::file_kind::regular) return std::nullopt;
    return f;
  } catch (const error&) {
    return std::nullopt;  // the walk reports it
  }
}

/// What the walk keeps, and the digest list's survey and cursor.
template <class Fs>
struct list_plan {
  std::optional<list_survey> survey;
  std::optional<list_cursor<Fs>> cursor;
};

/// Surveys the digest list and decides how it is joined: during the walk through a cursor
/// when it is in path order (every file then checked as it is met, none kept), else after
/// the walk from its text (every file kept). Bytes are left to the copy only when the list
/// is joined during the walk.
template <class Fs>
void plan_list(Fs& fs, const typename Fs::dir& root, const limits& lim, walker<Fs>& w,
               list_plan<Fs>& lp) {
  if (auto f = open_list(fs, root, lim)) {
    lp.survey = survey_list(fs, std::move(*f));
    if (!lp.survey->problem && lp.survey->sorted) {
      if (auto again = open_list(fs, root, lim)) lp.cursor.emplace(fs, std::move(*again));
    }
  }
  if (lp.cursor) {
    w.join(&*lp.cursor);
  } else if (lp.survey && !lp.survey->problem) {
    w.keep_all();
    w.keep_list_text();
  }
  const auto sig = fs.stat_at(root, bundle::signature_file);
  if (sig) w.keep_list_text();  // what a signature check reads
}

template <class Fs, class Schema>
report verify(Fs& fs, const std::string& bundle_path, const limits& lim,
              const std::vector<std::string>& deferred_trees, bool keep_files, unsigned jobs) {
  static_assert(fs::check_policy<Fs>());
  report rep;
  rep.bundle = bundle_path;
  detail::walker<Fs> w(fs, lim, rep, fs::usable_jobs<Fs>(jobs));
  if (keep_files) w.keep_all();
  list_plan<Fs> lp;
  {
    typename Fs::dir root = detail::open_bundle_root(fs, bundle_path);
    plan_list(fs, root, lim, w, lp);
    if (!deferred_trees.empty() && lp.cursor) {
      w.defer(deferred_trees);
      rep.bytes_deferred = true;
    }
    w.run(root);
    w.finish_join();
  }
  // The walk visits files in path order (fs/walk.hpp): checked, never expected to sort.
  const auto by_path = [](const bundle_file& a, const bundle_file& b) { return a.path < b.path; };
  if (!std::is_sorted(rep.files.begin(), rep.files.end(), by_path))
    std::sort(rep.files.begin(), rep.files.end(), by_path);
  if (!std::is_sorted(rep.directories.begin(), rep.directories.end()))
    std::sort(rep.directories.begin(), rep.directories.end());
  detail::layout_findings(rep);
  // The private data as before the walk was streamed: directories, then files, by path.
  std::stable_sort(w.private_dirs.begin(), w.private_dirs.end(),
                   [](const finding& a, const finding& b) {
                     return std::string_view(a.path).substr(0, a.path.size() - 1) <
                            std::string_view(b.path).substr(0, b.path.size() - 1);
                   });
  for (finding& f : w.private_dirs) rep.findings.push_back(std::move(f));
  for (finding& f : w.private_files) rep.findings.push_back(std::move(f));
  list_outcome o;
  if (lp.cursor) {
    o.joined = &w.joined;
    o.cursor_hex = lp.cursor->hex();
  }
  o.survey = lp.survey ? &*lp.survey : nullptr;
  o.join_error = w.join_error;
  o.walk_hex = w.list_hex_;
  detail::digest_list_findings(rep, w.digest_list_, w.truncated(), o);
  if (lp.cursor && rep.authenticated) rep.list_stream_sha256 = lp.survey->stream_hex;
  rep.digest_list_text = std::move(w.digest_list_);
  detail::signature_presence(rep);
  if (rep.bytes_deferred) detail::check_deferred(rep);
  if (!detail::read_manifest(rep)) return rep;  // never half-read a manifest not format 1
  detail::derive_workspace_skills_flag(rep, w.workspace_skills);
  detail::skills_findings(rep);
  detail::memory_findings(rep);
  detail::closure_findings<Schema>(rep);
  return rep;
}

}  // namespace detail

/// Verifies the bundle at `bundle_path` (absolute, or as the Fs backend opens
/// roots). Never throws for a bad bundle: every problem is a finding. Throws
/// only when the bundle root itself cannot be opened (errc::not_found,
/// errc::io, ...).
template <class Fs, class Schema = zeroclaw::schema_v3>
report verify_bundle(Fs& fs, const std::string& bundle_path, const limits& lim = {}) {
  return detail::verify<Fs, Schema>(fs, bundle_path, lim, {}, false, 1);
}

/// `verify_bundle` with files read and hashed on `jobs` threads (fs/jobs.hpp; used when the
/// Fs policy is thread-safe): the report is the same as with one.
template <class Fs, class Schema = zeroclaw::schema_v3>
report verify_bundle(Fs& fs, const std::string& bundle_path, const limits& lim, unsigned jobs) {
  return detail::verify<Fs, Schema>(fs, bundle_path, lim, {}, false, jobs);
}

/// `verify_bundle`, keeping every file in `report::files` (path, size, digest) and every
/// directory in `report::directories`, for a caller that needs the list (an import's
/// plan, convert): memory then grows with the bundle.
template <class Fs, class Schema = zeroclaw::schema_v3>
report verify_bundle_files(Fs& fs, const std::string& bundle_path, const limits& lim = {},
                           unsigned jobs = 1) {
  return detail::verify<Fs, Schema>(fs, bundle_path, lim, {}, true, jobs);
}

/// Checks the signature of a bundle `rep` that verified, through a SignatureVerifier
/// (signing/policy.hpp) over the digest list's bytes: sets `signed_by`, or adds the finding
/// `unsigned` (no signature), `signature_invalid` (it does not sign this digest list) or
/// `signer_untrusted` (a good signature by a key the verifier does not allow). A report
/// with errors already keeps them and gains none (the verifier is not asked). Throws what the
/// verifier throws otherwise (errc::unsupported without ssh-keygen, errc::limit_exceeded when it
/// hangs).
inline void check_signature(report& rep, const signing::verify_function& verifier) {
  // Asked to check: the signature is no longer "unchecked", whatever the verdict.
  rep.findings.erase(
      std::remove_if(rep.findings.begin(), rep.findings.end(),
                     [](const finding& f) { return f.code == "signature_unchecked"; }),
      rep.findings.end());
  if (!rep.ok()) return;
  const std::string sig(bundle::signature_file);
  if (!rep.signature_present()) {
    detail::add_finding(rep, "unsigned", sig,
                        "the bundle carries no signature (" + sig +
                            "); ask its producer for a signed export (clawport export --sign "
                            "KEY), or do not require one");
    return;
  }
  try {
    rep.signed_by = verifier(rep.digest_list_text, rep.signature_text);
  } catch (const error& e) {
    if (e.code() == errc::signature_invalid) {
      detail::add_finding(rep, "signature_invalid", sig,
                          "it does not sign this bundle's " +
                              std::string(bundle::digest_list_file) +
                              " (the list was changed after signing, or the signature is another "
                              "bundle's): " +
                              e.what());
    } else if (e.code() == errc::signer_untrusted) {
      detail::add_finding(rep, "signer_untrusted", sig, e.what());
    } else {
      throw;
    }
  }
}

/// `verify_bundle`, except that the bytes of the files below `trees` (bundle-relative
/// directories, `workspace`) are not read when the bundle has a digest list: each such
/// file is listed with the list's digest and `bytes_deferred` is set. For a caller that
/// reads those bytes next and checks each against its digest as it goes
/// (importer::copy_verified), so every byte is read once; a caller that does not must not
/// use this. Everything else (structure, limits, links, the manifest, the closure, the list
/// naming exactly the files present) is checked as by `verify_bundle`, and like it the
/// report keeps only the files the checks after the walk read (the caller reads the digest
/// list again for the rest: importer/file_stream.hpp).
template <class Fs, class Schema = zeroclaw::schema_v3>
report verify_bundle_deferring(Fs& fs, const std::string& bundle_path, const limits& lim,
                               const std::vector<std::string>& trees, unsigned jobs = 1) {
  return detail::verify<Fs, Schema>(fs, bundle_path, lim, trees, false, jobs);
}

}  // namespace verify
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
