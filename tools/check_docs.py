#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compiles the C++ snippets of docs/library.md and README.md (issue 10, item 10), so the docs
cannot drift from the code.

Every ```cpp block is compiled (-fsyntax-only, -Werror) against include/: first as it stands
at namespace scope, and if that fails, as the body of a function. Both see the umbrella
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


def compiles(cxx, source, work):
    tu = pathlib.Path(work) / "snippet.cpp"
    tu.write_text(source, encoding="utf-8")
    r = subprocess.run([cxx, "-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                        "-Wno-unused-variable", "-Wno-unused-but-set-variable",
                        "-DTOML_HEADER_ONLY=1", "-I", str(ROOT / "include"), "-fsyntax-only",
                        str(tu)], capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def main():
    cxx = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CXX", "g++")
    failures = checked = skipped = 0
    with tempfile.TemporaryDirectory() as work:
        for doc in DOCS:
            for line, info, code in snippets(doc):
                name = f"{doc.relative_to(ROOT)}:{line}"
                if info in ("signature", "fragment"):
                    skipped += 1
                    continue
                checked += 1
                ok, err1 = compiles(cxx, PREAMBLE + code, work)
                if not ok:
                    ok, err2 = compiles(cxx, PREAMBLE + "void snippet_body() {\n" + code + "}\n", work)
                if ok:
                    print(f"ok: {name}")
                    continue
                failures += 1
                print(f"FAILED: {name} compiles neither at namespace scope nor as a function body")
                print("--- at namespace scope:\n" + "\n".join(err1.splitlines()[:15]))
                print("--- as a function body:\n" + "\n".join(err2.splitlines()[:15]))
    print(f"{checked} snippets compiled, {failures} failed, {skipped} signatures and fragments skipped")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
