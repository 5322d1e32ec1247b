# SPDX-License-Identifier: MIT
# `clawport claw add|status|remove` end to end on the example package, offline: consent
# refusals write nothing, --without-packages adds into a fresh state directory, status is
# clean then reports drift, remove keeps the edited file, a JSON5 openclaw.json is left
# byte-identical (partial add), and the add → remove round trip leaves no workspace.
. "$(dirname "$0")/lib.sh"

cp -r "$REPO/examples/openclaw-claw" "$TMP/pkg"
chmod -R u+w "$TMP/pkg"
export HOME="$TMP/home"
export SOURCE_DATE_EPOCH=1800000000
unset OPENCLAW_STATE_DIR
mkdir -p "$HOME"
state="$TMP/state"
ws="$HOME/.openclaw/workspace-incident-triage"
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval("d"+sys.argv[2]))' "$TMP/out" "$1"; }
snapshot() { (cd "$TMP" && find home state -printf '%p %s\n' 2>/dev/null | sort; cat state/* 2>/dev/null) | sha256sum; }

# Consent refusals: exit 1 with the code, nothing written.
before=$(snapshot)
expect_status 1 "$CLAWPORT" claw add --state-dir "$state" --without-packages "$TMP/pkg"
expect_grep out 'ERROR consent_required'
expect_status 1 "$CLAWPORT" claw add --json --state-dir "$state" --without-packages --yes "$TMP/pkg"
expect_grep out '"code": "plan_integrity_required"'
expect_status 1 "$CLAWPORT" claw add --json --state-dir "$state" --without-packages --yes \
  --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000000 "$TMP/pkg"
expect_grep out '"code": "plan_integrity_mismatch"'
# Without --without-packages the plan is blocked offline: printed, exit 1.
expect_status 1 "$CLAWPORT" claw add --state-dir "$state" --yes --plan-integrity sha256:00 "$TMP/pkg"
expect_grep out 'ERROR package_install_unavailable'
[ "$(snapshot)" = "$before" ] || { echo "FAIL: a refused add wrote something"; failures=$((failures + 1)); }

# The dry run (same as claw plan) and the consented add.
expect_status 0 "$CLAWPORT" claw add --dry-run --json --state-dir "$state" --without-packages "$TMP/pkg"
integrity=$(field '["planIntegrity"]')
expect_grep out '"code": "package_not_installed"'
expect_status 0 "$CLAWPORT" claw add --json --state-dir "$state" --without-packages --yes --plan-integrity "$integrity" "$TMP/pkg"
expect_grep out '"status": "complete"'
expect_grep out '"code": "cron_gateway_required"'
expect_grep out '"install": "openclaw skills install clawhub:incident-triage-playbook@1.4.0"'
[ -f "$ws/SOUL.md" ] || { echo "FAIL: SOUL.md not written"; failures=$((failures + 1)); }
cmp -s "$ws/AGENTS.md" "$TMP/pkg/workspace/AGENTS.md" || { echo "FAIL: AGENTS.md differs"; failures=$((failures + 1)); }
grep -q '"incident-triage"' "$state/openclaw.json" || { echo "FAIL: agent not registered"; failures=$((failures + 1)); }
grep -q '"addedAt": "2027-01-15T08:00:00+00:00"' "$state/clawport-claws.json" ||
  { echo "FAIL: ledger timestamp"; failures=$((failures + 1)); }

# Status: clean, then drift.
expect_status 0 "$CLAWPORT" claw status --state-dir "$state"
expect_grep out 'install complete, agent present'
expect_status 0 "$CLAWPORT" claw status --json --state-dir "$state" incident-triage
[ "$(field '["summary"]["driftedFiles"]')" = 0 ] || { echo "FAIL: fresh add drifted"; failures=$((failures + 1)); }
echo "local edit" >>"$ws/TOOLS.md"
echo "mine" >"$ws/notes.md"
expect_status 0 "$CLAWPORT" claw status --state-dir "$state" @acme/incident-triage-claw
expect_grep out 'modified TOOLS.md'
expect_grep out 'unmanaged notes.md'
expect_status 1 "$CLAWPORT" claw status --state-dir "$state" nobody

# A second add never overwrites: blocked, nothing changes.
before=$(snapshot)
expect_status 1 "$CLAWPORT" claw add --state-dir "$state" --without-packages --yes --plan-integrity "$integrity" "$TMP/pkg"
expect_grep out 'agent_id_collision'
[ "$(snapshot)" = "$before" ] || { echo "FAIL: a second add wrote something"; failures=$((failures + 1)); }

# Remove: the dry run, a wrong integrity (nothing written), then the consented remove.
expect_status 0 "$CLAWPORT" claw remove --dry-run --json --state-dir "$state" incident-triage
rintegrity=$(field '["planIntegrity"]')
expect_grep out '"schemaVersion": "openclaw.clawRemovePlan.v1"'
expect_status 1 "$CLAWPORT" claw remove --state-dir "$state" incident-triage --yes --plan-integrity sha256:00
expect_grep out 'plan_integrity_mismatch'
[ "$(snapshot)" = "$before" ] || { echo "FAIL: a refused remove wrote something"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw remove --state-dir "$state" incident-triage --yes --plan-integrity "$rintegrity"
expect_grep out 'kept TOOLS.md'
[ -f "$ws/TOOLS.md" ] && [ -f "$ws/notes.md" ] && [ ! -e "$ws/SOUL.md" ] ||
  { echo "FAIL: remove did not keep exactly the changed files"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw status --json --state-dir "$state"
[ "$(field '["summary"]["claws"]')" = 0 ] || { echo "FAIL: ledger entry not removed"; failures=$((failures + 1)); }

# A JSON5 openclaw.json is never rewritten: the add is partial, the file byte-identical.
rm -rf "$ws"
printf '// hand-written\n{agents: {entries: {ops: {}}},}\n' >"$state/openclaw.json"
cp "$state/openclaw.json" "$TMP/json5.orig"
expect_status 0 "$CLAWPORT" claw plan --json --state-dir "$state" --without-packages "$TMP/pkg"
integrity=$(field '["planIntegrity"]')
expect_status 1 "$CLAWPORT" claw add --state-dir "$state" --without-packages --yes --plan-integrity "$integrity" "$TMP/pkg"
expect_grep out 'ERROR config_commit_failed'
expect_grep out 'Added agent incident-triage (partial)'
cmp -s "$state/openclaw.json" "$TMP/json5.orig" || { echo "FAIL: the JSON5 config was rewritten"; failures=$((failures + 1)); }

# Usage.
expect_status 2 "$CLAWPORT" claw remove
expect_status 0 "$CLAWPORT" claw add --help
expect_grep out '--plan-integrity'
expect_status 0 "$CLAWPORT" claw status --help
finish
