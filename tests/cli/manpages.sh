# SPDX-License-Identifier: MIT
# Issue 44 item 14: a manual page per command (`clawport __man`, generated from the command
# definition; the build installs them, cmake/cli_reference.cmake). Each page's SYNOPSIS is
# the `Usage:` line of the command's --help and its OPTIONS are the options --help lists;
# groff renders every page without a warning (skipped, and said, where groff is missing).
. "$(dirname "$0")/lib.sh"
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect_status 0 "$CLAWPORT" __man --list
pages=$(cat "$TMP/out")
[ "$(echo "$pages" | head -1)" = clawport ] || fail "the first page is not clawport"
expect_status 2 "$CLAWPORT" __man clawport-nope
has_groff=0
command -v groff >/dev/null && has_groff=1
[ $has_groff = 1 ] || echo "groff not installed: the pages are not rendered"
for page in $pages; do
  "$CLAWPORT" __man "$page" >"$TMP/$page.1" || { fail "__man $page failed"; continue; }
  f="$TMP/$page.1"
  # roff text to words: font escapes dropped, \- and \e back to - and \.
  plain() { sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\&//g'; }
  synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH/p' "$f" | grep -v '^\.SH' | sed 's/^\.B //' | plain |
    tr '\n' ' ' | sed 's/ $//')
  words=$(sed -n '/^\.SH SYNOPSIS/{n;p}' "$f" | sed 's/^\.B //' | plain)
  # shellcheck disable=SC2086
  "$CLAWPORT" ${words#clawport} --help >"$TMP/help" 2>&1 || { fail "$words --help failed"; continue; }
  usage=$(sed -n 's/^Usage: //p' "$TMP/help")
  [ "$synopsis" = "$usage" ] || fail "$page: SYNOPSIS '$synopsis', --help says '$usage'"
  man_opts=$(sed -n '/^\.SH OPTIONS/,/^\.SH/p' "$f" | sed -n '/^\.TP/{n;p}' | plain |
    grep -oE '(^|, )--?[A-Za-z][a-z-]*' | sed 's/^, //' | LC_ALL=C sort | tr '\n' ' ')
  help_opts=$(sed -n '/^Options:/,/^[A-Z]/p' "$TMP/help" | grep -oE '^  (-[A-Za-z],)?--[a-z-]+' |
    tr ',' '\n' | sed 's/^ *//' | LC_ALL=C sort | tr '\n' ' ')
  [ "$man_opts" = "$help_opts" ] || fail "$page: OPTIONS '$man_opts', --help lists '$help_opts'"
  grep -q "^\.SH NAME" "$f" && grep -q "^\.TH" "$f" || fail "$page: no .TH or NAME"
  if [ $has_groff = 1 ]; then
    groff -ww -man -Tutf8 -P-cbou "$f" >"$TMP/rendered" 2>"$TMP/warnings" || fail "$page: groff failed"
    [ -s "$TMP/warnings" ] && fail "$page: groff warns: $(head -3 "$TMP/warnings")"
    grep -q "SYNOPSIS" "$TMP/rendered" || fail "$page: rendered without a SYNOPSIS"
  fi
done
[ "$(echo "$pages" | wc -w)" -ge 30 ] || fail "only $(echo "$pages" | wc -w) pages"
# The top page names every command's page.
"$CLAWPORT" __man clawport >"$TMP/top.1"
for c in export import verify skills claw completions; do
  grep -q "clawport\\\\-$c\\\\fR(1)" "$TMP/top.1" || fail "clawport(1) does not name clawport-$c(1)"
done
finish
