#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every public header is usable alone (issue 10, item 3):
#  1. for each public header (the umbrellas <clawport/X.hpp> and <clawport/testing.hpp>),
#     tests/consumers/headers/X.cpp includes only it and calls its main entry point; it is
#     compiled, LINKED into a program of its own and run;
#  2. all of those objects are linked into one program too (a consumer with the exporter in
#     one TU and the skills in another);
#  3. every header under include/clawport/ compiles on its own (-fsyntax-only), except a
#     public umbrella <clawport/X.hpp> made only of #include lines: each header it includes
#     is compiled alone here, and their union alone is part 1 (the umbrella's TU) and, with
#     clang++, the sanitizer build of single_include/ that .ci/run also runs. This leaves
#     out the 15 heaviest TUs of this part (50 s of CPU with clang++ 14), no check of CI.
#   tools/check_headers.sh [compiler] [parts]     (default: $CXX or g++; parts 123)
# `parts` picks the checks to run, e.g. `12` or `3`: CI runs 1-2 with g++ and 3 with clang++
# (each check once, each compiler used; both compilers on all three add nothing).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cxx=${1:-${CXX:-g++}}
parts=${2:-123}
case "$parts" in *[!123]* | "") echo "check_headers.sh: parts is a subset of 123, not '$parts'" >&2; exit 2 ;; esac
flags=(-std=c++17 -Wall -Wextra -Wpedantic -Werror -DTOML_HEADER_ONLY=1 -I "$repo/include")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here="$repo/tests/consumers/headers"

names=()
for tu in "$here"/*.cpp; do
  name=$(basename "$tu" .cpp)
  names+=("$name")
  [ -f "$repo/include/clawport/$name.hpp" ] || { echo "no public header <clawport/$name.hpp>"; exit 1; }
  grep -q "^#include <clawport/$name.hpp>" "$tu" || { echo "$tu does not include <clawport/$name.hpp>"; exit 1; }
done
for h in "$repo"/include/clawport/*.hpp; do
  name=$(basename "$h" .hpp)
  [ -f "$here/$name.cpp" ] || { echo "public header <clawport/$name.hpp> has no tests/consumers/headers/$name.cpp"; exit 1; }
done

jobs=${CLAWPORT_JOBS:-$(nproc)}
# <clawport/crypto.hpp> (opt-in) is the one public header that links a library: libsodium.
sodium_libs=$(pkg-config --libs libsodium 2>/dev/null || echo -lsodium)
export cxx work here sodium_libs
export CLAWPORT_FLAGS="${flags[*]}"

if [[ $parts == *1* || $parts == *2* ]]; then
echo "1/3: each public header alone: compile, link, run ($jobs at a time)"
# one public header: its TU compiled, linked into a program of its own, run
one_public() {
  local name=$1
  # shellcheck disable=SC2086
  printf 'int header_%s();\nint main() { return header_%s(); }\n' "$name" "$name" >"$work/main_$name.cpp" &&
    $cxx $CLAWPORT_FLAGS -c "$here/$name.cpp" -o "$work/$name.o" &&
    $cxx $CLAWPORT_FLAGS "$work/$name.o" "$work/main_$name.cpp" -o "$work/$name" $sodium_libs ||
    { echo "  <clawport/$name.hpp>: does not build"; return 1; }
  "$work/$name" || { echo "  <clawport/$name.hpp>: the entry-point call failed"; return 1; }
  echo "  <clawport/$name.hpp>: ok"
}
export -f one_public
printf '%s\n' "${names[@]}" | xargs -P "$jobs" -I{} bash -c 'one_public "$1"' _ {}
fi
if [[ $parts == *2* ]]; then
echo "2/3: every public header's TU linked into one program"
{
  for name in "${names[@]}"; do printf 'int header_%s();\n' "$name"; done
  printf 'int main() {\n  int failed = 0;\n'
  for name in "${names[@]}"; do printf '  failed += header_%s();\n' "$name"; done
  printf '  return failed;\n}\n'
} >"$work/main_all.cpp"
objs=()
for name in "${names[@]}"; do objs+=("$work/$name.o"); done
# shellcheck disable=SC2086
"$cxx" "${flags[@]}" "${objs[@]}" "$work/main_all.cpp" -o "$work/all" $sodium_libs
"$work/all"
echo "  ok"
fi

[[ $parts == *3* ]] || exit 0
echo "3/3: every header under include/clawport/ compiles alone"
cd "$repo/include"
# every header but a public umbrella (clawport/X.hpp) made only of #include lines, comments,
# blank lines and #pragma once
find clawport -name '*.hpp' | sort | while read -r h; do
  [[ $h == clawport/*/* ]] || grep -qvE '^[[:space:]]*(#[[:space:]]*include[[:space:]]|#pragma once|//|$)' "$h" &&
    echo "$h"
done >"$work/headers"
# one header compiled alone; prints its first errors and fails when it does not compile
one_header() {
  # shellcheck disable=SC2086
  printf '#include <%s>\n' "$1" | $cxx $CLAWPORT_FLAGS -fsyntax-only -x c++ - 2>"$work/err.$$" ||
    { echo "  $1 does not compile alone:"; head -20 "$work/err.$$"; rm -f "$work/err.$$"; return 1; }
  rm -f "$work/err.$$"
}
export -f one_header
fails=0
xargs -P "$jobs" -I{} bash -c 'one_header "$1"' _ {} <"$work/headers" || fails=1
[ "$fails" -eq 0 ] || exit 1
echo "  $(wc -l <"$work/headers") headers: ok ($(find clawport -name '*.hpp' | wc -l) less the umbrellas, only #include lines)"
