# The command-line contract: --help and --version exit 0, bad usage exits 2.
. "$(dirname "$0")/lib.sh"
expect_status 0 "$CLAWPORT" --help
expect_grep out "make AI agents portable"
expect_status 0 "$CLAWPORT" --version
expect_grep out "clawport 0."
expect_status 2 "$CLAWPORT"
expect_status 2 "$CLAWPORT" --no-such-flag
expect_status 2 "$CLAWPORT" no-such-command
finish
