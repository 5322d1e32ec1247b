# SPDX-License-Identifier: MIT
# Issue 27 item 5, errors in one language: every `--json` failure prints one JSON object on
# stdout carrying error {code, message, subject} (OpenClaw documents keep their fields and
# gain `subject`), the human line goes to stderr; exit 1 refused/failed, 2 usage (also
# `--yes` without an integrity, a malformed `--map`, an empty `--as`). Nothing is written.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
export HOME="$TMP/home"
unset OPENCLAW_STATE_DIR ZEROCLAW_CONFIG_DIR
mkdir -p "$HOME"

# one_error <code> [subject]: stdout is exactly one JSON object whose `error` has the three
# members, with this code (and this subject when given).
one_error() {
  python3 - "$TMP/out" "$@" <<'PY' || { echo "FAIL: not one error document with $1"; cat "$TMP/out"; failures=$((failures + 1)); }
import json, sys
doc = json.loads(open(sys.argv[1]).read())  # one document, nothing after it
e = doc["error"]
assert set(["code", "message", "subject"]) <= set(e), e
assert e["code"] == sys.argv[2], e
assert e["message"], e
if len(sys.argv) > 3:
    assert e["subject"] == sys.argv[3], e
PY
}
unchanged() {  # <label>: the trees are as they were
  [ "$(cd "$TMP" && find dst state -printf '%p %s %T@\n' | sort | sha256sum)" = "$before" ] ||
    { echo "FAIL: $1 wrote something"; failures=$((failures + 1)); }
}

cp -r "$REPO/examples/zeroclaw-install" "$TMP/src"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"
mkdir -p "$TMP/dst" "$TMP/state" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
before=$(cd "$TMP" && find dst state -printf '%p %s %T@\n' | sort | sha256sum)

# Failures (exit 1): the document on stdout, the human line on stderr.
expect_status 1 "$CLAWPORT" import "$TMP/b" --config "$TMP/none.toml" --json
one_error not_found "$TMP/none.toml"
expect_grep err '^clawport: error: the config .* does not exist; create the install first'
expect_status 1 "$CLAWPORT" export nobody --config "$TMP/src/config.toml" --out "$TMP/x" --json
one_error unknown_agent
cp -r "$TMP/b" "$TMP/broken" && printf 'x\n' >>"$TMP/broken/zeroclaw-agent.toml"
expect_status 1 "$CLAWPORT" verify "$TMP/broken" --json
one_error bundle_invalid zeroclaw-agent.toml
expect_grep out '"findings"'
expect_status 1 "$CLAWPORT" skills audit "$TMP/nothing-here" --json
one_error audit_blocked "$TMP/nothing-here"

# Usage (exit 2): an error document too, code and subject named.
expect_status 2 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --yes --json
one_error plan_integrity_required --plan-integrity
expect_status 2 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --map bogus --json
one_error invalid_argument bogus
expect_status 2 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --map nokind.a=b
expect_grep err 'unknown kind `nokind`'
expect_status 2 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --as "" --json
one_error invalid_argument
expect_status 2 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --plan-integrity sha256:00
expect_grep err 'need --yes'
expect_status 2 "$CLAWPORT" no-such-command --json
one_error invalid_argument
unchanged "a refused import"

# OpenClaw documents keep their upstream fields and gain `subject`.
cp -r "$REPO/examples/openclaw-claw" "$TMP/pkg" && chmod -R u+w "$TMP/pkg"
mkdir -p "$TMP/bad"  # an empty directory: no package.json, no CLAW.md
expect_status 1 "$CLAWPORT" claw inspect "$TMP/bad" --json
one_error package_read_failed "$TMP/bad"
expect_grep out '"schemaVersion": "openclaw.clawInspect.v1"'
expect_grep out '"valid": false'
expect_status 1 "$CLAWPORT" claw status nobody --state-dir "$TMP/state" --json
one_error claw_not_found nobody
expect_status 2 "$CLAWPORT" claw remove nobody --state-dir "$TMP/state" --yes --json
one_error plan_integrity_required --plan-integrity
expect_grep out '"schemaVersion": "openclaw.clawRemoveResult.v1"'
expect_status 2 "$CLAWPORT" claw add "$TMP/pkg" --state-dir "$TMP/state" --yes --json
one_error plan_integrity_required --plan-integrity
expect_status 1 "$CLAWPORT" claw add "$TMP/pkg" --state-dir "$TMP/state" --without-packages --yes \
  --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000000 --json
one_error plan_integrity_mismatch "$TMP/pkg"
expect_grep out '"planIntegrity": "sha256:'
# a human refusal goes to stderr, stdout stays empty
expect_status 1 "$CLAWPORT" claw add "$TMP/pkg" --state-dir "$TMP/state" --without-packages --yes \
  --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000000
expect_grep err '^clawport: error: plan_integrity_mismatch'
[ ! -s "$TMP/out" ] || { echo "FAIL: a refusal on stdout"; cat "$TMP/out"; failures=$((failures + 1)); }
unchanged "a refused claw command"
finish
