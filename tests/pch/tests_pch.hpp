// SPDX-License-Identifier: MIT
// Precompiled for the test suite only: the heavy third-party headers.

#include <doctest/doctest.h>
#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>
