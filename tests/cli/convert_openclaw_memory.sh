# SPDX-License-Identifier: MIT
# `clawport convert --from-openclaw-agent <id> --with-memory --to zeroclaw` (issue 47 item 7):
# an installed OpenClaw agent whose workspace holds MEMORY.md and memory/2026-01-02.md becomes
# a format 2 bundle that `verify` passes, and `import --with-memory` brings its memories into a
# ZeroClaw store; USER.md never travels; the OpenClaw state is left as it was. A symlinked
# MEMORY.md is refused, nothing written; bad usage is exit 2.
. "$(dirname "$0")/lib.sh"

export HOME="$TMP/home"
export SOURCE_DATE_EPOCH=1800000000
unset OPENCLAW_STATE_DIR OPENCLAW_HOME
state="$TMP/state"
ws="$TMP/home/worker-ws"
mkdir -p "$ws/memory" "$state"
printf '# Worker\n' >"$ws/AGENTS.md"
printf 'Be brief.\n' >"$ws/SOUL.md"
printf '# Memory\n\n- **citation_style**: Cite (Author, Year).\n- Prefers tea.\n' >"$ws/MEMORY.md"
printf -- '- **summary**: Three papers read.\n' >"$ws/memory/2026-01-02.md"
printf -- '- **name**: Alice Sentinel\n' >"$ws/USER.md"
printf '{"agents": {"entries": {"worker": {"name": "Worker", "workspace": "%s"}}}}\n' \
  "$ws" >"$state/openclaw.json"
snapshot() { tree_state "$TMP/home"; tree_state "$state"; }
before=$(snapshot)

expect_status 0 "$CLAWPORT" convert --help
expect_grep out '--from-openclaw-agent'
expect_grep out '--with-memory'

# bad usage: both a source and an agent, neither, --with-memory without the agent
expect_status 2 "$CLAWPORT" convert "$TMP" --from-openclaw-agent worker --to zeroclaw --out "$TMP/x"
expect_status 2 "$CLAWPORT" convert --to zeroclaw --out "$TMP/x"
expect_status 2 "$CLAWPORT" convert "$REPO/examples/openclaw-claw" --with-memory --to zeroclaw --out "$TMP/x"
expect_grep err 'from-openclaw-agent'
[ ! -e "$TMP/x" ] || { echo "FAIL: bad usage wrote"; failures=$((failures + 1)); }

expect_status 0 "$CLAWPORT" convert --from-openclaw-agent worker --state-dir "$state" \
  --with-memory --to zeroclaw --out "$TMP/b" --allow-narrowing
expect_grep out 'the installed OpenClaw agent `worker`'
expect_grep out 'memory/entries.jsonl'
[ "$(snapshot)" = "$before" ] || { echo "FAIL: convert changed the OpenClaw state"; failures=$((failures + 1)); }
grep -q '^format_version = 2$' "$TMP/b/zeroclaw-agent.toml" ||
  { echo "FAIL: the manifest is not format 2"; failures=$((failures + 1)); }
[ "$(wc -l <"$TMP/b/memory/entries.jsonl")" = 3 ] ||
  { echo "FAIL: entries.jsonl does not hold 3 lines"; failures=$((failures + 1)); }
if grep -rq 'Alice Sentinel' "$TMP/b"; then echo "FAIL: USER.md travelled"; failures=$((failures + 1)); fi
[ ! -e "$TMP/b/workspace/MEMORY.md" ] || { echo "FAIL: MEMORY.md in workspace/"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" verify "$TMP/b"
expect_grep out 'memory travels (format 2): 3 memories of `worker`'

# import --with-memory: the three memories merged into a new store
mkdir "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --with-memory --dry-run
integrity=$(sed -n 's/^plan_integrity: //p' "$TMP/out")
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --with-memory \
  --yes --plan-integrity "$integrity"
expect_grep out 'merged 3 memories into data/memory/brain.db'
python3 - "$TMP/dst/data/memory/brain.db" <<'PY' || { echo "FAIL: the merged store"; failures=$((failures + 1)); }
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
rows = sorted(d.execute("SELECT m.key, m.category, m.content FROM memories m JOIN agents a "
                        "ON m.agent_id = a.id WHERE a.alias = 'worker'"))
assert [(k, c) for k, c, _ in rows] == [("citation_style", "core"),
                                       ("openclaw_openclaw_core_4", "core"),
                                       ("summary", "daily")], rows
assert rows[2][2] == "Three papers read.", rows
PY

# a symlinked MEMORY.md: refused with its path, never followed, nothing written
printf -- '- **secret**: from elsewhere\n' >"$TMP/elsewhere.md"
rm "$ws/MEMORY.md" && ln -s "$TMP/elsewhere.md" "$ws/MEMORY.md"
before=$(snapshot)
expect_status 1 "$CLAWPORT" convert --from-openclaw-agent worker --state-dir "$state" \
  --with-memory --to zeroclaw --out "$TMP/s" --allow-narrowing
expect_grep err 'MEMORY.md'
expect_grep err 'symlink is never followed'
[ ! -e "$TMP/s" ] || { echo "FAIL: a refusal wrote"; failures=$((failures + 1)); }
if ls -a "$TMP" | grep -q '^\.clawport'; then echo "FAIL: staging left"; failures=$((failures + 1)); fi
[ "$(snapshot)" = "$before" ] || { echo "FAIL: the refusal changed the OpenClaw state"; failures=$((failures + 1)); }

finish
