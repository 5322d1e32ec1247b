#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds clawport with its tests and the CLI and runs every test (two at a time).
#   tools/test.sh [preset]     (default: "default", the Debug build; CI runs "release")
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
tools/install-deps.sh build
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
ctest --preset "$preset"
