// SPDX-License-Identifier: MIT
// The crash sweep of issue 41, one rig for every test that kills a command at each of its
// filesystem operations (fs::faulty's crash_after: that operation and every later one fail,
// as a process killed with -9 would leave them) and checks what the next process finds.
//   const std::size_t count = crash_sweep::count_operations(setup, run[, before, after]);
//   crash_sweep::kill_at_each(count, setup, run, check);
// `setup(memory&)` makes the state a run starts from, `run(faulty<memory>&)` the command, and
// `check(memory&, n)` sees what the kill left (the re-run, recover and the assertions go there).
#pragma once

#include "support/test.hpp"

#include <cstddef>

namespace crash_sweep {

using clawport::fs::faulty;
using clawport::fs::memory;

/// The default observer of count_operations: nothing.
struct nothing {
  void operator()(memory&) const {}
};

/// The operations of a whole run of `run` on the state `setup` makes; `before` sees that state,
/// `after` what the run left.
template <class Setup, class Run, class Before = nothing, class After = nothing>
std::size_t count_operations(const Setup& setup, const Run& run, const Before& before = {},
                             const After& after = {}) {
  faulty<memory> f;
  setup(f.inner());
  before(f.inner());
  f.reset_counts();
  run(f);
  const std::size_t count = f.count();
  after(f.inner());
  return count;
}

/// `run` killed after each n of [first, count] operations, each time on a fresh `setup`, and
/// `check` on what the kill left (an exception of the killed run is the kill's, not a failure).
template <class Setup, class Run, class Check>
void kill_at_each(std::size_t count, const Setup& setup, const Run& run, const Check& check,
                  std::size_t first = 0) {
  for (std::size_t n = first; n <= count; ++n) {
    CAPTURE(n);
    faulty<memory> f;
    setup(f.inner());
    f.reset_counts();
    f.crash_after(n);
    try {
      run(f);
    } catch (...) {
    }
    check(f.inner(), n);
  }
}

}  // namespace crash_sweep
