# SPDX-License-Identifier: MIT
# Issue 27 items 3 and 7, the import plan tells the operator their choices: a rename says
# which entry or directory the name collides with and suggests --map (or --as for the
# agent), and the suggestion works; the model providers the plan adds are offered the
# target's own as --map choices. Planning writes nothing.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
snap() { tree_state "$1" --mtime; }
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
# ---- item 3: --map choices for a model provider -----------------------------------------
# a target with a model provider of its own: each model provider the plan adds is offered it
mkdir -p "$TMP/mp" && cat >"$TMP/mp/config.toml" <<'TOML'
schema_version = 3

[providers.models.ollama.mine]
model = "llama3.1"
uri = "http://127.0.0.1:11434"
TOML
before=$(snap "$TMP/mp")
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/mp/config.toml"
expect_grep out "the target's own could serve instead (plan again with one --map per choice):"
expect_grep out '  model_provider anthropic.main: --map model_provider.anthropic.main=<one of: ollama.mine>'
expect_grep out 'clawport secrets set providers.models.anthropic.main.api_key'
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/mp/config.toml" --json
python3 - "$TMP/out" <<'PY' || fail "the JSON map_options"
import json, sys
d = json.load(open(sys.argv[1]))
added = [e["from"] for e in d["entries"] if e["kind"] == "model_provider" and e["action"] == "add"]
assert [m["from"] for m in d["map_options"]] == added, d["map_options"]
assert all(m["local"] == ["ollama.mine"] for m in d["map_options"]), d["map_options"]
PY
# the choice, followed: mapped, and its credential is no longer the operator's to supply
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/mp/config.toml" --map model_provider.anthropic.main=ollama.mine
expect_grep out '  map model_provider anthropic.main -> ollama.mine$'
grep -q 'model_provider.anthropic.main=<one of' "$TMP/out" && fail "a mapped provider is still offered"
grep -q 'secrets set providers.models.anthropic.main.api_key' "$TMP/out" && fail "the mapped provider's secret is still to supply"
# an empty target has nothing to offer
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml"
grep -q "the target's own could serve" "$TMP/out" && fail "choices offered from an install with no model provider"
[ "$(snap "$TMP/mp")" = "$before" ] || fail "planning wrote into the target"
finish
