// SPDX-License-Identifier: MIT
// verify's visitor of the one walk (fs/walk.hpp): every problem it meets is a finding,
// each file read and hashed on any thread and recorded in walk order.
#pragma once

#include "../bundle/layout.hpp"
#include "../bundle/private_data.hpp"
#include "../core/error.hpp"
#include "../core/utf8.hpp"
#include "../digest/sha256.hpp"
#include "../fs/jobs.hpp"
#include "../fs/policy.hpp"
#include "../fs/walk.hpp"
#include "../memory/jsonl.hpp"
#include "../zeroclaw/closure.hpp"
#include "digest_list.hpp"
#include "report.hpp"

#include <cstdint>
#include <exception>
#include <functional>
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
  /// Called with the files recorded so far, after each one (a progress count).
  std::function<void(std::uint64_t files)> on_file;
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
    if (on_file) on_file(rep_.file_count);
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
    /// memory/entries.jsonl: checked line by line as it is read, never kept (100,000
    /// memories at flat memory use, issue 47).
    std::unique_ptr<memory::jsonl_checker> jsonl;
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
    if (path == bundle::memory_entries_file) {
      r->keep_limit = 0;
      r->jsonl = std::make_unique<memory::jsonl_checker>();
    }
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
        if (r.jsonl) r.jsonl->feed(std::string_view(buffer.data(), n));
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
    if (r.jsonl) rep_.memory_check = r.jsonl->finish();
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

}  // namespace detail

}  // namespace verify
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
