// SPDX-License-Identifier: MIT
// The agent bundle's layout: file and directory names, what a bundle may hold, the format
// version (docs/format.md).
#pragma once

#include "bundle/layout.hpp"
