#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs one libFuzzer target (or `all`, one after another) for <seconds> each:
#   fuzz/run.sh <target>|all <seconds> [extra libFuzzer flags...]
# Builds the targets first (preset "fuzz": clang++, -fsanitize=fuzzer,address,undefined,
# build/fuzz), in one configure. Seeds are read from fuzz/corpus/<target>/ (never written);
# new inputs go to build/fuzz/corpus/<target>/, crashes to build/fuzz/artifacts/<target>/.
# Prints the runs, execs/s and coverage of each target; exits 1 if any target found something.
# CLAWPORT_FUZZ_NO_BUILD=1 skips the build step. CLAWPORT_FUZZ_CXXFLAGS replaces the preset's
# "-O1 -g" (CI's replay of the corpus builds with "-O0 -gline-tables-only": the same
# sanitizers and instrumentation, compiled in less time; exploration wants -O1's speed).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: fuzz/run.sh <target>|all <seconds> [libFuzzer flags]" >&2; exit 2; }
what=$1 seconds=$2
shift 2
targets=$(sed -n '/^set(CLAWPORT_FUZZ_TARGETS/,/)/p' fuzz/CMakeLists.txt |
  sed 's/set(CLAWPORT_FUZZ_TARGETS//; s/)//' | tr -s ' \n' '\n' | sed '/^$/d')
if [ "$what" = all ]; then
  list=$targets
else
  grep -qx "$what" <<<"$targets" || { echo "fuzz/run.sh: unknown target $what (one of: $(echo $targets))" >&2; exit 2; }
  list=$what
fi
build=build/fuzz
if [ "${CLAWPORT_FUZZ_NO_BUILD:-0}" != 1 ]; then
  flags=()
  [ -z "${CLAWPORT_FUZZ_CXXFLAGS:-}" ] || flags=(-DCMAKE_CXX_FLAGS="$CLAWPORT_FUZZ_CXXFLAGS")
  cmake --preset fuzz "${flags[@]}" >/dev/null
  # shellcheck disable=SC2086
  cmake --build --preset fuzz --target $list
fi
status=0
for t in $list; do
  work=$build/corpus/$t artifacts=$build/artifacts/$t
  mkdir -p "$work" "$artifacts"
  log=$build/$t.log
  echo "--- $t: ${seconds}s"
  set +e
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
    "$build/fuzz/$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -dict="fuzz/dict/$t.dict" -artifact_prefix="$artifacts/" "$@" "$work" "fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$( (grep -o 'cov: [0-9]*' "$log" || true) | tail -1 | cut -d' ' -f2)
  ft=$( (grep -o 'ft: [0-9]*' "$log" || true) | tail -1 | cut -d' ' -f2)
  printf '%s: runs %s, %s exec/s, cov %s, ft %s, corpus %s\n' "$t" "${runs:-?}" "${speed:-?}" \
    "${cov:-?}" "${ft:-?}" "$(find "$work" "fuzz/corpus/$t" -type f | wc -l)"
  if [ $rc -ne 0 ]; then
    echo "$t: FOUND something (exit $rc); the log is $log, the input in $artifacts/:" >&2
    (grep -E 'ERROR|SUMMARY|property broken|Test unit written' "$log" || true) | head -20 >&2
    status=1
  fi
done
exit $status
