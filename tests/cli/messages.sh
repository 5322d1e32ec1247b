# SPDX-License-Identifier: MIT
# Issue 27 item 7, messages that name the fix: an unknown export alias lists the configured
# ones; skills bundle add on a missing config says how to create the install, as import
# does; import refuses a config of another schema_version; convert of a bundle with
# --to zeroclaw suggests --to claw; verify of a file asks for the bundle directory. Every
# refusal exits 1 and writes nothing.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
cp -r "$REPO/examples/zeroclaw-install" "$TMP/src"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"
snap() { (cd "$TMP" && find . -printf '%p %s\n' | grep -v '^./\(out\|err\) ' | sort) | sha256sum; }
mkdir -p "$TMP/v4" && printf 'schema_version = 4\n' >"$TMP/v4/config.toml"
before=$(snap)

expect_status 1 "$CLAWPORT" export nobody --config "$TMP/src/config.toml" --out "$TMP/x"
expect_grep err "agent 'nobody' is not configured; the configured agents: \`assistant\`, \`researcher\`"

expect_status 1 "$CLAWPORT" skills bundle add tools --config "$TMP/none/config.toml"
expect_grep err 'the config .*/none/config.toml does not exist; create the install first (a config.toml holding `schema_version = 3` is an empty install)'
expect_status 1 "$CLAWPORT" import "$TMP/b" --config "$TMP/src/none.toml"
expect_grep err 'does not exist; create the install first'

expect_status 1 "$CLAWPORT" import "$TMP/b" --config "$TMP/v4/config.toml" --json
expect_grep out '"code": "config_invalid"'
expect_grep out '"subject": "schema_version"'
expect_grep err 'declares schema_version 4; clawport imports into schema_version 3 only'

expect_status 2 "$CLAWPORT" convert "$TMP/b" --to zeroclaw --out "$TMP/y"
expect_grep err 'is a ZeroClaw agent bundle (it holds zeroclaw-agent.toml), not a Claw package: convert it with --to claw'

expect_status 2 "$CLAWPORT" verify "$TMP/b/zeroclaw-agent.toml"
expect_grep err 'is a file; a bundle is a directory (the one that holds zeroclaw-agent.toml): give that directory'

[ "$(snap)" = "$before" ] || { echo "FAIL: a refusal wrote something"; failures=$((failures + 1)); }
[ "$(cat "$TMP/v4/config.toml")" = "schema_version = 4" ] || { echo "FAIL: the v4 config changed"; failures=$((failures + 1)); }
finish
