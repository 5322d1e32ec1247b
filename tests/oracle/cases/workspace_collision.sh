# SPDX-License-Identifier: MIT
# Issue 42 §2 item 3: an existing workspace directory, even an empty one, blocks `claws add`
# (workspace_collision: the workspace, the package BOOTSTRAP.md and the declared files blocked,
# the body's SOUL.md not); an agent id that collides keeps the new workspace at
# ~/.openclaw/workspace-<id> (not the configured agent's), and its agent action blocks without
# a reason. Compared: exit status, the agent, actions and blockers of the plan.
. "$ORACLE_REPO/tests/oracle/lib.sh"
P=$CASE_TMP/pkg H=$CASE_TMP/home
mkdir -p "$P/ws" "$H"
cat >"$P/package.json" <<'J'
{"name": "worker-claw", "version": "1.0.0", "openclaw": {"claw": "CLAW.md"}}
J
cat >"$P/CLAW.md" <<'M'
---
schemaVersion: 1
agent:
  id: worker
  name: Worker
workspace:
  bootstrapFiles:
    AGENTS.md: {source: ws/AGENTS.md}
  files:
    - {source: ws/notes.md, path: notes/notes.md}
---

# Worker

Do the work.
M
printf 'agents\n' >"$P/ws/AGENTS.md"
printf 'notes\n' >"$P/ws/notes.md"
printf 'Say hello first.\n' >"$P/BOOTSTRAP.md"
parts='{k: j.get(k) for k in ("agent", "actions", "blockers")}'

plan_both() {  # plan_both LABEL [--agent-id ID]
  local label=$1 a b
  shift
  snap "$H"
  oc "$H" claws add --dry-run --json "$@" "$P" >oc.json; a=$?
  restore "$H"
  clawport_run "$H" claw add --dry-run --json "$@" "$P" >cp.json; b=$?
  restore "$H"
  same_status "$label: exit" $a $b
  json_same "$label: agent, actions, blockers" oc.json cp.json "$parts"
}

mkdir -p "$H/.openclaw/workspace-worker"
plan_both "empty existing workspace"
printf '# Worker\n\nDo the work.\n' >"$H/.openclaw/workspace-worker/SOUL.md"
printf 'agents\n' >"$H/.openclaw/workspace-worker/AGENTS.md"
plan_both "existing workspace with identical files"
rm -rf "$H/.openclaw"

plan_both "agent id main (the implicit agent)" --agent-id main
mkdir -p "$H/.openclaw"
printf '{"agents": {"entries": {"worker": {"workspace": "%s/elsewhere"}}}}\n' "$H" \
  >"$H/.openclaw/openclaw.json"
plan_both "agent id of a configured agent with its own workspace"
printf '{"agents": {"ownership": "explicit", "entries": {"main": {}, "worker": {}}}}\n' \
  >"$H/.openclaw/openclaw.json"
plan_both "agent id of an agent of an explicit roster"

# A difference kept (docs/openclaw.md, "Differences from openclaw 2026.9.6"): with a state
# directory given, clawport keeps the new workspace in it; upstream uses ~/.openclaw.
rm -rf "$H" && mkdir -p "$H/st"
oc "$H" "OPENCLAW_STATE_DIR=$H/st" claws add --dry-run --json "$P" >oc.json
clawport_run "$H" "OPENCLAW_STATE_DIR=$H/st" claw add --dry-run --json "$P" >cp.json
ws_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["agent"]["workspace"])' "$1"; }
expect "state directory given: upstream's workspace" "$H/.openclaw/workspace-worker" "$(ws_of oc.json)"
expect "state directory given: clawport's workspace" "$H/st/workspace-worker" "$(ws_of cp.json)"
