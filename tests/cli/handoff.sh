# SPDX-License-Identifier: MIT
# Issue 27's closing hand-off, end to end as a new user runs it: the example's `researcher`
# exported, verified, imported into a fresh install (the plan first, then the apply line it
# prints, run as printed), every blank secret supplied with `clawport secrets set` (the value
# on standard input), and `clawport status` then exits 0 with nothing pending.
. "$(dirname "$0")/lib.sh"

export SOURCE_DATE_EPOCH=1786493040
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cp -r "$REPO/examples/zeroclaw-install" "$TMP/src"
mkdir -p "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
cd "$TMP"

expect_status 0 "$CLAWPORT" export researcher --config src/config.toml --out bundle
expect_grep out "exported agent \`researcher\` to bundle"
expect_status 0 "$CLAWPORT" verify bundle
expect_grep out 'every byte matches its digest list'

# The plan writes nothing and ends with the exact command that applies it.
cp dst/config.toml config.before
expect_status 0 "$CLAWPORT" import bundle --config dst/config.toml
cmp -s dst/config.toml config.before || fail "the import plan wrote the config"
apply=$(sed -n 's/^nothing was written; to apply: clawport //p' "$TMP/out")
[ -n "$apply" ] || fail "the import plan printed no apply line"
eval "set -- $apply"
expect_status 0 "$CLAWPORT" "$@"
expect_grep out "imported agent \`researcher\` as \`researcher\`"
expect_grep out 'credential(s) to supply after the import'

# Pending until every blank secret is supplied.
expect_status 1 "$CLAWPORT" status --config dst/config.toml --json
blank=$(python3 -c 'import json,sys; print(" ".join(b["path"] for b in json.load(open(sys.argv[1]))["blank_secrets"]))' "$TMP/out")
[ "$(echo "$blank" | wc -w)" = 11 ] || fail "expected the example's 11 blank secrets, got: $blank"
for path in $blank; do
  expect_status 0 "$CLAWPORT" secrets set "$path" --config dst/config.toml <<<"handoff-$path"
done
expect_status 0 "$CLAWPORT" secrets list --config dst/config.toml
[ "$(grep -c '^  encrypted ' "$TMP/out")" = 11 ] || { fail "not every secret is stored encrypted"; cat "$TMP/out"; }
! grep -q 'handoff-' dst/config.toml || fail "a secret value is in the config in plain text"

expect_status 0 "$CLAWPORT" status --config dst/config.toml
expect_grep out 'config: validates'
expect_grep out 'nothing pending'
expect_grep out "researcher  imported "
finish
