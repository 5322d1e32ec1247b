// SPDX-License-Identifier: MIT
// `--with-memory`'s staged file, memory/entries.jsonl, written and hashed as the rows are
// read (moved out of exporter.hpp: one concept a file; the `[memory]` table is
// memory::manifest_table).
#pragma once

#include "../bundle/layout.hpp"
#include "../core/error.hpp"
#include "../digest/sha256.hpp"
#include "../fs/modes.hpp"
#include "../fs/policy.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace exporter_detail {

/// `memory/entries.jsonl` as it is staged: written in 64 KiB pieces as the rows are read
/// (never held whole), hashed as it goes; the dry run only counts and hashes.
template <class Fs, bool Writes>
class memory_file {
 public:
  memory_file(Fs& fs, const typename Fs::dir* stage) : fs_(fs) {
    (void)stage;  // the dry run has no staging directory
    if constexpr (Writes) {
      guard([&] {
        fs_.make_dir_at(*stage, bundle::memory_dir, fs::modes::dir);
        const auto dir = fs_.open_dir_at(*stage, bundle::memory_dir);
        file_.emplace(fs_.create_file_at(dir, "entries.jsonl", fs::modes::file));
      });
    }
  }
  void line(const std::string& l) {
    hash_.update(l.data(), l.size());
    buffer_ += l;
    if (buffer_.size() >= (64u << 10)) flush();
  }
  /// The last piece written; the file's digest.
  std::string finish() {
    flush();
    return digest::to_hex(hash_.finish());
  }

 private:
  void flush() {
    if constexpr (Writes) guard([&] { fs_.write_all(*file_, buffer_.data(), buffer_.size()); });
    buffer_.clear();
  }
  template <class F>
  static void guard(F&& f) {
    try {
      f();
    } catch (const error& e) {
      throw with_context(e, "failed to write the memory in the bundle",
                         std::string(bundle::memory_entries_file));
    }
  }
  Fs& fs_;
  std::optional<typename Fs::file> file_;
  std::string buffer_;
  digest::sha256 hash_;
};

}  // namespace exporter_detail
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
