# SPDX-License-Identifier: MIT
# Issue 27 item 7, convert's messages: --dry-run shows the whole loss report even when the
# real run would refuse a narrowing (then the refusal, exit 1); a converted Claw never
# holds two skills of one name (the one ZeroClaw shadows is dropped and said; a skills/
# directory two skills of different names would share is refused naming both). Refusals
# write nothing.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cp -r "$REPO/examples/zeroclaw-install" "$TMP/src"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"

# --dry-run that ends in a narrowing refusal: the report, then the refusal
expect_status 1 "$CLAWPORT" convert "$TMP/b" --to claw --out "$TMP/c" --dry-run
expect_grep out '^Would refuse to convert the ZeroClaw agent bundle of `researcher` to an OpenClaw Claw package (agent id `researcher`) at .* without --allow-narrowing (dry run, nothing written)'
expect_grep out '    narrowed  risk_profiles.guarded.allowed_commands: '
expect_grep out '    dropped  mcp.servers.github: '
expect_grep err 'clawport: error: OpenClaw cannot express risk_profiles.guarded.allowed_commands as strictly as the source: .*Pass --allow-narrowing'
[ -e "$TMP/c" ] && fail "a dry run wrote --out"
expect_status 1 "$CLAWPORT" convert "$TMP/b" --to claw --out "$TMP/c" --dry-run --json
python3 - "$TMP/out" <<'PY' || fail "the JSON dry run is not the report with the error"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["dry_run"] is True and d["counts"]["narrowed"] == 1, d["counts"]
assert d["error"]["code"] == "config_invalid", d["error"]
assert d["error"]["subject"] == "risk_profiles.guarded.allowed_commands", d["error"]
PY
[ -e "$TMP/c" ] && fail "a dry run wrote --out"
# with --allow-narrowing the dry run succeeds, and the real run without it still refuses
expect_status 0 "$CLAWPORT" convert "$TMP/b" --to claw --out "$TMP/c" --dry-run --allow-narrowing
expect_grep out '^Would convert '
expect_status 1 "$CLAWPORT" convert "$TMP/b" --to claw --out "$TMP/c"
expect_grep err 'OpenClaw cannot express risk_profiles.guarded.allowed_commands'
grep -q 'narrowed' "$TMP/out" && fail "the real run printed a report before refusing"
[ -e "$TMP/c" ] && fail "a refused conversion wrote --out"

# the researcher's own citation-check (name citation_check) shadows research_tools'
# citation_check on ZeroClaw: the Claw carries the workspace's only, and says so
expect_status 0 "$CLAWPORT" convert "$TMP/b" --to claw --out "$TMP/c" --allow-narrowing
expect_grep out '    dropped  skills/research_tools/citation_check: its name `citation_check` is also the skill at workspace/skills/citation-check, which comes first on ZeroClaw (this one is shadowed there); a Claw holding both would have two skills of that name, so it is not carried (to keep both, give one another `name` in its manifest)'
[ -e "$TMP/c/workspace/skills/citation_check" ] && fail "the shadowed skill was carried"
[ -f "$TMP/c/workspace/skills/citation-check/SKILL.md" ] || fail "the workspace's skill is missing"
[ -f "$TMP/c/workspace/skills/arxiv_search/SKILL.md" ] || fail "a bundle skill is missing"
grep -rl '^name: citation_check' "$TMP/c/workspace/skills" | wc -l | grep -qx 1 || fail "two skills named citation_check"

# a workspace skill whose directory is a bundle skill's, under another name: refused
mkdir -p "$TMP/src/agents/researcher/workspace/skills/arxiv_search"
printf -- '---\nname: arxiv_local\ndescription: the local one\n---\n# local\n' \
  >"$TMP/src/agents/researcher/workspace/skills/arxiv_search/SKILL.md"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b2"
expect_status 1 "$CLAWPORT" convert "$TMP/b2" --to claw --out "$TMP/c2" --allow-narrowing
expect_grep err 'the converted Claw would hold workspace/skills/arxiv_search and skills/research_tools/arxiv_search both at workspace skills/arxiv_search/ (skills of different names); rename one of the two directories in the source install and export again; nothing was written'
[ -e "$TMP/c2" ] && fail "the refused conversion wrote --out"
finish
