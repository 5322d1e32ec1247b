// SPDX-License-Identifier: MIT
// Consent to apply a plan: `--yes` and the integrity of the plan the operator reviewed.
// The plan is rebuilt at apply time and applied only when its integrity is the consented
// one; every refusal is one typed result (`refusal`) with one rendering (`message`).
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace plan {

/// What the caller consented to: `--yes` and `--plan-integrity`.
struct consent {
  bool yes = false;
  std::optional<std::string> plan_integrity;
};

/// Why a plan is not applied.
enum class refusal_kind {
  consent_required,         ///< no `--yes`
  plan_integrity_required,  ///< `--yes` without `--plan-integrity`
  plan_integrity_mismatch,  ///< the rebuilt plan is not the consented one
};

/// A refused apply. For a mismatch, `consented` is the integrity the operator gave and
/// `current` the integrity of the plan rebuilt now.
struct refusal {
  refusal_kind kind = refusal_kind::consent_required;
  std::string consented;
  std::string current;

  /// The stable code: errc::consent_required, plan_integrity_required or
  /// plan_integrity_mismatch.
  errc code() const noexcept {
    switch (kind) {
      case refusal_kind::consent_required:
        return errc::consent_required;
      case refusal_kind::plan_integrity_required:
        return errc::plan_integrity_required;
      case refusal_kind::plan_integrity_mismatch:
        break;
    }
    return errc::plan_integrity_mismatch;
  }
};

/// Consent to the plan whose integrity is `integrity` (`--yes --plan-integrity X`).
inline consent consented_to(std::string integrity) { return {true, std::move(integrity)}; }

/// The consent given before any planning: `--yes`, then `--plan-integrity`.
inline std::optional<refusal> check_given(const consent& c) {
  if (!c.yes) return refusal{refusal_kind::consent_required, {}, {}};
  if (!c.plan_integrity) return refusal{refusal_kind::plan_integrity_required, {}, {}};
  return std::nullopt;
}

/// The consented integrity against the integrity of the plan rebuilt now.
inline std::optional<refusal> check_integrity(const std::string& consented,
                                              const std::string& current) {
  if (consented == current) return std::nullopt;
  return refusal{refusal_kind::plan_integrity_mismatch, consented, current};
}

/// Both checks: the consent given, then the integrity of the plan rebuilt now.
inline std::optional<refusal> check(const consent& c, const std::string& current) {
  if (auto r = check_given(c)) return r;
  return check_integrity(*c.plan_integrity, current);
}

/// How a command names its plan in a refusal.
struct subject {
  std::string_view noun;    ///< "Claw", "update", "remove", "import"
  std::string_view review;  ///< how to see the plan again: "add --dry-run"
  /// Name both integrities in a mismatch (a text-only output; a JSON document carries the
  /// current one as a member of its own).
  bool name_integrities = false;
  /// What follows `review` in a mismatch ("again", or "" when `review` says it all).
  std::string_view after = " again";
};

/// The one rendering of a refusal: what happened and what to do.
inline std::string message(const refusal& r, const subject& s) {
  switch (r.kind) {
    case refusal_kind::consent_required:
      return "Nothing was changed: review the plan (--dry-run), then pass --yes and "
             "--plan-integrity <digest>.";
    case refusal_kind::plan_integrity_required:
      return "--yes alone is never enough: pass --plan-integrity with the integrity of the plan "
             "you reviewed, or --plan with its file (run without --yes first to see the plan)";
    case refusal_kind::plan_integrity_mismatch:
      break;
  }
  std::string m = "The consented " + std::string(s.noun) + " plan no longer matches";
  if (s.name_integrities)
    m += " (the plan changed since it was shown: it was " + r.consented + ", it is now " +
         r.current + ")";
  return m + "; run " + std::string(s.review) + std::string(s.after) + ".";
}

/// A refusal as the one error type of a command that throws (`import`): its stable code,
/// its one message, `field` as the subject.
inline error refusal_error(const refusal& r, const subject& s, const std::string& field) {
  return error(r.code(), message(r, s), field);
}

}  // namespace plan
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
