// SPDX-License-Identifier: MIT
// The body both depth TUs compile, each with its own CLAWPORT_MAX_TREE_DEPTH: copies a
// chain of `levels` nested directories with fs::copy_tree on fs::memory and says whether
// the copy was refused for its depth. Without the ABI namespace of core/config.hpp the two
// TUs would define the same copy_tree<fs::memory> and the linker would keep one of them.
#pragma once

#include <clawport/clawport.hpp>
#include <clawport/testing.hpp>

#include <string>

namespace depth_test {
// Internal linkage: each TU keeps its own copy of this helper, so only clawport's own
// functions (copy_tree<fs::memory> and below) are shared between the two TUs.
namespace {

bool refused_for_depth(int levels) {
  clawport::fs::memory m;
  std::string p = "/src";
  for (int i = 0; i < levels; ++i) p += "/d";
  m.mkdirs(p);
  m.mkdirs("/dst");
  auto src = m.open_root("/src");
  auto dst = m.open_root("/dst");
  clawport::fs::copy_tally tally;
  try {
    clawport::fs::copy_tree(m, src, dst, clawport::fs::copy_spec{"workspace", {}}, tally);
  } catch (const clawport::error& e) {
    return e.code() == clawport::errc::limit_exceeded;
  }
  return false;
}

}  // namespace
}  // namespace depth_test
