// SPDX-License-Identifier: MIT
// Work on several threads with results taken in order (`--jobs`): the one walk stays on the
// calling thread and submits per-file work (open, read, hash, write); up to `jobs - 1` worker
// threads, and the calling thread whenever it would otherwise wait, run that work; each
// item's completion runs on the calling thread, in submission order. So everything a walk
// records (findings, tallies, digests, the first error) is recorded in the order the walk
// met it, whatever thread read the bytes: the output of `jobs` N is the output of `jobs` 1.
// With one job nothing is started: each item's work and completion run at once, in line.
//
// An Fs policy is used from several threads only when it declares so
// (`static constexpr bool thread_safe = true;`, see `usable_jobs`): every call on distinct
// handles may then run concurrently, and a handle may be used by another thread than the
// one that opened it (docs/library.md, "Jobs").
#pragma once

#include "../core/config.hpp"
#include "policy.hpp"

#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace fs {

namespace detail {

template <class B, class = void>
struct declares_thread_safe : std::false_type {};
template <class B>
struct declares_thread_safe<B, std::void_t<decltype(B::thread_safe)>>
    : std::integral_constant<bool, static_cast<bool>(B::thread_safe)> {};

}  // namespace detail

/// The threads a walk over `Fs` uses when `requested` are asked for: `requested` (at least 1)
/// for a policy that declares `static constexpr bool thread_safe = true`, else 1.
template <class Fs>
constexpr unsigned usable_jobs(unsigned requested) noexcept {
  if constexpr (detail::declares_thread_safe<Fs>::value) {
    return requested == 0 ? 1u : requested;
  } else {
    return 1u;
  }
}

/// The threads `--jobs` defaults to: the CPUs this process may run on (sched_getaffinity,
/// which a container's cpuset or `taskset` narrows; hardware_concurrency counts them all),
/// at most 8, at least 1. The per-file work is mostly system calls on a few directories of
/// one device (open, read, write, close): past a handful of threads they wait on the same
/// inode locks and queue, while each thread adds 16 items of descriptors and memory to the
/// window. Queried once (an immutable fact of the process).
inline unsigned default_jobs() {
  static const unsigned jobs = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    int cpus = ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    return static_cast<unsigned>(std::clamp(cpus, 1, 8));
  }();
  return jobs;
}

/// The descriptors the items in work may hold at once: half the soft RLIMIT_NOFILE, the
/// other half left to the process's own (streams, the bundle's and the stage's handles) and
/// the walk's stack of directories, which one job needs too. Queried once; a limit changed
/// later by the process is not seen.
inline std::size_t descriptor_budget() {
  static const std::size_t budget = [] {
    ::rlimit lim{};
    if (::getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return SIZE_MAX;
    return static_cast<std::size_t>(lim.rlim_cur / 2);
  }();
  return budget;
}

/// The window (`ordered_jobs`) of a walk with `jobs` threads whose items hold up to
/// `descriptors_per_item` descriptors each (their directories, shared with the walk, which
/// may have left them, and what a running item opens): 16 per job, fewer when that many
/// items could exhaust `descriptor_budget`; at least 1.
inline std::size_t jobs_window(unsigned jobs, std::size_t descriptors_per_item) {
  const std::size_t wanted = 16 * std::size_t(jobs == 0 ? 1 : jobs);
  const std::size_t affordable =
      descriptor_budget() / std::max<std::size_t>(descriptors_per_item, 1);
  return std::max<std::size_t>(1, std::min(wanted, affordable));
}

/// Items of work run on up to `jobs` threads, completed in the order they were submitted
/// (see the top of this file). Not copyable; one caller thread submits and completes.
/// Destroying it drops what was not started and waits for what is running.
class ordered_jobs {
 public:
  /// Runs on any thread; `worker` (0 for the calling thread, 1..jobs-1 for the others)
  /// indexes the caller's per-thread scratch (buffers).
  using work_fn = std::function<void(unsigned worker)>;
  /// Runs on the calling thread, in order; `failure` is what the work threw, or null.
  using done_fn = std::function<void(std::exception_ptr failure)>;

  /// `window`: items and `then` records submitted and not yet completed at most (`pending`
  /// never exceeds it; submit and then wait, running queued work, while it is full);
  /// 0 = 16 per job.
  explicit ordered_jobs(unsigned jobs, std::size_t window = 0)
      : jobs_(jobs == 0 ? 1 : jobs), window_(window != 0 ? window : 16 * std::size_t(jobs_)) {}
  ordered_jobs(const ordered_jobs&) = delete;
  ordered_jobs& operator=(const ordered_jobs&) = delete;
  ~ordered_jobs() { stop(); }

  unsigned jobs() const noexcept { return jobs_; }
  /// Items submitted whose completion has not run yet.
  std::size_t pending() const noexcept { return pending_; }

  /// Submits `work`; `done` runs after the completion of every item submitted before.
  /// Throws what a completion run meanwhile throws.
  void submit(work_fn work, done_fn done) {
    if (jobs_ == 1) {
      std::exception_ptr failure;
      try {
        work(0);
      } catch (...) {
        failure = std::current_exception();
      }
      done(failure);
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (!started_) {
      started_ = true;
      start();
    }
    complete(lock, window_);
    queue_.push_back(slot{std::move(work), std::move(done), nullptr, state::queued});
    ++pending_;
    // A sleeping worker is woken for a few items at once, not for each (a wake is a system
    // call and a context switch, as long as the work of a small file); what no worker
    // takes, the calling thread runs itself before it waits.
    if (idle_ > 0 && queue_.size() - claimed_ >= wake_batch) work_ready_.notify_one();
  }

  /// `done` alone, after the completion of every item submitted before (at once when none
  /// is pending): a record of the walk's own kept in order with the items' records. Counts
  /// against the window as an item does, so records queued behind slow work stay bounded.
  void then(std::function<void()> done) {
    if (jobs_ > 1) {
      std::unique_lock<std::mutex> lock(mutex_);
      complete(lock, window_);  // a record counts against the window as an item does
      if (!queue_.empty()) {
        // Behind work no worker was woken for (fewer than wake_batch items), the record
        // would wait for the caller's next wait: wake one now.
        if (idle_ > 0 && queue_.back().st == state::queued) work_ready_.notify_one();
        queue_.push_back(slot{nullptr, [d = std::move(done)](std::exception_ptr) { d(); }, nullptr,
                              state::finished});
        ++pending_;
        return;
      }
    }
    done();
  }

  /// Runs every pending item and its completion, in order (the calling thread helps).
  /// Throws what a completion throws; what was pending after it is then dropped (and a
  /// later `finish` only waits for what is still running).
  void finish() {
    if (jobs_ == 1) return;
    std::unique_lock<std::mutex> lock(mutex_);
    if (idle_ > 0 && claimed_ < queue_.size()) work_ready_.notify_all();
    complete(lock, 1);
  }

 private:
  enum class state { queued, running, finished };
  struct slot {
    work_fn work;
    done_fn done;
    std::exception_ptr failure;
    state st;
  };

  /// Starts the workers; one the system refuses (EAGAIN: a process or cgroup pids limit)
  /// is done without, keeping those that started: the calling thread runs what no worker
  /// takes, so with none the items run on it alone, in order.
  void start() {
    workers_.reserve(jobs_ - 1);
    for (unsigned i = 1; i < jobs_; ++i) {
      try {
        workers_.emplace_back([this, i] { serve(i); });
      } catch (const std::system_error&) {
        break;
      }
    }
  }

  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      // Never started: dropped. Running: waited for below.
      for (slot& s : queue_)
        if (s.st == state::queued) s.st = state::finished;
    }
    work_ready_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  /// The first queued slot, marked running; null when none is queued.
  slot* claim() {
    for (; claimed_ < queue_.size(); ++claimed_) {
      slot& s = queue_[claimed_];
      if (s.st == state::queued) {
        s.st = state::running;
        return &s;
      }
    }
    return nullptr;
  }

  /// Slots whose work is running on some thread (under the lock).
  std::size_t running() const {
    std::size_t n = 0;
    for (const slot& s : queue_) n += s.st == state::running ? 1 : 0;
    return n;
  }

  /// Runs `s`'s work without the lock, recording what it threw.
  void run(std::unique_lock<std::mutex>& lock, slot& s, unsigned worker) {
    work_fn work = std::move(s.work);
    lock.unlock();
    std::exception_ptr failure;
    try {
      work(worker);
    } catch (...) {
      failure = std::current_exception();
    }
    work = nullptr;  // release the work's captures (the item itself stays with its `done`)
    lock.lock();
    s.failure = failure;
    s.st = state::finished;
    done_ready_.notify_one();
  }

  /// Completes finished items from the front, in order, until fewer than `room` are pending;
  /// meanwhile the calling thread runs queued work itself rather than wait.
  void complete(std::unique_lock<std::mutex>& lock, std::size_t room) {
    for (;;) {
      while (!queue_.empty() && queue_.front().st == state::finished) {
        slot s = std::move(queue_.front());
        queue_.pop_front();
        if (claimed_ > 0) --claimed_;
        --pending_;
        if (!s.done) continue;
        lock.unlock();
        try {
          s.done(s.failure);
        } catch (...) {
          // The first failure in order ends the run: nothing after it completes, as nothing
          // after it would have run on one thread. What is running is waited for before the
          // exception leaves: its work may use handles the caller closes while unwinding.
          lock.lock();
          for (slot& rest : queue_) {
            rest.done = nullptr;
            if (rest.st == state::queued) rest.st = state::finished;
          }
          done_ready_.wait(lock, [this] { return running() == 0; });
          throw;
        }
        lock.lock();
      }
      if (queue_.size() < room) return;
      if (slot* s = claim()) {
        run(lock, *s, 0);
        continue;
      }
      done_ready_.wait(lock);
    }
  }

  void serve(unsigned worker) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (stopping_) return;
      if (slot* s = claim()) {
        run(lock, *s, worker);
        continue;
      }
      ++idle_;
      work_ready_.wait(lock);
      --idle_;
    }
  }

  static constexpr std::size_t wake_batch = 4;  ///< queued items that wake a worker

  const unsigned jobs_;
  const std::size_t window_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable done_ready_;
  std::deque<slot> queue_;   ///< submitted, not completed; front = the oldest
  std::size_t claimed_ = 0;  ///< slots at the front that are running or finished
  std::size_t pending_ = 0;  ///< queue_.size(), readable without the lock by the caller
  bool stopping_ = false;
  bool started_ = false;  ///< the workers were started (as many as the system allowed)
  unsigned idle_ = 0;     ///< workers waiting for work
  std::vector<std::thread> workers_;
};

}  // namespace fs
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
