# The command-line contract: --help and --version exit 0, bad usage exits 2.
. "$(dirname "$0")/lib.sh"
expect_status 0 "$CLAWPORT" --help
expect_grep out "make AI agents portable"
expect_status 0 "$CLAWPORT" --version
expect_grep out "clawport 0."
# bare `clawport`: the help, on stdout (issue 27 item 6)
expect_status 0 "$CLAWPORT"
expect_grep out "make AI agents portable"
expect_grep out "Subcommands:"
expect_status 2 "$CLAWPORT" --no-such-flag
expect_status 2 "$CLAWPORT" no-such-command
finish
