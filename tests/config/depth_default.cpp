// SPDX-License-Identifier: MIT
// The other TU (default CLAWPORT_MAX_TREE_DEPTH, 256) and the check itself.
#include "depth.hpp"

#include <iostream>

bool refused_with_depth_8(int levels);

int main() {
  // 20 levels: deeper than 8, well within 256. Each TU must keep its own limit whatever
  // the link order.
  const bool small = refused_with_depth_8(20);
  const bool large = depth_test::refused_for_depth(20);
  std::cout << "depth 8 refuses 20 levels: " << small << "; depth 256 refuses them: " << large
            << "\n";
  return small && !large ? 0 : 1;
}
