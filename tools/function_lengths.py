#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Lists the functions of include/clawport/ longer than a limit (default 100 lines), longest
first: lines from the one holding the opening brace of the body to the closing brace.

A lexical scan, not a parser: comments, string and character literals (raw strings too)
and preprocessor lines are blanked, then a `{` at namespace or class scope whose head (the text since the last
`;`, `{` or `}`) has a `(` and is not a class, namespace, enum or initialiser opens a
function body. Lambdas and local classes count towards the function that holds them.
    tools/function_lengths.py [--limit N] [paths...]   # always exits 0: a report, not a gate
"""
import argparse
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOT_A_FUNCTION = re.compile(r"^\s*(template\s*<.*>\s*)?(struct|class|union|enum|namespace|extern)\b",
                            re.S)
NAME = re.compile(r"([~\w:]+|operator\s*\S+)\s*\($")


def blank(text):
    """`text` with comments and literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and not (i and (text[i - 1].isalnum() or
                                                                  text[i - 1] == "_")):
            k = text.find("(", i)
            delim = ")" + text[i + 2:k] + '"'
            j = text.find(delim, k)
            j = n if j < 0 else j + len(delim)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i and text[i - 1].isalnum():  # a digit separator: 1'000
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (j + 1 - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """[(lines, name, first line)] of the function bodies of one header."""
    text = blank(path.read_text(encoding="utf-8"))
    # Preprocessor lines (with their continuations) are not code the scan follows.
    text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)),
                  text, flags=re.M)
    found, stack, head_start = [], [], 0
    for i, c in enumerate(text):
        if c in ";{}":
            head = text[head_start:i]
            head_start = i + 1
            if c != "{":
                if c == "}" and stack:
                    kind, start, name = stack.pop()
                    if kind == "function":
                        first = text.count("\n", 0, start) + 1
                        last = text.count("\n", 0, i) + 1
                        found.append((last - first + 1, name, first))
                continue
            inside_function = any(k == "function" for k, _, _ in stack)
            head = re.sub(r"\s+", " ", head).strip()
            is_function = (not inside_function and "(" in head and
                           not NOT_A_FUNCTION.match(head) and not head.endswith("=") and
                           not re.search(r"(^|[^=!<>])=\s*[^=]*$", head.split("(")[0]))
            name = ""
            if is_function:
                m = NAME.search(head.split("(")[0] + "(")
                name = m.group(1) if m else head[:40]
            stack.append(("function" if is_function else "scope", i, name))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    roots = [pathlib.Path(p) for p in args.paths] or [ROOT / "include" / "clawport"]
    rows = []
    for root in roots:
        for header in sorted(root.rglob("*.hpp") if root.is_dir() else [root]):
            for length, name, first in functions(header):
                if length > args.limit:
                    full = header.resolve()
                    rel = (full.relative_to(ROOT) if ROOT in full.parents else full).as_posix()
                    rows.append((length, f"{rel}:{first}", name))
    for length, where, name in sorted(rows, key=lambda r: (-r[0], r[1])):
        print(f"{length:5d}  {name}  {where}")
    print(f"{len(rows)} functions over {args.limit} lines")


if __name__ == "__main__":
    main()
