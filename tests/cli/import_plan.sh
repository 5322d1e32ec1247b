# SPDX-License-Identifier: MIT
# Issue 27 items 3 and 7, the import plan tells the operator their choices: a rename says
# which entry or directory the name collides with and suggests --map (or --as for the
# agent), and the suggestion works. Planning writes nothing.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
snap() { (cd "$1" && find . -printf '%p %s %T@\n' | sort) | sha256sum; }
cp -r "$REPO/examples/zeroclaw-install" "$TMP/src"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"

# ---- item 7: a rename says why --------------------------------------------------------
# into the install it came from: the risk profile differs (its approval route stayed home),
# the skill bundles and the agent exist
before=$(snap "$TMP/src")
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/src/config.toml"
expect_grep out 'rename risk_profile guarded -> guarded_imported: the target already has a risk_profile `guarded` that differs from the bundle'"'"'s (to use the target'"'"'s instead: --map risk_profile.guarded=guarded)'
expect_grep out 'rename skill_bundle research_tools -> research_tools_imported: the target already has a skill_bundle `research_tools` (to use the target'"'"'s instead: --map skill_bundle.research_tools=research_tools)'
expect_grep out 'rename agent researcher -> researcher_imported: the target already has an agent `researcher` (to choose the name yourself: --as <alias>)'
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/src/config.toml" --json
python3 - "$TMP/out" <<'PY' || fail "the JSON entries do not carry the reasons"
import json, sys
entries = json.load(open(sys.argv[1]))["entries"]
renames = [e for e in entries if e["action"] == "rename"]
assert renames and all("reason" in e for e in renames), renames
assert all("reason" not in e for e in entries if e["action"] != "rename"), entries
PY
# the suggestion, followed, works: the entry is mapped instead of renamed
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/src/config.toml" --map risk_profile.guarded=guarded --as scout
expect_grep out '  map risk_profile guarded -> guarded$'
expect_grep out '  rename agent researcher -> scout: named by --as$'
grep -q 'guarded_imported' "$TMP/out" && fail "the mapped profile is still renamed"
[ "$(snap "$TMP/src")" = "$before" ] || fail "planning wrote into the source install"

# a workspace directory in the way (no entry of that name): the reason names the directory
mkdir -p "$TMP/dst/agents/researcher/workspace" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
printf 'mine\n' >"$TMP/dst/agents/researcher/workspace/notes.md"
before=$(snap "$TMP/dst")
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml"
expect_grep out 'rename agent researcher -> researcher_imported: agents/researcher/workspace exists on the target and is not empty (to choose the name yourself: --as <alias>)'
[ "$(snap "$TMP/dst")" = "$before" ] || fail "planning wrote into the target"
finish
