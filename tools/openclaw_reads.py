#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Lists string-keyed reads of JSON in include/clawport/openclaw/ and fails on one outside the
files that validate input JSON (issue 42: the typed model is the only truth; a plan, a result or
a rendered document is read through its struct, never re-read by key).

A read is `x["k"]` not on the left of an assignment (nor of push_back/emplace), `.at("k")`,
`.value("k"`, `.find("k")`, `.contains("k")`. Comments are stripped first.

    tools/openclaw_reads.py              # per-file counts; exit 1 on a read outside ALLOWED
    tools/openclaw_reads.py --list       # also every read, file:line
    tools/openclaw_reads.py --self-test  # plants a read (and a write) in a temporary copy
"""
import pathlib
import re
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIR = "include/clawport/openclaw"

# The validating readers: each parses JSON that came from outside (a package, a config, the
# ledger) and checks it field by field before it becomes a struct.
ALLOWED = {
    "schema.hpp": "validates CLAW.md front matter against upstream's manifest schema",
    "profile.hpp": "reads and validates the package's OpenClaw profile (profiles/*.yml)",
    "mcp_schema.hpp": "validates a manifest's MCP server records",
    "state.hpp": "the config (openclaw.json) and ledger/state reader",
    "environment.hpp": "the config reader: openclaw.json's agent roster, workspace resolution",
    "workspace.hpp": "reads and checks openclaw.json's workspace setup (doctor, bootstrap)",
}

# Debt, as a ratchet: reads not yet moved to the typed model, at most this many per file. A
# count above fails (a new read); a count below fails too, until the number here is lowered.
PENDING = {
    # "file.hpp": (count, "why it is not moved yet"),
}

TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', re.S)
SUBSCRIPT = re.compile(r'\["_*"\]')
CALL = re.compile(r'\.(at|value|find|contains)\("')
WRITE_AFTER = re.compile(r'(?:\[[^\]\n]*\])*\s*(?:=(?!=)|\.(?:push_back|emplace_back|emplace)\()')


def blank(m):
    """A comment becomes its newlines (line numbers kept); a literal keeps its quotes and its
    length, so `"a[" + x + "]"` is no subscript and `d["k"]` still is."""
    t = m.group(0)
    if t.startswith("/"):
        return re.sub(r"[^\n]", " ", t)
    return t[0] + "_" * (len(t) - 2) + t[-1]


def reads(path):
    raw = path.read_text(encoding="utf-8")
    text = TOKEN.sub(blank, raw)
    out = []
    for m in SUBSCRIPT.finditer(text):
        if not WRITE_AFTER.match(text, m.end()):
            out.append((text.count("\n", 0, m.start()) + 1, raw[m.start():m.end()]))
    for m in CALL.finditer(text):
        end = text.index('"', m.end()) + 1
        out.append((text.count("\n", 0, m.start()) + 1, raw[m.start():end]))
    return sorted(out)


def check(root, verbose=False):
    counts, problems = {}, []
    for path in sorted((root / DIR).glob("*.hpp")):
        found = reads(path)
        if found:
            counts[path.name] = len(found)
        for line, what in found:
            where = "%s/%s:%d: %s" % (DIR, path.name, line, what)
            if path.name not in ALLOWED and path.name not in PENDING:
                problems.append(where + ": a string-keyed read outside the validating readers; "
                                "read the typed struct instead")
            elif verbose:
                print(where)
    for name, (most, why) in PENDING.items():
        n = counts.get(name, 0)
        if n != most:
            problems.append("%s/%s: %d string-keyed read(s), PENDING says %d (%s): %s" %
                            (DIR, name, n, most, why, "read the typed struct instead"
                             if n > most else "lower the number in PENDING"))
    return counts, problems


def self_test():
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp)
        shutil.copytree(ROOT / DIR, copy / DIR)
        target = copy / DIR / "planted.hpp"
        cases = [('inline void f(J& d) { d["a"]["b"] = 1; d["c"].push_back(2); }\n'
                  '// d.at("comment") is no read\n', 0),
                 ('inline int f(const J& d) { return d["a"].get<int>(); }\n', 1),
                 ('inline bool f(const J& d) { return d.contains("a") && d["x"] == 1; }\n', 2),
                 ('inline int f(const J& d) { return d.value("a", 0) + d.at("b").size(); }\n', 2)]
        for plant, want in cases:
            target.write_text("#pragma once\n" + plant, encoding="utf-8")
            got = [p for p in check(copy)[1] if "/planted.hpp:" in p]
            print("self-test %s %d read(s): %s" % ("ok  " if len(got) == want else "FAIL", want,
                                                   plant.splitlines()[0]))
            ok = ok and len(got) == want
        # One read more in a PENDING file fails the ratchet, and so does one fewer.
        for plant, want in (('inline int f(const J& d) { return d.at("k") + d.at("j"); }\n', 2),
                            ("", 0)):
            target.write_text("#pragma once\n" + plant, encoding="utf-8")
            PENDING["planted.hpp"] = (1, "planted debt")
            got = [p for p in check(copy)[1] if "/planted.hpp" in p and "PENDING says" in p]
            del PENDING["planted.hpp"]
            print("self-test %s PENDING 1, %d read(s) found: fails" %
                  ("ok  " if len(got) == 1 else "FAIL", want))
            ok = ok and len(got) == 1
    print("self-test:", "reads caught, writes and comments passed" if ok else "FAILED")
    return ok


def main():
    if sys.argv[1:] == ["--self-test"]:
        return 0 if self_test() else 1
    counts, problems = check(ROOT, verbose="--list" in sys.argv[1:])
    for name, n in counts.items():
        print("%-18s %3d %s" % (name, n, "(validating reader)" if name in ALLOWED else
                                "(pending: %s)" % PENDING[name][1] if name in PENDING else ""))
    for p in problems:
        print(p)
    if problems:
        print("%d problem(s): a string-keyed read belongs in %s's ALLOWED readers only" %
              (len(problems), pathlib.Path(__file__).name))
        return 1
    print("openclaw reads: %d, in the validating readers and %d pending" %
          (sum(counts.values()), sum(v[0] for v in PENDING.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
