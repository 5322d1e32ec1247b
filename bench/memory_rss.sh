#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Peak RSS of `verify` and `import` with 100,000 memories (issue 47: memory at flat memory
# use), side by side with the same agent as a format-1 bundle, and the ratio.
#
#   bench/memory_rss.sh [--cli PATH] [--count N] [--rounds R] [--dir DIR]
#
# The example install's `researcher` gets N more memories (tools/make_example_memory.py,
# the runtime's schema; each row's content ~250 bytes, as a note is); it is exported twice,
# without memory (format 1) and with --with-memory (format 2). Each round runs every command
# once, in a rotating order; the table gives the median of the rounds' peak RSS
# (`/usr/bin/time -f %M`, KiB) and the ratio to the format-1 figure of the same command.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
CLI=$REPO/build/default/cli/clawport
COUNT=100000
ROUNDS=3
DIR=
while [ $# -gt 0 ]; do
  case $1 in
  --cli) CLI=$2; shift 2 ;;
  --count) COUNT=$2; shift 2 ;;
  --rounds) ROUNDS=$2; shift 2 ;;
  --dir) DIR=$2; shift 2 ;;
  *) echo "usage: $0 [--cli PATH] [--count N] [--rounds R] [--dir DIR]" >&2; exit 2 ;;
  esac
done
[ -x "$CLI" ] || { echo "no CLI at $CLI (cmake --build build/default --target clawport)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time: tools/install-deps.sh bench)" >&2; exit 2; }
[ -n "$DIR" ] || DIR=$(mktemp -d /tmp/clawport-memrss-XXXXXX)
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT
export SOURCE_DATE_EPOCH=1786500000

cp -a "$REPO/examples/zeroclaw-install" "$DIR/src"
content="{prefix} number {i}: $(printf 'a remembered fact about the work, %.0s' 1 2 3 4 5 6 7)"
python3 "$REPO/tools/make_example_memory.py" add "$DIR/src/data/memory/brain.db" \
  --agent researcher --count "$COUNT" --prefix bench --content "$content"
"$CLI" export researcher --config "$DIR/src/config.toml" --out "$DIR/f1" --no-sync >/dev/null
"$CLI" export researcher --config "$DIR/src/config.toml" --out "$DIR/f2" --no-sync \
  --with-memory >/dev/null

# One run of `import` into a fresh target; prints its peak RSS (KiB).
import_rss() { # bundle [--with-memory]
  local t=$DIR/target
  rm -rf "$t" && mkdir -p "$t" && echo 'schema_version = 3' >"$t/config.toml"
  local pi
  pi=$("$CLI" import "$1" --config "$t/config.toml" "${@:2}" --dry-run --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["plan_integrity"])')
  /usr/bin/time -f %M -o "$DIR/rss" "$CLI" import "$1" --config "$t/config.toml" "${@:2}" \
    --yes --plan-integrity "$pi" >/dev/null
  cat "$DIR/rss"
}
verify_rss() {
  /usr/bin/time -f %M -o "$DIR/rss" "$CLI" verify "$1" >/dev/null
  cat "$DIR/rss"
}
names=(verify-f1 verify-f2 import-f1 import-f2 import-f2-mem)
run_one() {
  case $1 in
  verify-f1) verify_rss "$DIR/f1" ;;
  verify-f2) verify_rss "$DIR/f2" ;;
  import-f1) import_rss "$DIR/f1" ;;
  import-f2) import_rss "$DIR/f2" ;;
  import-f2-mem) import_rss "$DIR/f2" --with-memory ;;
  esac
}
declare -A got
for ((r = 0; r < ROUNDS; r++)); do
  for ((i = 0; i < ${#names[@]}; i++)); do
    n=${names[$(((i + r) % ${#names[@]}))]}
    got[$n]="${got[$n]:-} $(run_one "$n")"
  done
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
m() { median "${got[$1]}"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
rows=$(wc -l <"$DIR/f2/memory/entries.jsonl")
bytes=$(stat -c %s "$DIR/f2/memory/entries.jsonl")
echo "$rows memories, memory/entries.jsonl $bytes bytes; median of $ROUNDS rounds, peak RSS KiB"
echo
echo "| command | format 1 | format 2 | ratio |"
echo "| --- | --- | --- | --- |"
echo "| verify | $(m verify-f1) | $(m verify-f2) | $(ratio "$(m verify-f2)" "$(m verify-f1)") |"
echo "| import (memory left out) | $(m import-f1) | $(m import-f2) | $(ratio "$(m import-f2)" "$(m import-f1)") |"
echo "| import --with-memory | $(m import-f1) | $(m import-f2-mem) | $(ratio "$(m import-f2-mem)" "$(m import-f1)") |"
echo "| load average | $(cut -d' ' -f1-3 /proc/loadavg) | | |"
