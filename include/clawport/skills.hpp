// SPDX-License-Identifier: MIT
// ZeroClaw skills: SKILL.md / SKILL.toml / manifest.toml parsing, the bundle filter,
// locations and directory rules, the static audit and an agent's effective skill set.
#pragma once

#include "skills/audit.hpp"
#include "skills/filter.hpp"
#include "skills/frontmatter.hpp"
#include "skills/loader.hpp"
#include "skills/locations.hpp"
#include "skills/manifest.hpp"
#include "skills/report.hpp"
