# SPDX-License-Identifier: MIT
# `clawport recover` end to end: the crash pair is restored, dead staging trees removed,
# an ambiguous pair refused with nothing changed.
. "$(dirname "$0")/lib.sh"

mkdir -p "$TMP/p/.zeroclaw-export-old-AbC123/workspace" "$TMP/p/.zeroclaw-export-AbC123"
echo old >"$TMP/p/.zeroclaw-export-old-AbC123/config.toml"
echo half >"$TMP/p/.zeroclaw-export-AbC123/config.toml"
expect_status 0 "$CLAWPORT" recover "$TMP/p/bundle"
expect_grep out 'restored the previous bundle: moved .zeroclaw-export-old-AbC123 back to'
expect_grep out 'removed the incomplete staging tree .zeroclaw-export-AbC123'
[ "$(cat "$TMP/p/bundle/config.toml")" = old ] || { echo "FAIL: not restored"; failures=$((failures + 1)); }
[ "$(ls -A "$TMP/p")" = bundle ] || { echo "FAIL: leftovers: $(ls -A "$TMP/p")"; failures=$((failures + 1)); }

expect_status 0 "$CLAWPORT" recover "$TMP/p/bundle"
expect_grep out 'nothing to recover beside'

mkdir -p "$TMP/q/.zeroclaw-export-old-AAAAAA" "$TMP/q/.zeroclaw-export-old-BBBBBB"
expect_status 1 "$CLAWPORT" recover "$TMP/q/bundle"
expect_grep err 'cannot tell which one'
[ "$(ls -A "$TMP/q" | wc -l)" = 2 ] || { echo "FAIL: ambiguous case changed something"; failures=$((failures + 1)); }
# issue 22 item 17: every staging family the tool creates, removed and named; near-misses kept
mkdir -p "$TMP/f/dest" "$TMP/f/.clawport-import-0123456789ab-dest" "$TMP/f/.clawport-claw-AbC123" \
  "$TMP/f/.clawport-stage-AbC123" "$TMP/f/.clawport-convert-AbC123" "$TMP/f/.clawport-stage-toolong1" \
  "$TMP/f/.clawport-import-mine"
for d in "$TMP"/f/.clawport-*; do echo x >"$d/file"; done
echo mine >"$TMP/f/dest/keep"
expect_status 0 "$CLAWPORT" recover "$TMP/f/dest"
expect_grep out 'removed the incomplete staging tree .clawport-import-0123456789ab-dest (left by an import that was killed)'
expect_grep out 'removed the incomplete staging tree .clawport-claw-AbC123'
expect_grep out 'removed the incomplete staging tree .clawport-stage-AbC123'
expect_grep out 'removed the incomplete staging tree .clawport-convert-AbC123'
expect_grep out 'left .clawport-stage-toolong1 alone: not a name'
expect_grep out 'left .clawport-import-mine alone: not a name an import creates'
[ "$(LC_ALL=C ls -A "$TMP/f" | tr '\n' ' ')" = ".clawport-import-mine .clawport-stage-toolong1 dest " ] ||
  { echo "FAIL: families: $(ls -A "$TMP/f")"; failures=$((failures + 1)); }
[ "$(cat "$TMP/f/dest/keep")" = mine ] || { echo "FAIL: the destination changed"; failures=$((failures + 1)); }
# issue 23: the temporary file a killed replace of config.toml left, beside that file
mkdir -p "$TMP/c"
echo 'a = 1' >"$TMP/c/config.toml"
echo 'a = 2' >"$TMP/c/.config.toml.tmp-AbC123"
echo x >"$TMP/c/.notes.md.tmp-AbC123"
expect_status 0 "$CLAWPORT" recover "$TMP/c/config.toml"
expect_grep out 'removed the incomplete temporary file .config.toml.tmp-AbC123 (left by a command replacing the file that was killed)'
[ "$(LC_ALL=C ls -A "$TMP/c" | tr '\n' ' ')" = ".notes.md.tmp-AbC123 config.toml " ] ||
  { echo "FAIL: temporary files: $(ls -A "$TMP/c")"; failures=$((failures + 1)); }
[ "$(cat "$TMP/c/config.toml")" = 'a = 1' ] || { echo "FAIL: config.toml changed"; failures=$((failures + 1)); }
# issue 41 item 6: an export killed between creating its staging directory and locking it
mkdir -p "$TMP/n/.zeroclaw-export-new-AbC123" "$TMP/n/.zeroclaw-export-new-XyZ789"
echo mine >"$TMP/n/.zeroclaw-export-new-XyZ789/file"
expect_status 0 "$CLAWPORT" recover "$TMP/n/bundle"
expect_grep out 'removed the empty staging directory .zeroclaw-export-new-AbC123 of an export killed before it locked it'
expect_grep out 'left .zeroclaw-export-new-XyZ789 alone: it is not empty'
[ "$(ls -A "$TMP/n")" = .zeroclaw-export-new-XyZ789 ] || { echo "FAIL: creation dirs: $(ls -A "$TMP/n")"; failures=$((failures + 1)); }
expect_status 2 "$CLAWPORT" recover
finish
