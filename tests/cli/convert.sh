# SPDX-License-Identifier: MIT
# `clawport convert` end to end: the example install's `researcher` to a Claw package that
# `claw inspect` accepts and `claw plan` plans clean (with --allow-narrowing; refused
# without, nothing written), the example Claw package to a bundle that verifies and imports
# into an empty install, --dry-run and --json, byte-identical output under SOURCE_DATE_EPOCH,
# and bad usage.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

cp -r "$REPO/examples/zeroclaw-install" "$TMP/inst"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/inst/config.toml" --out "$TMP/rb"

# the guarded profile cannot be expressed as strictly: refused, nothing written
expect_status 1 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc"
expect_grep err 'allow-narrowing'
[ ! -e "$TMP/rc" ] || { echo "FAIL: a refusal wrote"; failures=$((failures + 1)); }
expect_status 1 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc" --json
expect_grep out '"code": "config_invalid"'

# the dry run reports and writes nothing
expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc" --allow-narrowing --dry-run
expect_grep out 'dry run, nothing written'
[ ! -e "$TMP/rc" ] || { echo "FAIL: the dry run wrote"; failures=$((failures + 1)); }

expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc" --allow-narrowing
expect_grep out 'narrowed  risk_profiles.guarded.allowed_commands'
expect_grep out 'dropped  providers.models.anthropic.main'
[ -f "$TMP/rc/CONVERSION.md" ] || { echo "FAIL: no CONVERSION.md"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw inspect "$TMP/rc"
expect_grep out 'is valid'
mkdir -p "$TMP/home"
HOME="$TMP/home" expect_status 0 "$CLAWPORT" claw plan "$TMP/rc" --state-dir "$TMP/home/.openclaw"
expect_grep out 'Readiness: ready'
# no secret of the install reaches the package
if grep -rq 'enc2:' "$TMP/rc"; then echo "FAIL: ciphertext in the package"; failures=$((failures + 1)); fi
# the destination now exists: a second conversion to it is refused
expect_status 1 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc" --allow-narrowing
expect_grep err 'not empty'

# determinism: the same input and SOURCE_DATE_EPOCH give the same bytes
expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc2" --allow-narrowing --json
expect_grep out '"losses": \['
diff -r "$TMP/rc" "$TMP/rc2" >/dev/null || { echo "FAIL: not deterministic"; failures=$((failures + 1)); }

# the example Claw package to a bundle: verifies, imports into an empty install
expect_status 0 "$CLAWPORT" convert "$REPO/examples/openclaw-claw" --to zeroclaw --out "$TMP/zb"
expect_grep out 'dropped  \$.packages\[0\]'
expect_status 0 "$CLAWPORT" verify "$TMP/zb"
expect_grep out 'every byte matches its digest list'
mkdir -p "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/zb" --config "$TMP/dst/config.toml"
expect_grep out 'installed as: incident_triage'
expect_grep out 'zeroclaw config set mcp.servers.statuspage.env.STATUSPAGE_TOKEN'
expect_status 0 "$CLAWPORT" convert "$REPO/examples/openclaw-claw" --to zeroclaw --out "$TMP/zb2"
diff -r "$TMP/zb" "$TMP/zb2" >/dev/null || { echo "FAIL: not deterministic"; failures=$((failures + 1)); }

# bad usage
expect_status 2 "$CLAWPORT" convert "$TMP/rb" --to nowhere --out "$TMP/x"
expect_status 2 "$CLAWPORT" convert "$TMP/rb" --to claw
expect_status 2 "$CLAWPORT" convert
expect_status 0 "$CLAWPORT" convert --help
finish
