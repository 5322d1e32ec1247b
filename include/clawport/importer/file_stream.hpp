// SPDX-License-Identifier: MIT
// The bundle's file stream, as an import plans and applies it: every file's line of the
// digest list (`<sha256>␠␠<path>\n`, as digest::append_line writes it), in path order. The
// plan carries the digest of that stream, not the files (an import of a million files
// holds no list of them); the apply reads the list again, in path order, checks each file
// it copies against its line and the whole stream against the plan's digest. For a list
// clawport wrote (sorted, one line per file) the stream is the list file itself.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../digest/list.hpp"
#include "../digest/sha256.hpp"
#include "../verify/digest_list.hpp"
#include "../verify/report.hpp"
#include "../verify/verify.hpp"
#include "staged_copy.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

/// The bundle's file stream as planned: its digest, and the entries themselves only when
/// the apply cannot read them again in path order from the bundle (a digest list not in
/// path order, or none: an upstream bundle).
struct file_stream {
  std::string sha256;  ///< 64 hex digits: the digest of the stream
  /// Read again from the bundle's digest list at apply time; when false, `kept` holds the
  /// entries (sorted by path) and the apply checks the copy against them.
  bool streamed = false;
  std::vector<digest::list_entry> kept;
  /// The files of the stream (a progress count's total); not hashed.
  std::uint64_t listed = 0;
};

namespace detail {

/// The error of a bundle that changed between its verify and what reads it next.
inline error stream_changed(const std::string& why) {
  return bundle_changed(why, std::string(bundle::digest_list_file));
}

/// A source of digest-list entries in path order (peek/pop, as verify's list_cursor and
/// list_in_memory), hashing each entry's line as it is popped: the file stream's digest.
/// A list that stops parsing has changed since it was verified (errc::identity_changed).
template <class Source>
class hashed_stream {
 public:
  explicit hashed_stream(Source& source) : source_(source) {}

  const digest::list_entry* peek() {
    try {
      return source_.peek();
    } catch (const error& e) {
      throw stream_changed(std::string("its digest list no longer parses: ") + e.what());
    }
  }
  /// Called after each entry taken (a progress count).
  std::function<void()> on_pop;

  void pop() {
    if (on_pop) on_pop();
    line_.clear();
    digest::append_line(line_, *source_.peek());
    hash_.update(line_);
    source_.pop();
  }
  /// The stream's digest, once every entry is popped (the rest is popped here).
  std::string finish() {
    while (peek() != nullptr) pop();
    return digest::to_hex(hash_.finish());
  }

 private:
  Source& source_;
  digest::sha256 hash_;
  std::string line_;
};

/// The digest of `entries` (sorted by path) as a stream.
inline std::string stream_digest(const std::vector<digest::list_entry>& entries) {
  verify::list_in_memory in_memory(entries);
  hashed_stream<verify::list_in_memory> s(in_memory);
  return s.finish();
}

/// The entries of a bundle without a digest list: its files as verify hashed them.
inline std::vector<digest::list_entry> files_as_entries(const verify::report& rep) {
  std::vector<digest::list_entry> out;
  for (const verify::bundle_file& f : rep.files)
    if (f.path != bundle::digest_list_file && f.path != bundle::signature_file)
      out.push_back({f.path, f.sha256});
  return out;
}

}  // namespace detail

/// True when the bundle at `path` holds a digest list (a plan then need not keep its files:
/// the list is read again at apply time). False when it cannot be told; verify says why.
template <class Fs>
bool has_digest_list(Fs& fs, const std::string& path) {
  try {
    auto root = fs.open_root(path);
    return fs.stat_at(root, bundle::digest_list_file).has_value();
  } catch (const error&) {
    return false;
  }
}

/// The file stream of the bundle `rep` verified: the digest verify took of its digest list
/// in path order (verify::report::list_stream_sha256), the list to be read again at apply
/// time. A list not in path order is taken from the text verify kept (parsed and sorted:
/// the entries are kept); a bundle without a list from its files as verify hashed them
/// (every file kept, as `rep` must: verify::verify_bundle_files).
inline file_stream plan_file_stream(const verify::report& rep) {
  file_stream out;
  // The bundle's files but the list and its signature: the lines of the list.
  out.listed = rep.file_count - (rep.file(bundle::digest_list_file) != nullptr ? 1 : 0) -
               (rep.file(bundle::signature_file) != nullptr ? 1 : 0);
  if (!rep.list_stream_sha256.empty()) {
    out.sha256 = rep.list_stream_sha256;
    out.streamed = true;
    return out;
  }
  if (rep.file(bundle::digest_list_file) == nullptr)
    out.kept = detail::files_as_entries(rep);
  else
    out.kept = digest::parse_list(rep.digest_list_text, std::string(bundle::digest_list_file));
  std::sort(
      out.kept.begin(), out.kept.end(),
      [](const digest::list_entry& a, const digest::list_entry& b) { return a.path < b.path; });
  out.sha256 = detail::stream_digest(out.kept);
  return out;
}

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
