#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds clawport with its tests and the CLI (preset "default") and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh build
cmake --preset default >/dev/null
cmake --build --preset default
ctest --preset default
