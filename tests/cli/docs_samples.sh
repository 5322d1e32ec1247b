# SPDX-License-Identifier: MIT
# Issue 27 item 9, docs that cannot drift: every marked sample output in README.md and docs/
# (the README's whole cycle and tools/demo.sh, docs/cli.md, docs/convert.md, docs/openclaw.md)
# is what this binary prints now. On a difference it shows the diff; the fix is to run
# `tools/gen_docs_samples.py <clawport>` and commit.
. "$(dirname "$0")/lib.sh"

if ! python3 "$REPO/tools/gen_docs_samples.py" "$CLAWPORT" --check >"$TMP/out" 2>&1; then
  cat "$TMP/out"; failures=$((failures + 1))
fi
expect_grep out 'sample(s) checked'
finish
