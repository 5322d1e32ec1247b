# SPDX-License-Identifier: MIT
# Issue 44: the rough edges a new user hits. Items 2 (a refused plan on a terminal exits 1;
# --plan-integrity malformed; claw status naming no Claw), 3 (NO_COLOR/TERM=dumb drop the emoji
# markers), 4 (-V, `help <command>`, summaries), 5-6 (skills install: the fix for a TEST.sh,
# a local checkout's .git left out), 8 (secrets set adds a missing api_key line; one backup per
# run), 11 (no "pass --force" for a library caller; verify's sizes say what they count), 12
# (--strict). The terminal is a pseudo-terminal from python3's pty module.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
EX="$REPO/examples/zeroclaw-install"
cp -r "$EX" "$TMP/src"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"

# --- item 2: answering n at `apply this plan? [y/N]` exits 1 (terraform), nothing written
fresh dst
printf 'n\n' >"$TMP/answers"
on_tty "$TMP/answers" "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml"
expect_grep out 'apply this plan? \[y/N\]'
expect_grep out '^EXIT 1'
expect_grep out 'nothing was written'
[ "$(ls -A "$TMP/dst")" = config.toml ] || fail "a declined import wrote"
# a malformed --plan-integrity is told as malformed (bad usage), not as "the plan changed"
expect_status 2 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --yes --plan-integrity sha256:0000
expect_grep err 'clawport: error: --plan-integrity sha256:0000 is malformed'
grep -q 'plan changed\|no longer matches' "$TMP/err" && fail "a malformed integrity was told as a changed plan"
expect_status 2 "$CLAWPORT" claw remove x --state-dir "$TMP/st" --yes --plan-integrity sha256:0000 --json
expect_grep out '"code": "invalid_argument"'
# `ERROR code:` of an OpenClaw failure is told as every clawport failure
mkdir -p "$TMP/st"
expect_status 1 "$CLAWPORT" claw export nobody --out "$TMP/cx" --state-dir "$TMP/st"
expect_grep err '^clawport: error: '
grep -q '^ERROR ' "$TMP/err" && fail "a claw failure still opens with ERROR"

# --- item 1: removing the previous bundle is a phase of the progress line on a terminal,
# never quiet (after the report: tests/cli/newuser.sh); not in a pipe
: >"$TMP/none"
on_tty "$TMP/none" "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b" --force
expect_grep out '^EXIT 0'
expect_grep out "removing the previous bundle at $TMP/b (the new one is in place)"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b" --force
grep -q 'publishing\|removing' "$TMP/err" && fail "the progress line was printed into a pipe"

# --- item 7: claw status of a target that matches nothing
expect_status 1 "$CLAWPORT" claw status nobody --state-dir "$TMP/st"
expect_grep err 'clawport: error: no Claw matches `nobody`'
grep -q 'No Claws installed' "$TMP/out" "$TMP/err" && fail "claw status nobody said No Claws installed"
expect_status 0 "$CLAWPORT" claw status --state-dir "$TMP/st"
expect_grep out 'No Claws installed.'

# --- item 3: NO_COLOR (set, not empty) and TERM=dumb: no emoji markers, plain words
emoji='⚠️\|🔑\|ℹ️\|🏠'
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b2"
expect_grep out '🔑'
for plain in NO_COLOR=1 TERM=dumb; do
  expect_status 0 env "$plain" "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b2" --force
  grep -q "$emoji" "$TMP/out" && fail "$plain: export printed an emoji marker"
  expect_grep out '^warning: [0-9]* capability grant(s)'
  expect_grep out '^credentials: [0-9]* credential(s) were scrubbed'
  expect_grep out '^note: [0-9]* item(s) could not travel'
  expect_grep out '^host-local: [0-9]* setting(s) travel and only mean something on this host'
  grep -q 'host-local: [0-9]* host-local' "$TMP/out" && fail "$plain: the host-local line repeats its word"
done
expect_status 0 env NO_COLOR= "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b2" --force
expect_grep out '🔑'  # empty: not set (no-color.org)

# counted nouns in their number: "1 file scanned", not "1 files scanned"
mkdir -p "$TMP/one"
printf -- '---\nname: one\ndescription: a one-file skill\n---\n# One\n' >"$TMP/one/SKILL.md"
expect_status 0 "$CLAWPORT" skills audit "$TMP/one"
expect_grep out '(1 file scanned)\.'

# --- item 4: -V, help <command>, one style of summaries, true descriptions
expect_status 0 "$CLAWPORT" -V
expect_grep out '^clawport [0-9]'
expect_status 0 "$CLAWPORT" help export
expect_grep out '^Usage: clawport export'
expect_status 0 "$CLAWPORT" help skills bundle add
expect_grep out '^Usage: clawport skills bundle add'
expect_status 2 "$CLAWPORT" help bogus
expect_grep err "unknown command 'bogus'"
expect_status 0 "$CLAWPORT" --help
sed -n '/^Subcommands:/,$p' "$TMP/out" | grep -q '^  [a-z]\+  \+[a-z]' && fail "a summary starts in lowercase"
expect_grep out 'skills  *Manage ZeroClaw skills'
expect_status 0 "$CLAWPORT" verify --help
grep -A2 -e '--jobs' "$TMP/out" | grep -q copy && fail "verify --jobs says it copies"

# --- item 11: verify says what its sizes count; the library's not-empty refusal names no flag
expect_status 0 "$CLAWPORT" verify "$TMP/b"
expect_grep out "^verified $TMP/b: agent "'`researcher`, [0-9]* file(s) in all, [0-9]* KiB in all'
expect_status 1 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"
expect_grep err 'replacing its contents needs the force option (--force)'
grep -rq 'pass --force' "$REPO/include" && fail "a library text tells a C++ caller to pass --force"

# --- item 12: --strict refuses a bundle without a digest list; the warning says it exists
cp -r "$TMP/b" "$TMP/bu" && rm "$TMP/bu/zeroclaw-agent.sha256"
expect_status 0 "$CLAWPORT" verify "$TMP/bu"
expect_grep out 'warning unauthenticated .*--strict refuses such a bundle'
expect_status 1 "$CLAWPORT" verify "$TMP/bu" --strict
expect_grep out 'error unauthenticated'
expect_status 1 "$CLAWPORT" verify "$TMP/bu" --strict --json
expect_grep out '"ok": false'
fresh dst
expect_status 1 "$CLAWPORT" import "$TMP/bu" --config "$TMP/dst/config.toml" --strict
expect_grep err 'unauthenticated'
expect_status 0 "$CLAWPORT" import "$TMP/bu" --config "$TMP/dst/config.toml" --dry-run
[ "$(ls -A "$TMP/dst")" = config.toml ] || fail "a strict refusal wrote"

# --- items 5-6: skills install of a skill with a TEST.sh names the fix; a checkout's .git
I="$TMP/si"
mkdir -p "$I/shared/skills/ops" "$TMP/skill/lint"
printf 'schema_version = 3\n\n[skill_bundles.ops]\n' >"$I/config.toml"
printf -- '---\nname: lint\ndescription: lints\n---\n# lint\n' >"$TMP/skill/lint/SKILL.md"
printf 'true | 0 |\n' >"$TMP/skill/lint/TEST.sh"
expect_status 1 "$CLAWPORT" skills install "$TMP/skill/lint" --config "$I/config.toml" --bundle ops
expect_grep err 'allow_scripts = true` in config.toml, or for this install alone by allow_scripts: --allow-scripts'
[ -e "$I/shared/skills/ops/lint" ] && fail "a refused install wrote"
expect_status 0 "$CLAWPORT" skills install "$TMP/skill/lint" --config "$I/config.toml" --bundle ops --allow-scripts
[ -f "$I/shared/skills/ops/lint/TEST.sh" ] || fail "--allow-scripts did not install the TEST.sh"
mkdir -p "$TMP/skill/gitted"
printf -- '---\nname: gitted\ndescription: from a checkout\n---\n# gitted\n' >"$TMP/skill/gitted/SKILL.md"
git -C "$TMP/skill/gitted" init -q
git -C "$TMP/skill/gitted" config remote.origin.url https://user:token@example.org/r.git
expect_status 0 "$CLAWPORT" skills install "$TMP/skill/gitted" --config "$I/config.toml" --bundle ops
expect_grep err "left out $TMP/skill/gitted/.git"
[ -e "$I/shared/skills/ops/gitted/.git" ] && fail "the checkout's .git was installed"
[ -f "$I/shared/skills/ops/gitted/SKILL.md" ] || fail "the checkout was not installed"
[ -d "$TMP/skill/gitted/.git" ] || fail "the user's checkout lost its .git"

# --- item 8: a provider table without an api_key line: secrets set adds the line
S="$TMP/sec"
mkdir -p "$S"
printf 'schema_version = 3\n\n[providers.models.openai.main]\nmodel = "gpt-6"\n\n[agents.a]\nmodel_provider = "openai.main"\n' >"$S/config.toml"
printf 'sk-added\n' | "$CLAWPORT" secrets set providers.models.openai.main.api_key --config "$S/config.toml" >"$TMP/out" 2>"$TMP/err" || fail "secrets set of a missing api_key line: $(cat "$TMP/err")"
grep -q '^api_key = "enc2:' "$S/config.toml" || fail "the api_key line was not added"
expect_status 0 "$CLAWPORT" secrets list --config "$S/config.toml"
expect_grep out 'encrypted  providers.models.openai.main.api_key'
expect_status 1 "$CLAWPORT" secrets set providers.models.openai.main.bogus --config "$S/config.toml" </dev/null
expect_grep err 'is not a secret field'
# an import on a terminal: one backup for the run, the credentials typed at its prompts included
fresh dst5
integrity=$("$CLAWPORT" import "$TMP/b" --config "$TMP/dst5/config.toml" --json </dev/null |
  sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p')
printf 'sk-one\nsk-two\n' >"$TMP/answers"
on_tty "$TMP/answers" "$CLAWPORT" import "$TMP/b" --config "$TMP/dst5/config.toml" --yes --plan-integrity "$integrity"
expect_grep out '^EXIT 0'
expect_grep out 'previous config kept as '
[ "$(ls "$TMP/dst5" | grep -c 'config.toml.bak-')" = 1 ] || fail "not one backup for the run: $(ls "$TMP/dst5")"

# --- polish 3: `skills test` declined at its prompt says so and exits 1, as a declined import
printf 'echo ran >%s | 0 |\n' "$TMP/test_ran" >"$I/shared/skills/ops/lint/TEST.sh"
printf 'n\n' >"$TMP/answers"
on_tty "$TMP/answers" "$CLAWPORT" skills test lint --config "$I/config.toml"
expect_grep out 'anyway? \[y/N\]'
expect_grep out '^EXIT 1'
expect_grep out 'clawport: error: declined: no test ran'
grep -q 'No skills with TEST.sh found' "$TMP/out" && fail "a declined skills test said no TEST.sh was found"
[ -e "$TMP/test_ran" ] && fail "a declined skills test ran its TEST.sh"
printf 'y\n' >"$TMP/answers"
on_tty "$TMP/answers" "$CLAWPORT" skills test lint --config "$I/config.toml"
expect_grep out '^EXIT 0'
[ -e "$TMP/test_ran" ] || fail "an accepted skills test did not run its TEST.sh"

# --- polish 5: a command group alone prints its help (its subcommands) and exits 2
for group in "skills:install" "skills bundle:add" "claw:add" "secrets:list" "workspace:resolve"; do
  words=${group%%:*} sub=${group#*:}
  expect_status 2 "$CLAWPORT" $words
  expect_grep err "clawport: error: \`clawport $words\` needs a subcommand"
  expect_grep err "^  $sub "
  grep -q 'A subcommand is required' "$TMP/err" && fail "\`clawport $words\` gave CLI11's bare message"
  expect_status 2 "$CLAWPORT" $words --json
  expect_grep out '"code": "invalid_argument"'
done
finish
