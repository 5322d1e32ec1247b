// SPDX-License-Identifier: MIT
// ZeroClaw skills: SKILL.md / SKILL.toml / manifest.toml parsing, the bundle filter,
// locations and directory rules, the static audit and an agent's effective skill set;
// and the lifecycle: scaffold, install, remove and the TEST.sh runner.
#pragma once

#include "skills/audit.hpp"
#include "skills/bundle_add.hpp"
#include "skills/bundles.hpp"
#include "skills/filter.hpp"
#include "skills/frontmatter.hpp"
#include "skills/install.hpp"
#include "skills/install_context.hpp"
#include "skills/lifecycle_json.hpp"
#include "skills/lifecycle_text.hpp"
#include "skills/loader.hpp"
#include "skills/locations.hpp"
#include "skills/manifest.hpp"
#include "skills/placement.hpp"
#include "skills/process.hpp"
#include "skills/remove.hpp"
#include "skills/report.hpp"
#include "skills/restore.hpp"
#include "skills/scaffold.hpp"
#include "skills/source_install.hpp"
#include "skills/staging_places.hpp"
#include "skills/test_runner.hpp"
#include "skills/test_script.hpp"
#include "skills/test_selection.hpp"
#include "skills/upgrade_recovery.hpp"
