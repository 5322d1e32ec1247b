# SPDX-License-Identifier: MIT
# `clawport convert` end to end: the example install's `researcher` to a Claw package that
# `claw inspect` accepts and `claw plan` plans clean (with --allow-narrowing; refused
# without, nothing written), the example Claw package to a bundle that verifies and imports
# into an empty install, --dry-run and --json, byte-identical output under SOURCE_DATE_EPOCH,
# and bad usage.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

cp -r "$REPO/examples/zeroclaw-install" "$TMP/inst"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/inst/config.toml" --out "$TMP/rb"

# the guarded profile cannot be expressed as strictly: refused, nothing written
expect_status 1 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc"
expect_grep err 'allow-narrowing'
[ ! -e "$TMP/rc" ] || { echo "FAIL: a refusal wrote"; failures=$((failures + 1)); }
expect_status 1 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc" --json
expect_grep out '"code": "config_invalid"'

# the dry run reports and writes nothing
expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc" --allow-narrowing --dry-run
expect_grep out 'dry run, nothing written'
[ ! -e "$TMP/rc" ] || { echo "FAIL: the dry run wrote"; failures=$((failures + 1)); }

expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc" --allow-narrowing
expect_grep out 'narrowed  risk_profiles.guarded.allowed_commands'
expect_grep out 'dropped  providers.models.anthropic.main'
[ -f "$TMP/rc/CONVERSION.md" ] || { echo "FAIL: no CONVERSION.md"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw inspect "$TMP/rc"
expect_grep out 'is valid'
mkdir -p "$TMP/home"
HOME="$TMP/home" expect_status 0 "$CLAWPORT" claw plan "$TMP/rc" --state-dir "$TMP/home/.openclaw"
expect_grep out 'Readiness: ready'
# no secret of the install reaches the package
if grep -rq 'enc2:' "$TMP/rc"; then echo "FAIL: ciphertext in the package"; failures=$((failures + 1)); fi
# the destination now exists: a second conversion to it is refused
expect_status 1 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc" --allow-narrowing
expect_grep err 'not empty'

# determinism: the same input and SOURCE_DATE_EPOCH give the same bytes
expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to claw --out "$TMP/rc2" --allow-narrowing --json
expect_grep out '"losses": \['
diff -r "$TMP/rc" "$TMP/rc2" >/dev/null || { echo "FAIL: not deterministic"; failures=$((failures + 1)); }

# the example Claw package to a bundle: verifies, imports into an empty install
expect_status 0 "$CLAWPORT" convert "$REPO/examples/openclaw-claw" --to zeroclaw --out "$TMP/zb"
expect_grep out 'dropped  \$.packages\[0\]'
expect_status 0 "$CLAWPORT" verify "$TMP/zb"
expect_grep out 'every byte matches its digest list'
mkdir -p "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/zb" --config "$TMP/dst/config.toml"
expect_grep out 'installed as: incident_triage'
expect_grep out "clawport secrets set mcp.servers.statuspage.env.STATUSPAGE_TOKEN --config $TMP/dst/config.toml"
expect_status 0 "$CLAWPORT" convert "$REPO/examples/openclaw-claw" --to zeroclaw --out "$TMP/zb2"
diff -r "$TMP/zb" "$TMP/zb2" >/dev/null || { echo "FAIL: not deterministic"; failures=$((failures + 1)); }

# issue 30: memory stays home, in every direction. A sentinel in MEMORY.md, memory.md, USER.md
# and memory/ never reaches a bundle, a Claw package or any output; each loss is reported.
cp -r "$REPO/examples/zeroclaw-install" "$TMP/minst"
W30=$TMP/minst/agents/researcher/workspace
for f in MEMORY.md memory.md USER.md; do printf 'MEMORY-SENTINEL-30\n' >"$W30/$f"; done
printf 'MEMORY-SENTINEL-30\n' >"$W30/memory/today.md"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/minst/config.toml" --out "$TMP/mb" --json
cat "$TMP/out" "$TMP/err" >"$TMP/m30.log"
for f in MEMORY.md memory.md USER.md; do expect_grep out '"path": "workspace/'$f'"'; done
# an upstream-style bundle that carries them (no digest list): verify warns, convert drops
cp -r "$TMP/mb" "$TMP/mbu"
rm "$TMP/mbu/zeroclaw-agent.sha256"
printf 'MEMORY-SENTINEL-30\n' >"$TMP/mbu/workspace/MEMORY.md"
printf 'MEMORY-SENTINEL-30\n' >"$TMP/mbu/workspace/USER.md"
expect_status 0 "$CLAWPORT" verify "$TMP/mbu"
expect_grep out 'warning private_data workspace/MEMORY.md'
expect_grep out 'warning private_data workspace/USER.md'
expect_status 0 "$CLAWPORT" convert "$TMP/mbu" --to claw --out "$TMP/mc" --allow-narrowing
cat "$TMP/out" "$TMP/err" >>"$TMP/m30.log"
expect_grep out 'dropped  workspace/MEMORY.md'
expect_grep out 'dropped  workspace/USER.md'
expect_status 0 "$CLAWPORT" claw inspect "$TMP/mc"
# a Claw package declaring USER.md and MEMORY.md: convert drops them, claw export leaves them out
cp -r "$REPO/examples/openclaw-claw" "$TMP/pkg30"
chmod -R u+w "$TMP/pkg30"
printf 'MEMORY-SENTINEL-30\n' >"$TMP/pkg30/workspace/USER.md"
printf 'MEMORY-SENTINEL-30\n' >"$TMP/pkg30/workspace/MEMORY.md"
python3 - "$TMP/pkg30/CLAW.md" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
at = "  files:\n"
s = s.replace(at, at + "    - source: workspace/USER.md\n      path: USER.md\n"
                   "    - source: workspace/MEMORY.md\n      path: MEMORY.md\n", 1)
open(p, "w").write(s)
PY
expect_status 0 "$CLAWPORT" claw inspect "$TMP/pkg30"
expect_status 0 "$CLAWPORT" convert "$TMP/pkg30" --to zeroclaw --out "$TMP/zb30"
cat "$TMP/out" "$TMP/err" >>"$TMP/m30.log"
expect_grep out 'dropped  USER.md'
expect_grep out 'dropped  MEMORY.md'
expect_status 0 "$CLAWPORT" verify "$TMP/zb30"
export HOME="$TMP/home30"
mkdir -p "$HOME"
expect_status 0 "$CLAWPORT" claw add --dry-run --json --state-dir "$TMP/st30" --without-packages "$TMP/pkg30"
integrity=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["planIntegrity"])' "$TMP/out")
expect_status 0 "$CLAWPORT" claw add --json --state-dir "$TMP/st30" --without-packages --yes --plan-integrity "$integrity" "$TMP/pkg30"
expect_status 0 "$CLAWPORT" claw export --json incident-triage --state-dir "$TMP/st30" --out "$TMP/cx30"
cat "$TMP/out" "$TMP/err" >>"$TMP/m30.log"
expect_grep out '"reason": "private_data"'
[ ! -e "$TMP/cx30/workspace/USER.md" ] && [ ! -e "$TMP/cx30/workspace/MEMORY.md" ] ||
  { echo "FAIL: claw export carried private data"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" claw inspect "$TMP/cx30"
if grep -rq 'MEMORY-SENTINEL-30' "$TMP/mb" "$TMP/mc" "$TMP/zb30" "$TMP/cx30" "$TMP/m30.log"; then
  echo "FAIL: memory reached an output: $(grep -rl 'MEMORY-SENTINEL-30' "$TMP/mb" "$TMP/mc" "$TMP/zb30" "$TMP/cx30" "$TMP/m30.log")"
  failures=$((failures + 1))
fi

# clawport's outputs trip none of its own warnings (issue 43 leftovers). The Claw a bundle
# converts to names no `openclaw.config` pointer (OpenClaw discovers profiles/openclaw.yml and
# warns deprecated_openclaw_profile_pointer on a pointer): inspect and plan say nothing. A Claw
# whose workspace carries skills/ converts to a bundle whose manifest flags
# carried_workspace_skills, as an export does: verify adds no risk_unlisted.
no_warning() {
  if grep -qi 'warning' "$TMP/out" "$TMP/err"; then
    echo "FAIL: $1 warns on clawport's own output:"; cat "$TMP/out" "$TMP/err"; failures=$((failures + 1))
  fi
}
expect_status 0 "$CLAWPORT" claw inspect "$TMP/rc"
no_warning "claw inspect"
if grep -q 'openclaw.config' "$TMP/rc/CLAW.md"; then echo "FAIL: a profile pointer"; failures=$((failures + 1)); fi
expect_status 0 "$CLAWPORT" claw inspect --json "$TMP/rc"
no_warning "claw inspect --json"
mkdir -p "$TMP/clean_home"
HOME="$TMP/clean_home" expect_status 0 "$CLAWPORT" claw plan "$TMP/rc" --state-dir "$TMP/clean_home/.openclaw"
no_warning "claw plan"
cp -r "$REPO/examples/openclaw-claw" "$TMP/pkgsk"
chmod -R u+w "$TMP/pkgsk"
mkdir -p "$TMP/pkgsk/workspace/skills/triage"
printf -- '---\nname: triage\ndescription: Triage incidents.\n---\n# triage\n' >"$TMP/pkgsk/workspace/skills/triage/SKILL.md"
python3 - "$TMP/pkgsk/CLAW.md" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
at = "  files:\n"
s = s.replace(at, at + "    - source: workspace/skills/triage/SKILL.md\n      path: skills/triage/SKILL.md\n", 1)
open(p, "w").write(s)
PY
expect_status 0 "$CLAWPORT" convert "$TMP/pkgsk" --to zeroclaw --out "$TMP/zbsk"
[ -f "$TMP/zbsk/workspace/skills/triage/SKILL.md" ] || { echo "FAIL: the workspace skill did not travel"; failures=$((failures + 1)); }
expect_grep_file() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks '$2'"; failures=$((failures + 1)); }; }
expect_grep_file "$TMP/zbsk/zeroclaw-agent.toml" 'kind = "carried_workspace_skills"'
expect_status 0 "$CLAWPORT" verify "$TMP/zbsk"
no_warning "verify"
expect_status 0 "$CLAWPORT" verify --json "$TMP/zbsk"
no_warning "verify --json"

# bad usage
expect_status 2 "$CLAWPORT" convert "$TMP/rb" --to nowhere --out "$TMP/x"
expect_status 2 "$CLAWPORT" convert "$TMP/rb" --to claw
expect_status 2 "$CLAWPORT" convert
expect_status 0 "$CLAWPORT" convert --help
finish
