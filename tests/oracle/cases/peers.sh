# SPDX-License-Identifier: MIT
# Issue 42 §2 item 10, the peer cases of upstream's tests as the released program decides
# them: a CLAW.md that is not UTF-8 (frontmatter or body) is refused by openclaw 2026.9.6
# (invalid_claw_markdown_utf8 at $, in its words), so clawport refuses it too; a body that is
# UTF-8 but not NFC is accepted and hashed as its bytes (the SOUL.md digest).
. "$ORACLE_REPO/tests/oracle/lib.sh"
H=$CASE_TMP/home P=$CASE_TMP/pkg
mkdir -p "$H" "$P"
printf '%s\n' '{"name": "peer-claw", "version": "1.0.0", "openclaw": {"claw": "CLAW.md"}}' \
  >"$P/package.json"

both() {  # both LABEL: inspect and the plan's file actions
  local a b
  oc "$H" claws inspect --json "$P" >oc.json; a=$?
  clawport_run "$H" claw inspect --json "$P" >cp.json; b=$?
  same_status "$1: inspect exit" $a $b
  json_same "$1: inspect diagnostics" oc.json cp.json '{"valid": j.get("valid"), "d": j.get("diagnostics")}'
  oc "$H" claws add --dry-run --json "$P" >oc.json; a=$?
  clawport_run "$H" claw add --dry-run --json "$P" >cp.json; b=$?
  same_status "$1: plan exit" $a $b
  json_same "$1: plan file actions" oc.json cp.json \
    '[x for x in j.get("actions", []) if x["kind"] == "workspaceFile"] or j.get("diagnostics")'
}

printf -- '---\nschemaVersion: 1\nagent:\n  id: peer\n---\nCaf\351 au lait.\n' >"$P/CLAW.md"
both "a body that is not UTF-8"
printf -- '---\nschemaVersion: 1\nagent:\n  id: peer\n  name: Caf\351\n---\nBody.\n' >"$P/CLAW.md"
both "a frontmatter that is not UTF-8"
printf -- '---\nschemaVersion: 1\nagent:\n  id: peer\n---\nCafe\314\201 (decomposed), \r\nCRLF kept.\n' >"$P/CLAW.md"
both "a body not in NFC, with CRLF"
