// SPDX-License-Identifier: MIT
// The other translation unit build.rs and CMake compile in parallel: the default-policy
// instantiations (compiled/instantiations.hpp: the export with each publish strategy, verify)
// that the install's part declares `extern template`, the export and recover that call
// them, and the skills and claw commands, which balance the two parts' compile times
// (docs/benchmarks.md, "The crate's first build").
#include "abi_export.cpp"
#include "abi_instances.cpp"
#include "abi_skills.cpp"
