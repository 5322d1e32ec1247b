# SPDX-License-Identifier: MIT
# Issue 42 §2 item 8: a package-root BOOTSTRAP.md is a `bootstrap` action with verb `write`,
# after the workspace action and before the body's SOUL.md, details {sourcePath, byteLength,
# expectedState: "absent-or-native-consumed", lifecycle: "native-seed-once"}, blocked with the
# workspace; a blank, non-UTF-8 or oversized one is refused with upstream's code and words.
. "$ORACLE_REPO/tests/oracle/lib.sh"
P=$CASE_TMP/pkg H=$CASE_TMP/home
mkdir -p "$P" "$H"
cat >"$P/package.json" <<'J'
{"name": "greeter-claw", "version": "2.0.0", "openclaw": {"claw": "CLAW.md"}}
J
cat >"$P/CLAW.md" <<'M'
---
schemaVersion: 1
agent:
  id: greeter
---
Greet people.
M
printf '# First run\n\nAsk the user their name, then delete this file.\n' >"$P/BOOTSTRAP.md"

plan_both() {  # plan_both LABEL
  local a b
  snap "$H"
  oc "$H" claws add --dry-run --json "$P" >oc.json; a=$?
  restore "$H"
  clawport_run "$H" claw add --dry-run --json "$P" >cp.json; b=$?
  restore "$H"
  same_status "$1: exit" $a $b
  json_same "$1: actions, summary, blockers" oc.json cp.json \
    '{k: j.get(k) for k in ("actions", "summary", "blockers")}'
}

inspect_both() {  # inspect_both LABEL
  local a b
  oc "$H" claws inspect --json "$P" >oc.json; a=$?
  clawport_run "$H" claw inspect --json "$P" >cp.json; b=$?
  same_status "$1: exit" $a $b
  json_same "$1: valid, diagnostics" oc.json cp.json \
    '{"valid": j.get("valid"), "diagnostics": j.get("diagnostics")}'
}

plan_both "BOOTSTRAP.md"
mkdir -p "$H/.openclaw/workspace-greeter"
plan_both "BOOTSTRAP.md, the workspace taken"
rm -rf "$H/.openclaw"
printf ' \n\t\n' >"$P/BOOTSTRAP.md"
inspect_both "blank BOOTSTRAP.md"
printf 'caf\351\n' >"$P/BOOTSTRAP.md"
inspect_both "BOOTSTRAP.md not UTF-8"
head -c 2097153 /dev/zero | tr '\0' 'a' >"$P/BOOTSTRAP.md"
inspect_both "BOOTSTRAP.md over 2 MiB"
