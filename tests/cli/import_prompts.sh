# SPDX-License-Identifier: MIT
# Issue 27 item 3: an import applied with standard input a terminal offers to supply each
# credential it left blank (a prompt that does not echo, stored as `clawport secrets set`
# stores it; an empty answer skips one). Never without a terminal, never with --json.
# The terminal is a pseudo-terminal from python3's pty module.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cp -r "$REPO/examples/zeroclaw-install" "$TMP/src"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"
integrity_for() {
  "$CLAWPORT" import "$TMP/b" --config "$TMP/$1/config.toml" --json </dev/null |
    sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p'
}

# --yes on a terminal: the first credential supplied, the others skipped
fresh dst
printf 'sk-typed-on-the-terminal\n' >"$TMP/answers"
on_tty "$TMP/answers" "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --yes --plan-integrity "$(integrity_for dst)"
expect_grep out '^EXIT 0'
expect_grep out 'supply the credential(s) now'
expect_grep out 'value for mcp.servers.fetch.headers.X-Api-Key (not echoed): '
expect_grep out '  set mcp.servers.fetch.headers.X-Api-Key'
expect_grep out '  skipped providers.models.anthropic.main.api_key'
grep -q 'sk-typed-on-the-terminal' "$TMP/out" && fail "the secret was echoed"
grep -q 'sk-typed-on-the-terminal' "$TMP/dst/config.toml" && fail "the secret is stored in plain text"
expect_status 0 "$CLAWPORT" secrets list --config "$TMP/dst/config.toml" --json
python3 - "$TMP/out" <<'PY' || fail "the supplied secret is not stored encrypted, or a skipped one is set"
import json, sys
states = {s["path"]: s["state"] for s in json.load(open(sys.argv[1]))["secrets"]}
assert states.pop("mcp.servers.fetch.headers.X-Api-Key") == "encrypted", states
assert "blank" in states.values() and "encrypted" not in states.values(), states
PY
expect_status 1 "$CLAWPORT" status --config "$TMP/dst/config.toml"
expect_grep out '10 secret(s) still blank:'

# every answer empty: nothing set, the config is the import's
fresh dst2
: >"$TMP/answers"
on_tty "$TMP/answers" "$CLAWPORT" import "$TMP/b" --config "$TMP/dst2/config.toml" --yes --plan-integrity "$(integrity_for dst2)"
expect_grep out '^EXIT 0'
expect_grep out '  skipped mcp.servers.fetch.headers.X-Api-Key'
expect_status 1 "$CLAWPORT" status --config "$TMP/dst2/config.toml"
expect_grep out '11 secret(s) still blank:'

# no terminal on standard input, or --json: no prompt
fresh dst3
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst3/config.toml" --yes --plan-integrity "$(integrity_for dst3)" </dev/null
grep -q 'supply the credential' "$TMP/out" "$TMP/err" && fail "prompted without a terminal"
fresh dst4
on_tty /dev/null "$CLAWPORT" import "$TMP/b" --config "$TMP/dst4/config.toml" --yes --plan-integrity "$(integrity_for dst4)" --json
expect_grep out '^EXIT 0'
grep -q 'not echoed' "$TMP/out" && fail "prompted with --json"
finish
