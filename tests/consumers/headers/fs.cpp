// SPDX-License-Identifier: MIT
// <clawport/fs.hpp> alone: the production backend and the tree copy over it.
#include <clawport/fs.hpp>

int header_fs() {
  static_assert(clawport::fs::check_policy<clawport::fs::posix>());
  clawport::fs::posix disk;
  auto root = disk.open_root("/");
  const auto st = disk.stat_at(root, "tmp");
  return st && st->kind == clawport::fs::file_kind::directory ? 0 : 1;
}
