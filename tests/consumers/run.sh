#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs a tiny consumer of clawport four ways: find_package after cmake
# --install, add_subdirectory, a meson subproject, and single_include/ with only -I.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here="$repo/tests/consumers"

echo "consumer 1/4: find_package(clawport) after cmake --install"
cmake -S "$repo" -B "$work/lib" -G Ninja -DCLAWPORT_BUILD_TESTS=OFF -DCLAWPORT_BUILD_CLI=OFF \
  -DCMAKE_INSTALL_PREFIX="$work/prefix" >/dev/null
cmake --install "$work/lib" >/dev/null
[ -f "$work/prefix/include/clawport/testing.hpp" ] || { echo "clawport/testing.hpp not installed"; exit 1; }
grep -q '^Libs' "$work/prefix/share/pkgconfig/clawport.pc" && { echo "clawport.pc has a Libs: line"; exit 1; }
cmake -S "$here/find_package" -B "$work/fp" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/fp" >/dev/null && "$work/fp/consumer"
if grep -rq 'tomlplusplus\|TOML_HEADER_ONLY=0' "$work/fp/build.ninja"; then
  echo "the compiled toml++ library leaked into the consumer"; exit 1
fi

echo "consumer 2/4: add_subdirectory"
cmake -S "$here/add_subdirectory" -B "$work/as" -G Ninja -DCLAWPORT_SOURCE_DIR="$repo" >/dev/null
cmake --build "$work/as" >/dev/null && "$work/as/consumer"

echo "consumer 3/4: meson subproject"
cp -r "$here/meson_subproject" "$work/ms"
cp "$here/consumer.cpp" "$work/"
mkdir -p "$work/ms/subprojects"
ln -s "$repo" "$work/ms/subprojects/clawport"
meson setup "$work/ms/build" "$work/ms" -Dclawport:tests=false -Dclawport:cli=false >/dev/null
ninja -C "$work/ms/build" >/dev/null && "$work/ms/build/consumer"

echo "consumer 4/4: single_include/ with the compiler and -I only"
${CXX:-g++} -std=c++17 -I "$repo/single_include" "$here/consumer.cpp" -o "$work/single"
echo "consumer 4/4 (2): single_include/clawport/testing.hpp (the opt-in test backends) alone"
${CXX:-g++} -std=c++17 -I "$repo/single_include" "$here/testing_consumer.cpp" -o "$work/testing"
"$work/testing"
"$work/single"
echo "all consumers built and ran"
