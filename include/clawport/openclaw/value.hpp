// SPDX-License-Identifier: MIT
// OpenClaw's documents are JSON data as JavaScript sees them; the type and its writers
// (stableStringify, JSON.stringify) are formats/'s (formats/stable_json.hpp). These are the
// names the OpenClaw code uses for them.
#pragma once

#include "../core/config.hpp"
#include "../formats/stable_json.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

using json::is_undefined;
using json::js_string;
using json::js_stringify;
using json::stable_stringify;
using json::undefined_value;
using json::utf16_less;
using json::value;

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
