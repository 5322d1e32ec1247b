// SPDX-License-Identifier: MIT
// Verifying a bundle as hostile input: every finding listed, limits documented.
#pragma once

#include "verify/agent_plugin.hpp"
#include "verify/render.hpp"
#include "verify/signature.hpp"
#include "verify/verify.hpp"
