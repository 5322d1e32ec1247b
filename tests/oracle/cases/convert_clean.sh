# SPDX-License-Identifier: MIT
# clawport's `convert --to claw` output against the real OpenClaw (issue 43 leftovers): the
# Claw package converted from the example install's researcher is read valid by `claws inspect`
# with no warning (no deprecated_openclaw_profile_pointer: the converted CLAW.md names no
# `openclaw.config` pointer, the profile is discovered at profiles/openclaw.yml), and clawport's
# inspect and add plan agree with OpenClaw's. The Claw converted back from its Agent Plugin is
# read as clean.
. "$ORACLE_REPO/tests/oracle/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

command cp -a "$ORACLE_REPO/examples/zeroclaw-install" "$CASE_TMP/inst"
clawport_run "$CASE_TMP" export researcher --config "$CASE_TMP/inst/config.toml" --out "$CASE_TMP/rb" >/dev/null
clawport_run "$CASE_TMP" convert "$CASE_TMP/rb" --to claw --allow-narrowing --out "$CASE_TMP/converted" >/dev/null
expect "convert --to claw: exit" 0 $?
mkdir -p "$CASE_TMP/home"
oc "$CASE_TMP/home" claws inspect --json "$CASE_TMP/converted" >"$CASE_TMP/oc-clean.json" 2>/dev/null
expect "converted claw: claws inspect exit" 0 $?
expect "converted claw: valid, no diagnostic at all" '{"valid": true, "diagnostics": []}' \
  "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps({"valid": j.get("valid"),
  "diagnostics": [d["level"] + " " + d["code"] for d in j.get("diagnostics", [])]}))' "$CASE_TMP/oc-clean.json")"
inspect_and_plan converted "$CASE_TMP/home"

# The way through an Agent Plugin: the plugin converted back to a Claw is as clean.
clawport_run "$CASE_TMP" convert "$CASE_TMP/rb" --to agent-plugin --out "$CASE_TMP/plugin" >/dev/null
expect "convert --to agent-plugin: exit" 0 $?
clawport_run "$CASE_TMP" convert "$CASE_TMP/plugin" --to claw --out "$CASE_TMP/from-plugin" >/dev/null
expect "plugin to claw: exit" 0 $?
oc "$CASE_TMP/home" claws inspect --json "$CASE_TMP/from-plugin" >"$CASE_TMP/oc-from-plugin.json" 2>/dev/null
expect "plugin to claw: claws inspect exit" 0 $?
expect "plugin to claw: valid, no diagnostic at all" '{"valid": true, "diagnostics": []}' \
  "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps({"valid": j.get("valid"),
  "diagnostics": [d["level"] + " " + d["code"] for d in j.get("diagnostics", [])]}))' "$CASE_TMP/oc-from-plugin.json")"
