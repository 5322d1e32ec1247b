// SPDX-License-Identifier: MIT
// One of two TUs linked together with different configuration macros (see depth.hpp).
#define CLAWPORT_MAX_TREE_DEPTH 8
#include "depth.hpp"

bool refused_with_depth_8(int levels) { return depth_test::refused_for_depth(levels); }
