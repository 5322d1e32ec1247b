# SPDX-License-Identifier: MIT
# `claws export` of a Claw with an OpenClaw profile (profiles/openclaw.yml written back), and
# of one with a cron job (which upstream cannot export offline: docs/openclaw.md, export).
. "$ORACLE_REPO/tests/oracle/lib.sh"
added_then_exported() {  # NAME: add the package $CASE_TMP/NAME to $CASE_TMP/NAME-home, export
  local n=$1 h=$CASE_TMP/$1-home p=$CASE_TMP/$1 pi
  mkdir -p "$h"
  snap "$h"
  oc "$h" claws add --dry-run --json "$p" >"oc-$n-plan.json"
  pi=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["planIntegrity"])' "oc-$n-plan.json")
  oc "$h" claws add --yes --plan-integrity "$pi" --json "$p" >"oc-$n-add.json" 2>&1
  oc_rc=0
  oc "$h" claws export "$1" --out "$CASE_TMP/$n-out" --json >"oc-$n.out" 2>"oc-$n.err" || oc_rc=$?
  [ -d "$CASE_TMP/$n-out" ] && mv "$CASE_TMP/$n-out" "$CASE_TMP/$n-oc-out"
  restore "$h"
  clawport_run "$h" claw add --yes --plan-integrity "$pi" --json "$p" >"cp-$n-add.json" 2>&1
  cp_rc=0
  clawport_run "$h" claw export "$1" --out "$CASE_TMP/$n-out" --json >"cp-$n.out" 2>"cp-$n.err" || cp_rc=$?
}
mkdir -p "$CASE_TMP/prof/profiles"
cat >"$CASE_TMP/prof/profiles/openclaw.yml" <<'EOF'
schemaVersion: 1
agent:
  groupChat:
    mentionPatterns: ["@prof"]
  sandbox:
    mode: all
    scope: agent
    workspaceAccess: rw
  memory:
    search:
      enabled: true
      rememberAcrossConversations: true
      sources: [memory, sessions]
  heartbeat:
    every: 30m
    lightContext: true
  humanDelay:
    mode: natural
EOF
write_claw "$CASE_TMP/prof" <<'EOF'
---
schemaVersion: 1
agent:
  id: prof
  name: Profiled
---
Profiled body.
EOF
added_then_exported prof
same_status "profile Claw: export (exit)" "$oc_rc" "$cp_rc"
same_text "profile Claw: profiles/openclaw.yml bytes" "$CASE_TMP/prof-oc-out/profiles/openclaw.yml" "$CASE_TMP/prof-out/profiles/openclaw.yml"
same_text "profile Claw: CLAW.md bytes" "$CASE_TMP/prof-oc-out/CLAW.md" "$CASE_TMP/prof-out/CLAW.md"
same_text "profile Claw: package.json bytes" "$CASE_TMP/prof-oc-out/package.json" "$CASE_TMP/prof-out/package.json"
json_same "profile Claw: export --json (manifest, openClawProfile)" "oc-prof.out" "cp-prof.out" \
  '{"manifest": j.get("manifest"), "openClawProfile": j.get("openClawProfile")}'

write_claw "$CASE_TMP/cronx" <<'EOF'
---
schemaVersion: 1
agent:
  id: cronx
cronJobs:
  - id: daily
    schedule:
      cron: "0 9 * * *"
      timezone: UTC
    session: main
    message: Daily.
---
EOF
added_then_exported cronx
# Documented (docs/openclaw.md, export): offline a cron job cannot be scheduled, so upstream's
# add does not complete and its export refuses (`install_incomplete`); clawport records the
# job as not applied and exports its declaration.
expect "cron Claw: upstream refuses the export offline" "1 install_incomplete" \
  "$oc_rc $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("error", {}).get("code"))' oc-cronx.out 2>/dev/null)"
expect "cron Claw: clawport exports the declaration" "0" "$cp_rc"
