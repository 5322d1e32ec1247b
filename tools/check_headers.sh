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
#     is compiled alone here, and their union alone is part 1 (the umbrella's TU); .ci/run's
#     two suites also compile the umbrella with each compiler. This leaves out the 15
#     heaviest TUs of this part (50 s of CPU with clang++ 14), no check of CI.
#   tools/check_headers.sh [compiler] [parts] [compiler parts]...
#                                          (default: $CXX or g++; parts 123)
# CLAWPORT_HEADERS=<grep -E pattern> limits part 3 to the headers it matches (a quick check
# of the headers being edited, e.g. CLAWPORT_HEADERS=core/time tools/check_headers.sh clang++ 3;
# CI checks them all).
# `parts` picks the checks to run, e.g. `12` or `3`: CI runs `clang++ 12 g++ 3`, 1-2 with
# clang++ and 3 with g++ (each check once, each compiler used; both compilers on all three add
# nothing). The compiles of parts 1 and 3 of every pair given go into one queue, the heavy
# public TUs first, run $CLAWPORT_JOBS (default: nproc) at a time: the small headers of part 3
# fill the cores while the last heavy TUs of part 1 finish.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- "${CXX:-g++}"
[ $# -gt 1 ] || set -- "$1" 123
[ $(($# % 2)) -eq 0 ] || { echo "check_headers.sh: give pairs of compiler and parts" >&2; exit 2; }
pairs=("$@")
for ((i = 1; i < ${#pairs[@]}; i += 2)); do
  case "${pairs[i]}" in *[!123]* | "") echo "check_headers.sh: parts is a subset of 123, not '${pairs[i]}'" >&2; exit 2 ;; esac
done
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
# <clawport/crypto.hpp> and <clawport/sqlite.hpp> (opt-in) are the public headers that link a
# library: libsodium and libsqlite3.
opt_in_libs="$(pkg-config --libs libsodium 2>/dev/null || echo -lsodium) $(pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)"
export work here opt_in_libs
export CLAWPORT_FLAGS="${flags[*]}"

# every header but a public umbrella (clawport/X.hpp) made only of #include lines, comments,
# blank lines and #pragma once
(cd "$repo/include" && find clawport -name '*.hpp' | sort | while read -r h; do
  [[ $h == clawport/*/* ]] || grep -qvE '^[[:space:]]*(#[[:space:]]*include[[:space:]]|#pragma once|//|$)' "$h" &&
    echo "$h"
done | { grep -E -- "${CLAWPORT_HEADERS:-.}" || true; }) >"$work/headers"

# part 1, one public header: its TU compiled, linked into a program of its own, run; the object
# is kept for part 2 (in a folder per compiler)
one_public() {
  local cxx=$1 name=$2 out=$work/${1//[^A-Za-z0-9+]/_}
  # shellcheck disable=SC2086
  printf 'int header_%s();\nint main() { return header_%s(); }\n' "$name" "$name" >"$out/main_$name.cpp" &&
    $cxx $CLAWPORT_FLAGS -c "$here/$name.cpp" -o "$out/$name.o" &&
    $cxx $CLAWPORT_FLAGS "$out/$name.o" "$out/main_$name.cpp" -o "$out/$name" $opt_in_libs ||
    { echo "  1/3 $cxx: <clawport/$name.hpp>: does not build"; return 1; }
  "$out/$name" || { echo "  1/3 $cxx: <clawport/$name.hpp>: the entry-point call failed"; return 1; }
  echo "  1/3 $cxx: <clawport/$name.hpp>: ok"
}
# part 3, one header compiled alone; prints its first errors and fails when it does not compile
one_header() {
  local cxx=$1 h=$2 err
  err=$(mktemp "$work/err.XXXXXX")
  # shellcheck disable=SC2086
  printf '#include <%s>\n' "$h" | $cxx $CLAWPORT_FLAGS -fsyntax-only -x c++ - 2>"$err" ||
    { echo "  3/3 $cxx: $h does not compile alone:"; head -20 "$err"; rm -f "$err"; return 1; }
  rm -f "$err"
}
one_job() {  # one_job <part> <compiler> <what>
  if [ "$1" = 1 ]; then one_public "$2" "$3"; else one_header "$2" "$3"; fi
}
export -f one_public one_header one_job

# the queue: every part-1 TU (the public TUs, heaviest first: the umbrellas over the whole
# pipeline, by the size of the header they include), then every part-3 header
{
  for ((i = 0; i < ${#pairs[@]}; i += 2)); do
    cxx=${pairs[i]} parts=${pairs[i + 1]}
    mkdir -p "$work/${cxx//[^A-Za-z0-9+]/_}"
    if [[ $parts == *1* || $parts == *2* ]]; then
      for name in "${names[@]}"; do
        printf '%s\t1\t%s\t%s\n' "$(grep -c . "$repo/include/clawport/$name.hpp")" "$cxx" "$name"
      done | sort -rn | cut -f2-
    fi
  done
  for ((i = 0; i < ${#pairs[@]}; i += 2)); do
    [[ ${pairs[i + 1]} == *3* ]] || continue
    sed "s|^|3\t${pairs[i]}\t|" "$work/headers"
  done
} >"$work/queue"
echo "1/3 each public header alone: compile, link, run; 3/3 every header under include/clawport/ compiles alone ($(wc -l <"$work/queue") compiles, $jobs at a time)"
fails=0
tr '\t' '\n' <"$work/queue" | xargs -d '\n' -n 3 -P "$jobs" bash -c 'one_job "$@"' _ || fails=1
[ "$fails" -eq 0 ] || { echo "check_headers.sh: some header failed (above)"; exit 1; }
for ((i = 1; i < ${#pairs[@]}; i += 2)); do
  [[ ${pairs[i]} == *3* ]] && echo "  3/3 ${pairs[i - 1]}: $(wc -l <"$work/headers") headers: ok ($(find "$repo/include/clawport" -name '*.hpp' | wc -l) less the umbrellas, only #include lines)"
done

for ((i = 0; i < ${#pairs[@]}; i += 2)); do
  cxx=${pairs[i]} out=$work/${pairs[i]//[^A-Za-z0-9+]/_}
  [[ ${pairs[i + 1]} == *2* ]] || continue
  echo "2/3 $cxx: every public header's TU linked into one program"
  {
    for name in "${names[@]}"; do printf 'int header_%s();\n' "$name"; done
    printf 'int main() {\n  int failed = 0;\n'
    for name in "${names[@]}"; do printf '  failed += header_%s();\n' "$name"; done
    printf '  return failed;\n}\n'
  } >"$out/main_all.cpp"
  objs=()
  for name in "${names[@]}"; do objs+=("$out/$name.o"); done
  # shellcheck disable=SC2086
  $cxx "${flags[@]}" "${objs[@]}" "$out/main_all.cpp" -o "$out/all" $opt_in_libs
  "$out/all"
  echo "  ok"
done
