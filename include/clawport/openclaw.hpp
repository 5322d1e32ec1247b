// SPDX-License-Identifier: MIT
// OpenClaw Claw packages, the read side: the strict YAML subset, stableStringify, the
// package reader, the manifest and profile schemas, the add plan with its planIntegrity,
// and the JSON/human renderings of `claws inspect` and `claws add --dry-run`.
// Depends on core/, digest/ and fs/ only.
#pragma once

#include "openclaw/clawhub.hpp"
#include "openclaw/diagnostics.hpp"
#include "openclaw/environment.hpp"
#include "openclaw/export.hpp"
#include "openclaw/grammar.hpp"
#include "openclaw/json5.hpp"
#include "openclaw/lifecycle.hpp"
#include "openclaw/limits.hpp"
#include "openclaw/package.hpp"
#include "openclaw/plan.hpp"
#include "openclaw/render.hpp"
#include "openclaw/schema.hpp"
#include "openclaw/stable_json.hpp"
#include "openclaw/state.hpp"
#include "openclaw/unicode.hpp"
#include "openclaw/update.hpp"
#include "openclaw/workspace.hpp"
#include "openclaw/yaml.hpp"
#include "openclaw/yaml_writer.hpp"
