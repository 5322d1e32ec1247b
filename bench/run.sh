#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The benchmark of issue 15, in one run (docs/benchmarks.md): clawport against the fastest
# tool for the same bytes, on tmpfs (/dev/shm) and on disk, commands alternated round by
# round (the first command of a round rotates), medians reported, peak RSS from wait4(2).
#
#   bench/run.sh [--quick] [--rounds N] [--disk DIR | --tmpfs-only] [--only LIST] [--million]
#
#   --quick     smoke sizes (2,000 small files, 2 x 4 MiB, 64 MiB hashed, a 200-agent config,
#               RSS at 500 and 5,000 files), one round, tmpfs only: checks the script, not speed
#   --rounds N  rounds per comparison (default 5; the 64 MiB files use max(N-2, 1))
#   --disk DIR  a directory on a real disk (default: build/bench-data in the repository)
#   --tmpfs-only  the parts a-d on tmpfs only (no disk pass)
#   --only LIST comma-separated parts to run: a,b,c,sha,d,e,f,par,jobs,rss (default: all; par
#               is the two-thread proxy: two `cp -a` of the tree's halves at once against one;
#               jobs runs export --no-sync (a: against cp -a and tar | tar; b), verify and
#               import with --jobs 1 and --jobs 2 side by side with their references, a load
#               line after each group; a-d use the default, the usable CPUs up to 8)
#   --million   also the 1,000,000-file RSS row (empty files; the bundle's max_files is 2^20)
#   --no-build  time the binaries already in the build directory, as they are
#   CLAWPORT_BENCH_BUILD  a configured build directory with CLAWPORT_BUILD_BENCH=ON (default:
#                         build/release of the `bench` preset, configured and built here)
#
# (a) 20,000 files of 0-16 KiB at depth 3-6, (b) 20 files of 64 MiB: durable export vs
# `cp -a` + `sync -f`, `--no-sync` vs `cp -a`, both vs `tar -c | tar -x`; (c) verify of
# bundle (a) vs `sha256sum -c` of its digest list, SHA-256 of 1 GiB vs sha256sum and openssl;
# (d) import of bundle (a) into an empty install vs `cp -a` of its workspace; (e) planning
# one agent of a 2,000-agent, 10,000-provider config (`export --dry-run`) vs toml++ parsing
# the file; (f) `claw plan` of a package at the size limits. All data comes from
# bench/gen.py (deterministic, nothing downloaded). Never run from CI except `--quick`.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
BUILD_FIRST=1 QUICK=0 TMPFS_ONLY=0 ROUNDS=5 DISK_DIR=$REPO/build/bench-data ONLY=a,b,c,sha,d,e,f,par,jobs,rss MILLION=0
while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1 ;;
    --rounds) ROUNDS=$2; shift ;;
    --disk) DISK_DIR=$2; shift ;;
    --tmpfs-only) TMPFS_ONLY=1 ;;
    --only) ONLY=$2; shift ;;
    --million) MILLION=1 ;;
    --no-build) BUILD_FIRST=0 ;;
    -h | --help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "bench/run.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
want() { [[ ",$ONLY," == *",$1,"* ]]; }

SMALL=20000 SMALL_MAX=16384 LARGE_N=20 LARGE_BYTES=$((64 << 20)) BLOB=$((1 << 30))
AGENTS=2000 PROVIDERS=10000 RSS_SIZES="2000 20000 90000 200000"
PLACES=("/dev/shm/clawport-bench" "$DISK_DIR/clawport-bench")
if [ "$QUICK" = 1 ]; then
  SMALL=2000 LARGE_N=2 LARGE_BYTES=$((4 << 20)) BLOB=$((64 << 20)) AGENTS=200 PROVIDERS=1000
  RSS_SIZES="500 5000" ROUNDS=1 PLACES=("/dev/shm/clawport-bench")
fi
[ "$MILLION" = 1 ] && RSS_SIZES="$RSS_SIZES 1000000"
[ "$TMPFS_ONLY" = 1 ] && PLACES=("/dev/shm/clawport-bench")
LARGE_ROUNDS=$((ROUNDS > 3 ? ROUNDS - 2 : ROUNDS))

BUILD=${CLAWPORT_BENCH_BUILD:-}
if [ -z "$BUILD" ]; then
  [ "$BUILD_FIRST" = 1 ] && cmake --preset bench >/dev/null
  BUILD=$REPO/build/release
fi
if [ "$BUILD_FIRST" = 1 ]; then
  cmake --build "$BUILD" --target clawport_cli clawport_sha256_file clawport_toml_parse \
    clawport_rusage >/dev/null
fi
CLAW=$BUILD/cli/clawport
SHA=$BUILD/bench/clawport_sha256_file
TOMLP=$BUILD/bench/clawport_toml_parse
GEN=$REPO/bench/gen.py
RUSAGE=$BUILD/bench/clawport_rusage

RES=$(mktemp -d)
# Outputs of trials on a disk are set aside here and deleted when the run ends (retire below).
RETIRED=$DISK_DIR/clawport-bench-retired RETIRE=1 N_RETIRED=0
trap 'rm -rf "$RES" "$RETIRED"; for p in "${PLACES[@]}"; do rm -rf "$p"; done' EXIT

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "# clawport benchmark ($(date -u +%Y-%m-%dT%H:%MZ))"
echo
echo "machine: $(nproc) CPU(s) ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
  "$(grep -o -m1 -w sha_ni /proc/cpuinfo || echo no sha_ni)), $(($(grep MemTotal /proc/meminfo |
  awk '{print $2}') / 1024)) MiB RAM, $(uname -sr); clawport $(git -C "$REPO" rev-parse --short HEAD) ($CLAW)"
echo "commands alternate within each round, the first one rotating; times are medians of the"
echo "rounds; ratio = clawport / reference (wall time), CPU ratio the same of the median user +"
echo "system seconds (steadier on a shared machine); peak RSS is the largest ru_maxrss (KiB)"
echo

# retire <path>: out of the way of the next trial. On a disk a tree of many files is moved
# aside, not deleted, until the run ends: ext4 without a journal (this project's benchmark
# machine) skips inodes freed in the last 60 s when it allocates new ones, scanning past each,
# so deleting a trial's 20,000 files made every command of the next trial, `cp -a` as much as
# clawport, 10-20 times slower and its times noise (13-20 s for what takes 0.7-1.3 s). Large-file
# cases set RETIRE=0 (a few inodes; their gigabytes are better freed at once). Only paths of
# the disk pass (under --disk, beside $RETIRED: the move is a rename) are set aside.
retire() {
  [ -e "$1" ] || return 0
  if [ "$RETIRE" = 1 ] && [[ "$1" == "$DISK_DIR"/* ]]; then
    mkdir -p "$RETIRED"
    N_RETIRED=$((N_RETIRED + 1))
    mv "$1" "$RETIRED/$N_RETIRED"
  else
    rm -rf "$1"
  fi
}
# trial <label> <path to clear> <command...>: one timed run into $RES/<label>; the path is
# retired before and after, and a sync comes before it so earlier write-back does not land in
# this run.
trial() {
  local label=$1 clear=$2
  shift 2
  retire "$clear"
  sync
  "$RUSAGE" "$RES/$label" "$@"
  tail -n1 "$RES/$label" | awk -v l="$label" '$3 != 0 { print "bench: " l " exited " $3 > "/dev/stderr"; exit 1 }'
  retire "$clear"
}
median() { sort -n "$RES/$1" | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'; }
# The median of the CPU seconds (user + system, the 4th field of clawport_rusage).
cpu_median() { awk '{ print $4 }' "$RES/$1" | sort -n | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'; }
peak() { awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print m }' "$RES/$1"; }
ratio() { awk -v a="$(median "$1")" -v b="$(median "$2")" 'BEGIN { printf "%.2f", a / b }'; }
cpu_ratio() { awk -v a="$(cpu_median "$1")" -v b="$(cpu_median "$2")" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
# rounds <n> <fn...>: n rounds of the trial functions, the first one rotating.
rounds() {
  local n=$1 k i j
  shift
  local fns=("$@")
  k=${#fns[@]}
  for ((i = 0; i < n; i++)); do
    for ((j = 0; j < k; j++)); do "${fns[$(((i + j) % k))]}"; done
  done
}
row() { # row <case> <where> <ours> <ref>
  printf '| %s | %s | %s | %.3f | %s | %.3f | **%s** | %s | %s | %s |\n' "$1" "$2" "$3" "$(median "$3")" \
    "$4" "$(median "$4")" "$(ratio "$3" "$4")" "$(cpu_ratio "$3" "$4")" "$(peak "$3")" "$(peak "$4")"
}
header() {
  echo "| case | where | clawport | s | reference | s | ratio | CPU ratio | RSS KiB | ref RSS KiB |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
}

copy_cases() { # copy_cases <case> <place> <install> <rounds>
  local c=$1 base=$2 inst=$3 n=$4 where
  local ws=$inst/agents/bench/workspace dst=$base/out
  where="$(stat -f -c %T "$base")"
  t_export() { trial "$c-export" "$dst" "$CLAW" export bench --config "$inst/config.toml" --out "$dst"; }
  t_nosync() { trial "$c-export-nosync" "$dst" "$CLAW" export bench --config "$inst/config.toml" --out "$dst" --no-sync; }
  t_cpsync() { trial "$c-cp+sync" "$dst" bash -c 'cp -a "$1" "$2" && sync -f "$2"' _ "$ws" "$dst"; }
  t_cp() { trial "$c-cp" "$dst" cp -a "$ws" "$dst"; }
  t_tar() { trial "$c-tar" "$dst" bash -c 'mkdir "$2" && tar -C "$1" -cf - . | tar -C "$2" -xf -' _ "$ws" "$dst"; }
  local l0
  l0=$(load)
  rounds "$n" t_export t_cpsync t_nosync t_cp t_tar
  row "$c durable" "$where" "$c-export" "$c-cp+sync"
  row "$c --no-sync" "$where" "$c-export-nosync" "$c-cp"
  row "$c durable vs tar" "$where" "$c-export" "$c-tar"
  row "$c --no-sync vs tar" "$where" "$c-export-nosync" "$c-tar"
  echo "| load average | $where | before $l0 | | after $(load) | | | | | |"
  rm -f "$RES/$c-"*
}

# --jobs 1 against --jobs 2, each beside its reference, in the same rounds (issue 25).
jobs_cases() { # jobs_cases <place> <where>
  local base=$1 where=$2 l0 n=$ROUNDS
  local ws=$base/small/agents/bench/workspace out=$base/out target=$base/target
  l0=$(load)
  t_x1() { trial jx-1 "$out" "$CLAW" export bench --config "$base/small/config.toml" --out "$out" --no-sync --jobs 1; }
  t_x2() { trial jx-2 "$out" "$CLAW" export bench --config "$base/small/config.toml" --out "$out" --no-sync --jobs 2; }
  t_xcp() { trial jx-cp "$out" cp -a "$ws" "$out"; }
  t_xtar() { trial jx-tar "$out" bash -c 'mkdir "$2" && tar -C "$1" -cf - . | tar -C "$2" -xf -' _ "$ws" "$out"; }
  rounds "$n" t_x1 t_x2 t_xcp t_xtar
  row "jobs: a export --no-sync --jobs 1" "$where" jx-1 jx-cp
  row "jobs: a export --no-sync --jobs 2" "$where" jx-2 jx-cp
  row "jobs: a export --no-sync --jobs 1 vs tar" "$where" jx-1 jx-tar
  row "jobs: a export --no-sync --jobs 2 vs tar" "$where" jx-2 jx-tar
  row "jobs: a export --jobs 2 vs --jobs 1" "$where" jx-2 jx-1
  echo "| load average | $where | before $l0 | | after $(load) | | | | | |"
  l0=$(load)
  t_v1() { trial jv-1 "$base/none" "$CLAW" verify "$base/bundle" --jobs 1; }
  t_v2() { trial jv-2 "$base/none" "$CLAW" verify "$base/bundle" --jobs 2; }
  t_vsum() { trial jv-sha256sum "$base/none" bash -c 'cd "$1" && sha256sum -c --quiet --strict zeroclaw-agent.sha256' _ "$base/bundle"; }
  rounds "$n" t_v1 t_v2 t_vsum
  row "jobs: c verify --jobs 1" "$where" jv-1 jv-sha256sum
  row "jobs: c verify --jobs 2" "$where" jv-2 jv-sha256sum
  row "jobs: c verify --jobs 2 vs --jobs 1" "$where" jv-2 jv-1
  echo "| load average | $where | before $l0 | | after $(load) | | | | | |"
  l0=$(load)
  fresh() { retire "$target"; mkdir -p "$target"; echo 'schema_version = 3' >"$target/config.toml"; }
  fresh
  local pi
  pi=$("$CLAW" import "$base/bundle" --config "$target/config.toml" --dry-run --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["plan_integrity"])')
  t_i1() { fresh; trial ji-1 "$base/none" "$CLAW" import "$base/bundle" --config "$target/config.toml" --yes --plan-integrity "$pi" --jobs 1; }
  t_i2() { fresh; trial ji-2 "$base/none" "$CLAW" import "$base/bundle" --config "$target/config.toml" --yes --plan-integrity "$pi" --jobs 2; }
  t_icp() { fresh; trial ji-cp "$base/none" cp -a "$base/bundle/workspace" "$target/ws"; }
  rounds "$n" t_i1 t_i2 t_icp
  row "jobs: d import --jobs 1" "$where" ji-1 ji-cp
  row "jobs: d import --jobs 2" "$where" ji-2 ji-cp
  row "jobs: d import --jobs 2 vs --jobs 1" "$where" ji-2 ji-1
  echo "| load average | $where | before $l0 | | after $(load) | | | | | |"
  retire "$target"
  python3 "$GEN" install "$base/large" large "$LARGE_N" "$LARGE_BYTES"
  l0=$(load)
  local RETIRE=0 lws=$base/large/agents/bench/workspace
  t_l1() { trial jl-1 "$out" "$CLAW" export bench --config "$base/large/config.toml" --out "$out" --no-sync --jobs 1; }
  t_l2() { trial jl-2 "$out" "$CLAW" export bench --config "$base/large/config.toml" --out "$out" --no-sync --jobs 2; }
  t_lcp() { trial jl-cp "$out" cp -a "$lws" "$out"; }
  rounds "$LARGE_ROUNDS" t_l1 t_l2 t_lcp
  row "jobs: b $LARGE_N x $((LARGE_BYTES >> 20)) MiB export --no-sync --jobs 1" "$where" jl-1 jl-cp
  row "jobs: b $LARGE_N x $((LARGE_BYTES >> 20)) MiB export --no-sync --jobs 2" "$where" jl-2 jl-cp
  row "jobs: b export --jobs 2 vs --jobs 1" "$where" jl-2 jl-1
  rm -rf "$base/large"
  echo "| load average | $where | before $l0 | | after $(load) | | | | | |"
}

for base in "${PLACES[@]}"; do
  rm -rf "$base"
  mkdir -p "$base"
  where=$(stat -f -c %T "$base")
  echo "## $base ($where)"
  echo
  header
  if want a || want c || want d || want par || want jobs; then
    python3 "$GEN" install "$base/small" small "$SMALL" "$SMALL_MAX"
  fi
  if want a; then copy_cases "a: $SMALL files" "$base" "$base/small" "$ROUNDS"; fi
  if want b; then
    python3 "$GEN" install "$base/large" large "$LARGE_N" "$LARGE_BYTES"
    RETIRE=0
    copy_cases "b: $LARGE_N x $((LARGE_BYTES >> 20)) MiB" "$base" "$base/large" "$LARGE_ROUNDS"
    RETIRE=1
    rm -rf "$base/large"
  fi
  if want par; then
    # Would two threads help? A proxy measured with cp: the same tree copied by one `cp -a`
    # against two `cp -a` of its halves at once (the copy's kernel side on both cores).
    src=$base/small/agents/bench/workspace
    l0=$(load)
    t_one() { trial par-1 "$base/par" bash -c 'mkdir "$2" && cp -a "$1"/. "$2"/' _ "$src" "$base/par"; }
    t_two() {
      trial par-2 "$base/par" bash -c 'mkdir -p "$2/a" "$2/b"
        cp -a "$1"/p0 "$1"/p1 "$1"/p2 "$1"/p3 "$2/a"/ & cp -a "$1"/p4 "$1"/p5 "$1"/p6 "$1"/p7 "$2/b"/ & wait' _ "$src" "$base/par"
    }
    rounds "$ROUNDS" t_two t_one
    row "par: 2 cp -a of halves at once vs 1" "$where" par-2 par-1
    echo "| load average | $where | before $l0 | | after $(load) | | | | | |"
  fi
  if want c || want d || want jobs; then
    "$CLAW" export bench --config "$base/small/config.toml" --out "$base/bundle" --no-sync >/dev/null
  fi
  if want c; then
    l0=$(load)
    t_verify() { trial c-verify "$base/none" "$CLAW" verify "$base/bundle"; }
    t_sums() { trial c-sha256sum "$base/none" bash -c 'cd "$1" && sha256sum -c --quiet --strict zeroclaw-agent.sha256' _ "$base/bundle"; }
    # openssl over the same files: the list's paths (after the digest and two spaces),
    # written beside the bundle before the rounds, handed to one openssl by xargs.
    cut -c67- "$base/bundle/zeroclaw-agent.sha256" >"$base/c-files"
    t_openssl() { trial c-openssl "$base/none" bash -c 'cd "$1" && xargs -d "\n" -a "$2" openssl dgst -sha256 >/dev/null' _ "$base/bundle" "$base/c-files"; }
    rounds "$ROUNDS" t_verify t_sums t_openssl
    row "c: verify bundle (a)" "$where" c-verify c-sha256sum
    row "c: verify vs openssl dgst" "$where" c-verify c-openssl
    echo "| load average | $where | before $l0 | | after $(load) | | | | | |"
  fi
  if want d; then
    target=$base/target
    fresh() { retire "$target"; mkdir -p "$target"; echo 'schema_version = 3' >"$target/config.toml"; }
    fresh
    pi=$("$CLAW" import "$base/bundle" --config "$target/config.toml" --dry-run --json |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["plan_integrity"])')
    l0=$(load)
    t_import() { fresh; trial d-import "$base/none" "$CLAW" import "$base/bundle" --config "$target/config.toml" --yes --plan-integrity "$pi"; }
    t_cpws() { fresh; trial d-cp "$base/none" cp -a "$base/bundle/workspace" "$target/ws"; }
    rounds "$ROUNDS" t_import t_cpws
    row "d: import bundle (a)" "$where" d-import d-cp
    echo "| load average | $where | before $l0 | | after $(load) | | | | | |"
    retire "$target"
  fi
  if want jobs; then jobs_cases "$base" "$where"; fi
  echo
  rm -rf "$base"
done

shm=/dev/shm/clawport-bench
mkdir -p "$shm"
if want sha; then
  echo "## SHA-256 of $((BLOB >> 20)) MiB on tmpfs (page cache warm)"
  echo
  python3 "$GEN" blob "$shm/blob" "$BLOB"
  cat "$shm/blob" >/dev/null
  l0=$(load)
  t_ours() { trial sha-clawport "$shm/none" "$SHA" "$shm/blob"; }
  t_coreutils() { trial sha-sha256sum "$shm/none" sha256sum "$shm/blob"; }
  t_openssl() { trial sha-openssl "$shm/none" openssl dgst -sha256 "$shm/blob"; }
  rounds "$ROUNDS" t_ours t_coreutils t_openssl
  echo "| tool | median s | GB/s | peak RSS KiB |"
  echo "| --- | --- | --- | --- |"
  for t in sha-clawport sha-sha256sum sha-openssl; do
    m=$(median $t)
    printf '| %s | %.3f | %.2f | %s |\n' "${t#sha-}" "$m" "$(awk -v b="$BLOB" -v s="$m" 'BEGIN { print b / s / 1e9 }')" "$(peak $t)"
  done
  echo "| load average | before $l0 | after $(load) | |"
  echo
  rm -f "$shm/blob"
fi

if want e || want f; then
  echo "## Planning (tmpfs)"
  echo
  header
fi
if want e; then
  cfgdir=$shm/plan
  mkdir -p "$cfgdir/agents"
  python3 "$GEN" config "$cfgdir/config.toml" "$AGENTS" "$PROVIDERS"
  l0=$(load)
  t_plan() { trial e-plan "$shm/out" "$CLAW" export a0100 --config "$cfgdir/config.toml" --out "$shm/out" --dry-run; }
  t_toml() { trial e-toml++ "$shm/out" "$TOMLP" "$cfgdir/config.toml"; }
  rounds "$ROUNDS" t_plan t_toml
  row "e: plan 1 of $AGENTS agents, $PROVIDERS providers ($(($(stat -c %s "$cfgdir/config.toml") >> 10)) KiB)" tmpfs e-plan e-toml++
  echo "| load average | tmpfs | before $l0 | | after $(load) | | | | | |"
fi
if want f; then
  python3 "$GEN" claw "$shm/claw"
  # The reference is reading the same bytes (cat): what the plan costs above the I/O.
  l0=$(load)
  t_claw() { trial f-claw-plan "$shm/out" "$CLAW" claw plan "$shm/claw" --state-dir "$shm/state"; }
  t_cat() { trial f-cat "$shm/out" bash -c 'find "$1" -type f -exec cat {} + >/dev/null' _ "$shm/claw"; }
  rounds "$ROUNDS" t_claw t_cat
  row "f: claw plan at the size limits ($(($(du -sk "$shm/claw" | cut -f1))) KiB)" tmpfs f-claw-plan f-cat
  echo "| load average | tmpfs | before $l0 | | after $(load) | | | | | |"
fi
want e || want f && echo

if want rss; then
  echo "## Peak RSS against the file count (tmpfs, files of 0-1 KiB, empty at 1,000,000; one run each)"
  echo
  echo "| files | export --no-sync KiB | verify KiB | import KiB |"
  echo "| --- | --- | --- | --- |"
  for n in $RSS_SIZES; do
    base=$shm/rss
    rm -rf "$base"
    mkdir -p "$base"
    if [ "$n" -gt $(((1 << 20) - 3)) ]; then # the bundle's max_files, its 3 own files counted
      echo "| $n | refused (max_files 1,048,576) | refused | refused |"
      rm -rf "$base"
      continue
    fi
    # A million files of 0-1 KiB take ~5 GB of tmpfs per tree (a page each): empty ones there.
    max=1024
    [ "$n" -ge 1000000 ] && max=0
    python3 "$GEN" install "$base/src" small "$n" "$max"
    trial "rss-export-$n" "$base/bundle" "$CLAW" export bench --config "$base/src/config.toml" --out "$base/bundle" --no-sync
    "$CLAW" export bench --config "$base/src/config.toml" --out "$base/bundle" --no-sync >/dev/null
    trial "rss-verify-$n" "$base/none" "$CLAW" verify "$base/bundle"
    # The install is not needed any more: three trees of a million files do not fit in a tmpfs
    # of 24 GiB's default inode count (3.08 million).
    rm -rf "$base/src"
    mkdir -p "$base/target"
    echo 'schema_version = 3' >"$base/target/config.toml"
    pi=$("$CLAW" import "$base/bundle" --config "$base/target/config.toml" --dry-run --json |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["plan_integrity"])')
    trial "rss-import-$n" "$base/none" "$CLAW" import "$base/bundle" --config "$base/target/config.toml" --yes --plan-integrity "$pi"
    echo "| $n | $(peak "rss-export-$n") | $(peak "rss-verify-$n") | $(peak "rss-import-$n") |"
    rm -rf "$base"
  done
  echo "| load average | $(load) | | |"
  echo
fi
rm -rf "$shm"
