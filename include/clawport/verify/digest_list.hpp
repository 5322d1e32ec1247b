// SPDX-License-Identifier: MIT
// The digest list as verify and the importer read it: opened (`open_list`), surveyed once in
// constant memory (`survey_list`), read through a file one chunk at a time (`list_cursor`) or
// from memory (`list_in_memory`), and joined with the bundle's files in path order (`list_join`).
#pragma once

#include "../bundle/layout.hpp"
#include "../core/error.hpp"
#include "../digest/list.hpp"
#include "../digest/sha256.hpp"
#include "../fs/policy.hpp"
#include "report.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace verify {

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
  std::uint64_t entries = 0;     ///< the lines read (a progress count's total)
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
      ++out.entries;
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

}  // namespace verify
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
