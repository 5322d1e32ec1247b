# SPDX-License-Identifier: MIT
# `clawport workspace resolve|bootstrap|doctor` end to end: each resolve rule with the
# environment it needs, bootstrap seeding without overwriting, doctor findings (exit 1) and
# a clean workspace (exit 0).
. "$(dirname "$0")/lib.sh"

export HOME="$TMP/home"
mkdir -p "$HOME"
unset OPENCLAW_STATE_DIR OPENCLAW_PROFILE OPENCLAW_WORKSPACE_DIR

expect_status 0 "$CLAWPORT" workspace resolve
expect_grep out "^$HOME/.openclaw/workspace\$"
expect_grep out 'rule:  default'
OPENCLAW_PROFILE=work expect_status 0 "$CLAWPORT" workspace resolve --json
expect_grep out "\"workspace\": \"$HOME/.openclaw-work/workspace\""  # openclaw 2026.9.6 (issue 42 item 6)
OPENCLAW_PROFILE=work OPENCLAW_WORKSPACE_DIR="~/elsewhere" expect_status 0 "$CLAWPORT" workspace resolve
expect_grep out "^$HOME/elsewhere\$"
expect_grep out 'rule:  OPENCLAW_WORKSPACE_DIR'
OPENCLAW_STATE_DIR="$TMP/state" expect_status 0 "$CLAWPORT" workspace resolve
expect_grep out "^$TMP/state/workspace\$"
mkdir -p "$TMP/state"
# The default agent is the entry marked `default: true` (else the first entry, else `main`);
# it takes agents.defaults.workspace itself, every other agent <that>/<agentId>, an entry's own
# workspace wins (upstream agent-scope.test.ts, resolveAgentWorkspaceDir).
printf "// JSON5\n{agents: {defaults: {workspace: '~/ws-default'}, entries: {ops: {workspace: '/srv/ops'}, dev: {default: true}}},}\n" >"$TMP/state/openclaw.json"
expect_status 0 "$CLAWPORT" workspace resolve --state-dir "$TMP/state"
expect_grep out "^$HOME/ws-default\$"
expect_grep out 'rule:  agents.defaults.workspace'
expect_grep out 'agent: dev'
expect_status 0 "$CLAWPORT" workspace resolve --state-dir "$TMP/state" --agent-id ops
expect_grep out '^/srv/ops$'
expect_status 0 "$CLAWPORT" workspace resolve --state-dir "$TMP/state" --agent-id qa
expect_grep out "^$HOME/ws-default/qa\$"
# Without agents.defaults.workspace, a non-default agent lives at <state-dir>/workspace-<id>.
printf "{agents: {entries: {ops: {workspace: '/srv/ops'}}}}\n" >"$TMP/state/openclaw.json"
expect_status 0 "$CLAWPORT" workspace resolve --state-dir "$TMP/state" --agent-id dev
expect_grep out "^$TMP/state/workspace-dev\$"
expect_status 2 "$CLAWPORT" workspace resolve --state-dir "$TMP/state" --agent-id ../../x
expect_grep err "^clawport: error: --agent-id ../../x: an agent id must match"
echo '{agents:' >"$TMP/bad.json" && mkdir -p "$TMP/bad" && mv "$TMP/bad.json" "$TMP/bad/openclaw.json"
expect_status 1 "$CLAWPORT" workspace resolve --state-dir "$TMP/bad" --json
expect_grep out '"code": "config_parse"'

# bootstrap: seeds a new workspace, never overwrites.
ws="$TMP/ws"
expect_status 0 "$CLAWPORT" workspace bootstrap --workspace "$ws"
expect_grep out 'created BOOTSTRAP.md'
[ -f "$ws/AGENTS.md" ] && [ -f "$ws/.gitignore" ] || { echo "FAIL: not seeded"; failures=$((failures + 1)); }
echo mine >"$ws/SOUL.md"
rm "$ws/TOOLS.md" "$ws/BOOTSTRAP.md"
expect_status 0 "$CLAWPORT" workspace bootstrap --workspace "$ws" --json
expect_grep out '"TOOLS.md"'
[ "$(cat "$ws/SOUL.md")" = mine ] || { echo "FAIL: bootstrap overwrote SOUL.md"; failures=$((failures + 1)); }
[ ! -e "$ws/BOOTSTRAP.md" ] || { echo "FAIL: BOOTSTRAP.md seeded into an existing workspace"; failures=$((failures + 1)); }
mkdir -p "$TMP/skip" && echo '{agents: {defaults: {skipBootstrap: true}}}' >"$TMP/skip/openclaw.json"
expect_status 0 "$CLAWPORT" workspace bootstrap --state-dir "$TMP/skip" --workspace "$TMP/ws2"
expect_grep out 'Nothing seeded'
[ ! -e "$TMP/ws2" ] || { echo "FAIL: skipBootstrap seeded"; failures=$((failures + 1)); }

# doctor: clean, then findings (read-only).
expect_status 0 "$CLAWPORT" workspace doctor --workspace "$ws"
expect_grep out 'No findings'
printf 'TOKEN=x\n' >"$ws/secrets.env"
printf '{}' >"$ws/openclaw-workspace-state.json"
mkdir -p "$HOME/openclaw"
rm "$ws/.gitignore"
before=$(find "$ws" -printf '%p %s\n' | sort)
expect_status 1 "$CLAWPORT" workspace doctor --workspace "$ws"
expect_grep out 'ERROR secret_not_ignored secrets.env'
expect_grep out 'WARNING legacy_state_file openclaw-workspace-state.json'
expect_grep out 'WARNING extra_workspace'
expect_status 1 "$CLAWPORT" workspace doctor --workspace "$ws" --json
expect_grep out '"schemaVersion": "clawport.openclawWorkspaceDoctor.v1"'
[ "$(find "$ws" -printf '%p %s\n' | sort)" = "$before" ] || { echo "FAIL: doctor wrote"; failures=$((failures + 1)); }

expect_status 2 "$CLAWPORT" workspace
expect_status 0 "$CLAWPORT" workspace doctor --help
finish
