// SPDX-License-Identifier: MIT
// One of the two translation units build.rs and CMake compile in parallel: the install's
// side (verify, import, secrets, status), convert, and the entry points that run no command.
// They share the most (verify, the importer's copy): together they are generated once.
#include "abi_convert.cpp"
#include "abi_core.cpp"
#include "abi_import.cpp"
