// SPDX-License-Identifier: MIT
// The C ABI of clawport.h as one translation unit, for a build that compiles one file
// (docs/vendoring.md, "Linking C", by hand). bindings/rust/build.rs and the CMake target
// clawport::c compile the parts listed here as translation units of their own, in parallel;
// this list is theirs too (they read the #include lines below). Each part groups files of
// entry points by command (abi_*.cpp over abi.hpp).
// The order is the build order (the longest first):
// clang-format off
#include "abi_part_install.cpp"
#include "abi_part_export.cpp"
// clang-format on
