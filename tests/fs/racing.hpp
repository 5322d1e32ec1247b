// SPDX-License-Identifier: MIT
// racing<B>: a test decorator over any Fs backend that runs a callback right after a
// chosen entry is classified (stat_at) and before the caller opens it. It stages the
// races of §10.B deterministically ("entry seam", "root seam") on every backend,
// including the real filesystem. It is also the smallest example of a custom Fs policy:
// it forwards every requirement to the backend it wraps.
#pragma once

#include "support/test.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace clawport::testing {

template <class B>
class racing {
 public:
  using dir = typename B::dir;
  using file = typename B::file;

  explicit racing(B& base) : base_(base) {}

  /// After the first stat_at of `name` (through any directory), run `hook` once.
  void after_classify(std::string name, std::function<void()> hook) {
    target_ = std::move(name);
    hook_ = std::move(hook);
    fired_ = false;
  }
  bool fired() const { return fired_; }

  dir open_root(std::string_view abs) { return base_.open_root(abs); }
  std::optional<std::string> canonical(std::string_view abs) { return base_.canonical(abs); }
  std::optional<fs::stat_info> stat_at(const dir& d, std::string_view name) {
    auto info = base_.stat_at(d, name);
    if (!fired_ && hook_ && name == target_) {
      fired_ = true;
      hook_();
    }
    return info;
  }
  fs::stat_info stat(const dir& d) { return base_.stat(d); }
  fs::stat_info stat(const file& f) { return base_.stat(f); }
  dir open_dir_at(const dir& d, std::string_view name) { return base_.open_dir_at(d, name); }
  file open_file_at(const dir& d, std::string_view name) { return base_.open_file_at(d, name); }
  template <class F>
  void for_each_entry(const dir& d, F&& f) {
    base_.for_each_entry(d, std::forward<F>(f));
  }
  bool is_empty(const dir& d) { return base_.is_empty(d); }
  void make_dir_at(const dir& d, std::string_view name, std::uint32_t mode) {
    base_.make_dir_at(d, name, mode);
  }
  file create_file_at(const dir& d, std::string_view name, std::uint32_t mode) {
    return base_.create_file_at(d, name, mode);
  }
  std::uint64_t copy_data(file& from, file& to) { return base_.copy_data(from, to); }
  std::size_t read(file& f, char* buf, std::size_t n) { return base_.read(f, buf, n); }
  void write_all(file& f, const char* data, std::size_t n) { base_.write_all(f, data, n); }
  void set_mode(file& f, std::uint32_t mode) { base_.set_mode(f, mode); }
  void unlink_at(const dir& d, std::string_view name) { base_.unlink_at(d, name); }
  void remove_dir_at(const dir& d, std::string_view name) { base_.remove_dir_at(d, name); }
  void remove_tree_at(const dir& d, std::string_view name) { base_.remove_tree_at(d, name); }
  fs::rename_result rename_at(const dir& a, std::string_view an, const dir& b, std::string_view bn,
                              fs::rename_mode mode) {
    return base_.rename_at(a, an, b, bn, mode);
  }
  void sync_filesystem(const dir& d) { base_.sync_filesystem(d); }
  void sync_dir(const dir& d) { base_.sync_dir(d); }
  bool try_lock(const dir& d) { return base_.try_lock(d); }

 private:
  B& base_;
  std::string target_;
  std::function<void()> hook_;
  bool fired_ = false;
};

}  // namespace clawport::testing
