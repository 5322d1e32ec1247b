# `clawport skills new|install|remove|test` end to end on a temporary install: the worked
# example of docs/cli.md, refusals (exit 1, nothing written), bad usage (exit 2), --json.
. "$(dirname "$0")/lib.sh"
I="$TMP/install"
CFG="$I/config.toml"
mkdir -p "$I"
cat > "$CFG" <<'EOF'
[agents.default]
skill_bundles = ["ops"]

[skills]
allow_scripts = true
EOF
export SOURCE_DATE_EPOCH=1700000000

# bundle add: appended (backup kept), directory created; again: no change; refusals.
orig=$(cat "$CFG")
expect_status 0 "$CLAWPORT" skills bundle add ops --config "$CFG"
expect_grep out "created skill_bundles.ops (dir: $I/shared/skills/ops)"
[ "$(cat "$CFG.bak-20231114T221320Z")" = "$orig" ] || { echo "FAIL: backup"; failures=$((failures + 1)); }
tail -n 2 "$CFG" | grep -qx '\[skill_bundles.ops\]' || { echo "FAIL: table not appended"; failures=$((failures + 1)); }
test -d "$I/shared/skills/ops" || { echo "FAIL: bundle dir"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" skills bundle add ops --config "$CFG"
expect_grep out "skill bundle 'ops' already exists (no change)"
before=$(cat "$CFG"; ls -A "$I")
expect_status 2 "$CLAWPORT" skills bundle add Bad-Alias --config "$CFG"
expect_grep err "must be 1-63 characters"
expect_status 1 "$CLAWPORT" skills bundle add out --directory ../elsewhere --config "$CFG"
expect_grep err "escapes the shared workspace"
[ "$before" = "$(cat "$CFG"; ls -A "$I")" ] || { echo "FAIL: a refused bundle add wrote"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" skills bundle add docs --directory shared/docs --json --config "$CFG"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["created"] and d["directory"].endswith("/shared/docs") and d["backup"].endswith("-2"), d' "$TMP/out" || failures=$((failures + 1))
expect_status 2 "$CLAWPORT" skills bundle

# new: scaffold into the agent's bundle.
expect_status 0 "$CLAWPORT" skills new release-check --bundle ops --description "Check release readiness" --config "$CFG"
expect_grep out "Scaffolded skill 'ops/release-check'"
test -f "$I/shared/skills/ops/release-check/SKILL.md" || { echo "FAIL: no SKILL.md"; failures=$((failures + 1)); }
grep -q '^# Release Check$' "$I/shared/skills/ops/release-check/SKILL.md" || { echo "FAIL: title"; failures=$((failures + 1)); }
for d in scripts references assets; do
  test -d "$I/shared/skills/ops/release-check/$d" || { echo "FAIL: no $d/"; failures=$((failures + 1)); }
done
expect_status 0 "$CLAWPORT" skills new plain --bundle ops --no-subdirs --json --config "$CFG"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["bundle"]=="ops" and d["created"]==["SKILL.md"], d' "$TMP/out" || failures=$((failures + 1))

# new: refusals write nothing.
before=$(find "$I" | sort)
expect_status 1 "$CLAWPORT" skills new release-check --bundle ops --config "$CFG"
expect_grep err "skill 'ops/release-check' already exists at"
expect_status 2 "$CLAWPORT" skills new Bad_Name --bundle ops --config "$CFG"
expect_grep err "must use lowercase letters, digits, and hyphens only"
expect_status 1 "$CLAWPORT" skills new x --bundle ghost --config "$CFG"
expect_grep err "skill bundle 'ghost' is not configured"
# no --bundle with two bundles configured: nothing is ambiguous, a bundle is to be chosen (issue 44)
expect_status 2 "$CLAWPORT" skills new fresh --config "$CFG"
expect_grep err "several skill bundles are configured (docs, ops): choose one with --bundle <alias>"
grep -q "ambiguous" "$TMP/err" && { echo "FAIL: no bundle chosen was told as ambiguous"; failures=$((failures + 1)); }
[ "$before" = "$(find "$I" | sort)" ] || { echo "FAIL: a refused new wrote something"; failures=$((failures + 1)); }
expect_status 2 "$CLAWPORT" skills new
expect_status 2 "$CLAWPORT" skills new x --bogus

# install from a local git repository (file://), with a TEST.sh.
R="$TMP/src/lint"
mkdir -p "$R/refs"
printf -- '---\nname: lint\ndescription: Lint the docs\n---\n# Lint\nSee [the guide](refs/guide.md).\n' > "$R/SKILL.md"
echo "guide" > "$R/refs/guide.md"
printf '# cmd | exit | pattern\ntest -f SKILL.md | 0 |\necho lint ok | 0 | lint o+k\n' > "$R/TEST.sh"
git -C "$R" init -q && git -C "$R" add . && git -C "$R" -c user.email=t@t -c user.name=t commit -qm init
expect_status 0 "$CLAWPORT" skills install "file://$R" --config "$CFG"
expect_grep out "Skill installed and audited: $I/shared/skills/ops/lint"
test ! -e "$I/shared/skills/ops/lint/.git" || { echo "FAIL: .git was installed"; failures=$((failures + 1)); }
ls "$I/shared/skills/ops" | grep -q clawport-stage && { echo "FAIL: staging left"; failures=$((failures + 1)); }
expect_status 1 "$CLAWPORT" skills install "file://$R" --config "$CFG"
expect_grep err "skill 'ops/lint' already exists"

# list --agent shows both; test runs the tests.
expect_status 0 "$CLAWPORT" skills list --agent default --config "$CFG"
expect_grep out "Agent 'default' loads 3 skills"
expect_grep out "^  lint "
expect_grep out "^  release-check "
expect_status 0 "$CLAWPORT" skills test lint --config "$CFG"
expect_grep out "✓ lint — 2/2 passed"
expect_grep out "All 2 test(s) passed across 1 skill(s)."
printf 'false | 0 |\nsleep 20 | 0 |\n' > "$I/shared/skills/ops/release-check/TEST.sh"
expect_status 1 "$CLAWPORT" skills test --timeout 1 --json --config "$CFG"
python3 - "$TMP/out" <<'PY' || failures=$((failures + 1))
import json, sys
d = json.load(open(sys.argv[1]))
assert d["totals"] == {"skills": 2, "run": 4, "passed": 2, "failed": 2}, d["totals"]
rc = [s for s in d["skills"] if s["name"] == "release-check"][0]
assert [f["timed_out"] for f in rc["failures"]] == [False, True], rc
PY
expect_grep err "^clawport: error: some skill tests failed"
# Human output names the failing TEST.sh line (file:line).
printf '# a comment\n\nfalse | 0 |\n' > "$I/shared/skills/ops/release-check/TEST.sh"
expect_status 1 "$CLAWPORT" skills test release-check --config "$CFG"
expect_grep out "^    command:  false$"
expect_grep out "^    at:       $I/shared/skills/ops/release-check/TEST.sh:3$"
expect_status 0 "$CLAWPORT" skills test plain --config "$CFG"
expect_grep out "No TEST.sh found for skill 'plain'"
expect_status 1 "$CLAWPORT" skills test ghost --config "$CFG"
expect_grep err "Skill not found: ghost"

# A skill whose audit fails is tested only after a warning.
sed -i 's/allow_scripts = true/allow_scripts = false/' "$CFG"
expect_status 0 "$CLAWPORT" skills test lint --config "$CFG"
expect_grep err "warning: skill 'lint' fails the static audit (TEST.sh: script-like files are blocked"
sed -i 's/allow_scripts = false/allow_scripts = true/' "$CFG"

# remove: archived (never clobbering), then purge; refusals.
expect_status 0 "$CLAWPORT" skills remove lint --bundle ops --config "$CFG"
expect_grep out "archived at $I/shared/skills/_deleted/ops-lint-1700000000"
expect_status 0 "$CLAWPORT" skills install "file://$R" --config "$CFG" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["name"]=="lint" and d["bundle"]=="ops", d' "$TMP/out" || failures=$((failures + 1))
expect_status 0 "$CLAWPORT" skills remove lint --agent default --config "$CFG" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["action"]=="archived" and d["archived_to"].endswith("ops-lint-1700000000.2"), d' "$TMP/out" || failures=$((failures + 1))
test -f "$I/shared/skills/_deleted/ops-lint-1700000000/SKILL.md" || { echo "FAIL: first archive clobbered"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" skills remove plain --bundle ops --purge --config "$CFG"
expect_grep out "deleted from $I/shared/skills/ops/plain"
test ! -e "$I/shared/skills/ops/plain" || { echo "FAIL: purge left the skill"; failures=$((failures + 1)); }
mkdir -p "$I/shared/skills/ops/notaskill" && echo x > "$I/shared/skills/ops/notaskill/notes.txt"
expect_status 1 "$CLAWPORT" skills remove notaskill --bundle ops --config "$CFG"
expect_grep err "is not editable: it is a non-bundle skill"
test -f "$I/shared/skills/ops/notaskill/notes.txt" || { echo "FAIL: non-skill removed"; failures=$((failures + 1)); }
expect_status 2 "$CLAWPORT" skills remove ../etc --bundle ops --config "$CFG"
expect_grep err "Invalid skill name"
expect_status 2 "$CLAWPORT" skills remove x --bundle ops --agent default --config "$CFG"
# remove and test: an agent that is not configured, a bundle whose directory is gone, a file
# where a skill directory would be, a TEST.sh that is not UTF-8 or larger than 1 MiB: each
# refused naming it, nothing changed (refusals tools/coverage.sh found unreached).
mkdir -p "$I/shared/skills/ops/hollow" && printf -- '---\nname: hollow\ndescription: d\n---\n' > "$I/shared/skills/ops/hollow/SKILL.md"
echo x > "$I/shared/skills/ops/afile"
rmdir "$I/shared/docs"
before=$(find "$I" | sort; cat "$CFG")
expect_status 1 "$CLAWPORT" skills remove hollow --agent nobody --config "$CFG"
expect_grep err "agent 'nobody' is not configured"
expect_status 1 "$CLAWPORT" skills remove x --bundle docs --config "$CFG"
expect_grep err "Skill not found: docs/x ($I/shared/docs does not exist)"
expect_status 1 "$CLAWPORT" skills remove afile --bundle ops --config "$CFG"
expect_grep err "$I/shared/skills/ops/afile is not a skill directory"
[ "$before" = "$(find "$I" | sort; cat "$CFG")" ] || { echo "FAIL: a refused remove wrote"; failures=$((failures + 1)); }
printf 'echo \377 | 0 |\n' > "$I/shared/skills/ops/hollow/TEST.sh"
before=$(find "$I" | sort; cat "$CFG")
expect_status 1 "$CLAWPORT" skills test hollow --config "$CFG"
expect_grep err "hollow/TEST.sh: it is not valid UTF-8"
head -c 1100000 /dev/zero | tr '\0' '#' > "$I/shared/skills/ops/hollow/TEST.sh"
expect_status 1 "$CLAWPORT" skills test hollow --config "$CFG"
expect_grep err "hollow/TEST.sh is larger than 1048576 bytes"
[ "$before" = "$(find "$I" | sort; cat "$CFG")" ] || { echo "FAIL: a refused test wrote"; failures=$((failures + 1)); }
rm -rf "$I/shared/skills/ops/hollow" "$I/shared/skills/ops/afile"
mkdir -p "$I/shared/docs"

# install refusals: symlink in the source, registry names, an audit failure; nothing left.
S="$TMP/src/linked"
mkdir -p "$S" && printf -- '---\nname: linked\ndescription: d\n---\n' > "$S/SKILL.md" && ln -s /etc/passwd "$S/pw.md"
before=$(find "$I" | sort)
expect_status 1 "$CLAWPORT" skills install "$S" --config "$CFG"
expect_grep err "symlinks are not allowed in installed skills"
expect_status 1 "$CLAWPORT" skills install release-helper --config "$CFG"
expect_grep err "names a skill registry entry; clawport installs offline"
expect_status 1 "$CLAWPORT" skills install "registry:team/x" --config "$CFG"
expect_status 1 "$CLAWPORT" skills install "file://$TMP/no-such-repo" --config "$CFG"
expect_grep err "git clone of file://"
expect_status 1 "$CLAWPORT" skills install "$TMP/src" --skill ghost --config "$CFG"
expect_grep err "has no skills/ directory"
[ "$before" = "$(find "$I" | sort)" ] || { echo "FAIL: a refused install wrote something"; failures=$((failures + 1)); }
ls /tmp | grep -q '^clawport-git-' && echo "note: clawport-git-* temp dirs exist in /tmp (possibly other runs)"

# install from a plain local directory, a catalogue (--skill), and the global fallback.
mkdir -p "$TMP/cat/skills/fmt" && printf -- '---\nname: fmt\ndescription: format\n---\n' > "$TMP/cat/skills/fmt/SKILL.md"
expect_status 0 "$CLAWPORT" skills install "$TMP/cat" --skill fmt --bundle ops --config "$CFG"
expect_grep out "shared/skills/ops/fmt"
cat > "$TMP/solo.toml" <<'EOF'
[skill_bundles.ops]
EOF
expect_status 0 "$CLAWPORT" skills install "$TMP/cat/skills/fmt" --config "$TMP/solo.toml"
expect_grep out "$TMP/data/skills/fmt"
expect_grep err "which no agent loads"
# More refusals tools/coverage.sh found unreached: a skill-bundle directory whose path
# crosses a file, an install with no git on PATH, an audit of a TOML file that is not UTF-8.
G="$TMP/g"
mkdir -p "$G/shared" && echo f > "$G/shared/x"
printf '[agents.default]\nskill_bundles = ["ops"]\n[skill_bundles.ops]\ndirectory = "shared/x/ops"\n' > "$G/config.toml"
before=$(find "$G" | sort)
expect_status 1 "$CLAWPORT" skills new foo --bundle ops --config "$G/config.toml"
expect_grep err "$G/shared/x exists and is not a directory"
rm "$G/shared/x"
before=$(find "$G" | sort)
expect_status 1 env PATH=/nonexistent "$CLAWPORT" skills install "file://$R" --config "$G/config.toml"
expect_grep err "cannot run git to fetch file://$R: failed to execute command: git was not found on PATH"
[ "$before" = "$(find "$G" | sort)" ] || { echo "FAIL: a refused install wrote"; failures=$((failures + 1)); }
mkdir -p "$G/sk" && printf -- '---\nname: sk\ndescription: d\n---\n' > "$G/sk/SKILL.md" && printf 'a = "\377"\n' > "$G/sk/extra.toml"
expect_status 1 "$CLAWPORT" skills audit "$G/sk"
expect_grep out "failed to read TOML manifest extra.toml"

# --timeout is a hard limit on the command and everything it started (issue 22, item 18):
# a child that leaves the process group and the session (setsid) and ignores SIGTERM, a
# command that closes its output and runs on, a daemon left behind by a command that
# exits at once. Each is gone when the tool returns, and the run is bounded.
H="$TMP/hard"
mkdir -p "$H/skill" "$H/daemon" "$H/pids"
printf -- '---\nname: skill\ndescription: d\n---\n' | tee "$H/skill/SKILL.md" > "$H/daemon/SKILL.md"
cat > "$H/escape.sh" <<'EOF'
setsid sh -c 'trap "" TERM HUP; echo $$ > "$1"; exec sleep 30' sh "$1" &
wait
EOF
cat > "$H/daemonize.sh" <<'EOF'
setsid sh -c 'trap "" TERM HUP; echo $$ > "$1"; exec sleep 30' sh "$1" </dev/null >/dev/null 2>&1 &
n=0; while [ ! -s "$1" ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
echo started
EOF
printf 'sh %s %s | 0 |\nexec >/dev/null 2>&1; echo $$ > %s; exec sleep 30 | 0 |\n' \
  "$H/escape.sh" "$H/pids/escaped" "$H/pids/closed" > "$H/skill/TEST.sh"
printf 'sh %s %s | 0 | started\n' "$H/daemonize.sh" "$H/pids/daemon" > "$H/daemon/TEST.sh"
survivors() {  # the recorded processes still alive (killed here, so none is left behind)
  local f pid alive=""
  for f in "$H"/pids/*; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    if kill -0 "$pid" 2>/dev/null; then alive="$alive $(basename "$f")"; kill -9 "$pid"; fi
  done
  echo "$alive"
}
t0=$(date +%s%N)
expect_status 1 "$CLAWPORT" skills test "$H/skill" --timeout 1 --json
t1=$(date +%s%N)
[ $(((t1 - t0) / 1000000)) -lt 5000 ] || { echo "FAIL: --timeout 1 ran $(((t1 - t0) / 1000000)) ms"; failures=$((failures + 1)); }
python3 - "$TMP/out" <<'PY' || failures=$((failures + 1))
import json, sys
d = json.load(open(sys.argv[1]))
f = d["skills"][0]["failures"]
assert [x["timed_out"] for x in f] == [True, True], f
PY
test -s "$H/pids/escaped" && test -s "$H/pids/closed" || { echo "FAIL: the commands did not start"; failures=$((failures + 1)); }
left=$(survivors)
[ -z "$left" ] || { echo "FAIL: survived --timeout:$left"; failures=$((failures + 1)); }
t0=$(date +%s%N)
expect_status 0 "$CLAWPORT" skills test "$H/daemon" --timeout 1 --json
t1=$(date +%s%N)
[ $(((t1 - t0) / 1000000)) -lt 5000 ] || { echo "FAIL: the daemon run took $(((t1 - t0) / 1000000)) ms"; failures=$((failures + 1)); }
test -s "$H/pids/daemon" || { echo "FAIL: the daemon did not start"; failures=$((failures + 1)); }
left=$(survivors)
[ -z "$left" ] || { echo "FAIL: survived the command's exit:$left"; failures=$((failures + 1)); }
# Issue 44 item 10: skills of one name in two bundles: each result line names its bundle,
# and naming the skill alone is refused with the one ambiguity message of remove and test.
J="$TMP/two"
mkdir -p "$J"
printf '[skills]\nallow_scripts = true\n\n[skill_bundles.a]\n\n[skill_bundles.b]\n' > "$J/config.toml"
for b in a b; do
  mkdir -p "$J/shared/skills/$b/lint"
  printf -- '---\nname: lint\ndescription: lints\n---\nLint.\n' > "$J/shared/skills/$b/lint/SKILL.md"
  printf 'true | 0 |\n' > "$J/shared/skills/$b/lint/TEST.sh"
done
expect_status 0 "$CLAWPORT" skills test --config "$J/config.toml"
expect_grep out "^  ✓ a/lint — 1/1 passed$"
expect_grep out "^  ✓ b/lint — 1/1 passed$"
expect_status 2 "$CLAWPORT" skills test lint --config "$J/config.toml"
expect_grep err "skill 'lint' exists in several locations (bundle a, bundle b); pass --bundle to choose"
expect_status 2 "$CLAWPORT" skills remove lint --config "$J/config.toml"
expect_grep err "skill 'lint' exists in several locations (bundle a, bundle b); pass --bundle to choose"
expect_status 0 "$CLAWPORT" skills test lint --bundle b --config "$J/config.toml"
expect_grep out "^  ✓ lint — 1/1 passed$"

finish
