// SPDX-License-Identifier: MIT
// expect: Fs policy: missing `bool try_lock(const dir&)`
// errors: 1
#include <clawport/fs.hpp>

struct no_lock : clawport::fs::posix {
  bool try_lock(const dir&) = delete;
};

static_assert(clawport::fs::check_policy<no_lock>());
