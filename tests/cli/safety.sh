# SPDX-License-Identifier: MIT
# Export safety at the edges (issue 9, items 1-7, 17, 18 and the messages): destinations
# that would destroy the install or home, empty options, symlinked destinations, recover's
# exact name grammar, leftovers at a low descriptor limit and on signals, --force over a
# non-bundle, JSON that never fails and JSON error documents. Each case also proves
# nothing was written or lost.
. "$(dirname "$0")/lib.sh"

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# the researcher install, plus a key file and a shared skill the export must leave alone
make_install() {
  make_researcher_install "$1" "${2:-}"
  mkdir -p "$1/shared/skills/other"
  printf 'key\n' >"$1/.secret_key"
  printf 'other\n' >"$1/shared/skills/other/SKILL.md"
}

# ---- item 1: --out on the install root, the config file, $HOME ----------------------------
# The workspace lives elsewhere and there are no skill bundles: only the new check stands
# between --force and the whole install.
mkdir -p "$TMP/elsewhere/ws" && echo notes >"$TMP/elsewhere/ws/notes.md"
make_install "$TMP/a/inst1" "[agents.researcher.workspace]
path = \"$TMP/elsewhere/ws\""
before=$(tree_state "$TMP/a")
expect_status 1 "$CLAWPORT" export researcher --config "$TMP/a/inst1/config.toml" --out "$TMP/a/inst1" --force
expect_grep err "is the install root"
[ "$(tree_state "$TMP/a")" = "$before" ] || fail "item 1: the install changed"
expect_status 1 "$CLAWPORT" export researcher --config "$TMP/a/inst1/config.toml" --out "$TMP/a" --force
expect_grep err "contains the install root"
expect_status 1 "$CLAWPORT" export researcher --config "$TMP/a/inst1/config.toml" --out "$TMP/a/inst1/config.toml" --force
expect_grep err "is the config file"
[ "$(tree_state "$TMP/a")" = "$before" ] || fail "item 1: the install changed (config)"
# a config reached through a symlink protects its target too
mkdir -p "$TMP/dotfiles/zc" && cp "$TMP/a/inst1/config.toml" "$TMP/dotfiles/zc/config.toml"
mkdir -p "$TMP/a/inst1b/agents/researcher/workspace" && ln -s "$TMP/dotfiles/zc/config.toml" "$TMP/a/inst1b/config.toml"
dotbefore=$(tree_state "$TMP/dotfiles")
"$CLAWPORT" export researcher --config "$TMP/a/inst1b/config.toml" --out "$TMP/dotfiles" --force >"$TMP/out" 2>"$TMP/err"
[ "$(tree_state "$TMP/dotfiles")" = "$dotbefore" ] || fail "item 1: a symlinked config's target was replaced"
# $HOME and an ancestor of it
mkdir -p "$TMP/home/me" && echo precious >"$TMP/home/me/file"
HOME=$TMP/home/me expect_status 1 "$CLAWPORT" export researcher --config "$TMP/a/inst1/config.toml" --out "$TMP/home/me" --force
expect_grep err "is your home directory"
HOME=$TMP/home/me expect_status 1 "$CLAWPORT" export researcher --config "$TMP/a/inst1/config.toml" --out "$TMP/home" --force
expect_grep err "contains your home directory"
[ "$(ls -A "$TMP/home/me")" = file ] || fail "item 1: home changed"
# and without --force the same refusal, before anything is created
HOME=$TMP/home/me expect_status 1 "$CLAWPORT" export researcher --config "$TMP/a/inst1/config.toml" --out "$TMP/home" --json
expect_grep out '"code": "overlap"'

# ---- item 2: empty --out / --config are bad usage ----------------------------------------
mkdir -p "$TMP/cwd" && echo mine >"$TMP/cwd/keep"
cd "$TMP/cwd"
expect_status 2 "$CLAWPORT" export researcher --config "$TMP/a/inst1/config.toml" --out "" --force
expect_grep err "must not be empty"
expect_status 2 "$CLAWPORT" export researcher --config "" --out "$TMP/e/bundle"
expect_status 2 "$CLAWPORT" skills list --config ""
expect_status 2 "$CLAWPORT" recover ""
cd - >/dev/null
[ "$(ls -A "$TMP/cwd")" = keep ] || fail "item 2: the working directory changed: $(ls -A "$TMP/cwd")"
[ ! -e "$TMP/e" ] || fail "item 2: created $TMP/e"

# ---- item 3: a symlinked destination is refused, dangling or not, --force or not ---------
make_install "$TMP/inst3"
mkdir -p "$TMP/d3/target" && echo mine >"$TMP/d3/target/keep"
ln -s "$TMP/d3/target" "$TMP/d3/link"
ln -s "$TMP/d3/empty-target" "$TMP/d3/empty-link" && mkdir "$TMP/d3/empty-target"
ln -s "$TMP/d3/nowhere" "$TMP/d3/dangling"
for dest in link empty-link dangling link/; do
  for force in "" --force; do
    expect_status 1 "$CLAWPORT" export researcher --config "$TMP/inst3/config.toml" --out "$TMP/d3/$dest" $force
    expect_grep err "is a symlink"
  done
done
[ "$(ls -A "$TMP/d3/target")" = keep ] || fail "item 3: the link target changed"
[ -z "$(ls -A "$TMP/d3/empty-target")" ] || fail "item 3: the empty link target was filled"
[ "$(ls -A "$TMP/d3" | tr '\n' ' ')" = "dangling empty-link empty-target link target " ] ||
  fail "item 3: leftovers $(ls -A "$TMP/d3")"
expect_status 1 "$CLAWPORT" export researcher --config "$TMP/inst3/config.toml" --out "$TMP/d3/link" --dry-run
expect_grep err "is a symlink"

# ---- item 4: recover acts only on the exporter's exact names ------------------------------
R=$TMP/r4
mkdir -p "$R/bundle" "$R/.zeroclaw-export-settings-backup" "$R/.zeroclaw-export-old-" \
  "$R/.zeroclaw-export-AbC12" "$R/.zeroclaw-export-AbC1234" "$R/.zeroclaw-export-old-AbC-12" \
  "$R/.zeroclaw-export-AbC123"
for d in "$R"/.zeroclaw-export-*; do echo keep >"$d/file"; done
expect_status 0 "$CLAWPORT" recover "$R/bundle"
expect_grep out "removed the incomplete staging tree .zeroclaw-export-AbC123"
for n in .zeroclaw-export-settings-backup .zeroclaw-export-old- .zeroclaw-export-AbC12 \
  .zeroclaw-export-AbC1234 .zeroclaw-export-old-AbC-12; do
  [ "$(cat "$R/$n/file" 2>/dev/null)" = keep ] || fail "item 4: recover touched $n"
  expect_grep out "left $n alone: not a name an export creates"
done
[ ! -e "$R/.zeroclaw-export-AbC123" ] || fail "item 4: the real staging tree stayed"
expect_status 0 "$CLAWPORT" recover "$R/bundle" --json
python3 - "$TMP/out" <<'PY' || fail "item 4: recover --json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["removed"] == 0 and not d["restored"], d
assert d["ignored"] == sorted([".zeroclaw-export-AbC12", ".zeroclaw-export-AbC1234",
                               ".zeroclaw-export-old-", ".zeroclaw-export-old-AbC-12",
                               ".zeroclaw-export-settings-backup"]), d["ignored"]
PY

# ---- item 6: leftovers at a low descriptor limit, and on SIGINT/SIGTERM -------------------
make_install "$TMP/inst6"
d=$TMP/inst6/agents/researcher/workspace
for i in $(seq 1 30); do d=$d/d$i; done
mkdir -p "$d" && echo deep >"$d/f"
mkdir -p "$TMP/prev/bundle" && echo old >"$TMP/prev/bundle/zeroclaw-agent.toml"
prev=$(tree_state "$TMP/prev")
# CLAWPORT_TEST_MIN_FDS: tools/valgrind_cli.sh sets 20, below which valgrind itself
# cannot start (it keeps descriptors of its own) and reports its own assertion.
for n in 4 5 6 7 8 9 10 12 16 20 24 32 40 48; do
  [ "$n" -ge "${CLAWPORT_TEST_MIN_FDS:-0}" ] || continue
  rm -rf "$TMP/lim"
  (ulimit -n $n; "$CLAWPORT" export researcher --config "$TMP/inst6/config.toml" --out "$TMP/lim/bundle" >/dev/null 2>"$TMP/err")
  if [ -d "$TMP/lim" ]; then
    left=$(ls -A "$TMP/lim" | grep -v '^bundle$' || true)
    [ -z "$left" ] || fail "item 6: ulimit -n $n left $left"
  fi
  (ulimit -n $n; "$CLAWPORT" export researcher --config "$TMP/inst6/config.toml" --out "$TMP/prev/bundle" --force >/dev/null 2>"$TMP/err") && continue
  [ "$(tree_state "$TMP/prev")" = "$prev" ] || fail "item 6: ulimit -n $n changed the previous bundle: $(ls -A "$TMP/prev")"
done
# a signal during the copy (many files, so the copy outlasts the wait for its staging tree);
# python resets SIGINT, which a script's background job would otherwise start ignored
big=$TMP/inst6/agents/researcher/workspace/many
mkdir -p "$big" && (cd "$big" && seq 1 6000 | xargs touch)
for sig in INT TERM; do
  want=$([ $sig = INT ] && echo 130 || echo 143)
  rm -rf "$TMP/sig"; mkdir -p "$TMP/sig"
  got=0
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$CLAWPORT" export researcher --config "$TMP/inst6/config.toml" --out "$TMP/sig/bundle" --no-sync \
    --json >"$TMP/out" 2>"$TMP/err" &
  pid=$!
  for _ in $(seq 1 1000); do ls -A "$TMP/sig" | grep -q '^.zeroclaw-export-[A-Za-z0-9]*$' && break; sleep 0.002; done
  kill -s $sig $pid 2>/dev/null
  wait $pid || got=$?
  [ "$got" = "$want" ] || fail "item 6 ($sig): exited $got, expected $want"
  [ ! -e "$TMP/sig/bundle" ] || fail "item 6 ($sig): published although interrupted"
  grep -q '"code": "cancelled"' "$TMP/out" || fail "item 6 ($sig): no cancelled JSON error: $(cat "$TMP/out")"
  [ -z "$(ls -A "$TMP/sig")" ] || fail "item 6 ($sig): leftovers $(ls -A "$TMP/sig")"
done
# ... and so does import --yes (new-user walk 2 item 1): a signal while it hashes, stages
# (as its staging tree appears, and later) or is about to publish exits 130/143 with the
# cancelled error, the install exactly as before and no .clawport-import-* left
"$CLAWPORT" export researcher --config "$TMP/inst6/config.toml" --out "$TMP/sigb" --no-sync >/dev/null 2>&1 ||
  fail "item 6: export of the big bundle"
mkdir -p "$TMP/sigi" && printf 'schema_version = 3\n' >"$TMP/sigi/config.toml"
"$CLAWPORT" import "$TMP/sigb" --config "$TMP/sigi/config.toml" --json >"$TMP/out" 2>&1
integ=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["plan_integrity"])' "$TMP/out")
before=$(tree_state "$TMP/sigi")
for point in caught staging staging+0.1 staging+0.3; do
  sig=$([ "$point" = staging+0.1 ] && echo TERM || echo INT)
  want=$([ $sig = INT ] && echo 130 || echo 143)
  got=0
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$CLAWPORT" import "$TMP/sigb" --config "$TMP/sigi/config.toml" --yes --plan-integrity "$integ" \
    --jobs 1 --json >"$TMP/out" 2>"$TMP/err" &
  pid=$!
  if [ "$point" = caught ]; then
    # as soon as the tool catches SIGINT (its SigCgt bit): it is planning, nothing staged yet
    for _ in $(seq 1 2000); do
      m=$(sed -n 's/^SigCgt:\t*//p' "/proc/$pid/status" 2>/dev/null)
      [ -n "$m" ] && [ $((0x$m & 2)) != 0 ] && break
      sleep 0.001
    done
  else
    for _ in $(seq 1 2000); do
      [ -n "$(find "$TMP/sigi" -maxdepth 3 -name '.clawport-import-*' 2>/dev/null)" ] && break
      sleep 0.002
    done
    case $point in staging+*) sleep "${point#staging+}" ;; esac
  fi
  kill -s $sig $pid 2>/dev/null
  wait $pid || got=$?
  [ "$got" = "$want" ] || fail "import at $point ($sig): exited $got, expected $want: $(cat "$TMP/err")"
  grep -q '"code": "cancelled"' "$TMP/out" || fail "import at $point ($sig): no cancelled JSON error: $(cat "$TMP/out")"
  [ "$(tree_state "$TMP/sigi")" = "$before" ] || fail "import at $point ($sig): the install changed: $(find "$TMP/sigi")"
done
rm -rf "$big"

# ---- item 7: --force over a non-empty directory that is not a bundle -----------------------
make_install "$TMP/inst7"
mkdir -p "$TMP/d7/photos" && echo pic >"$TMP/d7/photos/a.jpg"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/inst7/config.toml" --out "$TMP/d7/photos" --force --dry-run
expect_grep out "would replace .*which was not a bundle"
[ "$(cat "$TMP/d7/photos/a.jpg")" = pic ] || fail "item 7: dry run replaced"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/inst7/config.toml" --out "$TMP/d7/photos" --force --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["replaced_non_bundle"] is True, d' "$TMP/out" ||
  fail "item 7: --json lacks replaced_non_bundle"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/inst7/config.toml" --out "$TMP/d7/photos" --force
if grep -q "not a bundle" "$TMP/out"; then fail "item 7: a bundle replaced by a bundle was called not a bundle"; fi

# ---- item 17: --json never fails, whatever the bytes ---------------------------------------
make_install "$TMP/a/inst17"
bad=$(printf 'b\377d')
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/a/inst17/config.toml" --out "$TMP/$bad/bundle" --json
[ -f "$TMP/$bad/bundle/zeroclaw-agent.toml" ] || fail "item 17: not published"
python3 - "$TMP/out" "$TMP/$bad/bundle" <<'PY' || fail "item 17: the non-UTF-8 path is not U+FFFD-encoded"
import json, os, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
# each byte that is not UTF-8 is U+FFFD (documented in docs/cli.md)
want = os.fsencode(sys.argv[2]).decode("utf-8", "replace")
assert d["destination"] == want, (d["destination"], want)
PY
mkdir -p "$TMP/a/inst17/shared/skills/tools/$bad"
printf -- '---\nname: x\ndescription: y\n---\n' >"$TMP/a/inst17/shared/skills/tools/$bad/SKILL.md"
printf '\n[skill_bundles.tools]\ndirectory = "shared/skills/tools"\n' >>"$TMP/a/inst17/config.toml"
expect_status 0 "$CLAWPORT" skills list --config "$TMP/a/inst17/config.toml" --json
python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$TMP/out" || fail "item 17: skills list --json"
"$CLAWPORT" skills audit --json "$TMP/a/inst17/shared/skills/tools/$bad" >"$TMP/out" 2>"$TMP/err"
python3 - "$TMP/out" <<'PY' || fail "item 17: skills audit --json"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert "findings" in d, d
PY

# ---- item 18: with --json every failure is one JSON error document on stdout --------------
check_error() {  # check_error <code>
  python3 - "$TMP/out" "$1" <<'PY' || fail "item 18: not one error document with code $1: $(cat "$TMP/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["error"], d
e = d["error"]
assert list(e) == ["code", "message", "subject"], e
assert e["code"] == sys.argv[2], e
assert e["message"], e
PY
}
expect_status 1 "$CLAWPORT" export nobody --config "$TMP/a/inst17/config.toml" --out "$TMP/x18" --json
check_error unknown_agent
expect_status 1 "$CLAWPORT" export researcher --config "$TMP/missing/config.toml" --out "$TMP/x18" --json
check_error not_found
expect_status 2 "$CLAWPORT" export researcher --json
check_error invalid_argument
mkdir -p "$TMP/q18/.zeroclaw-export-old-AAAAAA" "$TMP/q18/.zeroclaw-export-old-BBBBBB"
expect_status 1 "$CLAWPORT" recover "$TMP/q18/bundle" --json
check_error recover_ambiguous
expect_status 1 "$CLAWPORT" skills list --agent nobody --config "$TMP/a/inst17/config.toml" --json
check_error unknown_agent
expect_status 2 "$CLAWPORT" bogus --json
check_error invalid_argument

# ---- issue 22: import and the staged copy (items 7, 9, 11, 14, 17) ------------------------
export SOURCE_DATE_EPOCH=1786493040
integrity_of() { sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out"; }
make_install "$TMP/i22/src" "skill_bundles = [\"tools\"]

[skill_bundles.tools]"
mkdir -p "$TMP/i22/src/shared/skills/tools/search"
printf -- '---\nname: search\ndescription: d\n---\n' >"$TMP/i22/src/shared/skills/tools/search/SKILL.md"
printf 'open\n' >"$TMP/i22/src/agents/researcher/workspace/open.md"
printf '#!/bin/sh\n' >"$TMP/i22/src/agents/researcher/workspace/run.sh"
chmod 0666 "$TMP/i22/src/agents/researcher/workspace/open.md" "$TMP/i22/src/shared/skills/tools/search/SKILL.md"
chmod 0777 "$TMP/i22/src/agents/researcher/workspace/run.sh"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/i22/src/config.toml" --out "$TMP/i22/b"
[ "$(stat -c %a "$TMP/i22/b/workspace/open.md")" = 666 ] || fail "issue 22: the bundle lost the file's bits"

# item 7: import applies the umask (as cp without -p), never world-writable
mkdir -p "$TMP/i22/dst" && printf 'schema_version = 3\n' >"$TMP/i22/dst/config.toml"
(
  umask 022
  "$CLAWPORT" import "$TMP/i22/b" --config "$TMP/i22/dst/config.toml" --json >"$TMP/out" 2>"$TMP/err"
  "$CLAWPORT" import "$TMP/i22/b" --config "$TMP/i22/dst/config.toml" --yes --plan-integrity "$(integrity_of)" >"$TMP/out" 2>"$TMP/err"
) || fail "issue 22 item 7: import failed: $(cat "$TMP/err")"
[ "$(stat -c %a "$TMP/i22/dst/agents/researcher/workspace/open.md")" = 644 ] ||
  fail "item 7: open.md is $(stat -c %a "$TMP/i22/dst/agents/researcher/workspace/open.md"), not 644"
[ "$(stat -c %a "$TMP/i22/dst/agents/researcher/workspace/run.sh")" = 755 ] ||
  fail "item 7: run.sh is $(stat -c %a "$TMP/i22/dst/agents/researcher/workspace/run.sh"), not 755"
[ "$(stat -c %a "$TMP/i22/dst/shared/skills/tools/search/SKILL.md")" = 644 ] || fail "item 7: skill file mode"
# ... and so does skills install (umask 077: owner only)
mkdir -p "$TMP/i22/skill/lint" && printf -- '---\nname: lint\ndescription: d\n---\n' >"$TMP/i22/skill/lint/SKILL.md"
chmod 0666 "$TMP/i22/skill/lint/SKILL.md"
(umask 077 && "$CLAWPORT" skills install "$TMP/i22/skill/lint" --bundle tools --config "$TMP/i22/src/config.toml" >"$TMP/out" 2>"$TMP/err") ||
  fail "item 7: skills install failed: $(cat "$TMP/err")"
[ "$(stat -c %a "$TMP/i22/src/shared/skills/tools/lint/SKILL.md")" = 600 ] ||
  fail "item 7: the installed skill file is $(stat -c %a "$TMP/i22/src/shared/skills/tools/lint/SKILL.md"), not 600"

# item 9: reusing the target's provider lends its key: a capability grant, text and --json
expect_status 0 "$CLAWPORT" import "$TMP/i22/b" --config "$TMP/i22/src/config.toml" --dry-run
expect_grep out "reuses_credential providers.models.anthropic.main"
expect_status 0 "$CLAWPORT" import "$TMP/i22/b" --config "$TMP/i22/src/config.toml" --json
python3 - "$TMP/out" <<'PY' || fail "item 9: --json has no reuses_credential grant"
import json, sys
d = json.load(open(sys.argv[1]))
g = [f for f in d["risk_flags"] if f["kind"] == "reuses_credential"]
assert [f["path"] for f in g] == ["providers.models.anthropic.main"], d["risk_flags"]
assert "api_key" in g[0]["detail"] and "sk-ant" not in g[0]["detail"], g
PY

# item 11: another agent's configured (not yet created) workspace counts as taken
mkdir -p "$TMP/i22/t11" && cat >"$TMP/i22/t11/config.toml" <<TOML
schema_version = 3

[providers.models.openai.other]
model = "gpt"

[risk_profiles.calm]

[agents.other]
model_provider = "openai.other"
risk_profile = "calm"

[agents.other.workspace]
path = "$TMP/i22/t11/agents/researcher/workspace"
TOML
expect_status 0 "$CLAWPORT" import "$TMP/i22/b" --config "$TMP/i22/t11/config.toml" --json
expect_grep out '"alias": "researcher_imported"'
expect_grep out '"to": "agents/researcher_imported/workspace"'

# item 14: agents/ a symlink or a file: refused at once naming it, even for --dry-run
for kind in link file; do
  t=$TMP/i22/t14$kind && mkdir -p "$t" "$TMP/i22/elsewhere" && printf 'schema_version = 3\n' >"$t/config.toml"
  if [ $kind = link ]; then ln -s "$TMP/i22/elsewhere" "$t/agents"; else echo x >"$t/agents"; fi
  before=$(tree_state "$t"; tree_state "$TMP/i22/elsewhere")
  expect_status 1 timeout 20 "$CLAWPORT" import "$TMP/i22/b" --config "$t/config.toml" --dry-run
  expect_grep err "$t/agents is"
  [ "$(tree_state "$t"; tree_state "$TMP/i22/elsewhere")" = "$before" ] || fail "item 14: something was written ($kind)"
done

# item 17: a re-run after kill -9 recognises the killed run's staging trees
mkdir -p "$TMP/i22/t17" && printf 'schema_version = 3\n' >"$TMP/i22/t17/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/i22/b" --config "$TMP/i22/t17/config.toml" --json
integrity=$(integrity_of)
token=$(printf '%s' "$integrity" | cut -c8-19)
left=$TMP/i22/t17/agents/researcher/.clawport-import-$token-workspace
mkdir -p "$left" && printf '# half' >"$left/IDENTITY.md"  # what kill -9 mid-copy leaves
expect_status 0 "$CLAWPORT" import "$TMP/i22/b" --config "$TMP/i22/t17/config.toml" --yes --plan-integrity "$integrity"
expect_grep out "removed agents/researcher/.clawport-import-$token-workspace, left by an earlier run"
[ ! -e "$left" ] || fail "item 17: the leftover stayed"
cmp -s "$TMP/i22/t17/agents/researcher/workspace/IDENTITY.md" "$TMP/i22/b/workspace/IDENTITY.md" ||
  fail "item 17: the placed workspace is not the bundle's"

# ---- messages --------------------------------------------------------------------------
expect_status 2 "$CLAWPORT" bogus
expect_grep err "unknown command 'bogus'"
expect_status 2 "$CLAWPORT" skills bogus
expect_grep err "unknown command 'bogus' for \`clawport skills\`"
finish
