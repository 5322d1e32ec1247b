// SPDX-License-Identifier: MIT
// The export's digest list as it is written: the copy's hashing observer (digest_sink), the
// workspace's lines spilled to a staged file in path order, and the list assembled around
// them in the staging directory (moved out of exporter.hpp: one concept a file).
#pragma once

#include "../bundle/layout.hpp"
#include "../bundle/limits.hpp"
#include "../core/error.hpp"
#include "../digest/list.hpp"
#include "../digest/sha256.hpp"
#include "../fs/copy.hpp"
#include "../fs/modes.hpp"
#include "../fs/policy.hpp"
#include "../zeroclaw/plan.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace exporter_detail {

/// Hashes every file the copy writes, on its way (one read of each source byte), and
/// collects the bundle's digest list. While `spill` is set (the workspace's walk, in path
/// order: copy_spec::sorted) each line goes to it, a buffer at a time, instead of into
/// `entries`, so the export holds the workspace's lines no longer than one buffer.
class digest_sink final : public fs::copy_sink {
 public:
  void begin_file(std::string_view bundle_path) override {
    path_.assign(bundle_path.data(), bundle_path.size());
    hash_.reset();
  }
  void bytes(const char* data, std::size_t size) override { hash_.update(data, size); }
  void end_file() override { add({path_, digest::to_hex(hash_.finish())}); }
  /// A copy with jobs hashes each file in a fork; its entry joins the list in walk order.
  std::unique_ptr<fs::copy_sink> fork() override { return std::make_unique<digest_sink>(); }
  void merge(fs::copy_sink& forked) override {
    auto& f = static_cast<digest_sink&>(forked);
    for (digest::list_entry& e : f.entries) add(std::move(e));
  }
  /// A file the exporter writes from memory (config.toml, the manifest).
  void add_text(std::string_view name, std::string_view text) {
    entries.push_back({std::string(name), digest::sha256_hex(text)});
  }
  /// Hands the lines buffered to `spill`.
  void flush() {
    if (pending_.empty()) return;
    spill(pending_);
    spilled += pending_.size();
    pending_.clear();
  }
  /// Ends the spilling: the last lines handed over, then `spill` (and what it holds open)
  /// released; later lines go to `entries`.
  void end_spill() {
    flush();
    spill = nullptr;
  }

  std::vector<digest::list_entry> entries;
  std::function<void(const std::string&)> spill;
  std::uint64_t spilled = 0;  ///< bytes handed to `spill`

 private:
  digest::sha256 hash_;
  std::string path_;
  std::string pending_;

  /// One line of the list: spilled while `spill` is set, else kept.
  void add(digest::list_entry e) {
    if (!spill) return entries.push_back(std::move(e));
    digest::append_line(pending_, e);
    if (pending_.size() >= CLAWPORT_COPY_BUFFER_SIZE) flush();
  }
};

/// The staged file the workspace's digest lines are spilled to, in path order, until the
/// digest list is assembled around them (removed then; never published).
inline constexpr std::string_view spill_file = ".zeroclaw-agent.sha256.workspace";

/// A `digest_sink::spill` that appends the lines to `spill_file` in `stage`, created at the
/// first buffer and closed when the function is released (digest_sink::end_spill).
template <class Fs>
std::function<void(const std::string&)> spill_to(Fs& fs, const typename Fs::dir& stage) {
  auto out = std::make_shared<std::optional<typename Fs::file>>();
  return [&fs, &stage, out](const std::string& lines) {
    try {
      if (!*out) out->emplace(fs.create_file_at(stage, spill_file, fs::modes::private_file));
      fs.write_all(**out, lines.data(), lines.size());
    } catch (const error& e) {
      throw with_context(e, "failed to write the digest list in the bundle",
                         std::string(zeroclaw::digest_list_file));
    }
  };
}

/// Writes the digest list `name` in the staging directory: the lines of `entries` (every
/// file outside workspace/) and, where path order puts them, the workspace's lines spilled to
/// `spill_file` (`spilled` bytes), which is then removed. Returns the list's size; with
/// `text`, also its bytes (what a signature signs).
template <class Fs>
std::uint64_t write_digest_list(Fs& fs, const typename Fs::dir& d, std::string_view name,
                                std::vector<digest::list_entry> entries, std::uint64_t spilled,
                                const bundle::limits& lim, std::string* text) {
  const std::string ws = std::string(zeroclaw::workspace_dir) + "/";
  const auto split = std::partition(entries.begin(), entries.end(),
                                    [&](const digest::list_entry& e) { return e.path < ws; });
  std::vector<digest::list_entry> after(std::make_move_iterator(split),
                                        std::make_move_iterator(entries.end()));
  entries.erase(split, entries.end());
  const std::string head = digest::render_list(std::move(entries));
  const std::string tail = digest::render_list(std::move(after));
  const std::uint64_t size = head.size() + spilled + tail.size();
  bundle::check_file_limit(lim, name, size);
  try {
    auto out = fs.create_file_at(d, name, fs::modes::file);
    fs.write_all(out, head.data(), head.size());
    if (text != nullptr) *text = head;
    if (spilled > 0) {
      auto in = fs.open_file_at(d, spill_file);
      std::vector<char> buffer(CLAWPORT_COPY_BUFFER_SIZE);
      for (std::size_t n; (n = fs.read(in, buffer.data(), buffer.size())) > 0;) {
        fs.write_all(out, buffer.data(), n);
        if (text != nullptr) text->append(buffer.data(), n);
      }
      fs.unlink_at(d, spill_file);
    }
    fs.write_all(out, tail.data(), tail.size());
    if (text != nullptr) *text += tail;
  } catch (const error& e) {
    throw with_context(e, "failed to write " + std::string(name) + " in the bundle",
                       std::string(name));
  }
  return size;
}

}  // namespace exporter_detail
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
