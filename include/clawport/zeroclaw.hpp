// SPDX-License-Identifier: MIT
// ZeroClaw agent bundles, pure half: schema v3 as descriptors, the export plan (closure,
// scrub, drops, risk flags), validation and rendering of config.toml and the manifest.
#pragma once

#include "zeroclaw/alias.hpp"
#include "zeroclaw/api.hpp"
#include "zeroclaw/closure.hpp"
#include "zeroclaw/comment.hpp"
#include "zeroclaw/config_append.hpp"
#include "zeroclaw/document.hpp"
#include "zeroclaw/install_layout.hpp"
#include "zeroclaw/json.hpp"
#include "zeroclaw/parse.hpp"
#include "zeroclaw/plan.hpp"
#include "zeroclaw/reasons.hpp"
#include "zeroclaw/render.hpp"
#include "zeroclaw/schema.hpp"
#include "zeroclaw/schema_v3.hpp"
#include "zeroclaw/secret_ledger.hpp"
#include "zeroclaw/shape.hpp"
#include "zeroclaw/validate.hpp"
