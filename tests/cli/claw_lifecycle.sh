# SPDX-License-Identifier: MIT
# `clawport claw add|status|update|remove|export` end to end on the example package,
# offline: consent refusals write nothing, --without-packages adds into a fresh state
# directory, status is clean then reports drift, remove keeps the edited file, a JSON5
# openclaw.json is left byte-identical (partial add), the add → remove round trip leaves no
# workspace; export gives a package that inspects clean and plans the same actions; update
# refuses drift, then applies a new version from --from.
. "$(dirname "$0")/lib.sh"

cp -r "$REPO/examples/openclaw-claw" "$TMP/pkg"
chmod -R u+w "$TMP/pkg"
export HOME="$TMP/home"
export SOURCE_DATE_EPOCH=1800000000
unset OPENCLAW_STATE_DIR
mkdir -p "$HOME"
state="$TMP/state"
ws="$state/workspace-incident-triage"  # the one workspace rule: <state-dir>/workspace-<id>
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval("d"+sys.argv[2]))' "$TMP/out" "$1"; }
snapshot() { for d in home home2 state state2; do [ ! -e "$TMP/$d" ] || { echo "== $d"; tree_state "$TMP/$d"; }; done; }

# Without --yes: the plan and the exact command that applies it (exit 0); --yes alone is a
# usage error (exit 2, OpenClaw's consent envelope with a subject); nothing written.
before=$(snapshot)
expect_status 0 "$CLAWPORT" claw add --state-dir "$state" --without-packages "$TMP/pkg"
expect_grep out "nothing was written; to apply: clawport claw add --state-dir $state --without-packages $TMP/pkg --yes --plan-integrity sha256:"
expect_status 2 "$CLAWPORT" claw add --json --state-dir "$state" --without-packages --yes "$TMP/pkg"
expect_grep out '"code": "plan_integrity_required"'
expect_grep out '"schemaVersion": "openclaw.clawAddResult.v1"'
expect_grep out '"subject": "--plan-integrity"'
expect_status 1 "$CLAWPORT" claw add --json --state-dir "$state" --without-packages --yes \
  --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000000 "$TMP/pkg"
expect_grep out '"code": "plan_integrity_mismatch"'
# Without --without-packages the plan is blocked offline: printed, exit 1.
expect_status 1 "$CLAWPORT" claw add --state-dir "$state" --yes --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000000 "$TMP/pkg"
expect_grep err 'ERROR skill_preflight_failed'
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
expect_grep err 'agent_id_collision'
[ "$(snapshot)" = "$before" ] || { echo "FAIL: a second add wrote something"; failures=$((failures + 1)); }

# Remove: the dry run, a wrong integrity (nothing written), then the consented remove.
expect_status 0 "$CLAWPORT" claw remove --dry-run --json --state-dir "$state" incident-triage
rintegrity=$(field '["planIntegrity"]')
expect_grep out '"schemaVersion": "openclaw.clawRemovePlan.v1"'
expect_status 1 "$CLAWPORT" claw remove --state-dir "$state" incident-triage --yes --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000000
expect_grep err 'plan_integrity_mismatch'
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
expect_grep err '^clawport: error: config_commit_failed'
expect_grep err 'Added agent incident-triage (partial)'
cmp -s "$state/openclaw.json" "$TMP/json5.orig" || { echo "FAIL: the JSON5 config was rewritten"; failures=$((failures + 1)); }

# The whole cycle in a fresh home: add → export (inspects clean, plans the same actions) →
# drift → update refused → restore → update --from a new version → status clean → remove.
export HOME="$TMP/home2"
mkdir -p "$HOME"
state="$TMP/state2"
ws="$state/workspace-incident-triage"  # the one workspace rule: <state-dir>/workspace-<id>
# The user's openclaw.json holds the gateway token at 0600: add, update and remove keep it
# 0600 (issue 22 item 5: they rewrote it 0644) and keep the token.
mkdir -p "$state" && printf '{"gateway": {"auth": {"token": "gw-secret"}}}\n' >"$state/openclaw.json"
chmod 600 "$state/openclaw.json"
kept_0600() {
  [ "$(stat -c %a "$state/openclaw.json")" = 600 ] && grep -q '"token": "gw-secret"' "$state/openclaw.json" ||
    { echo "FAIL: openclaw.json is $(stat -c %a "$state/openclaw.json") after $1, or lost the token"; failures=$((failures + 1)); }
}
# The plan's actions as a sorted list (export sorts packages by kind:ref:version, as upstream).
actions() { python3 -c 'import json,sys; print(sorted((a["kind"],a["id"],a["action"],a.get("digest","")) for a in json.load(open(sys.argv[1]))["actions"]))' "$TMP/out"; }
expect_status 0 "$CLAWPORT" claw plan --json --state-dir "$state" --without-packages "$TMP/pkg"
integrity=$(field '["planIntegrity"]')
expect_status 0 "$CLAWPORT" claw add --json --state-dir "$state" --without-packages --yes --plan-integrity "$integrity" "$TMP/pkg"
kept_0600 "claw add"
# Export refusals write nothing: an existing --out, an unknown agent.
mkdir "$TMP/taken"
before=$(snapshot)
expect_status 1 "$CLAWPORT" claw export incident-triage --state-dir "$state" --out "$TMP/taken"
expect_grep err '^clawport: error: output_collision'
expect_status 1 "$CLAWPORT" claw export --json nobody --state-dir "$state" --out "$TMP/exported"
expect_grep out '"code": "claw_not_found"'
[ "$(snapshot)" = "$before" ] && [ ! -e "$TMP/exported" ] || { echo "FAIL: a refused export wrote something"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw export incident-triage --state-dir "$state" --out "$TMP/exported"
expect_grep out 'Exported agent incident-triage'
expect_status 0 "$CLAWPORT" claw export --json incident-triage --state-dir "$state" --out "$TMP/exported2"
expect_grep out '"schemaVersion": "openclaw.clawExportResult.v1"'
diff -r "$TMP/exported" "$TMP/exported2" >/dev/null || { echo "FAIL: two exports differ"; failures=$((failures + 1)); }
[ -f "$TMP/exported/profiles/openclaw.yml" ] && [ -f "$TMP/exported/workspace/avatars/incident-triage.png" ] ||
  { echo "FAIL: export lacks the profile or the avatar"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw inspect --json "$TMP/exported"
expect_grep out '"valid": true'
expect_grep out '"diagnostics": \[\]'
expect_status 0 "$CLAWPORT" claw plan --json --state-dir "$TMP/fresh" --workspace "$TMP/fresh-ws" --without-packages "$TMP/pkg"
want=$(actions)
expect_status 0 "$CLAWPORT" claw plan --json --state-dir "$TMP/fresh" --workspace "$TMP/fresh-ws" --without-packages "$TMP/exported"
[ "$(actions)" = "$want" ] || { echo "FAIL: the export plans other actions: $(actions) vs $want"; failures=$((failures + 1)); }
# Issue 42 §2.5: the export is named as OpenClaw 2026.9.6 names it (openclaw-claw-<id>,
# 0.0.0-export.<hex>; issue 27 item 7d kept the installed identity): it adds on another
# install as a Claw of its own, and the Claw it came from refuses it as an update source.
expect_status 0 "$CLAWPORT" claw export --json incident-triage --state-dir "$state" --out "$TMP/exported4"
[ "$(field '["package"]["name"]')/$(field '["package"]["naming"]')" = "openclaw-claw-incident-triage/generated" ] ||
  { echo "FAIL: the export's identity: $(cat "$TMP/out")"; failures=$((failures + 1)); }
expect_grep out '"namingNote": "exported from @acme/incident-triage-claw@1.3.0'
python3 -c 'import json,re,sys; p=json.load(open(sys.argv[1])); assert p["name"] == "openclaw-claw-incident-triage" and re.fullmatch(r"0\.0\.0-export\.[0-9a-f]{64}", p["version"]) and p["type"] == "module", p' "$TMP/exported/package.json" ||
  { echo "FAIL: the exported package.json is not named as OpenClaw names it"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw plan --json --state-dir "$TMP/fresh" --workspace "$TMP/fresh-ws" --without-packages "$TMP/exported"
expect_status 0 "$CLAWPORT" claw add --state-dir "$TMP/fresh" --workspace "$TMP/fresh-ws" --without-packages --yes --plan-integrity "$(field '["planIntegrity"]')" "$TMP/exported"
expect_status 0 "$CLAWPORT" claw status --json --state-dir "$TMP/fresh" incident-triage
[ "$(field '["records"][0]["install"]["claw"]["name"]')" = "openclaw-claw-incident-triage" ] ||
  { echo "FAIL: the round trip's identity"; failures=$((failures + 1)); }
for f in AGENTS.md SOUL.md TOOLS.md reference/severity-policy.md avatars/incident-triage.png; do
  cmp -s "$ws/$f" "$TMP/fresh-ws/$f" || { echo "FAIL: $f differs after export → add"; failures=$((failures + 1)); }
done
expect_status 1 "$CLAWPORT" claw update --dry-run --json incident-triage --state-dir "$state" --from "$TMP/exported"
expect_grep out '"code": "claw_identity_mismatch"'
# A Claw added from a bare manifest: upstream's naming too, with no note.
expect_status 0 "$CLAWPORT" claw plan --json --state-dir "$TMP/dev" --without-packages "$TMP/pkg/CLAW.md"
expect_status 0 "$CLAWPORT" claw add --state-dir "$TMP/dev" --without-packages --yes --plan-integrity "$(field '["planIntegrity"]')" "$TMP/pkg/CLAW.md"
expect_status 0 "$CLAWPORT" claw export incident-triage --state-dir "$TMP/dev" --out "$TMP/dev-exported"
expect_grep out 'as openclaw-claw-incident-triage@0.0.0-export\.[0-9a-f]\{64\}$'
# Drift: export and update refuse it, writing nothing.
cp "$ws/TOOLS.md" "$TMP/TOOLS.orig"
echo "local edit" >>"$ws/TOOLS.md"
before=$(snapshot)
expect_status 1 "$CLAWPORT" claw export incident-triage --state-dir "$state" --out "$TMP/exported3"
expect_grep err '^clawport: error: workspace_files_drifted'
expect_status 1 "$CLAWPORT" claw update --dry-run incident-triage --state-dir "$state"
expect_grep out 'manual workspaceFile TOOLS.md'
expect_grep out 'ERROR workspace_file_drift'
expect_status 1 "$CLAWPORT" claw update --dry-run --json incident-triage --state-dir "$state"
uintegrity=$(field '["planIntegrity"]')
expect_status 1 "$CLAWPORT" claw update incident-triage --state-dir "$state" --yes --plan-integrity "$uintegrity"
expect_grep err '^clawport: error: update_blocked'
[ "$(snapshot)" = "$before" ] && [ ! -e "$TMP/exported3" ] || { echo "FAIL: a refused update or export wrote something"; failures=$((failures + 1)); }
cp "$TMP/TOOLS.orig" "$ws/TOOLS.md"
# A new version of the package, applied with --from.
cp -r "$TMP/pkg" "$TMP/pkg2"
sed -i 's/"version": "1.3.0"/"version": "1.4.0"/' "$TMP/pkg2/package.json"
echo "Prefer the status page over chat reports." >>"$TMP/pkg2/workspace/TOOLS.md"
expect_status 0 "$CLAWPORT" claw update --dry-run --json incident-triage --state-dir "$state" --from "$TMP/pkg2"
expect_grep out '"schemaVersion": "openclaw.clawUpdatePlan.v1"'
uintegrity=$(field '["planIntegrity"]')
[ "$(field '["summary"]["changed"]')" = 1 ] || { echo "FAIL: the update plans more than TOOLS.md"; failures=$((failures + 1)); }
expect_status 1 "$CLAWPORT" claw update incident-triage --state-dir "$state" --from "$TMP/pkg2" --yes --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000000
expect_grep err 'plan_integrity_mismatch'
expect_status 0 "$CLAWPORT" claw update incident-triage --state-dir "$state" --from "$TMP/pkg2" --yes --plan-integrity "$uintegrity"
expect_grep out 'Updated agent incident-triage (complete): 1.3.0 -> 1.4.0'
expect_grep out 'change workspaceFile TOOLS.md'
kept_0600 "claw update"
cmp -s "$ws/TOOLS.md" "$TMP/pkg2/workspace/TOOLS.md" || { echo "FAIL: TOOLS.md not updated"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw status --json --state-dir "$state" incident-triage
[ "$(field '["summary"]["driftedFiles"]')" = 0 ] || { echo "FAIL: drift after update"; failures=$((failures + 1)); }
[ "$(field '["records"][0]["install"]["claw"]["version"]')" = 1.4.0 ] || { echo "FAIL: ledger version"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw remove --dry-run --json --state-dir "$state" incident-triage
rintegrity=$(field '["planIntegrity"]')
expect_status 0 "$CLAWPORT" claw remove --state-dir "$state" incident-triage --yes --plan-integrity "$rintegrity"
[ ! -e "$ws" ] || { echo "FAIL: the workspace outlived remove"; failures=$((failures + 1)); }
kept_0600 "claw remove"

# Usage.
expect_status 2 "$CLAWPORT" claw remove
expect_status 0 "$CLAWPORT" claw add --help
expect_grep out '--plan-integrity'
expect_status 0 "$CLAWPORT" claw status --help
expect_status 2 "$CLAWPORT" claw export incident-triage
expect_status 2 "$CLAWPORT" claw update
expect_status 0 "$CLAWPORT" claw update --help
expect_grep out '--from'
expect_status 0 "$CLAWPORT" claw export --help
expect_grep out '--bootstrap'
# Refusals tools/coverage.sh found unreached: a ledger that is not clawport's document, a
# state directory below a file. Both refused naming the path, the ledger left as it was.
mkdir -p "$TMP/st" && echo '{"schemaVersion": "wrong"}' > "$TMP/st/clawport-claws.json"
expect_status 1 "$CLAWPORT" claw status --state-dir "$TMP/st"
expect_grep err "$TMP/st/clawport-claws.json is not a clawport.openclawClawLedger.v1 document"
[ "$(cat "$TMP/st/clawport-claws.json")" = '{"schemaVersion": "wrong"}' ] || { echo "FAIL: the ledger changed"; failures=$((failures + 1)); }
echo x > "$TMP/stfile"
expect_status 1 "$CLAWPORT" claw status --state-dir "$TMP/stfile/sub"
expect_grep err "$TMP/stfile is not a directory; clawport writes only through real directories"
# An existing workspace is never adopted by an add (issue 42 §2 item 3, as openclaw 2026.9.6):
# byte-identical files or an empty directory, the plan blocks with workspace_collision, the add
# with consent refuses, and the operator's workspace and the state directory are untouched.
# (Adopted files come from `claw migrate`; their release is tested in claw_migrate.sh.)
export HOME="$TMP/home3"
state="$TMP/state3"
ws="$state/workspace-incident-triage"  # a new agent's workspace: <state-dir>/workspace-<id>
mkdir -p "$ws/templates"
cp "$TMP/pkg/workspace/AGENTS.md" "$ws/AGENTS.md"
cp "$TMP/pkg/workspace/templates/handoff.md" "$ws/templates/handoff.md"
ws_state() { tree_state "$state"; }
ws_before=$(ws_state)
expect_status 1 "$CLAWPORT" claw plan --json --state-dir "$state" --without-packages "$TMP/pkg"
expect_grep out '"code": "workspace_collision"'
expect_grep out "already exists; a Claw requires a new workspace."
integrity=$(field '["planIntegrity"]')
expect_status 1 "$CLAWPORT" claw add --json --state-dir "$state" --without-packages --yes --plan-integrity "$integrity" "$TMP/pkg"
expect_grep out '"code": "workspace_collision"'
[ "$(ws_state)" = "$ws_before" ] || { echo "FAIL: a refused add changed the state directory:"; diff <(echo "$ws_before") <(ws_state); failures=$((failures + 1)); }
rm -rf "$ws/templates" "$ws/AGENTS.md"
ws_before=$(ws_state)
expect_status 1 "$CLAWPORT" claw plan --json --state-dir "$state" --without-packages "$TMP/pkg"
expect_grep out '"code": "workspace_collision"'
[ "$(ws_state)" = "$ws_before" ] || { echo "FAIL: a refused add changed the state directory:"; diff <(echo "$ws_before") <(ws_state); failures=$((failures + 1)); }
# OpenClaw state under a symlinked path (issue 22, item 19): a symlink above the state
# directory (HOME below a symlinked directory, as a symlinked /home) is the operator's own
# path, followed by the plan and by every write alike; a symlink inside it (the workspace
# itself) is refused by both, writing nothing there or through it.
mkdir -p "$TMP/realhome/u"
ln -s "$TMP/realhome" "$TMP/linkhome"
export HOME="$TMP/linkhome/u"
ws="$HOME/.openclaw/workspace-incident-triage"
expect_status 0 "$CLAWPORT" claw plan --json --without-packages "$TMP/pkg"
integrity=$(field '["planIntegrity"]')
expect_status 0 "$CLAWPORT" claw add --json --without-packages --yes --plan-integrity "$integrity" "$TMP/pkg"
expect_grep out '"status": "complete"'
[ -f "$TMP/realhome/u/.openclaw/clawport-claws.json" ] && [ -f "$TMP/realhome/u/.openclaw/openclaw.json" ] &&
  cmp -s "$TMP/realhome/u/.openclaw/workspace-incident-triage/AGENTS.md" "$TMP/pkg/workspace/AGENTS.md" ||
  { echo "FAIL: the add did not write through the symlink above the state directory"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw status --state-dir "$HOME/.openclaw"
expect_grep out 'install complete, agent present'
expect_status 0 "$CLAWPORT" claw remove --dry-run --json incident-triage
rintegrity=$(field '["planIntegrity"]')
expect_status 0 "$CLAWPORT" claw remove incident-triage --yes --plan-integrity "$rintegrity"
[ ! -e "$ws" ] || { echo "FAIL: remove through the symlink above left the workspace"; failures=$((failures + 1)); }
# Inside: the workspace a symlink to a directory holding identical files. The plan blocks
# (it no longer adopts through the link), the add refuses, nothing is written anywhere.
mkdir -p "$TMP/elsewhere" "$TMP/realhome/u/.openclaw"
cp "$TMP/pkg/workspace/AGENTS.md" "$TMP/elsewhere/AGENTS.md"
ln -s "$TMP/elsewhere" "$ws"
inside_state() { (cd "$TMP" && find elsewhere realhome -printf '%p %y %s\n' | sort; cat realhome/u/.openclaw/*.json) | sha256sum; }
before=$(inside_state)
expect_status 1 "$CLAWPORT" claw plan --json --without-packages "$TMP/pkg"
expect_grep out '"code": "workspace_collision"'
integrity=$(field '["planIntegrity"]')
expect_status 1 "$CLAWPORT" claw add --json --without-packages --yes --plan-integrity "$integrity" "$TMP/pkg"
[ "$(inside_state)" = "$before" ] && [ "$(ls -A "$TMP/elsewhere")" = AGENTS.md ] ||
  { echo "FAIL: an add through a symlink inside the state directory wrote"; failures=$((failures + 1)); }

# What an add writes, as OpenClaw 2026.9.6 writes it (issue 42 §2.4; the oracle suite compares
# the same against the real program, tests/oracle/cases/add_writes.sh): the state directory it
# makes 0700, openclaw.json and the ledger 0600, workspace files 0600 (directories 0755); the
# implicit main pinned as the roster's owner; no `id` inside entries.<id>.
state3="$TMP/home3/.openclaw"
mkdir -p "$TMP/home3"
expect_status 0 "$CLAWPORT" claw plan --json --state-dir "$state3" --without-packages "$TMP/pkg"
integrity=$(field '["planIntegrity"]')
expect_status 0 "$CLAWPORT" claw add --json --state-dir "$state3" --without-packages --yes --plan-integrity "$integrity" "$TMP/pkg"
modes=$(cd "$state3" && find . -maxdepth 1 -printf '%P %m\n'; cd workspace-incident-triage && find . -printf '%P %m\n' | grep -E '^(SOUL.md|reference|reference/severity-policy.md) ')
want=$(printf '%s\n' ' 700' 'workspace-incident-triage 755' 'clawport-claws.json 600' 'openclaw.json 600' 'SOUL.md 600' 'reference 755' 'reference/severity-policy.md 600')
[ "$(sort <<<"$modes")" = "$(sort <<<"$want")" ] ||
  { printf 'FAIL: an add wrote modes\n%s\nexpected\n%s\n' "$modes" "$want"; failures=$((failures + 1)); }
python3 - "$state3" <<'PY' || { echo "FAIL: openclaw.json is not the shape OpenClaw writes"; failures=$((failures + 1)); }
import json, sys
state = sys.argv[1]
c = json.load(open(state + "/openclaw.json"))
a = c["agents"]
assert a["ownership"] == "explicit", a
assert a["defaults"] == {"heartbeat": {"agentId": "main"}, "systemAgent": {"agentId": "main"}}, a
assert a["entries"]["main"] == {"workspace": state + "/workspace"}, a
assert "id" not in a["entries"]["incident-triage"], a
assert c["talk"] == {"agentId": "main"}, c
PY
finish
