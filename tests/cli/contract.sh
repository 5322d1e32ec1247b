# SPDX-License-Identifier: MIT
# Issue 44 item 2: every subcommand keeps the contract of docs/cli.md (tests/cli/contract.py).
. "$(dirname "$0")/lib.sh"
python3 "$(dirname "$0")/contract.py" "$CLAWPORT" "$TMP" || failures=$((failures + 1))
finish
