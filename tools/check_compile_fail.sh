#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Compile-fail tests (issue 10, item 6): each tests/compile_fail/*.cpp models a policy with
# one requirement missing and must fail to compile with the message its `// expect:` line
# gives; `// errors: 1` also requires that message to be the only error, `// errors: first`
# that it be the first one.
#   tools/check_compile_fail.sh [compiler] [include dir] [extra -I dirs...]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cxx=${1:-${CXX:-g++}}
inc=${2:-$repo/include}
extra=()
for d in "${@:3}"; do
  case "$d" in /usr/include | /usr/local/include | "") ;; *) extra+=(-isystem "$d") ;; esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for tu in "$repo"/tests/compile_fail/*.cpp; do
  name=$(basename "$tu")
  expect=$(sed -n 's|^// expect: ||p' "$tu")
  mode=$(sed -n 's|^// errors: ||p' "$tu")
  if "$cxx" -std=c++17 -DTOML_HEADER_ONLY=1 -I "$inc" "${extra[@]}" -fsyntax-only "$tu" \
       >"$work/out" 2>&1; then
    echo "FAILED $name: it compiles"; failed=1; continue
  fi
  errors=$(grep -c ' error: ' "$work/out" || true)
  first=$(grep -m1 ' error: ' "$work/out" || true)
  if ! grep -qF -- "$expect" "$work/out"; then
    echo "FAILED $name: no \"$expect\" in:"; grep ' error: ' "$work/out" | head -5; failed=1
  elif [ "$mode" = 1 ] && [ "$errors" -ne 1 ]; then
    echo "FAILED $name: $errors errors, expected only \"$expect\":"; grep ' error: ' "$work/out" | head -5; failed=1
  elif [ "$mode" = first ] && ! grep -qF -- "$expect" <<<"$first"; then
    echo "FAILED $name: the first error is not \"$expect\": $first"; failed=1
  else
    echo "ok $name ($errors error(s))"
  fi
done
exit "$failed"
