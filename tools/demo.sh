#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the clawport tool and exports the example agent `researcher` from a temporary copy
# of examples/zeroclaw-install (adding the hard link and the FIFO a real install may hold),
# prints the report, then shows that the bundle's config.toml validates standing alone and
# holds no secret value of the example.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
if [ -z "${CLAWPORT:-}" ]; then  # CLAWPORT=<binary> skips the build
  tools/install-deps.sh build
  cmake --preset release >/dev/null
  cmake --build --preset release --target clawport_cli >/dev/null
  CLAWPORT=$REPO/build/release/cli/clawport
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cp -a examples/zeroclaw-install "$TMP/install"
WS=$TMP/install/agents/researcher/workspace
# Host state a live workspace can hold; the export must skip both: a hard link to a file
# outside the workspace, and a FIFO.
echo "a file elsewhere on this host" >"$TMP/host-file.txt"
ln "$TMP/host-file.txt" "$WS/notes/host-hardlink.md"
mkfifo "$WS/agent.fifo"

cd "$TMP"  # install/ is the copy of examples/zeroclaw-install
echo "\$ clawport export researcher --config install/config.toml --out bundle"
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1786406400} \
  "$CLAWPORT" export researcher --config install/config.toml --out bundle

echo
echo "--- the bundle ---"
(cd "$TMP/bundle" && find . -mindepth 1 | sort | sed 's|^\./|  |')

echo
echo "--- config.toml validates standing alone (planned again as an install of its own) ---"
"$CLAWPORT" export researcher --config "$TMP/bundle/config.toml" --out "$TMP/recheck" \
  --dry-run --json >"$TMP/recheck.json"
echo "  ok: the fragment loads and its closure validates on an otherwise empty install"

echo
echo "--- no secret value of the example survives anywhere in the bundle ---"
secrets=$(grep -oE '"(enc2?:[0-9a-f]+|op://[^"]+|sk-[^"]+|ghp_[^"]+)"' "$TMP/install/config.toml" |
  tr -d '"' | sort -u)
count=0
for s in $secrets; do
  count=$((count + 1))
  if grep -rqF -- "$s" "$TMP/bundle"; then
    echo "  LEAK: $s" >&2
    exit 1
  fi
done
echo "  ok: none of the $count secret values of the example config is in the bundle"
