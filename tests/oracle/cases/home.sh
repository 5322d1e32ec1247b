# SPDX-License-Identifier: MIT
# OpenClaw's home from HOME: a relative HOME is taken from the working directory
# (path.resolve, upstream's resolveOsHomeDir), never from `/`; no HOME at all is a documented
# difference (upstream: the passwd entry or the working directory; clawport refuses, naming
# HOME, and writes nothing).
. "$ORACLE_REPO/tests/oracle/lib.sh"
P=$CASE_TMP/pkg
write_claw "$P" <<'EOF'
---
schemaVersion: 1
agent:
  id: relhome
---
Rel.
EOF
R=$CASE_TMP/run
mkdir -p "$R"
cd "$R" || exit 1

# A relative HOME: the plan (its workspace under <cwd>/rel/.openclaw) and what add --yes writes.
oc rel claws add --dry-run --json "$P" >"$CASE_TMP/oc-rel.json"; a=$?
clawport_run rel claw add --dry-run --json "$P" >"$CASE_TMP/cp-rel.json"; b=$?
same_status "HOME=rel: add --dry-run (exit)" $a $b
json_same "HOME=rel: add --dry-run" "$CASE_TMP/oc-rel.json" "$CASE_TMP/cp-rel.json" "$F_OFFLINE_NOTES"
expect "HOME=rel: the workspace is under the working directory" "$R/rel/.openclaw/workspace-relhome" \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["agent"]["workspace"])' "$CASE_TMP/cp-rel.json")"
pi=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["planIntegrity"])' "$CASE_TMP/oc-rel.json")
oc rel claws add --yes --plan-integrity "$pi" --json "$P" >/dev/null 2>&1; a=$?
oc_ws=$(cd "$R/rel/.openclaw" 2>/dev/null && ls -d workspace-* openclaw.json 2>/dev/null | tr '\n' ' ')
rm -rf "$R/rel"
clawport_run rel claw add --yes --plan-integrity "$pi" --json "$P" >/dev/null 2>&1; b=$?
cp_ws=$(cd "$R/rel/.openclaw" 2>/dev/null && ls -d workspace-* openclaw.json 2>/dev/null | tr '\n' ' ')
same_status "HOME=rel: add --yes (exit)" $a $b
expect "HOME=rel: add --yes writes <cwd>/rel/.openclaw" "$oc_ws" "$cp_ws"
expect "HOME=rel: nothing at /.openclaw" "absent" "$([ -e /.openclaw ] && echo present || echo absent)"

# No HOME: clawport refuses (exit 2: invalid_argument is bad usage, issue 44; naming HOME)
# and writes nothing.
rm -rf "$R/rel"
clawport_run "" claw add --yes --plan-integrity "$pi" --json "$P" >"$CASE_TMP/cp-nohome.json" 2>/dev/null; b=$?
expect "HOME empty: clawport refuses, naming HOME" "2 invalid_argument HOME" \
  "$b $(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["error"]; print(e["code"], e["subject"])' "$CASE_TMP/cp-nohome.json")"
expect "HOME empty: nothing written" "" "$(ls -A "$R")"
