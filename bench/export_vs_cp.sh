#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times `clawport export` against `cp -a` of the same 20,000-file workspace, side by side in
# one run, on tmpfs (/dev/shm) and on disk, and measures peak RSS at 5,000 and 20,000 files
# to show that memory does not grow with the file count (the walk streams).
#
# usage: bench/export_vs_cp.sh [files=20000] [runs=5]
#   BENCH_DISK_DIR  directory on a real disk (default: build/bench inside the repository)
#   CLAWPORT        a clawport binary to time instead of building build/release
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
FILES=${1:-20000}
RUNS=${2:-5}
DISK_DIR=${BENCH_DISK_DIR:-$REPO/build/bench}

if [ ! -x /usr/bin/time ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y -qq time >/dev/null
  elif command -v sudo >/dev/null; then
    sudo apt-get install -y -qq time >/dev/null
  else
    echo "bench: /usr/bin/time is missing; install the Debian package 'time'" >&2
    exit 1
  fi
fi

if [ -z "${CLAWPORT:-}" ]; then
  cmake --preset release >/dev/null
  cmake --build --preset release --target clawport_cli >/dev/null
  CLAWPORT=$REPO/build/release/cli/clawport
fi

# make_install <root> <files>: a ZeroClaw install whose agent `bench` has a workspace of
# <files> files of 1-4 KiB, 100 per directory, with a memory/ store the export skips.
make_install() {
  local root=$1 n=$2
  rm -rf "$root"
  mkdir -p "$root/agents/bench/workspace"
  cat >"$root/config.toml" <<'TOML'
schema_version = 3

[providers.models.anthropic.main]
api_key = "sk-bench-not-a-real-key"
model = "claude-sonnet-4-5"

[risk_profiles.guarded]

[agents.bench]
model_provider = "anthropic.main"
risk_profile = "guarded"
TOML
  python3 - "$root/agents/bench/workspace" "$n" <<'PY'
import os, sys
ws, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(ws, "d%03d" % (i // 100))
    if i % 100 == 0:
        os.makedirs(d, exist_ok=True)
    size = 1024 + (i * 977) % 3072
    with open(os.path.join(d, "f%05d.md" % i), "wb") as f:
        f.write((b"note %d " % i) * (size // 8 + 1))
os.makedirs(os.path.join(ws, "memory"), exist_ok=True)
with open(os.path.join(ws, "memory", "brain.db"), "wb") as f:
    f.write(b"SQLite format 3\0")
PY
}

# once <out> <command...>: one timed run (output removed before and after, dirty pages
# flushed before so one run's write-back does not land in the next); prints "secs kib".
once() {
  local out=$1; shift
  rm -rf "$out"
  sync
  /usr/bin/time -f "%e %M" -o "$TMP_TIME" "$@" >/dev/null
  rm -rf "$out"
  cat "$TMP_TIME"
}
# min <a> <b>: the smaller number.
min() { awk "BEGIN{print ($1 < $2) ? $1 : $2}"; }

TMP_TIME=$(mktemp)
trap 'rm -f "$TMP_TIME"' EXIT

echo "# clawport export vs cp -a ($FILES files, best of $RUNS interleaved rounds)"
echo
echo "machine: $(nproc) CPU(s), $(uname -sr); $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "| where | filesystem | cp -a (s) | export --no-sync (s) | ratio | export (s) | ratio | export peak RSS (KiB) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for base in /dev/shm/clawport-bench "$DISK_DIR/clawport-bench"; do
  mkdir -p "$base"
  fstype=$(stat -f -c %T "$base")
  make_install "$base/install" "$FILES"
  ws=$base/install/agents/bench/workspace
  # The three commands run interleaved, RUNS rounds, best time of each: a machine whose
  # load varies then biases none of them.
  cp_s=999999 ns_s=999999 s_s=999999 rss=0
  for _ in $(seq "$RUNS"); do
    read -r t _ < <(once "$base/cp" cp -a "$ws" "$base/cp")
    cp_s=$(min "$t" "$cp_s")
    read -r t k < <(once "$base/bundle" "$CLAWPORT" export bench \
      --config "$base/install/config.toml" --out "$base/bundle" --no-sync)
    ns_s=$(min "$t" "$ns_s"); [ "$k" -gt "$rss" ] && rss=$k
    read -r t k < <(once "$base/bundle" "$CLAWPORT" export bench \
      --config "$base/install/config.toml" --out "$base/bundle")
    s_s=$(min "$t" "$s_s"); [ "$k" -gt "$rss" ] && rss=$k
  done
  r1=$(awk "BEGIN{printf \"%.2f\", $ns_s / $cp_s}")
  r2=$(awk "BEGIN{printf \"%.2f\", $s_s / $cp_s}")
  echo "| $base | $fstype | $cp_s | $ns_s | $r1 | $s_s | $r2 | $rss |"
  rm -rf "$base"
done

echo
echo "| files | export --no-sync peak RSS (KiB), tmpfs |"
echo "| --- | --- |"
for n in 5000 20000; do
  base=/dev/shm/clawport-bench-rss
  mkdir -p "$base"
  make_install "$base/install" "$n"
  rss=0
  for _ in $(seq "$RUNS"); do
    read -r _ k < <(once "$base/bundle" "$CLAWPORT" export bench \
      --config "$base/install/config.toml" --out "$base/bundle" --no-sync)
    [ "$k" -gt "$rss" ] && rss=$k
  done
  echo "| $n | $rss |"
  rm -rf "$base"
done
