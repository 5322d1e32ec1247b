#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Compile cost of the umbrella header: median of N compiles (default 5) of a one-line TU
# that includes <clawport/clawport.hpp>, versus one that includes only toml++ and
# nlohmann/json, with the same flags. Target (DESIGN.md): ratio <= 1.5.
#   bench/compile_time.sh [runs] [compiler] [flags...]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
cxx=${2:-g++}
if [ $# -gt 2 ]; then flags=("${@:3}"); else flags=(-std=c++17 -O2); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '#include <clawport/clawport.hpp>\nint main() { return 0; }\n' >"$work/umbrella.cpp"
printf '#include <toml++/toml.h>\n#include <nlohmann/json.hpp>\nint main() { return 0; }\n' \
  >"$work/deps.cpp"
median() { # median compile time in ms of the TU $1
  local times=() t0 t1
  for _ in $(seq "$runs"); do
    t0=$(date +%s%N)
    "$cxx" "${flags[@]}" -I "$repo/include" -c "$1" -o "$work/out.o"
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}
d=$(median "$work/deps.cpp")
u=$(median "$work/umbrella.cpp")
echo "compiler: $cxx ${flags[*]}; median of $runs runs"
echo "toml++ + nlohmann/json only : ${d} ms"
echo "<clawport/clawport.hpp>     : ${u} ms"
awk -v u="$u" -v d="$d" 'BEGIN { printf "ratio: %.2f (target <= 1.50)\n", u / d }'
