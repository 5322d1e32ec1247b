// SPDX-License-Identifier: MIT
// The C ABI of clawport.h as one translation unit: every part, for a build that compiles one
// file (docs/vendoring.md, "Linking C", by hand). bindings/rust/build.rs and the CMake
// target clawport::c compile the parts listed here separately and in parallel (the longest
// first); this list is theirs too (they read the #include lines below).
// The order is the build order:
// clang-format off
#include "abi_import.cpp"
#include "abi_instances.cpp"
#include "abi_export.cpp"
#include "abi_skills.cpp"
#include "abi_convert.cpp"
#include "abi_core.cpp"
// clang-format on
