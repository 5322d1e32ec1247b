// SPDX-License-Identifier: MIT
// OpenClaw Claw packages: the package reader, the manifest and profile schemas, the add plan
// with its planIntegrity, the JSON/human renderings of `claws inspect` and `claws add
// --dry-run`, the lifecycle and `claw export`. Its YAML, JSON5, stableStringify and Unicode
// are formats/'s.
#pragma once

#include "openclaw/clawhub.hpp"
#include "openclaw/diagnostics.hpp"
#include "openclaw/environment.hpp"
#include "openclaw/export.hpp"
#include "openclaw/failure.hpp"
#include "openclaw/grammar.hpp"
#include "openclaw/integrity.hpp"
#include "openclaw/lifecycle.hpp"
#include "openclaw/limits.hpp"
#include "openclaw/migrate.hpp"
#include "openclaw/package.hpp"
#include "openclaw/plan.hpp"
#include "openclaw/render.hpp"
#include "openclaw/schema.hpp"
#include "openclaw/state.hpp"
#include "openclaw/tool_catalog.hpp"
#include "openclaw/tools.hpp"
#include "openclaw/update.hpp"
#include "openclaw/value.hpp"
#include "openclaw/workspace.hpp"
