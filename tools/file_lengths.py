#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails on a file of more than one concept, measured by its length (issue 43): a file of
cli/ over 200 lines (the CLI only parses and prints) or a header of include/ over 800
lines. The generated tables are exempt, by name (GENERATED). Run by .ci/run.
    tools/file_lengths.py                # exit 1 and one line per file over its limit
    tools/file_lengths.py --self-test    # the check fails on planted files, and only on them
"""
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLI_LIMIT = 200
HEADER_LIMIT = 800
# Written by tools/gen_openclaw_unicode.py, never by hand.
GENERATED = {
    "include/clawport/formats/tables/unicode_data.hpp",
    "include/clawport/formats/tables/timezones.hpp",
}


def lines_of(path):
    return len(path.read_bytes().splitlines())


def violations(root):
    """["path: N lines (limit L; split it by concept)"] of the files over their limit."""
    found = []
    checked = [(p, CLI_LIMIT) for p in sorted((root / "cli").rglob("*")) if p.is_file()]
    checked += [(p, HEADER_LIMIT) for p in sorted((root / "include").rglob("*.hpp"))]
    for path, limit in checked:
        rel = path.relative_to(root).as_posix()
        if rel in GENERATED:
            continue
        n = lines_of(path)
        if n > limit:
            found.append(f"{rel}: {n} lines (limit {limit}; split it by concept, "
                         "docs/architecture.md names where each part goes)")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        plant = {
            "cli/commands/long.hpp": CLI_LIMIT + 1,
            "cli/short.hpp": CLI_LIMIT,
            "include/clawport/x/long.hpp": HEADER_LIMIT + 1,
            "include/clawport/x/short.hpp": HEADER_LIMIT,
            "include/clawport/formats/tables/unicode_data.hpp": HEADER_LIMIT * 3,
        }
        for rel, n in plant.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text("x\n" * n)
        got = [v.split(":")[0] for v in violations(root)]
        want = ["cli/commands/long.hpp", "include/clawport/x/long.hpp"]
        if got != want:
            print(f"file_lengths self-test: found {got}, expected {want}")
            return False
    print("file_lengths self-test: the planted files over their limit, and only they, fail")
    return True


def main():
    if sys.argv[1:] == ["--self-test"]:
        return 0 if self_test() else 1
    found = violations(ROOT)
    for v in found:
        print(v)
    print(f"{len(found)} files over their limit (cli/ {CLI_LIMIT}, include/ headers "
          f"{HEADER_LIMIT}; generated tables exempt)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
