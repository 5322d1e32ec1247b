# SPDX-License-Identifier: MIT
# `clawport claw migrate <agent-id>` end to end, offline: the plan writes nothing, every
# refusal (usage, consent, an unknown agent, an existing package destination, a mismatched
# integrity) writes nothing, the consented migration publishes the package under
# <state-dir>/claws/local/<id> and records it; then the agent is a Claw like any added one:
# `claw status` is clean, `claw export` writes a package that inspects clean, `claw update`
# plans from the recorded package and a second migrate is refused.
. "$(dirname "$0")/lib.sh"

export HOME="$TMP/home"
export SOURCE_DATE_EPOCH=1800000000
unset OPENCLAW_STATE_DIR OPENCLAW_HOME
state="$TMP/state"
ws="$TMP/home/worker-ws"
mkdir -p "$ws" "$state"
printf '# Existing agent\n' >"$ws/AGENTS.md"
printf 'Use the current voice.\n' >"$ws/SOUL.md"
printf '{"keep":true}\n' >"$ws/unrelated.json"
printf '{"agents": {"entries": {"worker": {"name": "Existing worker", "workspace": "%s"}}}}\n' \
  "$ws" >"$state/openclaw.json"
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval("d"+sys.argv[2]))' "$TMP/out" "$1"; }
snapshot() { for d in home state; do [ ! -e "$TMP/$d" ] || { echo "== $d"; tree_state "$TMP/$d"; }; done; }
unchanged() { [ "$(snapshot)" = "$before" ] || { echo "FAIL: $1 wrote something"; failures=$((failures + 1)); }; }

# --help is true to the options.
expect_status 0 "$CLAWPORT" claw migrate --help
expect_grep out '--plan-integrity'
expect_grep out 'claws/local/<agent-id>'

# Without --yes: the plan and the exact command that applies it; nothing written.
before=$(snapshot)
expect_status 0 "$CLAWPORT" claw migrate worker --state-dir "$state"
expect_grep out "Plan: migrate agent worker to a Claw (dry run, nothing written)"
expect_grep out "nothing was written; to apply: clawport claw migrate worker --state-dir $state --yes --plan-integrity sha256:"
expect_status 0 "$CLAWPORT" claw migrate worker --state-dir "$state" --dry-run --json
expect_grep out '"schemaVersion": "openclaw.clawMigrationPlan.v1"'
integrity=$(field '["planIntegrity"]')
unchanged "a dry run"

# Refusals write nothing: --yes alone (usage, exit 2), a mismatched integrity, an unknown
# agent, an existing package destination.
expect_status 2 "$CLAWPORT" claw migrate worker --state-dir "$state" --yes --json
expect_grep out '"code": "plan_integrity_required"'
expect_grep out '"schemaVersion": "openclaw.clawMigrationResult.v1"'
expect_status 1 "$CLAWPORT" claw migrate worker --state-dir "$state" --json --yes \
  --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000000
expect_grep out '"code": "plan_integrity_mismatch"'
expect_status 1 "$CLAWPORT" claw migrate nobody --state-dir "$state" --json
expect_grep out '"code": "agent_not_found"'
unchanged "a refused migrate"
mkdir -p "$state/claws/local/worker"
before=$(snapshot)
expect_status 1 "$CLAWPORT" claw migrate worker --state-dir "$state" --yes --plan-integrity "$integrity"
expect_grep err 'ERROR package_destination_exists'
unchanged "a migrate onto an existing package directory"
rmdir "$state/claws/local/worker" "$state/claws/local" "$state/claws"

# --plan-out keeps the plan; --yes --plan applies it.
expect_status 0 "$CLAWPORT" claw migrate worker --state-dir "$state" --plan-out "$TMP/plan.json"
expect_status 0 "$CLAWPORT" claw migrate worker --state-dir "$state" --json --yes --plan "$TMP/plan.json"
expect_grep out '"schemaVersion": "openclaw.clawMigrationResult.v1"'
expect_grep out '"status": "complete"'
[ "$(field '["planIntegrity"]')" = "$integrity" ] || { echo "FAIL: applied another plan"; failures=$((failures + 1)); }
cmp -s "$state/claws/local/worker/workspace/AGENTS.md" "$ws/AGENTS.md" ||
  { echo "FAIL: the package does not carry AGENTS.md"; failures=$((failures + 1)); }
grep -q '"workspaceOrigin": "adopted"' "$state/clawport-claws.json" ||
  { echo "FAIL: ledger record"; failures=$((failures + 1)); }
grep -q '"name": "Existing worker"' "$state/openclaw.json" ||
  { echo "FAIL: openclaw.json changed"; failures=$((failures + 1)); }

# Now a Claw like any: status clean, inspect clean, export, update plans, no second migrate.
expect_status 0 "$CLAWPORT" claw status worker --state-dir "$state"
expect_grep out 'install complete, agent present'
expect_status 0 "$CLAWPORT" claw inspect "$state/claws/local/worker"
expect_status 0 "$CLAWPORT" claw export worker --state-dir "$state" --out "$TMP/exported"
expect_grep out 'Exported agent worker'
expect_status 0 "$CLAWPORT" claw inspect "$TMP/exported"
cmp -s "$TMP/exported/workspace/AGENTS.md" "$ws/AGENTS.md" ||
  { echo "FAIL: export lost AGENTS.md"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw update worker --state-dir "$state" --json
expect_grep out '"schemaVersion": "openclaw.clawUpdatePlan.v1"'
update_integrity=$(field '["planIntegrity"]')
expect_status 0 "$CLAWPORT" claw update worker --state-dir "$state" --yes --plan-integrity "$update_integrity"
expect_status 0 "$CLAWPORT" claw status worker --state-dir "$state"
expect_grep out 'install complete, agent present'
before=$(snapshot)
expect_status 1 "$CLAWPORT" claw migrate worker --state-dir "$state" --json
expect_grep out '"code": "agent_already_managed"'
unchanged "a second migrate"
finish
