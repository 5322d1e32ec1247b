// SPDX-License-Identifier: MIT
// Umbrella header of the plan module: plan integrity and consent, shared by `import` and
// `claw add|update|remove`.
#pragma once

#include "plan/consent.hpp"
#include "plan/integrity.hpp"
#include "plan/plan_file.hpp"
