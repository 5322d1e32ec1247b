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
expect_grep out 'MEMORY TRAVELS: 4 memory/memories of `researcher`'
expect_grep out 'they may hold personal data'
expect_grep out '1 memory/memories left home (redacted_category)'
[ "$(wc -l <"$TMP/b/memory/entries.jsonl")" = 4 ] ||
  { echo "FAIL: entries.jsonl does not hold 4 lines"; failures=$((failures + 1)); }
grep -q '^format_version = 2$' "$TMP/b/zeroclaw-agent.toml" ||
  { echo "FAIL: the manifest is not format 2"; failures=$((failures + 1)); }
if grep -q 'home_timezone\|lab_token\|discord_home_42' "$TMP/b/memory/entries.jsonl"; then
  echo "FAIL: another agent's row, a redacted row or a session id travelled"
  failures=$((failures + 1))
fi
[ "$(sha256sum "$db" | cut -d' ' -f1)" = "$before" ] && [ ! -e "$db-wal" ] && [ ! -e "$db-shm" ] ||
  { echo "FAIL: the install's store changed or kept a -wal/-shm"; failures=$((failures + 1)); }
(cd "$TMP/b" && sha256sum -c --quiet zeroclaw-agent.sha256) ||
  { echo "FAIL: sha256sum -c"; failures=$((failures + 1)); }

expect_status 0 "$CLAWPORT" verify "$TMP/b"
expect_grep out 'memory travels (format 2): 4 memory/memories of `researcher`'
expect_status 0 "$CLAWPORT" verify "$TMP/b" --json
expect_grep out '"entries": 4'
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
finish
