# SPDX-License-Identifier: MIT
# Helpers of the oracle cases (sourced by tests/oracle/cases/*.sh, run by tests/oracle/run.sh).
#
# run.sh gives every case: ORACLE_NODE (node 24), ORACLE_OPENCLAW (openclaw.mjs of the pinned
# release), CLAWPORT (the CLI), CASE_TMP (a fresh empty directory), ORACLE_REPO (the repository).
#
#   oc HOME [VAR=value…] args…            the real openclaw, HOME set, only the env below
#   clawport_run HOME [VAR=value…] args…   the clawport CLI the same way
#   cp HOME [VAR=value…] claw|workspace …  = clawport_run (any other use is coreutils cp)
#   json_same LABEL A B [FILTER]           canonical JSON of files A and B equal (FILTER: a
#                                          Python expression over `j`, the parsed document)
#   same_text LABEL A B                    files A and B equal byte for byte
#   same_status LABEL A B                  two exit statuses equal
#   expect LABEL WANT GOT                  a documented difference: GOT is WANT
#   tree_modes DIR                         sorted "path mode" lines of the tree under DIR
#   snap DIR / restore DIR                 keep a copy of DIR / put DIR back as it was, so both
#                                          programs see the same input at the same path
#   subst_paths FILE FROM…                 replace each FROM (a path) with <pN> in FILE
#   pair NAME HOME -- OC_ARGS… -- CP_ARGS…  run both on the same HOME (snap/restore between):
#                                          stdout in oc-NAME.out / cp-NAME.out, exit status in
#                                          oc_rc / cp_rc
#   write_claw DIR [package-name]           a package: CLAW.md from stdin, package.json
#   compare_pair LABEL NAME [FILTER]        same_status of the pair, json_same of its outputs
#   inspect_and_plan NAME HOME [PKG]        compare_pair of `inspect --json` and of
#                                          `add --dry-run --json` (PKG: $CASE_TMP/NAME)
#
# Filters for the differences docs/openclaw.md lists (each names the row it stands for):
#   F_OFFLINE_NOTES  drops clawport's `cron_gateway_required` warnings (clawport does not
#                    schedule cron jobs offline, and says so; upstream needs a Gateway)
#   F_ERROR_MEMBER   drops the `error` member clawport's failure documents add
#
# Each comparison prints "  ok LABEL", "  known LABEL (why)" or "  DIFF LABEL" (the diff on
# stderr); run.sh counts them. A case exits 1 when any comparison differed (the EXIT trap below), 77 to skip.
set -u
: "${ORACLE_NODE:?run me through tests/oracle/run.sh}" "${ORACLE_OPENCLAW:?}" "${CLAWPORT:?}"
: "${CASE_TMP:?}" "${ORACLE_REPO:?}"
: "${ORACLE_COMPILE_CACHE:=$CASE_TMP/.node-compile-cache}"
oracle_fails=0
oracle_checks=0
_oracle_exit() {
  local rc=$?
  if [ "$rc" = 0 ] && [ "$oracle_fails" -gt 0 ]; then exit 1; fi
  if [ "$rc" = 0 ] && [ "$oracle_checks" = 0 ]; then
    echo "  DIFF (the case compared nothing)"; exit 1
  fi
  exit "$rc"
}
trap _oracle_exit EXIT

# _oracle_env HOME [VAR=value…]: the environment both programs run in (nothing of the caller's:
# no OPENCLAW_* or ZEROCLAW_* variable leaks in). ClawHub is a closed local port: offline.
_oracle_env_args=()
_oracle_env() {
  _oracle_env_args=(PATH=/usr/bin:/bin "HOME=$1" LANG=C.UTF-8 TZ=UTC NO_COLOR=1
    OPENCLAW_EXPERIMENTAL_CLAWS=1 OPENCLAW_CLAWHUB_URL=http://127.0.0.1:9
    "TMPDIR=$CASE_TMP")
  shift
  _oracle_nenv=0
  while [ $# -gt 0 ] && [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
    _oracle_env_args+=("$1")
    shift
    _oracle_nenv=$((_oracle_nenv + 1))
  done
}

oc() {
  _oracle_env "$@"
  shift $((1 + _oracle_nenv))
  # openclaw.mjs re-executes itself once to point node's compile cache at a per-version
  # directory; starting it as that re-execution would be, with one cache shared by every
  # run, halves its start-up (the program's behaviour is the same).
  env -i "${_oracle_env_args[@]}" "NODE_COMPILE_CACHE=$ORACLE_COMPILE_CACHE" \
    OPENCLAW_PACKAGED_COMPILE_CACHE_RESPAWNED=1 "$ORACLE_NODE" "$ORACLE_OPENCLAW" "$@"
}

clawport_run() {
  _oracle_env "$@"
  shift $((1 + _oracle_nenv))
  env -i "${_oracle_env_args[@]}" "$CLAWPORT" "$@"
}

# cp: the CLI when called as `cp HOME [VAR=…] <clawport command>`, else coreutils cp.
cp() {
  if [ $# -ge 2 ] && [ -d "$1" ]; then
    local i=2
    while [ "$i" -le $# ] && [[ ${!i} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do i=$((i + 1)); done
    case "${!i:-}" in
      claw | workspace | convert | --version | --help)
        clawport_run "$@"
        return
        ;;
    esac
  fi
  command cp "$@"
}

# tests/oracle/known.tsv: `LABEL<TAB>why` for each comparison known to differ, the why naming
# the docs/openclaw.md row or the issue item that fixes it. A known difference passes (and is
# counted as such); a listed comparison that agrees fails until its line is removed, so the
# list only shrinks.
_oracle_known() {  # _oracle_known LABEL: prints the why of a known difference
  awk -F '\t' -v l="$1" '$1 == l { print $2; found = 1 } END { exit !found }' \
    "$ORACLE_REPO/tests/oracle/known.tsv" 2>/dev/null
}

_oracle_result() {  # _oracle_result LABEL STATUS
  oracle_checks=$((oracle_checks + 1))
  local why
  if why=$(_oracle_known "$1"); then
    if [ "$2" = 0 ]; then
      echo "  DIFF $1 (agrees now: remove its line from tests/oracle/known.tsv)"
      oracle_fails=$((oracle_fails + 1))
      return 1
    fi
    echo "  known $1 ($why)"
    return 0
  fi
  if [ "$2" = 0 ]; then
    echo "  ok $1"
  else
    echo "  DIFF $1"
    oracle_fails=$((oracle_fails + 1))
  fi
  return "$2"
}

json_same() {
  local label=$1 a=$2 b=$3 filter=${4:-j} rc=0
  python3 - "$a" "$b" "$filter" "$label" >&2 <<'PY' || rc=1
import difflib, json, sys
a, b, expr, label = sys.argv[1:5]
def canon(path):
    text = open(path, encoding="utf-8", errors="surrogateescape").read()
    try:
        j = json.loads(text)
    except ValueError as e:
        return "not JSON (%s):\n%s" % (e, text)
    j = eval(expr, {"j": j})
    return json.dumps(j, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
x, y = canon(a), canon(b)
if x != y:
    sys.stderr.writelines(difflib.unified_diff(
        x.splitlines(True), y.splitlines(True), "openclaw: " + label, "clawport: " + label))
    sys.exit(1)
PY
  _oracle_result "$label" "$rc"
}

same_text() {
  local rc=0
  diff -u --label "openclaw: $1" --label "clawport: $1" "$2" "$3" >&2 || rc=1
  _oracle_result "$1" "$rc"
}

same_status() {
  local rc=0
  [ "$2" = "$3" ] || { echo "$1: openclaw exited $2, clawport $3" >&2; rc=1; }
  _oracle_result "$1" "$rc"
}

expect() {
  local rc=0
  [ "$2" = "$3" ] || { printf '%s: expected\n%s\ngot\n%s\n' "$1" "$2" "$3" >&2; rc=1; }
  _oracle_result "$1" "$rc"
}

tree_modes() {
  (cd "$1" && find . -mindepth 1 -printf '%P %m\n' | LC_ALL=C sort)
}

snap() {
  rm -rf "$1.oracle-snap"
  command cp -a "$1" "$1.oracle-snap"
}

restore() {
  rm -rf "$1"
  command cp -a "$1.oracle-snap" "$1"
}

subst_paths() {
  local f=$1 i=0
  shift
  for p in "$@"; do
    python3 - "$f" "$p" "<p$i>" <<'PY'
import sys
f, old, new = sys.argv[1:4]
data = open(f, "rb").read().replace(old.encode(), new.encode())
open(f, "wb").write(data)
PY
    i=$((i + 1))
  done
}

pair() {
  local name=$1 home=$2
  shift 2
  [ "$1" = -- ] && shift
  local oc_args=() cp_args=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do oc_args+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  cp_args=("$@")
  snap "$home"
  oc_rc=0
  oc "$home" "${oc_args[@]}" >"oc-$name.out" 2>"oc-$name.err" || oc_rc=$?
  command cp -a "$home" "$home.oc-$name"
  restore "$home"
  cp_rc=0
  clawport_run "$home" "${cp_args[@]}" >"cp-$name.out" 2>"cp-$name.err" || cp_rc=$?
}

write_claw() {
  mkdir -p "$1"
  cat >"$1/CLAW.md"
  printf '{"name": "%s", "version": "1.0.0", "openclaw": {"claw": "CLAW.md"}}\n' \
    "${2:-oracle-claw}" >"$1/package.json"
}

F_OFFLINE_NOTES='dict(j, diagnostics=[d for d in j["diagnostics"] if d.get("code") != "cron_gateway_required"]) if isinstance(j, dict) and "diagnostics" in j else j'
F_ERROR_MEMBER='{k: v for k, v in j.items() if k != "error"} if isinstance(j, dict) else j'
# A plan, blocked or not: without clawport's `error` member (docs/openclaw.md, "a failure
# document") and its offline notes.
F_PLAN="(lambda j: $F_OFFLINE_NOTES)($F_ERROR_MEMBER)"

compare_pair() {
  same_status "$1 (exit)" "$oc_rc" "$cp_rc"
  json_same "$1" "oc-$2.out" "cp-$2.out" "${3:-j}"
}

inspect_and_plan() {
  local name=$1 home=$2 pkg=${3:-$CASE_TMP/$1}
  pair "$name-inspect" "$home" -- claws inspect --json "$pkg" -- claw inspect --json "$pkg"
  compare_pair "$name: inspect" "$name-inspect" "$F_ERROR_MEMBER"
  pair "$name-plan" "$home" -- claws add --dry-run --json "$pkg" -- claw add --dry-run --json "$pkg"
  compare_pair "$name: add --dry-run" "$name-plan" "($F_OFFLINE_NOTES) if not (isinstance(j, dict) and 'error' in j) else ($F_ERROR_MEMBER)"
}
