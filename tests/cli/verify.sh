# SPDX-License-Identifier: MIT
# `clawport verify` end to end: an export verifies; a tampered copy is refused (exit 1)
# with every finding listed; an upstream-style bundle (no digest list) verifies with a warning.
. "$(dirname "$0")/lib.sh"

make_researcher_install "$TMP/install"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/install/config.toml" --out "$TMP/b"

expect_status 0 "$CLAWPORT" verify "$TMP/b"
expect_grep out "^verified $TMP/b: agent "'`researcher`, [0-9]* file(s) in all, [0-9]* KiB in all'
expect_grep out 'every byte matches its digest list'
expect_status 0 "$CLAWPORT" verify "$TMP/b" --json
expect_grep out '"ok": true'
expect_grep out '"authenticated": true'

# tampered: a flipped byte and an extra file, both listed
printf '# researchex\n' >"$TMP/b/workspace/IDENTITY.md"
printf 'x' >"$TMP/b/workspace/extra.md"
expect_status 1 "$CLAWPORT" verify "$TMP/b" --json
expect_grep out '"code": "digest_mismatch"'
expect_grep out '"path": "workspace/IDENTITY.md"'
expect_grep out '"code": "unlisted_file"'
expect_grep out '"ok": false'
expect_status 1 "$CLAWPORT" verify "$TMP/b"
expect_grep out 'does not verify: 2 problem(s)'

# no digest list: verifies, with the warning
rm "$TMP/b/zeroclaw-agent.sha256" "$TMP/b/workspace/extra.md"
expect_status 0 "$CLAWPORT" verify "$TMP/b"
expect_grep out 'warning unauthenticated'

# issue 22 item 4: a manifest string import cannot write into the config's provenance comment
# (a CR and an ESC in exported_at) is refused by verify and by import, which writes nothing
cp -r "$TMP/b" "$TMP/b4"  # a copy: the later cases start from the valid bundle
sed -i 's/^exported_at = "\(.*\)"$/exported_at = "\1\\r\\u001b[2J"/' "$TMP/b4/zeroclaw-agent.toml"
grep -q 'u001b' "$TMP/b4/zeroclaw-agent.toml" || { echo "FAIL: the manifest was not edited"; failures=$((failures + 1)); }
expect_status 1 "$CLAWPORT" verify "$TMP/b4" --json
expect_grep out '"code": "manifest_invalid"'
expect_grep out '"path": "zeroclaw-agent.toml:provenance.exported_at"'
mkdir -p "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
expect_status 1 "$CLAWPORT" import "$TMP/b4" --config "$TMP/dst/config.toml" --yes --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000000
[ "$(ls -A "$TMP/dst")" = config.toml ] && [ "$(cat "$TMP/dst/config.toml")" = "schema_version = 3" ] ||
  { echo "FAIL: a refused import wrote"; failures=$((failures + 1)); }

# usage: no bundle given
expect_status 2 "$CLAWPORT" verify

# Raw bytes never reach the terminal (issue 22, item 15): a file named with CR and ESC
# cannot repaint the verdict; the human report shows it escaped, --json keeps the name.
cp -r "$TMP/b" "$TMP/b15"
touch "$TMP/b15/workspace/$(printf 'x\r\033[2Kbundle b15 verifies')"
expect_status 1 "$CLAWPORT" verify "$TMP/b15"
expect_grep out 'does not verify: 1 problem(s)'
expect_grep out 'workspace/x\\x0d\\x1b\[2Kbundle b15 verifies'
if LC_ALL=C grep -q "$(printf '[\r\033]')" "$TMP/out"; then echo "FAIL: raw CR or ESC in the verify report"; failures=$((failures + 1)); fi
expect_status 1 "$CLAWPORT" verify "$TMP/b15" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any(f["path"] == "workspace/x\r\x1b[2Kbundle b15 verifies" for f in d["findings"]), d' "$TMP/out" || failures=$((failures + 1))
finish
