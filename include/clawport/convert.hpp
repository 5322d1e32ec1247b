// SPDX-License-Identifier: MIT
// Converting an agent between the runtimes: a ZeroClaw agent bundle to an OpenClaw Claw
// package and back, with a loss report (docs/convert.md).
#pragma once

#include "convert/action.hpp"
#include "convert/report.hpp"
#include "convert/to_claw.hpp"
#include "convert/to_zeroclaw.hpp"
