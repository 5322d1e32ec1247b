#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Line and branch coverage of include/ by the test suite (unit tests and the CLI end-to-end
# scripts), with clang's source-based coverage (llvm-cov):
#   tools/coverage.sh            # build build/coverage, run ctest, report per module
#   tools/coverage.sh --report   # report again from the last run's profiles
# Prints one row per module of include/clawport/ (lines, line %, branches, branch %) and the
# total; writes the per-file table to build/coverage/files.txt, an HTML tree to
# build/coverage/html/ and every `throw` the suite never executed to
# build/coverage/uncovered_refusals.txt (docs/security.md explains them). The headers are compiled into both binaries, so both are measured.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/coverage
profiles=$PWD/$build/profiles
# Debian ships the LLVM tools with a version suffix (llvm-cov-14); take the plain name first.
tool() {
  local t
  for t in "$1" "$1-14" "$1-15" "$1-16" "$1-13"; do
    command -v "$t" >/dev/null && { echo "$t"; return; }
  done
  echo "coverage: $1 not found (apt install llvm)" >&2
  exit 2
}
profdata=$(tool llvm-profdata)
cov=$(tool llvm-cov)
if [ "${1:-}" != --report ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="-fprofile-instr-generate -fcoverage-mapping" \
    -DCMAKE_EXE_LINKER_FLAGS="-fprofile-instr-generate" \
    -DCLAWPORT_BUILD_TESTS=ON -DCLAWPORT_BUILD_CLI=ON >/dev/null
  cmake --build "$build"
  rm -rf "$profiles"
  mkdir -p "$profiles"
  # %m: one file per binary, %p: per process (the CLI scripts start many).
  LLVM_PROFILE_FILE="$profiles/%p-%m.profraw" ctest --test-dir "$build" --output-on-failure || {
    echo "coverage: some tests failed; the figures below cover the run as it went" >&2
  }
fi
"$profdata" merge -sparse "$profiles"/*.profraw -o "$build/merged.profdata"
bins=("$build/tests/clawport_tests" -object "$build/cli/clawport")
"$cov" report "${bins[@]}" -instr-profile="$build/merged.profdata" \
  "$PWD/include/" >"$build/files.txt"
"$cov" show "${bins[@]}" -instr-profile="$build/merged.profdata" -format=html \
  -output-dir="$build/html" "$PWD/include/" >/dev/null
# Columns of `llvm-cov report`: Filename Regions Missed Cover Functions Missed Cover
# Lines Missed Cover Branches Missed Cover.
awk -v root="$PWD/include/clawport/" '
  # llvm-cov prints paths relative to the common directory of the files when they share one.
  $1 ~ /\.hpp$/ && NF >= 13 {
    rel = index($1, root) == 1 ? substr($1, length(root) + 1) : $1
    mod = (index(rel, "/") ? substr(rel, 1, index(rel, "/") - 1) : "(umbrella)")
    l[mod] += $8; lm[mod] += $9; b[mod] += $11; bm[mod] += $12
    L += $8; LM += $9; B += $11; BM += $12
  }
  END {
    printf "%-12s %8s %7s %9s %7s\n", "module", "lines", "line%", "branches", "branch%"
    n = 0; for (m in l) names[++n] = m
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
    for (i = 1; i <= n; i++) { m = names[i]
      printf "%-12s %8d %6.1f%% %9d %6.1f%%\n", m, l[m], l[m] ? 100 * (l[m] - lm[m]) / l[m] : 100, b[m], b[m] ? 100 * (b[m] - bm[m]) / b[m] : 100 }
    printf "%-12s %8d %6.1f%% %9d %6.1f%%\n", "total", L, 100 * (L - LM) / L, B, B ? 100 * (B - BM) / B : 100
  }' "$build/files.txt"
# Every refusal the suite never reached: a `throw` (or rethrow) on a line executed 0 times.
"$cov" show "${bins[@]}" -instr-profile="$build/merged.profdata" "$PWD/include/" 2>/dev/null |
  awk -v root="$PWD/include/clawport/" '
    /^\/.*\.hpp:$/ { file = substr($0, 1, length($0) - 1); sub(root, "", file) }
    /^ *[0-9]+\| *0\|.*(throw|rethrow)/ {
      split($0, f, "|"); line = f[1]; gsub(/ /, "", line)
      text = substr($0, index($0, f[3])); gsub(/^ +| +$/, "", text)
      print file ":" line ": " text
    }' >"$build/uncovered_refusals.txt"
echo "refusals never reached: $(wc -l <"$build/uncovered_refusals.txt") (in $build/uncovered_refusals.txt)"
echo "per file: $build/files.txt; annotated sources: $build/html/index.html"
