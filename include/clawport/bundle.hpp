// SPDX-License-Identifier: MIT
// The agent bundle: its layout (file and directory names, what a bundle may hold, the format
// version; docs/format.md) and what it carries from an install besides the workspace (the
// skill-bundle walk and the refusals for roots that cannot be proven).
#pragma once

#include "bundle/carry.hpp"
#include "bundle/layout.hpp"
#include "bundle/limits.hpp"
#include "bundle/private_data.hpp"
