// SPDX-License-Identifier: MIT
// clawport: make AI agents portable between installs.
// Umbrella header; include this one, or a concern's header from the list below.
#pragma once

#include "bundle.hpp"
#include "compiled/extern_templates.hpp"
#include "convert.hpp"
#include "core.hpp"
#include "digest.hpp"
#include "exporter.hpp"
#include "formats.hpp"
#include "fs.hpp"
#include "importer.hpp"
#include "memory.hpp"  // pure: no SQLite (<clawport/sqlite.hpp> is opt-in)
#include "names.hpp"
#include "openclaw.hpp"
#include "plan.hpp"
#include "process.hpp"
#include "publish.hpp"
#include "signing.hpp"
#include "skills.hpp"
#include "verify.hpp"
#include "zeroclaw.hpp"
