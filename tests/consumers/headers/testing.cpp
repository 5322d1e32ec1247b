// SPDX-License-Identifier: MIT
// <clawport/testing.hpp> alone: the test backends.
#include <clawport/testing.hpp>

int header_testing() {
  clawport::fs::faulty<clawport::fs::memory> fs;
  fs.inner().mkdirs("/a/b");
  auto root = fs.open_root("/a");
  return fs.stat_at(root, "b") && fs.count() == 2 ? 0 : 1;
}
