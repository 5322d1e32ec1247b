# SPDX-License-Identifier: MIT
# Issue 27 item 4, one consent flow for import and claw add/update/remove: without --yes
# the plan and the exact apply command (which, run as printed, applies it); --plan-out F
# keeps the plan and --yes --plan F consents to it; misuse is exit 2; nothing is written
# before consent.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
export HOME="$TMP/home"
unset OPENCLAW_STATE_DIR ZEROCLAW_CONFIG_DIR
mkdir -p "$HOME"
tree_sum() { (cd "$TMP" && find dst state home -printf '%p %s\n' 2>/dev/null | sort; cat dst/config.toml state/* 2>/dev/null) | sha256sum; }
apply_line() { sed -n 's/^nothing was written; to apply: //p; s/^the plan was written to .*, nothing else; to apply: //p' "$TMP/out"; }

cp -r "$REPO/examples/zeroclaw-install" "$TMP/src"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"
mkdir -p "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
cd "$TMP"  # relative words, as a person types them

# import: --dry-run and no flag alike show the plan and the exact command, write nothing
before=$(tree_sum)
expect_status 0 "$CLAWPORT" import b --config dst/config.toml --dry-run
expect_grep out '^nothing was written; to apply: clawport import b --config dst/config.toml --yes --plan-integrity sha256:[0-9a-f]\{64\}$'
dry=$(apply_line)
expect_status 0 "$CLAWPORT" import b --config dst/config.toml
[ "$(apply_line)" = "$dry" ] || { echo "FAIL: no flag and --dry-run differ"; failures=$((failures + 1)); }
# misuse: exit 2
expect_status 2 "$CLAWPORT" import b --config dst/config.toml --dry-run --yes --plan-integrity sha256:00
expect_status 2 "$CLAWPORT" import b --config dst/config.toml --yes --plan-out p.json --plan-integrity sha256:00
expect_status 2 "$CLAWPORT" import b --config dst/config.toml --plan p.json
# --plan-out keeps the reviewed plan; it is the --json plan
expect_status 0 "$CLAWPORT" import b --config dst/config.toml --plan-out import-plan.json
expect_grep out "^the plan was written to import-plan.json, nothing else; to apply: clawport import b --config dst/config.toml --yes --plan-integrity sha256:"
expect_status 0 "$CLAWPORT" import b --config dst/config.toml --json
cmp -s "$TMP/out" import-plan.json || { echo "FAIL: --plan-out is not the plan document"; failures=$((failures + 1)); }
[ "$(tree_sum)" = "$before" ] || { echo "FAIL: planning wrote into the install"; failures=$((failures + 1)); }
# --yes --plan F with another command's plan, or a plan that disagrees: refused, nothing written
printf '{"schemaVersion": "openclaw.clawAddPlan.v1", "planIntegrity": "sha256:00"}\n' >claw-plan.json
expect_status 2 "$CLAWPORT" import b --config dst/config.toml --yes --plan claw-plan.json
expect_grep err 'is not a plan of this command'
expect_status 2 "$CLAWPORT" import b --config dst/config.toml --yes --plan import-plan.json --plan-integrity sha256:00
[ "$(tree_sum)" = "$before" ] || { echo "FAIL: a refused import wrote"; failures=$((failures + 1)); }
# applied from the plan file
expect_status 0 "$CLAWPORT" import b --config dst/config.toml --yes --plan import-plan.json
expect_grep out 'imported agent `researcher` as `researcher`'

# claw add: the same flow; the printed command, run as printed, applies the plan
cp -r "$REPO/examples/openclaw-claw" pkg && chmod -R u+w pkg
before=$(tree_sum)
expect_status 0 "$CLAWPORT" claw add pkg --state-dir state --without-packages --dry-run
expect_grep out '^nothing was written; to apply: clawport claw add pkg --state-dir state --without-packages --yes --plan-integrity sha256:'
add_cmd=$(apply_line)
[ "$(tree_sum)" = "$before" ] || { echo "FAIL: claw add --dry-run wrote"; failures=$((failures + 1)); }
expect_status 0 bash -c "PATH='$(dirname "$CLAWPORT")':\$PATH; $add_cmd"
expect_grep out 'Added agent incident-triage'

# claw remove with a plan file; claw update from the same package changes nothing, so it
# shows no apply command (issue 44 item 11)
expect_status 0 "$CLAWPORT" claw update incident-triage --state-dir state --from pkg
expect_grep out '^nothing to apply: incident-triage is up to date with its package$'
grep -q 'to apply: clawport' "$TMP/out" && { echo "FAIL: a no-op update printed an apply command"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw remove incident-triage --state-dir state --plan-out remove-plan.json
expect_grep out 'the plan was written to remove-plan.json'
expect_status 2 "$CLAWPORT" claw remove incident-triage --state-dir state --yes --plan import-plan.json
expect_grep err 'is not a plan of this command'
[ -d state/workspace-incident-triage ] || { echo "FAIL: a refused remove removed"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw remove incident-triage --state-dir state --yes --plan remove-plan.json
expect_grep out 'Removed incident-triage'
finish
