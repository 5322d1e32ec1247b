# SPDX-License-Identifier: MIT
# Issue 44 item 13: `clawport completions bash|zsh|fish`, generated from the command
# definition. bash's completion function runs on a few command lines (COMP_WORDS and
# COMP_CWORD set, `_clawport` called, COMPREPLY read); every command's options and
# subcommands are what its `--help` lists; enum values, agent aliases, bundles, skills and
# secret fields are offered. zsh and fish: the scripts parse, and fish's own `complete -C`
# completes a few lines (each skipped, and said, where the shell is not installed).
. "$(dirname "$0")/lib.sh"
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

make_researcher_install "$TMP/inst" $'[skill_bundles.ops]\n'
mkdir -p "$TMP/inst/shared/skills/ops/lint"
printf -- '---\nname: lint\ndescription: Lints\n---\n# lint\n' >"$TMP/inst/shared/skills/ops/lint/SKILL.md"
cfg="$TMP/inst/config.toml"
expect_status 0 "$CLAWPORT" completions bash
cp "$TMP/out" "$TMP/c.bash"
bash -n "$TMP/c.bash" || fail "the bash script does not parse"

# bash_complete <words...>: the candidates bash offers for the last word, sorted, one line.
bash_complete() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _clawport; printf "%s\n" "${COMPREPLY[@]}"' _ "$TMP/c.bash" "$CLAWPORT" "$@" |
    LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}
check() {  # <candidates> <words after clawport...>
  local want="$1"; shift
  local got; got=$(bash_complete "$@")
  [ "$got" = "$want" ] || fail "bash: clawport $* <TAB> gave '$got', want '$want'"
}
check "claw completions convert export import recover secrets skills status verify workspace" ""
check "install" skills i
check "bundle" skills b
check "add list remove" skills bundle ""
check "--publish" export --pub
check "exchange swap" export --publish ""
check "agent-plugin claw zeroclaw" convert --to ""
check "bash fish zsh" completions ""
check "researcher" export --config "$cfg" ""
check "researcher" skills list --config "$cfg" --agent ""
check "ops" skills list --config "$cfg" --bundle ""
check "lint" skills remove --config "$cfg" ""
check "lint" skills test --config="$cfg" l
check "providers.models.anthropic.main.api_key" secrets set --config "$cfg" ""
# polish 4: a skill whose manifest name is not its directory's: completion offers the
# directory (what remove and test take); remove and test of the manifest name say which
mkdir -p "$TMP/inst/shared/skills/ops/tone"
printf -- '---\nname: house_tone\ndescription: Tone\n---\n# tone\n' >"$TMP/inst/shared/skills/ops/tone/SKILL.md"
check "lint tone" skills remove --config "$cfg" ""
expect_status 0 "$CLAWPORT" skills list --config "$cfg"
expect_grep out 'house_tone'
for cmd in remove test; do
  expect_status 1 "$CLAWPORT" skills $cmd house_tone --config "$cfg"
  expect_grep err 'skill `house_tone` is the directory `tone` in bundle ops: use `tone`'
  expect_status 1 "$CLAWPORT" skills $cmd house_tone --config "$cfg" --bundle ops --json
  expect_grep out '"code": "not_found"'
  expect_grep out 'is the directory `tone` in bundle ops: use `tone`'
done
[ -f "$TMP/inst/shared/skills/ops/tone/SKILL.md" ] || fail "a refused skills remove removed the skill"
expect_status 1 "$CLAWPORT" skills remove nosuch --config "$cfg"
grep -q 'is the directory' "$TMP/err" && fail "a skill no manifest names got a directory hint"
rm -r "$TMP/inst/shared/skills/ops/tone"
check "$cfg" export --config "$TMP/inst/con"  # a path: files
check "" export --jobs ""                      # a number: nothing to offer
check "" export --config "$TMP/nowhere/config.toml" ""  # no install: nothing, no error shown

# Every command: its subcommands and options are exactly what its --help lists.
expect_status 0 "$CLAWPORT" __man --list
pages=$(cat "$TMP/out")
for page in $pages; do
  words=${page#clawport}
  words=${words//-/ }
  # shellcheck disable=SC2086
  "$CLAWPORT" $words --help >"$TMP/help" 2>&1 || fail "clawport$words --help failed"
  help_opts=$(sed -n '/^Options:/,/^[A-Z]/p' "$TMP/help" | grep -oE '^  (-[A-Za-z],)?--[a-z-]+' |
    tr ',' '\n' | sed 's/^ *//' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
  help_subs=$(sed -n '/^Subcommands:/,$p' "$TMP/help" | grep -oE '^  [a-z_-]+' | sed 's/^ *//' |
    LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
  # shellcheck disable=SC2086
  got_opts=$(bash_complete $words -)
  [ "$got_opts" = "$help_opts" ] || fail "clawport$words -<TAB>: '$got_opts', --help lists '$help_opts'"
  if [ -n "$help_subs" ]; then
    # shellcheck disable=SC2086
    got_subs=$(bash_complete $words "")
    [ "$got_subs" = "$help_subs" ] || fail "clawport$words <TAB>: '$got_subs', --help lists '$help_subs'"
  fi
done
[ "$(echo "$pages" | wc -w)" -ge 30 ] || fail "only $(echo "$pages" | wc -w) commands walked"

# zsh: the script parses; its walk finds the command and the option awaiting a value.
if command -v zsh >/dev/null; then
  expect_status 0 "$CLAWPORT" completions zsh
  cp "$TMP/out" "$TMP/_clawport"
  zsh -n "$TMP/_clawport" || fail "the zsh script does not parse"
  got=$(zsh -c 'compdef() { :; }; source "$1"; _clawport_walk skills install --bundle
    print -r -- "$cmdpath|$pending"; _clawport_values "$cmdpath" "$pending"
    _clawport_walk export --config x; _clawport_values "$cmdpath" "#"' _ "$TMP/_clawport")
  [ "$got" = $'skills install|--bundle\nd:bundles\nd:aliases' ] || fail "zsh walk gave '$got'"
else
  echo "zsh not installed: its completion is not exercised"
fi

# fish: its own completion engine on a few lines (clawport found on PATH, as installed).
if command -v fish >/dev/null; then
  mkdir -p "$TMP/bin" && ln -s "$CLAWPORT" "$TMP/bin/clawport"
  expect_status 0 "$CLAWPORT" completions fish
  cp "$TMP/out" "$TMP/clawport.fish"
  fish -n "$TMP/clawport.fish" || fail "the fish script does not parse"
  fish_complete() {
    PATH="$TMP/bin:$PATH" fish --no-config -c 'source $argv[1]; complete -C $argv[2]' \
      "$TMP/clawport.fish" "$1" | cut -f1 | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
  }
  fcheck() {
    local got; got=$(fish_complete "$2")
    [ "$got" = "$1" ] || fail "fish: '$2' gave '$got', want '$1'"
  }
  fcheck "install" "clawport skills ins"
  fcheck "exchange swap" "clawport export --publish "
  fcheck "--publish" "clawport export --pub"
  fcheck "researcher" "clawport export --config $cfg "
  fcheck "lint" "clawport skills remove --config $cfg "
else
  echo "fish not installed: its completion is not exercised"
fi
finish
