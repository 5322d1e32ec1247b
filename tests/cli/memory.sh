# SPDX-License-Identifier: MIT
# `clawport export --with-memory` end to end (issue 47) on a copy of the example install,
# whose data/memory/brain.db tools/make_example_memory.py made: the bundle is format 2 with
# memory/entries.jsonl, the report warns loudly, verify says what memory travels, and the
# install's store is left as it was. Without the option nothing of memory travels.
. "$(dirname "$0")/lib.sh"

cp -a "$REPO/examples/zeroclaw-install" "$TMP/install"
db="$TMP/install/data/memory/brain.db"
before=$(sha256sum "$db" | cut -d' ' -f1)

expect_status 0 "$CLAWPORT" export researcher --config "$TMP/install/config.toml" \
  --out "$TMP/b" --with-memory
expect_grep out 'MEMORY TRAVELS: 3 memories of `researcher`'
expect_grep out 'they may hold personal data'
expect_grep out '1 memory left home (redacted_category)'
expect_grep out '1 memory left home (conversation)'
[ "$(wc -l <"$TMP/b/memory/entries.jsonl")" = 3 ] ||
  { echo "FAIL: entries.jsonl does not hold 3 lines"; failures=$((failures + 1)); }
grep -q '^format_version = 2$' "$TMP/b/zeroclaw-agent.toml" ||
  { echo "FAIL: the manifest is not format 2"; failures=$((failures + 1)); }
if grep -q 'home_timezone\|lab_token\|discord_home_42\|session_note\|conversation' "$TMP/b/memory/entries.jsonl"; then
  echo "FAIL: another agent's row, a redacted row, a conversation row or a session id travelled"
  failures=$((failures + 1))
fi
[ "$(sha256sum "$db" | cut -d' ' -f1)" = "$before" ] && [ ! -e "$db-wal" ] && [ ! -e "$db-shm" ] ||
  { echo "FAIL: the install's store changed or kept a -wal/-shm"; failures=$((failures + 1)); }
(cd "$TMP/b" && sha256sum -c --quiet zeroclaw-agent.sha256) ||
  { echo "FAIL: sha256sum -c"; failures=$((failures + 1)); }

expect_status 0 "$CLAWPORT" verify "$TMP/b"
expect_grep out 'memory travels (format 2): 3 memories of `researcher`'
expect_status 0 "$CLAWPORT" verify "$TMP/b" --json
expect_grep out '"entries": 3'
expect_grep out '"format_version": 2'

expect_status 0 "$CLAWPORT" export researcher --config "$TMP/install/config.toml" \
  --out "$TMP/b" --with-memory --dry-run --json --force
expect_grep out '"memory"'

# without the option: format 1, no memory/ directory, no memory in the documents
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/install/config.toml" --out "$TMP/p"
[ ! -e "$TMP/p/memory" ] && grep -q '^format_version = 1$' "$TMP/p/zeroclaw-agent.toml" ||
  { echo "FAIL: a bundle without --with-memory carries memory"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" verify "$TMP/p" --json
if grep -q '"memory"' "$TMP/out"; then echo "FAIL: verify --json of format 1 names memory"; failures=$((failures + 1)); fi
# ---- import --with-memory (issue 47 item 5): the cycle back into an install ---------------
mkdir "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
dst_db="$TMP/dst/data/memory/brain.db"
# a format 1 bundle with --with-memory: said in the human plan, the same integrity (issue 44)
expect_status 0 "$CLAWPORT" import "$TMP/p" --config "$TMP/dst/config.toml" --dry-run
p_integrity=$(sed -n 's/^plan_integrity: //p' "$TMP/out")
expect_status 0 "$CLAWPORT" import "$TMP/p" --config "$TMP/dst/config.toml" --with-memory --dry-run
expect_grep out '^this bundle carries no memory (format 1): --with-memory has nothing to merge$'
[ "$(sed -n 's/^plan_integrity: //p' "$TMP/out")" = "$p_integrity" ] ||
  { echo "FAIL: --with-memory on a format 1 bundle changed the integrity"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" import "$TMP/p" --config "$TMP/dst/config.toml" --with-memory --dry-run --json
grep -q 'carries no memory' "$TMP/out" && { echo "FAIL: the note entered the JSON plan"; failures=$((failures + 1)); }
[ "$(ls -A "$TMP/dst")" = config.toml ] || { echo "FAIL: a dry run wrote"; failures=$((failures + 1)); }
# without the option: everything but the memory, and the to-do says so
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --dry-run
expect_grep out 'memory_left_out'
expect_grep out '3 memories travelled in this bundle; this import leaves them out'
if grep -q 'format 1 does not carry it' "$TMP/out"; then
  echo "FAIL: a format 2 bundle's memory called not carried"; failures=$((failures + 1))
fi
# with it: the plan names the store and the counts, which its integrity covers
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --with-memory --dry-run
expect_grep out 'memory merged (--with-memory) into data/memory/brain.db (created with the runtime'
expect_grep out '3 memories for `researcher` (core 2, daily 1)'
expect_grep out 'zeroclaw memory reindex'
# the store is not listed as left behind by "bundle format 1" (new-user walk 2 item 2)
if grep -q 'workspace/memory\|format 1 does not carry it' "$TMP/out"; then
  echo "FAIL: a format 2 bundle's merged memory listed as left behind"; failures=$((failures + 1))
fi
with_integrity=$(sed -n 's/^plan_integrity: //p' "$TMP/out")
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --dry-run
[ "$(sed -n 's/^plan_integrity: //p' "$TMP/out")" != "$with_integrity" ] ||
  { echo "FAIL: the memory merge is not part of the plan's integrity"; failures=$((failures + 1)); }
[ ! -e "$TMP/dst/data" ] || { echo "FAIL: a dry run made the store"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --with-memory \
  --yes --plan-integrity "$with_integrity"
expect_grep out 'merged 3 memories into data/memory/brain.db'
python3 - "$dst_db" <<'PY' || { echo "FAIL: the merged store"; failures=$((failures + 1)); }
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
assert [r[0] for r in d.execute("SELECT alias FROM agents ORDER BY alias")] == ["default", "researcher"]
assert d.execute("SELECT count(*) FROM memories WHERE embedding IS NULL AND session_id IS NULL").fetchone()[0] == 3
assert d.execute("SELECT key FROM memories_fts WHERE memories_fts MATCH 'Author'").fetchall() == [("citation_style",)]
assert d.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
PY
# the round trip: exported again from the target, the same entries.jsonl
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/dst/config.toml" --out "$TMP/b2" \
  --with-memory
cmp -s "$TMP/b/memory/entries.jsonl" "$TMP/b2/memory/entries.jsonl" ||
  { echo "FAIL: sqlite -> bundle -> sqlite -> bundle changed entries.jsonl"; failures=$((failures + 1)); }
# a second import of the same bundle: a new alias, its own rows, no clash
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --with-memory \
  --as researcher_two --dry-run
two=$(sed -n 's/^plan_integrity: //p' "$TMP/out")
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --with-memory \
  --as researcher_two --yes --plan-integrity "$two"
[ "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM memories").fetchone()[0])' "$dst_db")" = 6 ] ||
  { echo "FAIL: the second import did not add its own 3 rows"; failures=$((failures + 1)); }
finish
