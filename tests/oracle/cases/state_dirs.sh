# SPDX-License-Identifier: MIT
# State directory variants: OPENCLAW_STATE_DIR, OPENCLAW_PROFILE, agents.defaults.workspace;
# and what an add writes into a roster that already has one agent, or two.
. "$ORACLE_REPO/tests/oracle/lib.sh"
P=$CASE_TMP/pkg
write_claw "$P" <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
---
Demo.
EOF
mkdir -p "$CASE_TMP/sd"
pair state-dir "$CASE_TMP/sd" -- OPENCLAW_STATE_DIR="$CASE_TMP/sd/state" claws add --dry-run --json "$P" \
  -- OPENCLAW_STATE_DIR="$CASE_TMP/sd/state" claw add --dry-run --json "$P"
compare_pair "OPENCLAW_STATE_DIR: add --dry-run" state-dir "$F_OFFLINE_NOTES"
mkdir -p "$CASE_TMP/profile"
pair profile "$CASE_TMP/profile" -- OPENCLAW_PROFILE=work claws add --dry-run --json "$P" \
  -- OPENCLAW_PROFILE=work claw add --dry-run --json "$P"
compare_pair "OPENCLAW_PROFILE=work: add --dry-run" profile "$F_OFFLINE_NOTES"
mkdir -p "$CASE_TMP/shared/.openclaw"
printf '{"agents": {"defaults": {"workspace": "%s"}}}\n' "$CASE_TMP/shared/agents" >"$CASE_TMP/shared/.openclaw/openclaw.json"
pair shared "$CASE_TMP/shared" -- claws add --dry-run --json "$P" -- claw add --dry-run --json "$P"
compare_pair "agents.defaults.workspace: add --dry-run" shared "$F_OFFLINE_NOTES"

# add --yes into a roster of one explicit agent, and of two: openclaw.json afterwards.
added_config() {  # added_config NAME JSON: both adds into a home whose openclaw.json is JSON
  local h=$CASE_TMP/$1
  mkdir -p "$h/.openclaw"
  printf '%s\n' "$2" >"$h/.openclaw/openclaw.json"
  snap "$h"
  oc "$h" claws add --dry-run --json "$P" >"oc-$1-plan.json"
  local pi
  pi=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["planIntegrity"])' "oc-$1-plan.json")
  oc "$h" claws add --yes --plan-integrity "$pi" --json "$P" >/dev/null 2>&1
  command cp "$h/.openclaw/openclaw.json" "oc-$1-config.json"
  restore "$h"
  clawport_run "$h" claw add --yes --plan-integrity "$pi" --json "$P" >"cp-$1-add.json" 2>&1
  command cp "$h/.openclaw/openclaw.json" "cp-$1-config.json"
  json_same "$1: openclaw.json after add --yes" "oc-$1-config.json" "cp-$1-config.json" \
    '{k: v for k, v in j.items() if k not in ("meta", "plugins")}'
}
added_config one-agent "{\"agents\": {\"entries\": {\"ops\": {\"workspace\": \"$CASE_TMP/ops-ws\"}}}}"
added_config two-agents "{\"agents\": {\"entries\": {\"ops\": {\"workspace\": \"$CASE_TMP/ops-ws\"}, \"dev\": {\"workspace\": \"$CASE_TMP/dev-ws\"}}}}"
