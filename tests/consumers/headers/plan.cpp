// SPDX-License-Identifier: MIT
// <clawport/plan.hpp> alone: a plan's integrity and the consent check.
#include <clawport/plan.hpp>

int header_plan() {
  namespace pl = clawport::plan;
  const std::string integrity = pl::integrity_of("abc");
  if (integrity != "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    return 1;
  pl::consent c;
  if (!pl::check_given(c) || pl::check_given(c)->kind != pl::refusal_kind::consent_required)
    return 1;
  c.yes = true;
  c.plan_integrity = integrity;
  if (pl::check(c, integrity)) return 1;
  const auto r = pl::check(c, pl::integrity_of("abd"));
  return r && clawport::to_string(r->code()) == "plan_integrity_mismatch" ? 0 : 1;
}
