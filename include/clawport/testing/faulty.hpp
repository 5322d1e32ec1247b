// SPDX-License-Identifier: MIT
// fs::faulty<B>: a decorator over any Fs backend that counts operations, fails a chosen
// one with a chosen errno, runs a hook between classification and open (to stage races),
// and simulates a crash: one mechanism for every fault-injection and crash sweep.
// Part of the opt-in testing module (<clawport/testing.hpp>): not in the umbrella header.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../core/error.hpp"
#include "../fs/policy.hpp"
#include "../fs/sys_error.hpp"
#include "memory.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

/// Thrown by fs::faulty once its crash point is reached. Deliberately NOT a
/// clawport::error and not a std::exception: only `catch (...)` sees it, as nothing
/// "sees" a process being killed. Cleanup code that runs after it (destructors, catch
/// blocks) gets the same exception from every further operation and changes nothing.
/// Destructors that clean up through an Fs must therefore catch and swallow exceptions.
struct simulated_crash {
  std::string op;         ///< the operation that was refused
  std::string name;       ///< its name argument
  std::size_t index = 0;  ///< 1-based position it would have had in the operation count
  const char* what() const noexcept { return "simulated crash"; }
};

namespace detail {

template <class B, class = void>
struct has_make_error : std::false_type {};
template <class B>
struct has_make_error<
    B, std::void_t<decltype(B::make_error(std::string_view{}, std::string_view{}, 0))>>
    : std::true_type {};

}  // namespace detail

/// Fs policy decorator for tests; see docs/library.md, "fs::faulty".
///
/// Every policy call is one counted operation named after the function ("open_file_at",
/// "copy_data", ...), except `stat(dir)`/`stat(file)`, named "stat". `remove_tree_at` is
/// counted once and then performed through this decorator's own stat_at / open_dir_at /
/// for_each_entry / unlink_at / remove_dir_at, so a failure or crash can land in the middle
/// of a recursive delete.
template <class B>
class faulty {
  using base = std::remove_reference_t<B>;

 public:
  /// `B` may be a reference (`faulty<memory&>`) to decorate a backend owned elsewhere.
  using backend = base;
  using dir = typename base::dir;
  using file = typename base::file;
  /// Usable from several threads (fs/jobs.hpp): every call, with the inner backend's, runs
  /// under one lock, so the sweeps cover the walks with jobs over any backend (fs::memory
  /// too); the count and the log then follow the order the threads took the lock.
  static constexpr bool thread_safe = true;

  /// (op, name) of one counted call; rename_at logs "from -> to".
  struct record {
    std::string op;
    std::string name;
  };

  /// Called in open_dir_at/open_file_at after the caller classified the entry and before
  /// the inner backend opens it: mutate the tree here through `inner` (or the real
  /// filesystem) to stage a race.
  using open_hook = std::function<void(base& inner, const dir& parent, std::string_view name)>;
  /// Called before every counted operation that was neither failed nor crashed.
  using op_hook = std::function<void(base& inner, std::string_view op, std::string_view name)>;

  template <class... Args>
  explicit faulty(Args&&... args) : inner_(std::forward<Args>(args)...) {}

  base& inner() noexcept { return inner_; }
  const base& inner() const noexcept { return inner_; }

  // ---- counting ------------------------------------------------------------------------

  /// Operations counted so far (crashed calls are not counted).
  std::size_t count() const noexcept { return total_; }
  /// Calls of one operation counted so far.
  std::size_t count(std::string_view op) const {
    auto it = per_op_.find(op);
    return it == per_op_.end() ? 0 : it->second;
  }
  const std::vector<record>& log() const noexcept { return log_; }
  /// Zero the counters and the log (faults and the crash point stay).
  void reset_counts() {
    total_ = 0;
    per_op_.clear();
    log_.clear();
  }

  // ---- faults --------------------------------------------------------------------------

  /// Fail the `n`th counted operation (1-based, as numbered by `count()`) with `err`.
  void fail_at(std::size_t n, int err) { faults_.push_back({std::string(), n, err, false, false}); }
  /// Fail the `n`th call of operation `op` with `err`.
  void fail_at(std::string_view op, std::size_t n, int err) {
    faults_.push_back({std::string(op), n, err, false, false});
  }
  /// Fail the `n`th operation (of `op`, or of all when `op` is empty) and every later one,
  /// like a disk that stays full.
  void fail_from(std::string_view op, std::size_t n, int err) {
    faults_.push_back({std::string(op), n, err, true, false});
  }
  void clear_faults() { faults_.clear(); }
  /// Injected failures thrown so far.
  std::size_t failures() const noexcept { return failures_; }

  // ---- hooks ---------------------------------------------------------------------------

  void before_open(open_hook hook) { before_open_ = std::move(hook); }
  void on_op(op_hook hook) { on_op_ = std::move(hook); }

  // ---- crash ---------------------------------------------------------------------------

  /// After `n` more counted operations in total (counting from `count()` now), every
  /// operation throws simulated_crash without touching the backend.
  void crash_after(std::size_t n) { crash_at_ = total_ + n; }
  void clear_crash() {
    crash_at_.reset();
    crashed_ = 0;
  }
  /// Operations refused because of the crash.
  std::size_t crashed_calls() const noexcept { return crashed_; }
  bool crashed() const noexcept { return crashed_ != 0; }

  // ---- the Fs policy -------------------------------------------------------------------

  dir open_root(std::string_view abs) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("open_root", abs);
    return inner_.open_root(abs);
  }
  std::optional<stat_info> stat_at(const dir& d, std::string_view name) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("stat_at", name);
    return inner_.stat_at(d, name);
  }
  stat_info stat(const dir& d) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("stat", {});
    return inner_.stat(d);
  }
  stat_info stat(const file& f) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("stat", {});
    return inner_.stat(f);
  }
  dir open_dir_at(const dir& d, std::string_view name) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("open_dir_at", name);
    if (before_open_) before_open_(inner_, d, name);
    return inner_.open_dir_at(d, name);
  }
  file open_file_at(const dir& d, std::string_view name) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("open_file_at", name);
    if (before_open_) before_open_(inner_, d, name);
    return inner_.open_file_at(d, name);
  }
  template <class F>
  void for_each_entry(const dir& d, F&& f) {
    // The names are taken under the lock and given without it: the callback may wait for
    // work on other threads (a walk with jobs), which needs the lock.
    std::vector<std::string> names;
    {
      const std::lock_guard<std::recursive_mutex> held(mutex_);
      enter("for_each_entry", {});
      inner_.for_each_entry(d, [&names](std::string_view n) { names.emplace_back(n); });
    }
    for (const std::string& n : names) f(std::string_view(n));
  }
  bool is_empty(const dir& d) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("is_empty", {});
    return inner_.is_empty(d);
  }
  void make_dir_at(const dir& d, std::string_view name, std::uint32_t mode) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("make_dir_at", name);
    inner_.make_dir_at(d, name, mode);
  }
  file create_file_at(const dir& d, std::string_view name, std::uint32_t mode) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("create_file_at", name);
    return inner_.create_file_at(d, name, mode);
  }
  std::uint64_t copy_data(file& from, file& to) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("copy_data", {});
    return inner_.copy_data(from, to);
  }
  /// Present when the inner policy has the sized form; one "copy_data" operation too.
  template <class I = base, class = std::enable_if_t<fs::detail::has_sized_copy_data<I>::value>>
  std::uint64_t copy_data(file& from, file& to, std::uint64_t size) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("copy_data", {});
    return inner_.copy_data(from, to, size);
  }
  std::size_t read(file& f, char* buf, std::size_t n) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("read", {});
    return inner_.read(f, buf, n);
  }
  void write_all(file& f, const char* data, std::size_t n) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("write_all", {});
    inner_.write_all(f, data, n);
  }
  void set_mode(file& f, std::uint32_t mode) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("set_mode", {});
    inner_.set_mode(f, mode);
  }
  void unlink_at(const dir& d, std::string_view name) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("unlink_at", name);
    inner_.unlink_at(d, name);
  }
  void remove_dir_at(const dir& d, std::string_view name) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("remove_dir_at", name);
    inner_.remove_dir_at(d, name);
  }
  void remove_tree_at(const dir& d, std::string_view name) {
    remove_tree_at(d, name, removal_progress{});
  }
  /// The counting form (fs::remove_tree), as fs::posix has it: one call per entry removed.
  void remove_tree_at(const dir& d, std::string_view name, const removal_progress& on_removed) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("remove_tree_at", name);
    std::uint64_t removed = 0;
    const removal_progress count = [&](std::uint64_t) {
      ++removed;
      if (on_removed) on_removed(removed);
    };
    remove_tree_steps(d, name, true, count);
  }
  rename_result rename_at(const dir& from_dir, std::string_view from, const dir& to_dir,
                          std::string_view to, rename_mode mode) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    std::string label(from);
    label += " -> ";
    label += to;
    std::string subject(from);  // what fs::posix names in its errors
    subject += " to ";
    subject += to;
    enter("rename_at", label, subject);
    return inner_.rename_at(from_dir, from, to_dir, to, mode);
  }
  void sync_filesystem(const dir& d) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("sync_filesystem", {});
    inner_.sync_filesystem(d);
  }
  void sync_dir(const dir& d) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("sync_dir", {});
    inner_.sync_dir(d);
  }
  /// Forwarded for the exporter's destination resolution; counted as "canonical".
  std::optional<std::string> canonical(std::string_view abs) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("canonical", abs);
    return inner_.canonical(abs);
  }
  bool try_lock(const dir& d) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    enter("try_lock", {});
    return inner_.try_lock(d);
  }
  /// fs::make_locked_dir as one step for the op hook: its mkdir, open and lock are each
  /// counted, faultable and a crash point, but the hook (another process acting between two
  /// operations) strikes only before the mkdir, not between it and the lock; that posix
  /// window is covered by the caller retrying when lock_made_dir says nullopt.
  std::optional<dir> make_locked_dir_at(const dir& d, std::string_view name, std::uint32_t mode) {
    const std::lock_guard<std::recursive_mutex> held(mutex_);
    make_dir_at(d, name, mode);
    struct paused {
      op_hook& hook;
      op_hook saved;
      ~paused() { hook = std::move(saved); }
    } pause{on_op_, std::move(on_op_)};
    on_op_ = {};
    return fs::lock_made_dir(*this, d, name);
  }

 private:
  struct fault {
    std::string op;  // empty: any operation
    std::size_t n = 0;
    int err = 0;
    bool sticky = false;
    bool fired = false;
  };

  B inner_;
  std::recursive_mutex mutex_;  ///< held by every call of the policy
  std::size_t total_ = 0;
  std::map<std::string, std::size_t, std::less<>> per_op_;
  std::vector<record> log_;
  std::vector<fault> faults_;
  std::size_t failures_ = 0;
  open_hook before_open_;
  op_hook on_op_;
  std::optional<std::size_t> crash_at_;
  std::size_t crashed_ = 0;

  static error make_error(std::string_view op, std::string_view subject, int err) {
    if constexpr (detail::has_make_error<base>::value) {
      return base::make_error(op, subject, err);
    } else {
      return sys_error(op, subject, err);
    }
  }

  // One counted operation: crash, count, injected failure, then the op hook.
  void enter(std::string_view op, std::string_view label) { enter(op, label, label); }
  void enter(std::string_view op, std::string_view label, std::string_view subject) {
    if (crash_at_ && total_ >= *crash_at_) {
      ++crashed_;
      throw simulated_crash{std::string(op), std::string(label), total_ + 1};
    }
    ++total_;
    auto it = per_op_.find(op);
    if (it == per_op_.end()) it = per_op_.emplace(std::string(op), 0).first;
    const std::size_t nth_of_op = ++it->second;
    log_.push_back({std::string(op), std::string(label)});
    for (auto& f : faults_) {
      const std::size_t index = f.op.empty() ? total_ : (f.op == op ? nth_of_op : 0);
      if (index == 0 || f.fired) continue;
      if (index == f.n || (f.sticky && index > f.n)) {
        if (!f.sticky) f.fired = true;
        ++failures_;
        throw make_error(op, subject, f.err);
      }
    }
    if (on_op_) on_op_(inner_, op, label);
  }

  // The B.4 remover, one counted step at a time: classify without following; a directory
  // that no longer opens as one (swapped for a link or file) is unlinked, not followed;
  // entries that vanish meanwhile are someone else's delete and are not an error.
  void remove_tree_steps(const dir& d, std::string_view name, bool top,
                         const removal_progress& count) {
    std::optional<stat_info> st = stat_at(d, name);
    if (!st) {
      if (top) throw make_error("remove_tree_at", name, ENOENT);
      return;
    }
    if (st->kind == file_kind::directory) {
      std::optional<dir> child;
      try {
        child.emplace(open_dir_at(d, name));
      } catch (const error& e) {
        if (e.sys_errno() == ENOENT && !top) return;
        if (e.sys_errno() != ENOTDIR && e.sys_errno() != ELOOP) throw;
      }
      if (child) {
        std::vector<std::string> names;
        for_each_entry(*child, [&](std::string_view n) { names.emplace_back(n); });
        for (const auto& n : names) remove_tree_steps(*child, n, false, count);
        child.reset();
        try {
          remove_dir_at(d, name);
          count(0);
        } catch (const error& e) {
          if (e.sys_errno() != ENOENT || top) throw;
        }
        return;
      }
    }
    try {
      unlink_at(d, name);
      count(0);
    } catch (const error& e) {
      if (e.sys_errno() != ENOENT || top) throw;
    }
  }
};

static_assert(check_policy<faulty<memory>>(), "fs::faulty must model the Fs policy");
static_assert(check_policy<faulty<memory&>>(), "fs::faulty must model the Fs policy");

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
