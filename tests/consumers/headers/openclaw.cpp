// SPDX-License-Identifier: MIT
// <clawport/openclaw.hpp> alone: a CLAW.md frontmatter read and validated, and the
// stableStringify vector of a present-but-undefined member.
#include <clawport/openclaw.hpp>

int header_openclaw() {
  namespace oc = clawport::openclaw;
  const oc::envelope env = oc::split_envelope("---\nschemaVersion: 1\nagent: {id: demo}\n---\nBody\n");
  const oc::yaml::result y = oc::yaml::parse(env.frontmatter);
  if (!env.found || !y.ok() || !oc::validate_manifest(y.value).ok()) return 1;
  oc::value v = oc::value::object();
  v["id"] = "skill:demo";
  v["digest"] = oc::undefined_value();
  return oc::stable_stringify(v) == "{\"digest\":undefined,\"id\":\"skill:demo\"}" ? 0 : 1;
}
