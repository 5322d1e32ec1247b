// SPDX-License-Identifier: MIT
// Why an OpenClaw command stopped before it finished, as data: refused before it planned (no
// consent), refused at its plan (the consented planIntegrity is not the plan's, a blocker)
// or failed at a step (everything it did undone). Also a package that did not read. Each
// has its document (`to_json`) and its human form (`result_text`); nothing reads them back.
#pragma once

#include "../plan/consent.hpp"
#include "render.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// A blocker of a lifecycle plan.
struct plan_blocker {
  /// From the one vocabulary (core/error.hpp); the document shows its wire name.
  errc code = errc::invalid_argument;
  std::string message;
};

/// A blocker with `code` from the one vocabulary.
inline plan_blocker make_blocker(errc code, std::string message) {
  return {code, std::move(message)};
}

/// The `blockers` array of a plan or refusal document.
inline value to_json(const std::vector<plan_blocker>& blockers) {
  return json::array_of<value>(blockers, [](const plan_blocker& b) {
    return value::object({{"code", std::string(to_string(b.code))}, {"message", b.message}});
  });
}

/// A command that stopped: where, why, and what the person needs to go on.
struct failure {
  enum class stage {
    consent,        ///< no consent given: nothing was planned
    plan_mismatch,  ///< the consented planIntegrity is not the rebuilt plan's
    failed,         ///< refused by the plan or failed at a step (undone)
  };
  const char* schema = "";  ///< the result document's schemaVersion
  stage at = stage::failed;
  errc code = errc::invalid_argument;
  std::string message;
  std::optional<std::string> snippet;         ///< what to change in openclaw.json by hand
  std::optional<std::string> agent_id;        ///< the agent the command was about
  std::optional<std::string> plan_integrity;  ///< the integrity of the plan rebuilt now
  std::vector<plan_blocker> blockers;         ///< what blocks the plan
};

/// A failure of the command whose result is `schema`, at a step or refused by its plan.
inline failure failure_of(const char* schema, errc code, std::string message) {
  failure f;
  f.schema = schema;
  f.code = code;
  f.message = std::move(message);
  return f;
}

/// The one rendering of a consent refusal `r` (plan/consent.hpp): before planning (no
/// consent) OpenClaw's envelope `{ok:false, error}`; after, a failure with the fresh
/// planIntegrity.
inline failure refusal_of(const char* schema, const clawport::plan::refusal& r,
                          const clawport::plan::subject& s) {
  failure f = failure_of(schema, r.code(), clawport::plan::message(r, s));
  if (r.kind == clawport::plan::refusal_kind::plan_integrity_mismatch) {
    f.at = failure::stage::plan_mismatch;
    f.plan_integrity = r.current;
  } else {
    f.at = failure::stage::consent;
  }
  return f;
}

/// The document of a failure: the consent envelope `{schemaVersion, stability, ok:false,
/// error}`, or `{schemaVersion, stability, status:"failed", error, ...}` with the fresh
/// planIntegrity (a mismatch shows it first), the agent id and the blockers.
inline value to_json(const failure& f) {
  value d = document(f.schema);
  if (f.at == failure::stage::consent) {
    d["ok"] = false;
  } else {
    d["status"] = "failed";
  }
  d["error"] = value::object({{"code", std::string(to_string(f.code))}, {"message", f.message}});
  if (f.snippet) d["error"]["snippet"] = *f.snippet;
  const bool mismatch = f.at == failure::stage::plan_mismatch;
  if (mismatch && f.plan_integrity) d["planIntegrity"] = *f.plan_integrity;
  if (f.agent_id) d["agentId"] = *f.agent_id;
  if (!mismatch && f.plan_integrity) d["planIntegrity"] = *f.plan_integrity;
  if (!f.blockers.empty()) d["blockers"] = to_json(f.blockers);
  return d;
}

/// The human form of a failure (after the experimental banner): `ERROR code: message`, the
/// snippet, the integrity of the plan rebuilt now. Every line through the one terminal-safe
/// renderer (core/text.hpp).
inline std::string result_text(const failure& f) {
  text::terminal_lines line;
  line(experimental_banner);
  line("ERROR " + std::string(to_string(f.code)) + ": " + f.message);
  if (f.snippet) line.block(*f.snippet);
  if (f.plan_integrity) line("  current plan integrity: " + *f.plan_integrity);
  return std::move(line.text);
}

/// A package that did not read, where a plan was asked for: its diagnostics.
struct invalid_package {
  std::vector<diagnostic> diagnostics;
};

/// The validation-failure envelope of a plan whose package did not read:
/// `{schemaVersion: openclaw.clawAddPlan.v1, stability, valid:false, diagnostics}`.
inline value to_json(const invalid_package& p) {
  value v = document("openclaw.clawAddPlan.v1");
  v["valid"] = false;
  v["diagnostics"] = to_json(p.diagnostics);
  return v;
}

/// The human form of a package that did not read: `inspect`'s (render.hpp).
inline std::string result_text(const invalid_package& p) {
  text::terminal_lines line;
  line(experimental_banner);
  invalid_lines(line, p.diagnostics);
  return std::move(line.text);
}

/// What a command that may stop before it finishes returns: its typed result once it ran
/// (complete or partial), else why it stopped. `ok` when it ran to completion. One of
/// `result` and `failed` is set; printing an outcome with neither throws
/// std::bad_optional_access (a caller's bug, never read through an empty optional).
template <class Result>
struct outcome {
  std::optional<Result> result;
  std::optional<failure> failed;
  bool ok = false;
};

/// The document the command prints: its result's or its failure's.
template <class Result>
value to_json(const outcome<Result>& o) {
  return o.result ? to_json(*o.result) : to_json(o.failed.value());  // checked: neither set
}

/// The human form the command prints: its result's or its failure's.
template <class Result>
std::string result_text(const outcome<Result>& o) {
  return o.result ? result_text(*o.result) : result_text(o.failed.value());
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
