#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compiles the C++ snippets of docs/library.md and README.md (issue 10, item 10), so the docs
cannot drift from the code.

Every ```cpp block is compiled (-fsyntax-only, -Werror) against include/: at namespace scope
as it stands, or if that fails, as the body of a function. To parse the library once rather
than once per block, the blocks are compiled together, each in a namespace of its own (its
#include lines hoisted before them all, a #line directive so that every diagnostic names the
document and its line); a block is passed only by a TU that compiles, and a block the
combined TUs do not pass is compiled alone, at namespace scope and then as a function body,
and its errors printed. Every block sees the umbrella
header, the test backends and a few names the prose supposes (`text` and `config_text`, a
config.toml's text; `exported_at`, a clawport::timestamp; `data` and `size`, some bytes). A block whose info string says
`cpp signature` (a declaration list, not code) or `cpp fragment` (an excerpt of test-suite
code that needs the suite's fixtures; the suite itself compiles it) is skipped.
    tools/check_docs.py [compiler]      (default: $CXX or g++)
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = [ROOT / "docs" / "library.md", ROOT / "README.md"]
FENCE = re.compile(r"^```(\S*)(.*)$")
INCLUDE = re.compile(r"^\s*#\s*include\b")
LOCATION = re.compile(r"^(?:In file included from )?([^:\s]+):(\d+):", re.M)

PREAMBLE = """#include <clawport/clawport.hpp>
#include <clawport/testing.hpp>

#include <cerrno>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace snippet_context {
inline std::string text, config_text;
inline clawport::timestamp exported_at;
inline const char data[] = "abc";
inline std::size_t size = 3;
}  // namespace snippet_context
using namespace snippet_context;
"""


def snippets(path):
    out, block, info, start = [], None, "", 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if block is None and m and m.group(1) == "cpp":
            block, info, start = [], m.group(2).strip(), n
        elif block is not None and line.startswith("```"):
            out.append((start, info, "\n".join(block) + "\n"))
            block = None
        elif block is not None:
            block.append(line)
    return out


def compile_tu(cxx, source, work, name="snippets.cpp"):
    tu = pathlib.Path(work) / name
    tu.write_text(source, encoding="utf-8")
    r = subprocess.run([cxx, "-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                        "-Wno-unused-variable", "-Wno-unused-but-set-variable",
                        "-DTOML_HEADER_ONLY=1", "-I", str(ROOT / "include"), "-fsyntax-only",
                        str(tu)], capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def wrapped(snippet, as_body):
    """One snippet in a namespace of its own (none when its id is empty: a snippet alone), at
    namespace scope or as the body of a function; its #include lines are left out (hoisted by
    `combined`, blank here so that every line keeps its number), and a #line directive
    makes the compiler's diagnostics name the document and its line."""
    doc, line, code, ident = snippet["doc"], snippet["line"], snippet["code"], snippet["id"]
    body = "".join("\n" if INCLUDE.match(l) else l + "\n" for l in code.splitlines())
    head = f"namespace {ident} {{\n" if ident else ""
    tail = f"}}  // namespace {ident}\n" if ident else ""
    if as_body:
        head, tail = head + "void snippet_body() {\n", "}\n" + tail
    return f'{head}#line {line + 1} "{doc}"\n{body}{tail}'


def combined(group):
    """One TU holding every snippet of `group` [(snippet, as_body)]: the preamble, every
    snippet's #include lines, then each snippet in a namespace of its own."""
    includes = []
    for snippet, _ in group:
        for l in snippet["code"].splitlines():
            if INCLUDE.match(l) and l.strip() not in includes:
                includes.append(l.strip())
    return PREAMBLE + "\n".join(includes) + "\n" + "".join(wrapped(s, b) for s, b in group)


def blamed(stderr, snippets):
    """The snippets a compiler's diagnostics point into (their doc:line, via #line)."""
    out = set()
    for m in LOCATION.finditer(stderr):
        for s in snippets:
            if m.group(1) == s["doc"] and s["line"] < int(m.group(2)) <= s["end"]:
                out.add(s["id"])
    return out


def alone(cxx, snippet, work):
    """The slow path, run only for a snippet a combined TU did not clear: the snippet in a
    TU of its own, in the global namespace (no wrapper, as a reader would paste it), then as
    the body of a function."""
    snippet = dict(snippet, id="")
    ok, err1 = compile_tu(cxx, combined([(snippet, False)]), work, "alone.cpp")
    if ok:
        return True, False, "", ""
    ok, err2 = compile_tu(cxx, combined([(snippet, True)]), work, "alone.cpp")
    return ok, True, err1, err2


def clear(cxx, checked, work):
    """The snippets that compile, found with a few combined TUs: (cleared ids, ids compiled
    as function bodies). 1. every snippet at namespace scope; 2. those the errors blamed, as
    function bodies, beside the others; 3. if that still fails, the snippets its errors did
    not blame, alone together. A snippet is cleared only by a TU that compiles."""
    every = {s["id"] for s in checked}
    ok, err = compile_tu(cxx, combined([(s, False) for s in checked]), work)
    if ok:
        return every, set()
    as_body = blamed(err, checked) or every
    ok, err = compile_tu(cxx, combined([(s, s["id"] in as_body) for s in checked]), work)
    if ok:
        return every, as_body
    rest = [s for s in checked if s["id"] not in blamed(err, checked)]
    if not rest or len(rest) == len(checked):
        return set(), as_body
    ok, _ = compile_tu(cxx, combined([(s, s["id"] in as_body) for s in rest]), work)
    return ({s["id"] for s in rest} if ok else set()), as_body


def main():
    cxx = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CXX", "g++")
    checked, skipped = [], 0
    for doc in DOCS:
        rel = str(doc.relative_to(ROOT))
        for line, info, code in snippets(doc):
            if info in ("signature", "fragment"):
                skipped += 1
                continue
            checked.append({"doc": rel, "line": line, "end": line + code.count("\n"),
                            "code": code, "id": f"snippet_{len(checked)}"})
    with tempfile.TemporaryDirectory() as work:
        cleared, as_body = clear(cxx, checked, work)
        failures = 0
        for s in checked:
            name = f"{s['doc']}:{s['line']}"
            if s["id"] in cleared:
                good, body, err1, err2 = True, s["id"] in as_body, "", ""
            else:
                good, body, err1, err2 = alone(cxx, s, work)
            if good:
                print(f"ok: {name}" + (" (as a function body)" if body else ""))
                continue
            failures += 1
            print(f"FAILED: {name} compiles neither at namespace scope nor as a function body")
            print("--- at namespace scope:\n" + "\n".join(err1.splitlines()[:15]))
            print("--- as a function body:\n" + "\n".join(err2.splitlines()[:15]))
    print(f"{len(checked)} snippets compiled, {failures} failed, {skipped} signatures and fragments skipped")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
