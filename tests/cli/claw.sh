# SPDX-License-Identifier: MIT
# `clawport claw inspect|plan` end to end on the example package: clean inspect, a plan
# blocked only by the offline ClawHub packages, a stable planIntegrity that changes with
# --agent-id and --workspace, collisions from the state directory, refusals with exit 1,
# bad usage with exit 2, nothing written anywhere, and `inspect --codes clawhub` (ClawHub's
# claw_v1_* codes and `.n` paths).
. "$(dirname "$0")/lib.sh"

cp -r "$REPO/examples/openclaw-claw" "$TMP/pkg"
chmod -R u+w "$TMP/pkg"
export HOME="$TMP/home"
unset OPENCLAW_STATE_DIR
mkdir -p "$HOME"

# The experimental banner is for a person at a terminal, not for a pipe.
expect_status 0 "$CLAWPORT" claw inspect "$TMP/pkg"
! grep -q 'Experimental' "$TMP/out" || { echo "FAIL: banner in a pipe"; failures=$((failures + 1)); }
script -qec "'$CLAWPORT' claw inspect '$TMP/pkg'" /dev/null >"$TMP/tty" </dev/null
expect_grep tty 'Experimental: Claws contracts may change while RFC 0016 is under review.'
expect_grep out 'Claw @acme/incident-triage-claw@1.3.0 (package) is valid'
expect_status 0 "$CLAWPORT" claw inspect --json "$TMP/pkg"
expect_grep out '"schemaVersion": "openclaw.clawInspect.v1"'
expect_grep out '"valid": true'
expect_grep out '"code": "deprecated_openclaw_profile_pointer"'  # the example's metadata pointer, as upstream warns
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["manifest"]["agent"]["id"]=="incident-triage"' "$TMP/out" ||
  { echo "FAIL: inspect --json is not the document"; failures=$((failures + 1)); }

# Offline the two ClawHub packages are unresolved blockers: exit 1, the plan still printed.
expect_status 1 "$CLAWPORT" claw plan --json "$TMP/pkg"
expect_grep out '"schemaVersion": "openclaw.clawAddPlan.v1"'
expect_grep out '"code": "skill_preflight_failed"'
integrity() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["planIntegrity"])' "$TMP/out"; }
first=$(integrity)
expect_status 1 "$CLAWPORT" claw plan --json "$TMP/pkg"
[ "$(integrity)" = "$first" ] || { echo "FAIL: planIntegrity is not stable"; failures=$((failures + 1)); }
expect_status 1 "$CLAWPORT" claw plan --json --agent-id triage-two "$TMP/pkg"
[ "$(integrity)" != "$first" ] || { echo "FAIL: --agent-id does not change planIntegrity"; failures=$((failures + 1)); }
expect_grep out '"finalId": "triage-two"'
expect_status 1 "$CLAWPORT" claw plan --json --workspace "$TMP/ws" "$TMP/pkg"
[ "$(integrity)" != "$first" ] || { echo "FAIL: --workspace does not change planIntegrity"; failures=$((failures + 1)); }
expect_grep out "\"workspace\": \"$TMP/ws\""

expect_status 0 "$CLAWPORT" claw plan --without-packages "$TMP/pkg"
expect_grep out 'Plan: add Claw @acme/incident-triage-claw@1.3.0 as agent incident-triage'
expect_grep out 'Readiness: not ready until:'
expect_grep out 'environment STATUSPAGE_TOKEN for MCP server statuspage'
expect_status 1 "$CLAWPORT" claw plan "$TMP/pkg"
expect_grep out 'ERROR skill_preflight_failed \$.packages\[0\]: Package preflight failed: clawport does not contact ClawHub'

# Collisions from the state directory (--state-dir and OPENCLAW_STATE_DIR).
mkdir -p "$TMP/state"
echo "{agents: {entries: {'incident-triage': {}}}} // JSON5" >"$TMP/state/openclaw.json"
expect_status 1 "$CLAWPORT" claw plan --without-packages --state-dir "$TMP/state" "$TMP/pkg"
expect_grep out 'ERROR agent_id_collision \$.agent.id'
OPENCLAW_STATE_DIR="$TMP/state" expect_status 1 "$CLAWPORT" claw plan --without-packages --json "$TMP/pkg"
expect_grep out '"code": "agent_id_collision"'
expect_status 0 "$CLAWPORT" claw plan --without-packages --state-dir "$TMP/state" --agent-id other "$TMP/pkg"

# Refusals: exit 1 with the code; nothing written to the package or home.
before=$(cd "$TMP" && find pkg home state -printf '%p %s %T@\n' | sort)
printf -- '---\nschemaVersion: 1\nagent: {id: demo, model: gpt}\nx: &a 1\n---\n' >"$TMP/bad.md"
mkdir -p "$TMP/bad" && cp "$TMP/bad.md" "$TMP/bad/CLAW.md"
expect_status 1 "$CLAWPORT" claw inspect "$TMP/bad/CLAW.md"
expect_grep err 'ERROR unsupported_claw_yaml_feature \$: CLAW.md frontmatter uses anchors (line 4, column 4)'
expect_status 1 "$CLAWPORT" claw inspect --json "$TMP/bad/CLAW.md"
expect_grep out '"valid": false'
expect_status 1 "$CLAWPORT" claw plan --json "$TMP/bad/CLAW.md"
expect_grep out '"valid": false'
expect_status 1 "$CLAWPORT" claw inspect "$TMP/missing"
expect_grep err 'ERROR read_failed'
after=$(cd "$TMP" && find pkg home state -printf '%p %s %T@\n' | sort)
[ "$before" = "$after" ] || { echo "FAIL: inspect/plan wrote something"; failures=$((failures + 1)); }
[ -z "$(ls -A "$HOME")" ] || { echo "FAIL: the plan created files under HOME"; failures=$((failures + 1)); }

# --codes clawhub: the same findings with ClawHub's claw_v1_* codes, messages and `.n` paths.
mkdir -p "$TMP/hub"
printf -- '---\nschemaVersion: 1\nagent: {id: demo}\npackages:\n  - {kind: skill, source: clawhub, ref: demo, version: latest}\nworkspace:\n  files:\n    - {source: ../x.md, path: x.md}\n---\n' >"$TMP/hub/CLAW.md"
expect_status 1 "$CLAWPORT" claw inspect "$TMP/hub/CLAW.md"
expect_grep err 'ERROR invalid_manifest \$.packages\[0\].version: Package version must be an exact semantic version.'
expect_status 1 "$CLAWPORT" claw inspect --codes openclaw "$TMP/hub/CLAW.md"
expect_grep err 'ERROR invalid_manifest \$.workspace.files\[0\].source'
expect_status 1 "$CLAWPORT" claw inspect --codes clawhub "$TMP/hub/CLAW.md"
expect_grep err 'ERROR claw_v1_invalid_package_version \$.packages.0.version: Must be an exact semantic version.'
expect_grep err 'ERROR claw_v1_unsafe_path \$.workspace.files.0.source: Must be a safe package-relative path.'
expect_status 1 "$CLAWPORT" claw inspect --codes clawhub --json "$TMP/hub/CLAW.md"
expect_grep out '"schemaVersion": "openclaw.clawInspect.v1"'
expect_grep out '"valid": false'
expect_grep out '"code": "claw_v1_invalid_package_version"'
expect_grep out '"path": "\$.packages.0.version"'
expect_grep out '"phase": "schema"'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert all(x["code"].startswith("claw_v1_") and "[" not in x["path"] for x in d["diagnostics"]), d' "$TMP/out" ||
  { echo "FAIL: --codes clawhub left an OpenClaw code or path"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw inspect --codes clawhub "$TMP/pkg"
expect_grep out 'Claw @acme/incident-triage-claw@1.3.0 (package) is valid'
expect_status 2 "$CLAWPORT" claw inspect --codes npm "$TMP/pkg"
expect_status 0 "$CLAWPORT" claw inspect --help
expect_grep out '--codes'

# Usage.
expect_status 2 "$CLAWPORT" claw
expect_status 2 "$CLAWPORT" claw inspect
expect_status 2 "$CLAWPORT" claw plan "$TMP/pkg" --bogus
expect_status 0 "$CLAWPORT" claw plan --help
expect_grep out '--agent-id'

# Raw bytes never reach the terminal (issue 22, item 15): `claw inspect` and `claw plan`
# show an agent name holding CR and ESC escaped; --json keeps the string.
cp -r "$TMP/pkg" "$TMP/pkg15"
sed -i 's/^  name: Incident Triage$/  name: "Incident\\r\\e[2KTriage"/' "$TMP/pkg15/CLAW.md"
expect_status 0 "$CLAWPORT" claw inspect "$TMP/pkg15"
expect_grep out 'agent:        incident-triage (Incident\\x0d\\x1b\[2KTriage)'
if LC_ALL=C grep -q "$(printf '[\r\033]')" "$TMP/out"; then echo "FAIL: raw CR or ESC in claw inspect"; failures=$((failures + 1)); fi
expect_status 0 "$CLAWPORT" claw inspect --json "$TMP/pkg15"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["manifest"]["agent"]["name"] == "Incident\r\x1b[2KTriage", d["manifest"]["agent"]' "$TMP/out" || failures=$((failures + 1))
finish
