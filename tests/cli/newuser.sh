# SPDX-License-Identifier: MIT
# Issue 44, what the new-user run still found: item 1 (a count while export, verify and
# import hash and copy, on a terminal only; export --force prints its report before the
# previous bundle is removed), item 11 (workspace/memory listed as left behind only when it
# is there and does not travel), item 8 (secrets set keeps no backup of a one-field change),
# surprise 11 (whole seconds in exported_at), surprise 10 ("did you mean"), wording.
# The terminal is a pseudo-terminal from python3's pty module (on_tty, lib.sh).
. "$(dirname "$0")/lib.sh"
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cp -r "$REPO/examples/zeroclaw-install" "$TMP/src"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"
: >"$TMP/none"

# --- item 1: export --force on a terminal: the report, then the removal of the previous bundle
on_tty "$TMP/none" "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b" --force
expect_grep out '^EXIT 0'
expect_grep out 'copying and hashing the workspace: [0-9]* entr'
report_at=$(grep -n 'Published with exchange' "$TMP/out" | head -1 | cut -d: -f1)
removal_at=$(grep -n "removing the previous bundle at $TMP/b (the new one is in place)" "$TMP/out" | head -1 | cut -d: -f1)
[ -n "$report_at" ] && [ -n "$removal_at" ] && [ "$report_at" -le "$removal_at" ] ||
  fail "the report was not printed before the previous bundle's removal (report line ${report_at:-none}, removal line ${removal_at:-none})"
[ "$(grep -c 'Published with' "$TMP/out")" = 1 ] || fail "the export report was printed twice"
# the removal of a previous bundle of 3,000 files counts its entries (no total: that would take
# a second walk), after the report
make_researcher_install "$TMP/many"
for d in $(seq 0 29); do
  mkdir -p "$TMP/many/agents/researcher/workspace/notes/d$d"
  for f in $(seq 0 99); do printf 'n' >"$TMP/many/agents/researcher/workspace/notes/d$d/f$f.md"; done
done
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/many/config.toml" --out "$TMP/big"
on_tty "$TMP/none" "$CLAWPORT" export researcher --config "$TMP/many/config.toml" --out "$TMP/big" --force
expect_grep out '^EXIT 0'
expect_grep out "removing the previous bundle at $TMP/big: [0-9]* entr"
report_at=$(grep -n 'Published with' "$TMP/out" | head -1 | cut -d: -f1)
count_at=$(grep -n "removing the previous bundle at $TMP/big: [0-9]" "$TMP/out" | head -1 | cut -d: -f1)
[ -n "$report_at" ] && [ -n "$count_at" ] && [ "$report_at" -le "$count_at" ] ||
  fail "the removal's count came before the report (report line ${report_at:-none}, count line ${count_at:-none})"
[ "$(find "$TMP/big/workspace/notes" -type f | wc -l)" = 3000 ] || fail "the new bundle lost files"
[ "$(ls -A "$TMP" | grep -c '^\.zeroclaw-export')" = 0 ] || fail "the previous bundle was left beside the new one"
# verify: the files hashed, of those the bundle holds with its digest list
files=$(find "$TMP/b" -type f | wc -l)
on_tty "$TMP/none" "$CLAWPORT" verify "$TMP/b"
expect_grep out '^EXIT 0'
expect_grep out "verifying: hashing: $files/$files files"
# import: the hashing of its plan, then its copy, each with a count
mkdir -p "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
integrity=$("$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["plan_integrity"])')
on_tty "$TMP/none" "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --yes --plan-integrity "$integrity"
expect_grep out '^EXIT 0'
expect_grep out 'verifying: hashing: [0-9]*/[0-9]* files'
expect_grep out "importing: copying and checking: $((files - 1))/$((files - 1)) files"
# never in a pipe, never with --json
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b" --force
grep -q 'hashing\|removing\|copying' "$TMP/err" && fail "export printed a progress line into a pipe"
expect_status 0 "$CLAWPORT" verify "$TMP/b"
grep -q 'hashing' "$TMP/err" && fail "verify printed a progress line into a pipe"
on_tty "$TMP/none" "$CLAWPORT" verify "$TMP/b" --json
grep -q 'hashing' "$TMP/out" && fail "verify --json printed a progress line"

# --- item 11: workspace/memory (and MEMORY_SNAPSHOT.md) "left behind" only when there and not
# travelling; the manifest lists both always, as upstream
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/m1"
expect_grep out '^  workspace/memory (not_yet_portable)'
expect_grep out '^  workspace/MEMORY_SNAPSHOT.md (private_data)'
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/m2" --with-memory
expect_grep out 'MEMORY TRAVELS'
grep -q '^  workspace/memory ' "$TMP/out" && fail "--with-memory: workspace/memory listed as left behind"
make_researcher_install "$TMP/plain"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/plain/config.toml" --out "$TMP/m3"
grep -q '^  workspace/memory \|^  workspace/MEMORY_SNAPSHOT.md ' "$TMP/out" &&
  fail "a workspace without a memory store: workspace/memory or the snapshot listed as left behind"
grep -q '^path = "workspace/memory"$' "$TMP/m3/zeroclaw-agent.toml" ||
  fail "the manifest no longer lists workspace/memory as dropped (upstream always does)"

# --- surprise 11: exported_at in whole seconds, SOURCE_DATE_EPOCH kept
grep -q '^exported_at = "[0-9T:-]*+00:00"$' "$TMP/m3/zeroclaw-agent.toml" ||
  fail "exported_at is not in whole seconds: $(grep exported_at "$TMP/m3/zeroclaw-agent.toml")"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/plain/config.toml" --out "$TMP/m3" --json --force
python3 -c 'import json, re, sys; t = json.load(open(sys.argv[1]))["exported_at"]; sys.exit(0 if re.fullmatch(r"[0-9T:-]+\+00:00", t) else 1)' "$TMP/out" ||
  fail "export --json: exported_at is not in whole seconds"
expect_status 0 env SOURCE_DATE_EPOCH=1786493040 "$CLAWPORT" export researcher --config "$TMP/plain/config.toml" --out "$TMP/m3" --force
grep -q '^exported_at = "2026-08-12T00:04:00+00:00"$' "$TMP/m3/zeroclaw-agent.toml" ||
  fail "SOURCE_DATE_EPOCH is not the export time"

# --- surprise 10: "did you mean" for a mistyped command, from the CLI definition; exit 2
expect_status 2 "$CLAWPORT" exprot researcher
expect_grep err "clawport: error: unknown command 'exprot' for \`clawport\`; did you mean \`clawport export\`?"
expect_status 2 "$CLAWPORT" skills instal x
expect_grep err "did you mean \`clawport skills install\`?"
expect_status 2 "$CLAWPORT" help verfiy
expect_grep err "did you mean \`clawport verify\`?"
expect_status 2 "$CLAWPORT" frobnicate --json
expect_grep out '"code": "invalid_argument"'
grep -q 'did you mean' "$TMP/err" && fail "a word near no command got a suggestion"
expect_status 2 "$CLAWPORT" __complet
grep -q '__complete' "$TMP/err" && fail "a hidden command was suggested"

# --- wording: a bundle without a digest list is "checked", not "verified"
cp -r "$TMP/m3" "$TMP/nolist" && rm "$TMP/nolist/zeroclaw-agent.sha256"
expect_status 0 "$CLAWPORT" verify "$TMP/nolist"
expect_grep out "^checked $TMP/nolist (no digest list: layout, manifest, closure and secrets checked, its bytes unauthenticated): agent \`researcher\`"
grep -q '^verified ' "$TMP/out" && fail "a bundle without a digest list was called verified"
expect_status 0 "$CLAWPORT" verify "$TMP/m3"
expect_grep out "^verified $TMP/m3: agent \`researcher\`, .*every byte matches its digest list"
# --- new-user walk 2 item 4: a mistyped option gets "did you mean" (the distance of
# mistyped commands); a --config the command does not take says it reads none; exit 2
expect_status 2 "$CLAWPORT" export researcher --confg "$TMP/src/config.toml" --out "$TMP/x1"
expect_grep err "clawport: error: unknown option --confg for \`clawport export\`; did you mean --config?"
[ ! -e "$TMP/x1" ] || fail "a mistyped option wrote"
expect_status 2 "$CLAWPORT" skills audit "$TMP/src" --config "$TMP/src/config.toml"
expect_grep err "\`clawport skills audit\` reads no config; drop --config"
expect_status 2 "$CLAWPORT" verify "$TMP/b" --frobnicate
grep -q 'did you mean' "$TMP/err" && fail "an option near none got a suggestion"
expect_grep err "unknown option --frobnicate for \`clawport verify\`"

# --- new-user walk 2 item 3: no --config and no install at the default: the fix is the option
home_before=$(tree_state "$TMP/src")
for cmd in "status" "skills list --agent researcher"; do
  # shellcheck disable=SC2086
  (unset ZEROCLAW_CONFIG_DIR; HOME="$TMP/nohome" "$CLAWPORT" $cmd >"$TMP/out" 2>"$TMP/err") && fail "$cmd: no install, exit 0"
  expect_grep err "no config given and none at the default $TMP/nohome/.zeroclaw/config.toml: pass --config <path>"
done
[ ! -e "$TMP/nohome" ] || fail "a missing default install was created"
[ "$(tree_state "$TMP/src")" = "$home_before" ] || fail "the source install changed"
# with --config naming a missing file, the message is the path's own (no "default")
expect_status 1 "$CLAWPORT" status --config "$TMP/missing/config.toml"
grep -q 'default' "$TMP/err" && fail "a given --config called the default"
finish
