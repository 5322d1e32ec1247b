#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the clawport tool and runs it. Until `clawport export` lands this shows --help.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh build
cmake --preset release >/dev/null
cmake --build --preset release --target clawport_cli >/dev/null
build/release/cli/clawport --help
