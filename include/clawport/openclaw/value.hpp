// SPDX-License-Identifier: MIT
// OpenClaw's documents are JSON data as JavaScript sees them; the type and its writers
// (stableStringify, JSON.stringify) are formats/'s (formats/stable_json.hpp). These are the
// names the OpenClaw code uses for them.
#pragma once

#include "../core/config.hpp"
#include "../formats/json.hpp"
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

/// Every OpenClaw document this library writes is experimental while RFC 0016 is in review.
inline constexpr const char* stability = "experimental";

/// The head every document starts with: `{schemaVersion, stability}`.
inline value document(const char* schema) {
  value d = value::object();
  d["schemaVersion"] = schema;
  d["stability"] = stability;
  return d;
}

/// The head of a plan (`applied` false: a dry run that may not mutate) or of the result of
/// an apply (`applied` true): `{schemaVersion, stability, dryRun, mutationAllowed}`.
inline value mutation_document(const char* schema, bool applied) {
  value d = document(schema);
  d["dryRun"] = !applied;
  d["mutationAllowed"] = applied;
  return d;
}

/// The head of the result of an add or an update that ran: `mutation_document`'s, then
/// `status`, `planIntegrity` and `agentId`; each command's own members follow.
inline value result_document(const char* schema, const char* status,
                             const std::string& plan_integrity, const std::string& agent_id) {
  value d = mutation_document(schema, true);
  d["status"] = status;
  d["planIntegrity"] = plan_integrity;
  d["agentId"] = agent_id;
  return d;
}

/// `items` as a JSON array, each item by its `to_json`.
template <class Range>
value array_of(const Range& items) {
  return json::array_of<value>(items);
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
