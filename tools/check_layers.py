#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when a header under include/clawport/ includes against the allowed module
directions of docs/architecture.md ("Modules and allowed directions").

Each module is a folder include/clawport/<module>/ (plus its umbrella <module>.hpp). A
quoted include from module A of a header of module B is allowed when B is A itself or is
listed in ALLOWED[A]. A folder that is not in ALLOWED is an error too: a new module must be
placed in the graph (here and in docs/architecture.md) before it lands. The table of
docs/architecture.md ("Modules and allowed directions") must name every module folder and
its "may include" column must equal ALLOWED (a list of `module`s or "nothing"; text after
" — " is a note).
    tools/check_layers.py          # exit 1 and one line per violation
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
INC = ROOT / "include" / "clawport"
QUOTED = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

# module -> the modules its headers may include (besides itself). Keep equal to the table
# in docs/architecture.md. Transitive closure is NOT implied: list every allowed module.
ALLOWED = {
    "core": set(),
    # Readers and writers that are not about any runtime (TOML, JSON, JSON5, YAML, Unicode,
    # regex); their generated tables are in formats/tables/.
    "formats": {"core"},
    "fs": {"core"},
    "names": {"core"},
    "digest": {"core", "fs"},
    "testing": {"core", "fs"},
    "bundle": {"core", "fs", "names"},
    "publish": {"core", "fs", "names", "bundle"},
    # Plan integrity and consent, shared by import and the OpenClaw lifecycle.
    "plan": {"core", "digest", "fs", "formats"},
    # The one process runner (fork/execve under a supervisor, a hard timeout), used by the
    # skills commands (TEST.sh, git) and the signing policies (ssh-keygen).
    "process": {"core"},
    # Writes to the user's install (config append, skill install/remove) stage and publish.
    "zeroclaw": {"core", "fs", "names", "bundle", "publish", "formats"},
    "skills": {"core", "fs", "names", "bundle", "publish", "zeroclaw", "formats", "process"},
    "exporter": {"core", "fs", "names", "digest", "bundle", "zeroclaw", "skills", "publish", "memory",
                 "formats", "signing"},
    "importer": {"core", "fs", "names", "digest", "bundle", "zeroclaw", "skills", "publish", "verify",
                 "formats", "plan", "signing", "memory"},
    "verify": {"core", "fs", "names", "digest", "bundle", "zeroclaw", "skills", "publish", "memory",
               "formats", "plan", "signing"},
    # OpenClaw is a second runtime: it never reads ZeroClaw's layouts or skills.
    "openclaw": {"core", "fs", "names", "digest", "bundle", "publish", "formats", "plan"},
    # Converting between the two runtimes reads both, verifies and plans with their rules.
    "convert": {"core", "fs", "names", "digest", "bundle", "publish", "zeroclaw", "skills",
                "verify", "importer", "openclaw", "formats", "plan", "memory"},
    # The libsodium cipher policy of `secrets set` (opt-in, like testing/).
    "crypto": {"core"},
    # Agent memory as it travels (format 2): the entry and the Store policy, pure.
    "memory": {"core", "formats", "digest", "fs"},
    # ZeroClaw's SQLite memory store behind the memory Store policy (opt-in, links libsqlite3).
    "sqlite": {"core", "memory"},
    # Signing policies and OpenSSH's ssh-keygen behind them (signed bundles, issue 29).
    "signing": {"core", "fs", "process"},
    # The compiled mode: declarations of the default-policy export and verify, and the one
    # TU's definitions of them.
    "compiled": {"core", "fs", "names", "digest", "bundle", "zeroclaw", "skills", "publish",
                 "exporter", "verify", "formats", "plan"},
}

# Known violations being removed by open work; each names where it is fixed. The check
# fails if one of these disappears without being removed here (so the list only shrinks).
KNOWN = {
}

CONFIG_BY_MERGE = set()  # headers exempt from the config.hpp reachability check (none)


def module_of(path):
    rel = path.relative_to(INC)
    if len(rel.parts) == 1:  # an umbrella header: <module>.hpp, or clawport.hpp / testing.hpp
        return rel.stem if rel.stem in ALLOWED else None
    return rel.parts[0]


OPENS = re.compile(r"^namespace clawport(?:::(\w+))?[\w:]* \{")
MODULE_NS = re.compile(r"^namespace (\w+)[\w:]* \{$")
DECLARED = re.compile(r"^namespace (\w+) \{\}", re.M)


DOC = ROOT / "docs" / "architecture.md"
TABLE_SECTION = "## Modules and allowed directions"
TABLE_ROW = re.compile(r"^\| `(\w+)/` \|.*\| ([^|]*) \|$")


def doc_table(text):
    """{module: set of modules its "may include" column lists} from the markdown table of
    the section TABLE_SECTION, or an error string."""
    if TABLE_SECTION not in text:
        return f"docs/architecture.md has no section \"{TABLE_SECTION}\""
    section = text.split(TABLE_SECTION, 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = TABLE_ROW.match(line)
        if not m:
            continue
        column = m.group(2).split(" — ", 1)[0].strip()
        listed = set() if column == "nothing" else set(re.findall(r"`(\w+)`", column))
        rest = re.sub(r"`\w+`|,|\s", "", column)
        if column != "nothing" and rest:
            return (f"docs/architecture.md: the \"may include\" column of `{m.group(1)}/` must be "
                    f"a list of `module`s or \"nothing\" (a note after \" — \"), not: {column}")
        rows[m.group(1)] = listed
    return rows


def check_doc_table(text):
    """The table of docs/architecture.md names every module folder, and nothing else, with
    exactly the modules ALLOWED lists."""
    rows = doc_table(text)
    if isinstance(rows, str):
        return [rows]
    problems = []
    folders = sorted(p.name for p in INC.iterdir() if p.is_dir())
    for mod in folders:
        if mod not in rows:
            allowed = (", ".join(f"`{m}`" for m in sorted(ALLOWED[mod])) or "nothing"
                       if mod in ALLOWED else "<the modules ALLOWED lists for it>")
            problems.append(f"include/clawport/{mod}/: module folder missing from the table of "
                            f"docs/architecture.md (\"{TABLE_SECTION[3:]}\"); fix: add the row "
                            f"| `{mod}/` | <what it owns> | {allowed} |")
    for mod in sorted(rows):
        if mod not in folders:
            problems.append(f"docs/architecture.md: the table names `{mod}/`, which is not a "
                            "folder of include/clawport/")
        elif mod in ALLOWED and rows[mod] != ALLOWED[mod]:
            problems.append(f"docs/architecture.md: `{mod}/` may include "
                            f"{', '.join(sorted(rows[mod])) or 'nothing'} in the table but "
                            f"{', '.join(sorted(ALLOWED[mod])) or 'nothing'} in ALLOWED "
                            "(tools/check_layers.py)")
    return problems


def quoted_includes(header):
    out = []
    for line in header.read_text(encoding="utf-8").splitlines():
        m = QUOTED.match(line)
        if m:
            out.append((header.parent / m.group(1)).resolve())
    return out


def check_abi_namespace():
    """Every clawport declaration must land in the ABI namespace of core/config.hpp: a
    header that opens a clawport namespace reaches core/config.hpp through its includes,
    opens only module namespaces config.hpp declares, and follows a plain
    `namespace clawport {` with `inline namespace CLAWPORT_ABI_NAMESPACE {`."""
    config = (INC / "core" / "config.hpp").resolve()
    declared = set(DECLARED.findall(config.read_text(encoding="utf-8")))
    reach = {}

    def reaches(h, stack=()):
        if h in reach:
            return reach[h]
        if h == config:
            return True
        if h in stack or not h.exists():
            return False
        r = any(t == config or reaches(t, stack + (h,)) for t in quoted_includes(h))
        reach[h] = r
        return r

    problems = []
    for header in sorted(INC.rglob("*.hpp")):
        rel = header.relative_to(INC).as_posix()
        lines = header.read_text(encoding="utf-8").splitlines()
        opens = False
        for n, line in enumerate(lines, 1):
            m = OPENS.match(line)
            if not m:
                continue
            opens = True
            if m.group(1) is not None:
                problems.append(f"{rel}:{n}: open `namespace clawport {{ inline namespace "
                                f"CLAWPORT_ABI_NAMESPACE {{ namespace {m.group(1)} {{` instead: "
                                "clang puts a nested `namespace clawport::X` outside the ABI "
                                "namespace")
                continue
            if m.group(1) is None:
                nxt = lines[n] if n < len(lines) else ""
                if header.resolve() != config and nxt != "inline namespace CLAWPORT_ABI_NAMESPACE {":
                    problems.append(f"{rel}:{n}: `namespace clawport {{` must be followed by "
                                    "`inline namespace CLAWPORT_ABI_NAMESPACE {`")
                third = MODULE_NS.match(lines[n + 1]) if n + 1 < len(lines) else None
                if third and third.group(1) not in declared:
                    problems.append(f"{rel}:{n + 2}: namespace {third.group(1)} is not declared "
                                    "in the ABI namespace of core/config.hpp; add it there")
            elif m.group(1) not in declared:
                problems.append(f"{rel}:{n}: namespace clawport::{m.group(1)} is not declared "
                                "in the ABI namespace of core/config.hpp; add it there")
        if rel in CONFIG_BY_MERGE:
            continue
        if opens and header.resolve() != config and not reaches(header.resolve()):
            problems.append(f"{rel}: opens a clawport namespace but does not include "
                            "core/config.hpp (directly or through another clawport header)")
    return problems


# Pay for what you include (issue 48): what a TU that includes one of these umbrellas must
# not parse, through any chain of includes. The skills lifecycle is installing (git, the
# process runner, skill tests), bundles, restore and scaffold; `recover` and `status` read a
# killed upgrade through skills/upgrade_recovery.hpp (which archives as `skills remove` does).
SKILLS_LIFECYCLE = {f"skills/{n}.hpp" for n in (
    "install", "source_install", "install_context", "process", "test_runner", "test_script",
    "test_selection", "bundle_add", "bundles", "restore", "scaffold", "lifecycle_json",
    "lifecycle_text")}
NOT_PARSED_BY = {
    "exporter.hpp": ("openclaw/", "convert/", SKILLS_LIFECYCLE),
    "verify.hpp": ("openclaw/", "convert/", SKILLS_LIFECYCLE),
    "importer.hpp": ("openclaw/", "convert/", SKILLS_LIFECYCLE),
    "skills.hpp": ("openclaw/", "convert/"),
}


def include_closure(header):
    seen, todo = set(), [header.resolve()]
    while todo:
        h = todo.pop()
        if h in seen:
            continue
        seen.add(h)
        todo += [t for t in quoted_includes(h) if t.is_file()]
    return {h.relative_to(INC).as_posix() for h in seen}


def check_include_closures():
    problems = []
    for umbrella, banned in NOT_PARSED_BY.items():
        for rel in sorted(include_closure(INC / umbrella)):
            for b in banned:
                hit = rel in b if isinstance(b, set) else rel.startswith(b)
                if hit:
                    problems.append(f"{umbrella}: parses {rel} (through its includes); a TU "
                                    f"that includes {umbrella} must not (issue 48): include "
                                    "the smaller header that declares what is used")
    return problems


def main():
    problems = []
    seen_known = set()
    for header in sorted(INC.rglob("*.hpp")):
        mod = module_of(header)
        rel = header.relative_to(INC).as_posix()
        if mod is None:
            continue  # clawport.hpp: the umbrella may include every product module
        if mod not in ALLOWED:
            problems.append(f"{rel}: module `{mod}` is not in the allowed graph; fix: add "
                            f"\"{mod}\": {{<modules it includes>}} to ALLOWED in "
                            "tools/check_layers.py and its row to docs/architecture.md")
            continue
        for n, line in enumerate(header.read_text(encoding="utf-8").splitlines(), 1):
            m = QUOTED.match(line)
            if not m:
                continue
            target = (header.parent / m.group(1)).resolve()
            try:
                tmod = module_of(target)
            except ValueError:
                problems.append(f"{rel}:{n}: includes {m.group(1)} outside include/clawport/")
                continue
            if tmod is None or tmod == mod or tmod in ALLOWED[mod]:
                continue
            key = (rel, m.group(1))
            if key in KNOWN:
                seen_known.add(key)
                continue
            problems.append(f"{rel}:{n}: `{mod}` must not include `{tmod}` "
                            f"(#include \"{m.group(1)}\"); allowed: "
                            f"{', '.join(sorted(ALLOWED[mod])) or 'nothing'}")
    for key in sorted(set(KNOWN) - seen_known):
        print(f"note: {key[0]}: the known violation `#include \"{key[1]}\"` is gone; "
              "remove it from KNOWN in tools/check_layers.py")
    problems += check_abi_namespace()
    problems += check_include_closures()
    problems += check_doc_table(DOC.read_text(encoding="utf-8"))
    # The umbrella must not pull in the opt-in test backends.
    umbrella = (INC / "clawport.hpp").read_text(encoding="utf-8")
    if re.search(r'#\s*include\s+"testing', umbrella):
        problems.append("clawport.hpp: the umbrella must not include testing/ (opt-in)")
    # Nor SQLite: a consumer who never reads memory must not need <sqlite3.h>. No header
    # outside sqlite/ (and its opt-in umbrella) may include it, directly or through sqlite/.
    for h in sorted(INC.rglob("*.hpp")):
        rel = h.relative_to(INC).as_posix()
        if rel.startswith("sqlite/") or rel == "sqlite.hpp":
            continue
        if re.search(r'#\s*include\s+(<sqlite3\.h>|"(\.\./)*sqlite[/.])', h.read_text(encoding="utf-8")):
            problems.append(f"{rel}: includes SQLite; only <clawport/sqlite.hpp> may (opt-in)")
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"module directions: {len(list(INC.rglob('*.hpp')))} headers, no violation")


if __name__ == "__main__":
    main()
