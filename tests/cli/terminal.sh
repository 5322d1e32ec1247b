# SPDX-License-Identifier: MIT
# Issue 41 item 2: every byte a user did not write reaches the terminal escaped (cli/output.hpp,
# through text::terminal_lines). A skill whose name holds ESC and CR, installed, listed,
# tested (its TEST.sh output holds ESC too), removed, restored and listed in its bundle; and a
# name beside a destination (often /tmp) holding ESC, CR and BEL, reported by `recover`: no
# raw control byte in anything printed, each name shown escaped.
. "$(dirname "$0")/lib.sh"

# no_raw <what>: stdout and stderr of the last command hold no raw ESC, CR or BEL
no_raw() {
  if LC_ALL=C grep -q "$(printf '[\033\r\007]')" "$TMP/out" "$TMP/err"; then
    echo "FAIL: $1 printed a raw control byte:"; cat -A "$TMP/out" "$TMP/err"; failures=$((failures + 1))
  fi
}
shown='ev\\x1b\[2K\\x0dx'
name=$(printf 'ev\033[2K\rx')
mkdir -p "$TMP/i" "$TMP/src/$name"
printf 'schema_version = 3\n\n[skills]\nallow_scripts = true\n\n[skill_bundles.tools]\n' >"$TMP/i/config.toml"
printf -- '---\nname: x\ndescription: d\n---\nbody\n' >"$TMP/src/$name/SKILL.md"
printf 'printf "\\033[2Kfake\\r" | 0 | fake\n' >"$TMP/src/$name/TEST.sh"
cfg="$TMP/i/config.toml"

expect_status 0 "$CLAWPORT" skills install "$TMP/src/$name" --config "$cfg" --bundle tools
no_raw "skills install" && expect_grep out "Skill installed and audited: .*/$shown "
expect_status 0 "$CLAWPORT" skills bundle list --config "$cfg"
no_raw "skills bundle list" && expect_grep out "    skills: $shown\$"
expect_status 0 "$CLAWPORT" skills list --config "$cfg"
no_raw "skills list" && expect_grep out "  x  bundle tools  shared/skills/tools/$shown/SKILL.md"
expect_status 0 "$CLAWPORT" skills test --config "$cfg" --verbose
no_raw "skills test" && expect_grep out "  Testing skill: $shown "
expect_grep out '    output: \\x1b\[2Kfake'
expect_status 0 "$CLAWPORT" skills remove "$name" --config "$cfg" --bundle tools
no_raw "skills remove" && expect_grep out "Skill '$shown' removed from bundle 'tools'"
expect_status 0 "$CLAWPORT" skills restore "$name" --config "$cfg" --bundle tools
no_raw "skills restore" && expect_grep out "Skill '$shown' restored into bundle 'tools'"

# recover: a name in the destination's parent that no command of ours made, and one that is
# a staging tree of ours, both holding control bytes.
mkdir -p "$TMP/r/$(printf '.clawport-import-x\033]0;pwn\007\r')" "$TMP/r/$(printf '.clawport-stage-AbC123')"
expect_status 0 "$CLAWPORT" recover "$TMP/r/$(printf 'd\033[1A')"
no_raw "recover"
expect_grep out 'left .clawport-import-x\\x1b\]0;pwn\\x07\\x0d alone'
finish
