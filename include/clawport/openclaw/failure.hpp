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

/// The `error` member of a failing document (formats/json.hpp's shape): a code of the one
/// vocabulary, the message, a failure's snippet, and where (a diagnostic's path; empty at
/// `$` or for a failure: the subject the caller names). Made from the typed failure, never
/// read back from a rendered document.
struct error_member {
  errc code = errc::invalid_argument;
  std::string message;
  std::optional<std::string> snippet;
  std::string path;
};

/// The member as the library's documents carry it: `{code, message, snippet?}`.
inline value to_json(const error_member& e) {
  value v = value::object({{"code", std::string(to_string(e.code))}, {"message", e.message}});
  if (e.snippet) v["snippet"] = *e.snippet;
  return v;
}

/// The subject of `e`: its path, else the caller's `subject`.
inline std::string subject_of(const error_member& e, const std::string& subject) {
  return e.path.empty() ? subject : e.path;
}

/// The member as `--json` prints it: `subject` last (null when there is none).
inline value to_json(const error_member& e, const std::string& subject) {
  value v = to_json(e);
  const std::string s = subject_of(e, subject);
  v["subject"] = s.empty() ? value() : value(s);
  return v;
}

/// The first error among `diagnostics` (its path the subject, none at `$`).
inline std::optional<error_member> first_error(const std::vector<diagnostic>& diagnostics) {
  for (const auto& d : diagnostics)
    if (d.level == level::error)
      return error_member{d.code, d.message, std::nullopt, d.path == "$" ? "" : d.path};
  return std::nullopt;
}

/// The first of `blockers` (they name no path).
inline std::optional<error_member> first_error(const std::vector<plan_blocker>& blockers) {
  if (blockers.empty()) return std::nullopt;
  return error_member{blockers.front().code, blockers.front().message, std::nullopt, ""};
}

/// The error of a package that read (or did not): its first error diagnostic.
inline std::optional<error_member> error_member_of(const claw_package& pkg) {
  return first_error(pkg.diagnostics);
}

/// The error of an add plan: its first error diagnostic, else its first blocker.
inline std::optional<error_member> error_member_of(const add_plan& p) {
  if (auto e = first_error(p.diagnostics)) return e;
  return first_error(p.blockers);
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

/// The error of a failure.
inline error_member error_member_of(const failure& f) { return {f.code, f.message, f.snippet, ""}; }

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
  d["error"] = to_json(error_member_of(f));
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

/// The error of a package that did not read: its first error diagnostic.
inline std::optional<error_member> error_member_of(const invalid_package& p) {
  return first_error(p.diagnostics);
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

/// The error of an outcome: its failure's, else what its result reports (a partial one).
template <class Result>
std::optional<error_member> error_member_of(const outcome<Result>& o) {
  if (o.result) return error_member_of(*o.result);
  return error_member_of(o.failed.value());  // checked: neither set
}

/// The human form the command prints: its result's or its failure's.
template <class Result>
std::string result_text(const outcome<Result>& o) {
  return o.result ? result_text(*o.result) : result_text(o.failed.value());
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
