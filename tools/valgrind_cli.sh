#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the CLI end-to-end scripts (tests/cli/*.sh) with every `clawport` invocation under
# valgrind's memcheck: a wrapper named like the binary execs valgrind on it, and any memory
# error (invalid read or write, use of uninitialised memory, a definite leak) makes that
# invocation exit 99, which the script reports as a failure.
#   tools/valgrind_cli.sh [path/to/clawport] [script-name...]   (default: build/default/cli/clawport, all)
# Prints one line per script and the total; exits 1 when any script failed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$repo/build/default/cli/clawport}")
shift || true
command -v valgrind >/dev/null || { echo "valgrind_cli: valgrind is not installed (apt install valgrind)" >&2; exit 2; }
[ -x "$bin" ] || { echo "valgrind_cli: no CLI at $bin (build it: cmake --build --preset default)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind by its absolute path: a script may run clawport with a PATH of its own (a PATH
# without git, in tests/cli/skills_lifecycle.sh).
valgrind=$(command -v valgrind)
cat >"$work/clawport" <<EOF
#!/bin/sh
exec $valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
  --log-file="$work/valgrind.%p.log" "$bin" "\$@"
EOF
chmod +x "$work/clawport"
scripts=("$@")
if [ ${#scripts[@]} -eq 0 ]; then
  for s in "$repo"/tests/cli/*.sh; do
    [ "$(basename "$s")" = lib.sh ] || scripts+=("$(basename "$s" .sh)")
  done
fi
# Under memcheck every call is 20-50 times slower and valgrind needs descriptors of its own:
# the scripts' own time limits and lowest descriptor limits are raised (tests/cli/skills.sh,
# tests/cli/safety.sh).
export CLAWPORT_TEST_TIMEOUT=${CLAWPORT_TEST_TIMEOUT:-300} CLAWPORT_TEST_MIN_FDS=${CLAWPORT_TEST_MIN_FDS:-20}
failed=0
for name in "${scripts[@]}"; do
  start=$(date +%s)
  if bash "$repo/tests/cli/$name.sh" "$work/clawport" "$repo" >"$work/$name.out" 2>&1; then
    echo "$name: ok ($(($(date +%s) - start)) s)"
  else
    echo "$name: FAILED ($(($(date +%s) - start)) s)"
    tail -20 "$work/$name.out"
    failed=$((failed + 1))
  fi
done
# Every report valgrind wrote (a log is empty when the run was clean).
reports=$(find "$work" -name 'valgrind.*.log' -size +0 | wc -l)
if [ "$reports" -gt 0 ]; then
  echo "valgrind reported in $reports process(es):"
  find "$work" -name 'valgrind.*.log' -size +0 -exec head -40 {} \;
fi
echo "${#scripts[@]} scripts, $failed failed, $reports valgrind report(s)"
[ "$failed" -eq 0 ] && [ "$reports" -eq 0 ]
