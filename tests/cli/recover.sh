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
expect_status 2 "$CLAWPORT" recover
finish
