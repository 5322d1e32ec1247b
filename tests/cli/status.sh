# SPDX-License-Identifier: MIT
# `clawport status` (issue 27 item 2): a fresh install has nothing pending (exit 0); after
# an import the agent shows where it came from and its blank secrets are pending (exit 1)
# until supplied; an invalid config and the leftovers of a killed command are pending, each
# leftover with the `clawport recover` line that clears it. status never writes.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
listing() { (cd "$1" && find . | sort); }

mkdir -p "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
expect_status 0 "$CLAWPORT" status --config "$TMP/dst/config.toml"
expect_grep out '0 agent(s):'
expect_grep out 'config: validates'
expect_grep out 'nothing pending'

# the example install's researcher, imported: where it came from, its blank secrets
cp -r "$REPO/examples/zeroclaw-install" "$TMP/src"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --json
integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
manifest=$(sed -n 's/.*"manifest_sha256": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --yes --plan-integrity "$integrity"
expect_status 1 "$CLAWPORT" status --config "$TMP/dst/config.toml"
expect_grep out "researcher  imported 2026-08-12T00:04:00+00:00 from $TMP/b (agent \`researcher\`, manifest $manifest)"
expect_grep out '11 secret(s) still blank:'
expect_grep out '^  left blank by an import:$'
expect_grep out "^    clawport secrets set providers.models.anthropic.main.api_key --config $TMP/dst/config.toml\$"
line=$(grep -m1 'clawport secrets set providers.models.anthropic.main.api_key' "$TMP/out" | sed 's/  (an import.*//; s/^ *clawport //')
expect_status 1 "$CLAWPORT" status --config "$TMP/dst/config.toml" --json
python3 - "$TMP/out" "$TMP/b/zeroclaw-agent.toml" "$manifest" <<'PY' || fail "the JSON status"
import json, sys, tomllib
st = json.load(open(sys.argv[1]))
required = tomllib.load(open(sys.argv[2], "rb"))["required_secrets"]
assert st["pending"] is True and st["valid"] is True, st
[a] = st["agents"]
assert a["alias"] == "researcher" and a["imported"]["manifest_sha256"] == sys.argv[3], a
assert a["imported"]["source_alias"] == "researcher", a
assert sorted(b["path"] for b in st["blank_secrets"]) == sorted(required), st["blank_secrets"]
assert all(b["source"] == "import" for b in st["blank_secrets"]), st["blank_secrets"]
PY
# the line as shown, pasted (clawport as built), sets that secret: one fewer is blank
eval "set -- $line"
expect_status 0 "$CLAWPORT" "$@" <<<'sk-pasted'
expect_status 1 "$CLAWPORT" status --config "$TMP/dst/config.toml"
expect_grep out '10 secret(s) still blank:'

# the secrets supplied (every blank string of the imported tables): nothing pending
python3 - "$TMP/dst/config.toml" <<'PY'
import sys
p = sys.argv[1]
t = open(p, encoding="utf-8").read()
head, sep, tail = t.partition("# Imported by clawport")
open(p, "w", encoding="utf-8").write(head + sep + tail.replace('""', '"supplied-for-test"'))
PY
expect_status 0 "$CLAWPORT" status --config "$TMP/dst/config.toml"
expect_grep out 'nothing pending'

# a blank secret the ledger does not record is pending too (the schema marks it)
cp "$TMP/dst/config.toml" "$TMP/dst/config.keep"
cat >>"$TMP/dst/config.toml" <<'TOML'

[providers.models.openai.spare]
api_key = ""
model = "gpt-4o-mini"
TOML
expect_status 1 "$CLAWPORT" status --config "$TMP/dst/config.toml" --json
python3 -c 'import json,sys; st=json.load(open(sys.argv[1])); assert {"path": "providers.models.openai.spare.api_key", "source": "schema"} in st["blank_secrets"], st' "$TMP/out" ||
  fail "a blank secret the ledger does not record is not listed"
cp "$TMP/dst/config.keep" "$TMP/dst/config.toml" && rm "$TMP/dst/config.keep"

# an invalid config is pending, naming its problem
printf '\n[agents.broken]\nrisk_profile = "missing"\n' >>"$TMP/dst/config.toml"
expect_status 1 "$CLAWPORT" status --config "$TMP/dst/config.toml"
expect_grep out 'config: does not validate: .*agents.broken'
expect_grep out '  broken$'

# a hand-written comment that looks like a provenance line is not taken for one
printf '\n# Imported by clawport by hand: agent `broken`\n' >>"$TMP/dst/config.toml"
expect_status 1 "$CLAWPORT" status --config "$TMP/dst/config.toml" --json
python3 -c 'import json,sys; st=json.load(open(sys.argv[1])); assert [a["imported"] for a in st["agents"] if a["alias"]=="broken"] == [None], st' "$TMP/out" ||
  fail "a hand-written comment was read as provenance"
python3 - "$TMP/dst/config.toml" <<'PY'
import sys
p = sys.argv[1]
t = open(p, encoding="utf-8").read()
open(p, "w", encoding="utf-8").write(t[: t.index("\n[agents.broken]")] + "\n")
PY
expect_status 0 "$CLAWPORT" status --config "$TMP/dst/config.toml"

# leftovers of killed commands: each listed with its recover line, which clears it
mkdir "$TMP/dst/agents/researcher/.clawport-import-0123456789ab-workspace"
printf 'x' >"$TMP/dst/.config.toml.tmp-AbC123"
mkdir "$TMP/dst/shared/skills/.clawport-stage-XyZ789"
expect_status 1 "$CLAWPORT" status --config "$TMP/dst/config.toml"
expect_grep out '3 leftover(s) of interrupted commands:'
expect_grep out "clawport recover $TMP/dst/agents/researcher/workspace"
expect_grep out "clawport recover $TMP/dst/config.toml"
expect_grep out "clawport recover $TMP/dst/shared/skills/.clawport-stage-XyZ789"
grep -o 'clawport recover .*' "$TMP/out" | sed 's/^clawport //' >"$TMP/recover"
while read -r cmd; do
  # shellcheck disable=SC2086
  expect_status 0 "$CLAWPORT" $cmd
done <"$TMP/recover"
expect_status 0 "$CLAWPORT" status --config "$TMP/dst/config.toml"
expect_grep out 'nothing pending'

# status never writes; a missing config is refused naming it
mkdir -p "$TMP/none"
expect_status 1 "$CLAWPORT" status --config "$TMP/none/config.toml" --json
expect_grep out '"code": "not_found"'
[ -z "$(ls -A "$TMP/none")" ] || fail "status wrote into an install without a config"
listing "$TMP/dst" >"$TMP/one"
"$CLAWPORT" status --config "$TMP/dst/config.toml" >/dev/null 2>&1
"$CLAWPORT" status --config "$TMP/dst/config.toml" --json >/dev/null 2>&1
listing "$TMP/dst" >"$TMP/two"
diff "$TMP/one" "$TMP/two" || fail "status wrote into the install"
expect_status 2 "$CLAWPORT" status --config ""
finish
