# SPDX-License-Identifier: MIT
# Issue 27 item 6: NO_COLOR (set, not empty) and TERM=dumb turn the ✓/✗ marks of human output
# into `ok`/`FAIL`; bare `clawport` prints the help.
. "$(dirname "$0")/lib.sh"
EX="$REPO/examples/zeroclaw-install"
SKILL="$EX/shared/skills/research_tools/arxiv_search"
no_marks() {
  if grep -q -e '✓' -e '✗' "$TMP/out"; then
    echo "FAIL: $1 printed a mark"; cat "$TMP/out"; failures=$((failures + 1))
  fi
}

expect_status 0 "$CLAWPORT" skills audit "$SKILL"
expect_grep out '✓ Skill audit passed'
expect_status 0 env NO_COLOR=1 "$CLAWPORT" skills audit "$SKILL"
expect_grep out '^  ok Skill audit passed'
no_marks NO_COLOR
expect_status 0 env TERM=dumb "$CLAWPORT" skills audit "$SKILL"
expect_grep out '^  ok Skill audit passed'
no_marks TERM=dumb
expect_status 0 env NO_COLOR= "$CLAWPORT" skills audit "$SKILL"  # empty: not set (no-color.org)
expect_grep out '✓ Skill audit passed'

# a failing skill test: FAIL in plain text
I="$TMP/install"
mkdir -p "$I/shared/skills/ops/check"
printf '[agents.default]\nskill_bundles = ["ops"]\n\n[skills]\nallow_scripts = true\n\n[skill_bundles.ops]\n' >"$I/config.toml"
printf -- '---\nname: check\ndescription: checks\n---\n# check\n' >"$I/shared/skills/ops/check/SKILL.md"
printf 'true | 0 |\nfalse | 0 |\n' >"$I/shared/skills/ops/check/TEST.sh"
expect_status 1 env TERM=dumb "$CLAWPORT" skills test check --yes --config "$I/config.toml"
expect_grep out '^  FAIL check'
expect_grep out '^  FAIL 1 of 2 test(s) failed'
no_marks "skills test"
expect_status 1 "$CLAWPORT" skills test check --yes --config "$I/config.toml"
expect_grep out '✗ check'

# bare clawport: the help on stdout, exit 0
expect_status 0 "$CLAWPORT"
expect_grep out '^Usage: clawport'
finish
