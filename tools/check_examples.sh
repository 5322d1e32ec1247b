#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds every examples/*.cpp with -Werror and runs it on the example install
# (examples/zeroclaw-install), checking what each one is for (issue 10, item 10).
#   tools/check_examples.sh [compiler]     (default: $CXX or g++)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cxx=${1:-${CXX:-g++}}
flags=(-std=c++17 -Wall -Wextra -Wpedantic -Werror -DTOML_HEADER_ONLY=1 -I "$repo/include")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
config="$repo/examples/zeroclaw-install/config.toml"
# built $CLAWPORT_JOBS (default: nproc) at a time, each TU independent of the others
build_one() {
  echo "building examples/$(basename "$1")"
  # shellcheck disable=SC2086
  $cxx $CLAWPORT_FLAGS "$1" -o "$work/$(basename "$1" .cpp)"
}
export -f build_one
export cxx work CLAWPORT_FLAGS="${flags[*]}"
printf '%s\n' "$repo"/examples/*.cpp | xargs -P "${CLAWPORT_JOBS:-$(nproc)}" -I{} bash -c 'build_one "$1"' _ {}

echo "running export_agent"
"$work/export_agent" "$config" researcher "$work/bundle" >"$work/out"
cat "$work/out"
for f in zeroclaw-agent.toml config.toml workspace; do
  [ -e "$work/bundle/$f" ] || { echo "export_agent: the bundle has no $f"; exit 1; }
done
if "$work/export_agent" "$config" nobody "$work/bundle2" 2>"$work/err"; then
  echo "export_agent: exporting an unknown agent succeeded"; exit 1
fi
grep -q 'refused (unknown_agent)' "$work/err" || { cat "$work/err"; exit 1; }

echo "running custom_names"
"$work/custom_names" "$config" researcher | tee "$work/out"
grep -q 'starts with a dash' "$work/out"

echo "running fs_decorator"
"$work/fs_decorator" "$config" researcher "$work/bundle3" 2>"$work/log" | tee "$work/out"
grep -q '^exported researcher with [1-9][0-9]* opens' "$work/out"
grep -q '^root /' "$work/log"
[ -e "$work/bundle3/zeroclaw-agent.toml" ] || { echo "fs_decorator: no bundle"; exit 1; }

echo "running agent_skills"
"$work/agent_skills" "$config" researcher | tee "$work/out"
grep -q 'loaded' "$work/out" || { echo "agent_skills: no loaded skill listed"; exit 1; }
echo "all examples built and ran"
