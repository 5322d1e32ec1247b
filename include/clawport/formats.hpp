// SPDX-License-Identifier: MIT
// The readers and writers that are not about any runtime: the one TOML adaptor and its input
// bounds, JSON rendering that never throws and the `--json` error document, JavaScript's
// JSON text (stableStringify, JSON.stringify), JSON5, the YAML subset and its block writer,
// Unicode (NFC, lowercase, localeCompare) with its generated tables, and the linear-time
// regex engine for Rust `regex` syntax. Depends on core/ only.
#pragma once

#include "formats/json.hpp"
#include "formats/json5.hpp"
#include "formats/regex.hpp"
#include "formats/stable_json.hpp"
#include "formats/tables/timezones.hpp"
#include "formats/tables/unicode_data.hpp"
#include "formats/toml.hpp"
#include "formats/toml_document.hpp"
#include "formats/toml_limits.hpp"
#include "formats/toml_writer.hpp"
#include "formats/unicode.hpp"
#include "formats/yaml.hpp"
#include "formats/yaml_writer.hpp"
