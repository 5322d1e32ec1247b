# SPDX-License-Identifier: MIT
# Issue 42 §2 item 6: where each configured agent's workspace is. `openclaw agents list --json`
# against `clawport workspace resolve --agent-id <id> --json` for every agent it lists:
# `agents.ownership: "explicit"` (no default agent: main too resolves to
# <state>/workspace-main), one `default: true` marker, the legacy `agents.list`,
# `agents.defaults.workspace`, OPENCLAW_STATE_DIR, OPENCLAW_PROFILE (the workspace
# ~/.openclaw-<profile>/workspace; the state directory stays ~/.openclaw); and a roster of
# several agents with neither ownership nor a marker, which both refuse.
. "$ORACLE_REPO/tests/oracle/lib.sh"
H=$CASE_TMP/home

# resolve_both LABEL CONFIG [VAR=value…]: the config written to the state directory (the
# default one unless OPENCLAW_STATE_DIR is among the variables), then both programs.
resolve_both() {
  local label=$1 config=$2 state=$H/.openclaw a b v
  shift 2
  for v in "$@"; do
    case $v in OPENCLAW_STATE_DIR=*) state=${v#OPENCLAW_STATE_DIR=} ;; esac
  done
  rm -rf "$H" && mkdir -p "$state"
  printf '%s\n' "$config" >"$state/openclaw.json"
  snap "$H"
  oc "$H" "$@" agents list --json >oc-list.json 2>oc-err.txt; a=$?
  restore "$H"
  python3 -c 'import json,sys; print(json.dumps({x["id"]: x["workspace"] for x in json.load(open(sys.argv[1]))}))' \
    oc-list.json >oc.json 2>/dev/null || echo '"refused"' >oc.json
  if [ $a = 0 ]; then
    echo '{}' >cp.json
    for id in $(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))))' oc.json); do
      clawport_run "$H" "$@" workspace resolve --json --agent-id "$id" >cp-one.json; b=$?
      [ $b = 0 ] || { same_status "$label: resolve $id exit" 0 $b; continue; }
      python3 - cp.json cp-one.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); one = json.load(open(sys.argv[2]))
m[one["agentId"]] = one["workspace"]
json.dump(m, open(sys.argv[1], "w"))
PY
    done
  else
    clawport_run "$H" "$@" workspace resolve --json >cp-one.json 2>cp-err.txt; b=$?
    same_status "$label: refused" $a $b
    # upstream's issue text, in clawport's message
    local want got
    want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["issues"][0]["message"])' oc-list.json)
    got=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["error"]["message"]; print(sys.argv[2] if sys.argv[2] in m else m)' cp-one.json "$want")
    expect "$label: upstream's words" "$want" "$got"
    echo '"refused"' >cp.json
  fi
  json_same "$label: workspaces" oc.json cp.json
}

resolve_both "explicit roster of two" \
  '{"agents": {"ownership": "explicit", "entries": {"main": {}, "worker": {}}}}'
resolve_both "explicit roster of one" '{"agents": {"ownership": "explicit", "entries": {"main": {}}}}'
resolve_both "one default marker" '{"agents": {"entries": {"main": {}, "ops": {"default": true}}}}'
resolve_both "legacy list with a marker" \
  '{"agents": {"list": [{"id": "main"}, {"id": "ops", "default": true}]}}'
resolve_both "sole agent" '{"agents": {"entries": {"ops": {}}}}'
resolve_both "defaults.workspace" \
  '{"agents": {"ownership": "explicit", "defaults": {"workspace": "/srv/shared"}, "entries": {"main": {}, "ops": {}}}}'
resolve_both "defaults.workspace, the default agent" \
  '{"agents": {"defaults": {"workspace": "/srv/shared"}, "entries": {"main": {"default": true}, "ops": {}}}}'
resolve_both "OPENCLAW_STATE_DIR" '{"agents": {"entries": {"main": {"default": true}, "ops": {}}}}' \
  "OPENCLAW_STATE_DIR=$H/state"
resolve_both "OPENCLAW_PROFILE" '{"agents": {"entries": {"main": {"default": true}, "ops": {}}}}' \
  OPENCLAW_PROFILE=work
resolve_both "OPENCLAW_PROFILE=default" '{}' OPENCLAW_PROFILE=Default
resolve_both "OPENCLAW_STATE_DIR naming the default, and a profile" '{}' \
  "OPENCLAW_STATE_DIR=$H/.openclaw" OPENCLAW_PROFILE=work
resolve_both "several agents, neither ownership nor a marker" \
  '{"agents": {"entries": {"main": {}, "worker": {}}}}'
resolve_both "two default markers" \
  '{"agents": {"entries": {"main": {"default": true}, "worker": {"default": true}}}}'
