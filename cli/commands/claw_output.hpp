// SPDX-License-Identifier: MIT
// What every `clawport claw` command prints through: the OpenClaw request from the options,
// the banner only for a person, a failing `--json` document with its `error` from the typed
// failure (oc::error_member_of) and the `clawport: error:` line, the consent checks, and a
// typed result, plan or refusal printed as JSON or text.
#pragma once

#include <algorithm>
#include <optional>
#include <string>

#include "../app.hpp"
#include "../consent.hpp"

#include <unistd.h>

namespace clawport::cli {

namespace claw_cmd {

namespace oc = clawport::openclaw;

/// The destination request from the options and the host (oc::environment_of: the one
/// OpenClaw environment of every claw and workspace command).
inline oc::destination_request request(const host_environment& host, const std::string& state_dir,
                                       const std::string& agent_id, const std::string& workspace) {
  oc::destination_request req;
  static_cast<oc::environment&>(req) = oc::environment_of(host, state_dir);
  if (!agent_id.empty()) req.agent_id = agent_id;
  if (!workspace.empty()) req.workspace = workspace;
  return req;
}

/// Human output of an OpenClaw command: the experimental banner only when a person reads
/// it (stdout is a terminal), not in a pipe or a file.
inline std::string for_reader(std::string text) {
  const std::string banner = std::string(oc::experimental_banner) + "\n";
  if (::isatty(STDOUT_FILENO) != 1 && text.rfind(banner, 0) == 0) text.erase(0, banner.size());
  return text;
}

/// A failing OpenClaw document as `--json` prints it: the upstream document, its `error`
/// of the one shape (formats/json.hpp) with `subject`: the typed error `e` (the failure's,
/// or the first error of its diagnostics or blockers: oc::error_member_of), else
/// `fallback`. `line` is that error, for the `clawport: error:` line on stderr.
struct failing_document {
  oc::value doc;
  error line;
};

inline failing_document with_error(oc::value doc, const std::optional<oc::error_member>& e,
                                   const std::string& subject, const error& fallback) {
  if (!e) {
    doc["error"] = json::error_document(fallback)["error"];
    return {std::move(doc), error(errc::io, fallback.what(), fallback.subject())};
  }
  doc["error"] = oc::to_json(*e, subject);
  return {std::move(doc), error(errc::io, e->message, oc::subject_of(*e, subject))};
}

/// A failing document of `--json`: printed on stdout, and its error as the
/// `clawport: error:` line on stderr that docs/cli.md promises every failure.
inline void failure_document(const failing_document& f) {
  out::document(oc::json_text(f.doc));
  out::error(f.line, false);
}

/// The document of `--json` of a typed result, plan or package (`doc` is its rendering),
/// through `failure_document` when it tells a failure.
inline void json_outcome(const oc::value& doc, const std::optional<oc::error_member>& e, bool ok,
                         const std::string& subject, const error& fallback) {
  if (ok)
    out::document(oc::json_text(doc));
  else
    failure_document(with_error(doc, e, subject, fallback));
}

/// A human failure on stderr: upstream's `ERROR <code>: ` opening (after the banner) told as
/// every clawport failure is, `clawport: error: <code>: `.
inline std::string as_failure(std::string text) {
  const std::string banner = std::string(oc::experimental_banner) + "\n";
  const std::size_t from = text.rfind(banner, 0) == 0 ? banner.size() : 0;
  if (text.compare(from, 6, "ERROR ") == 0) text.replace(from, 6, "clawport: error: ");
  return text;
}

/// The `clawport: error:` line that ends a refused plan or an invalid package shown to a
/// person (its `ERROR` lines above say why).
inline void refused(const std::string& what, const std::string& subject) {
  out::error(error(errc::invalid_argument, what + "; nothing was written (the ERROR lines say why)",
                   subject),
             false);
}

/// A refused plan's text without what only an applicable plan has: its integrity, and what
/// it would `retain` (issue 44 item 11).
inline std::string without_apply_lines(const std::string& text) {
  std::string kept;
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t nl = text.find('\n', from);
    const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
    const std::string line = text.substr(from, end - from);
    const std::size_t lead = line.find_first_not_of(' ');
    const bool apply_only =
        lead != std::string::npos &&
        (line.compare(lead, 15, "plan integrity:") == 0 || line.compare(lead, 7, "retain ") == 0);
    if (!apply_only) kept += line;
    from = end;
  }
  return kept;
}

/// The ledger's time: SOURCE_DATE_EPOCH when set, else the clock (core/time.hpp's format).
inline std::string now_text(const host_environment& host) {
  return clawport::format_rfc3339_seconds(host.now());
}

/// The usage checks of the consent flags (exit 2); with --json the refusal keeps
/// OpenClaw's consent envelope `{schemaVersion, stability, ok:false, error}`.
inline void check_usage(const consent_flags& f, const char* result_schema) {
  try {
    check_consent_usage(f);
  } catch (usage_failure& e) {
    oc::failure refused = oc::failure_of(result_schema, e.code(), e.what());
    refused.at = oc::failure::stage::consent;  // before anything was planned
    e.document = oc::json_text(
        with_error(oc::to_json(refused), oc::error_member_of(refused), e.subject(), e).doc);
    throw;
  }
}

/// The consent the library checks: --yes and the integrity given or read from --plan.
inline oc::consent consent_of(const consent_flags& f, const host_environment& host,
                              const char* plan_schema) {
  oc::consent c;
  c.yes = f.yes;
  const std::string integrity = consented_integrity(f, host, plan_schema);
  if (!integrity.empty()) c.plan_integrity = integrity;
  return c;
}

/// Prints a lifecycle document as --json does: a failure with its `error` in
/// formats/json.hpp's shape (one that has none: `no added Claw matches`).
template <class Typed>
int print_json(const Typed& typed, const oc::value& doc, bool ok, const std::string& subject) {
  const error fallback(errc::claw_not_found, "no Claw matches `" + subject + "`", subject);
  json_outcome(doc, oc::error_member_of(typed), ok, subject, fallback);
  return ok ? exit_ok : exit_failed;
}

/// Prints a typed result (an outcome, a status): its document with --json, else its human
/// form, on stderr when it did not finish (its text then starts with the error).
template <class Result>
int print_result(const Result& result, bool ok, bool json, const std::string& subject,
                 bool text_to_stderr) {
  if (json) return print_json(result, oc::to_json(result), ok, subject);
  const std::string text = for_reader(oc::result_text(result));
  if (text_to_stderr)
    out::rendered(as_failure(text), out::to::err);
  else
    out::rendered(text);
  return ok ? exit_ok : exit_failed;
}
template <class Result>
int print_result(const Result& result, bool ok, bool json, const std::string& subject) {
  return print_result(result, ok, json, subject, !ok);
}

/// A lifecycle plan (the typed remove or update plan) shown without --yes: kept in
/// --plan-out and, for a person, followed by the command that applies it (when nothing
/// blocks it).
/// A plan that changes nothing (`noop`: an update already applied) ends with that instead.
template <class Plan>
int show_plan(const Plan& plan, bool blocked, const consent_flags& f, bool json,
              const std::string& subject, const host_environment& host, bool noop = false) {
  const oc::value doc = oc::to_json(plan);
  if (!blocked) write_plan_file(f, host, oc::json_text(doc));
  if (json) return print_json(plan, doc, !blocked, subject);
  out::rendered(
      for_reader(blocked ? without_apply_lines(oc::plan_text(plan)) : oc::plan_text(plan)));
  if (blocked)
    refused("the plan for " + subject + " is blocked", subject);
  else if (noop)
    out::line("nothing to apply: " + subject + " is up to date with its package");
  else
    out::lines(apply_hint(f, plan.integrity));
  return blocked ? exit_failed : exit_ok;
}

}  // namespace claw_cmd

}  // namespace clawport::cli
