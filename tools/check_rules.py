#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when product code does by hand what one place of the library owns (issue 41: the
rules exist; new code bypassed them). The sources are include/clawport/, cli/, src/ and the C
binding; comments and string literals are stripped, then each rule is a regex:

  output   a write to stdout or stderr (std::cout, std::cerr, printf, puts, fwrite,
           write(1|2, ...), out::stream(...)) outside cli/output.hpp, the one output path
           that escapes for the terminal (out::line, out::lines, out::rendered, ...)
  mode     a file-mode literal (0644, 0600, S_IRUSR...) or chmod/fchmod outside
           include/clawport/fs/ (fs::modes, fs::copied_mode)
  descent  open_dir_at inside a loop (a directory descent by hand: its handle kept for the
           next turn) outside include/clawport/fs/ (fs::open_path, fs::walk)
  create   a new file made by hand (a `.create_file_at(` call, O_EXCL) outside
           include/clawport/fs/ (fs::write_new_file: create-only, through the Fs policy)
  stdin    a read of standard input (std::cin, stdin, read(0|STDIN_FILENO, ...)) outside
           cli/input.hpp, the one bounded reader
  spawn    fork, exec*, posix_spawn, popen or system( outside include/clawport/process/
           (process::posix_runner)
  lower    ASCII lower-casing by hand (`c - 'A' + 'a'`, `c + 32`, `tolower`) outside
           core/text.hpp (text::to_lower_ascii, text::ascii_lower) and formats/unicode.hpp
  join     a path joined by hand (`a + "/" + b`) outside core/paths.hpp (paths::join)
  rename   a rename or an exchange of an entry by hand (an Fs `rename_at` call,
           rename_mode::exchange, rename(2)/renameat(2)/renameat2(2)) outside
           include/clawport/publish/ (publish::rename_noreplace, publish::exchange_entry,
           publish::staged_dir, publish::replace_file); the Fs backends (fs/, testing/)
           implement rename_at and are its stand-ins

The last two look at string and character literals, so for them only comments are stripped.

A narrow exception is an ALLOWED entry: a path, a rule, a fragment of the offending line and
why the code is the rule's home (or its stand-in). Each violation is printed as
`file:line: rule: what; the rule's home is ...`.

    tools/check_rules.py              # exit 1 and one line per violation
    tools/check_rules.py --self-test  # plants one violation of each rule in a temporary
                                      # copy and shows each check fails on it

Both runs also run tools/openclaw_reads.py (string-keyed JSON reads in openclaw/ only in the
readers that validate input; issue 42).
"""
import pathlib
import re
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def sources(root):
    """The product code: headers of the library, the CLI, the compiled TU, the C binding."""
    out = []
    for pattern in ("include/clawport/**/*.hpp", "cli/**/*.hpp", "cli/**/*.cpp", "src/*.cpp",
                    "bindings/c/clawport.cpp"):
        out += sorted(root.glob(pattern))
    return out


HOME = {
    "output": "cli/output.hpp (out::line, out::lines, out::rendered, out::document)",
    "mode": "include/clawport/fs/ (fs::modes, fs::copied_mode)",
    "descent": "include/clawport/fs/ (fs::open_path, fs::walk, fs::open_anchored_root)",
    "create": "include/clawport/fs/ (fs::write_new_file)",
    "stdin": "cli/input.hpp (the one bounded reader of standard input)",
    "spawn": "include/clawport/process/ (process::posix_runner)",
    "lower": "include/clawport/core/text.hpp (text::to_lower_ascii, text::ascii_lower)",
    "join": "include/clawport/core/paths.hpp (paths::join)",
    "rename": "include/clawport/publish/ (publish::rename_noreplace, publish::exchange_entry, "
              "publish::rename_back, publish::staged_dir)",
}

# rule -> (the folder or file that is its home, the pattern of a violation)
RULES = {
    "output": ("cli/output.hpp",
               re.compile(r"\bstd::(cout|cerr|clog|wcout|wcerr)\b|\bout::stream\s*\(|"
                          r"(?<![\w.>])(std::)?(printf|puts|fputs|putchar|fwrite|fprintf|vprintf|"
                          r"perror)\s*\(|"
                          r"(?<![\w.>])(::)?write\s*\(\s*(1|2|STDOUT_FILENO|STDERR_FILENO)\s*,")),
    "mode": ("include/clawport/fs/",
             re.compile(r"\b(?<!\.)0[0-7]{3,4}\b|\bS_I(R|W|X)(USR|GRP|OTH)\b|\bS_IRWX[UGO]\b|"
                        r"\bS_IS[UG]ID\b|(?<![\w.>])(::)?f?chmod(at)?\s*\(")),
    "descent": ("include/clawport/fs/", re.compile(r"\bopen_dir_at\b")),
    "create": ("include/clawport/fs/",
               re.compile(r"(\.|->)\s*create_file_at\s*\(|\bO_EXCL\b")),
    "stdin": ("cli/input.hpp",
              re.compile(r"\bstd::(cin|wcin)\b|\bstdin\b|(?<![\w.>])(::)?read\s*\(\s*"
                         r"(0|STDIN_FILENO)\s*,|\bgetchar\s*\(")),
    "spawn": ("include/clawport/process/",
              # `> fork(`: a method returning a template (fs::copy_sink::fork), not fork(2)
              re.compile(r"(?<![\w.>])(?<!> )(::)?(std::)?(fork|vfork|execl|execlp|execle|execv|"
                         r"execvp|execvpe|execve|fexecve|posix_spawn|posix_spawnp|popen|"
                         r"system)\s*\(")),
    "lower": (("include/clawport/core/text.hpp", "include/clawport/formats/unicode.hpp"),
              re.compile(r"-\s*'A'\s*\+\s*'a'|'a'\s*-\s*'A'|'Z'\s*\)\s*\w+\s*=\s*static_cast"
                         r"<char>\(\s*\w+\s*\+\s*32\s*\)|\+\s*32\s*\)\s*:|"
                         r"(?<![\w.>])(std::)?(to|is)lower\s*\(")),
    "join": ("include/clawport/core/paths.hpp",
             re.compile(r"\+\s*(\"/\"|'/')\s*\+")),
    "rename": (("include/clawport/publish/", "include/clawport/fs/", "include/clawport/testing/"),
               re.compile(r"(\.|->)\s*rename_at\s*\(|\brename_mode::exchange\b|"
                          r"(?<![\w.>])(::)?(std::)?rename(at2?)?\s*\(")),
}

# The rules that read literals: only comments are stripped for them.
LITERAL_RULES = ("lower", "join")

# Words one of which a file must hold for a rule's regex to run on it (speed only).
KEYS = {
    "output": ("cout", "cerr", "clog", "printf", "puts", "putchar", "fwrite", "perror", "write",
               "out::stream"),
    "mode": ("0", "S_I", "chmod"),
    "descent": ("open_dir_at",),
    "create": ("create_file_at", "O_EXCL"),
    "stdin": ("cin", "stdin", "read", "getchar"),
    "spawn": ("fork", "exec", "spawn", "popen", "system"),
    "lower": ("'A'", "'a'", "32", "lower"),
    "join": ('"/"', "'/'"),
    "rename": ("rename",),
}

# (path, rule, fragment of the stripped line, why): the narrow exceptions.
ALLOWED = [
    ("cli/app.hpp", "output", "app.exit(e, out::stream(",
     "CLI11 writes its own help and version text (clawport's literals) to the streams given"),
    ("include/clawport/testing/faulty.hpp", "create", "return inner_.create_file_at(",
     "fs::faulty is an Fs backend (opt-in, for tests): it forwards to the backend it wraps"),
    ("include/clawport/exporter/memory_file.hpp", "create",
     "file_.emplace(fs_.create_file_at(dir, ",
     "memory/entries.jsonl is written in 64 KiB pieces as rows are read, not as one string"),
    ("include/clawport/exporter/digest_writer.hpp", "create",
     "out->emplace(fs.create_file_at(stage, spill_file",
     "the digest list's spill file grows while the tree is copied, not written at once"),
    ("include/clawport/exporter/digest_writer.hpp", "create", "auto out = fs.create_file_at(d, name,",
     "the digest list is written as its head, the spilled part and its tail"),
    ("include/clawport/testing/memory.hpp", "mode", "",
     "fs::memory is an Fs backend (opt-in, for tests): it keeps modes as the filesystem does"),
    # Issue 43 item 3: what is left of the hand-written forms, each to route through its
    # home by the work that owns the file.
    ("include/clawport/signing/ssh_keygen.hpp", "join", "path_ + \"/\" + name",
     "private_dir becomes fs::temp_dir (issue 43 item 4)"),
    ("include/clawport/skills/temp_dir.hpp", "join", "root + \"/\" + name_",
     "skills/temp_dir.hpp becomes fs::temp_dir (issue 43 item 4)"),
    ("include/clawport/openclaw/update.hpp", "rename", "fs.rename_at(d, paths::file_name(w.temp)",
     "a workspace file (not a directory) replaced by its written temporary; the update's undo "
     "journal restores the old bytes (publish::replace_file)"),
    ("include/clawport/skills/text.hpp", "join", "bundle) + \"/\" + name",
     "skills::shown_skill: a skill's display name `bundle/name`, not a path"),
    ("include/clawport/skills/test_script.hpp", "join", "tests_passed) + \"/\"",
     "`3/4 passed`: a ratio, not a path"),
]


# A comment, a raw string, a string or a character literal (not a digit separator: 1'000).
TOKENS = re.compile(r"//[^\n]*|/\*.*?\*/|R\"(?P<d>[^(\s]*)\(.*?\)(?P=d)\"|"
                    r"\"(?:\\.|[^\"\\\n])*\"|(?<!\w)'(?:\\.|[^'\\\n])*'", re.S)


def strip(text, literals=False):
    """`text` with comments and the contents of string and character literals blanked
    (newlines kept, so line numbers and offsets stay); with `literals`, comments only."""

    def blank(m):
        t = m.group(0)
        inner = re.sub(r"[^\n]", " ", t)
        if t[0] in "\"'R":  # a literal stays a literal: its quotes are kept
            return t if literals else t[0] + inner[1:-1] + t[-1]
        return inner

    return TOKENS.sub(blank, text)


def loop_bodies(code):
    """The [start, end) spans of every for/while/do body (a block, or one statement)."""
    spans = []
    for m in re.finditer(r"\b(for|while|do)\b", code):
        i = m.end()
        if m.group(1) != "do":
            while i < len(code) and code[i].isspace():
                i += 1
            if i >= len(code) or code[i] != "(":
                continue
            depth = 0
            while i < len(code):
                depth += {"(": 1, ")": -1}.get(code[i], 0)
                i += 1
                if depth == 0:
                    break
        while i < len(code) and code[i].isspace():
            i += 1
        if i < len(code) and code[i] == "{":
            depth, j = 0, i
            while j < len(code):
                depth += {"{": 1, "}": -1}.get(code[j], 0)
                j += 1
                if depth == 0:
                    break
        else:
            j = code.find(";", i)
            j = len(code) if j < 0 else j
        spans.append((i, j))
    return spans


def declared_in(code, name):
    """True when `code` declares `name` (`Type name;`, `Type name = ...`, `Type name(...)`)."""
    return re.search(r"[\w>&]\s+%s\s*[;=({]" % re.escape(name), code) is not None


def descends(code, start, end, at):
    """open_dir_at at `at`, inside the loop body [start, end), descends: its result goes to
    a directory handle declared outside the body (`cur = ...`, `cur.emplace(...)`), or to a
    handle of the body's own that is then moved into one (`next = ...; cur =
    std::move(next)`), so the next turn opens below it. A handle of the body's own that
    stays there (one level, each entry) does not."""
    if not start <= at < end:
        return False
    line_start = code.rfind("\n", 0, at) + 1
    before = code[max(line_start, start):at]
    m = re.match(r"\s*(\w+)(\s*=[^=]|\.emplace\s*\()[^;]*$", before)
    if m is not None and not declared_in(code[start:line_start], m.group(1)):
        return True
    held = m.group(1) if m is not None else None
    if held is None:
        d = re.search(r"[\w>&]\s+(\w+)\s*(=|\(|\{)[^;=]*$", before)
        held = d.group(1) if d is not None else None
    if held is None:
        return False
    for moved in re.finditer(r"(\w+)\s*(=\s*|\.emplace\s*\(\s*)std::move\s*\(\s*%s\s*\)"
                             % re.escape(held), code[at:end]):
        if not declared_in(code[start:end], moved.group(1)):
            return True
    return False


def check(root, only=None):
    problems = []
    for path in sources(root) if only is None else [only]:
        rel = path.relative_to(root).as_posix()
        raw = path.read_text(encoding="utf-8", errors="replace")
        stripped = strip(raw)
        with_literals = strip(raw, literals=True)
        code = stripped
        lines = code.split("\n")
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        bodies = None
        for rule, (home, pattern) in RULES.items():
            code = with_literals if rule in LITERAL_RULES else stripped
            lines = code.split("\n")
            homes = (home,) if isinstance(home, str) else home
            if any(rel.startswith(h) for h in homes) or not any(k in code for k in KEYS[rule]):
                continue
            for m in pattern.finditer(code):
                if rule == "descent":
                    bodies = loop_bodies(code) if bodies is None else bodies
                    if not any(descends(code, a, b, m.start()) for a, b in bodies):
                        continue
                lineno = next(k for k in range(len(starts)) if starts[k + 1] > m.start()) + 1
                line = lines[lineno - 1]
                if any(rel == p and rule == r and frag in line for p, r, frag, _ in ALLOWED):
                    continue
                problems.append("%s:%d: %s: `%s` by hand; the rule's home is %s"
                                % (rel, lineno, rule, m.group(0).strip(), HOME[rule]))
    return problems


# One violation of each rule, planted in a file outside every home.
PLANTS = [
    ("output", 'inline void planted_output(const std::string& s) { std::cout << s; }\n'),
    ("mode", "inline unsigned planted_mode() { return 0644; }\n"),
    ("descent", "template <class Fs, class D, class P>\n"
                "void planted_descent(Fs& fs, D cur, P parts) {\n"
                "  for (const auto& p : parts) cur.emplace(fs.open_dir_at(*cur, p));\n}\n"),
    # the same through a handle of the loop's own, moved out (openclaw/state.hpp's old form)
    ("descent", "template <class Fs, class D, class P>\n"
                "void planted_descent(Fs& fs, D cur, P parts) {\n"
                "  for (const auto& p : parts) {\n"
                "    typename Fs::dir next = fs.open_dir_at(cur, p);\n"
                "    cur = std::move(next);\n  }\n}\n"),
    ("create", "template <class Fs, class D>\n"
               "void planted_create(Fs& fs, const D& d) { fs.create_file_at(d, \"x\", 0u); }\n"),
    ("stdin", "inline std::string planted_stdin() { std::string s; std::cin >> s; return s; }\n"),
    ("spawn", 'inline int planted_spawn() { return std::system("true"); }\n'),
    ("lower", ("inline void planted_lower(std::string& s) {\n"
               "  for (char& c : s) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;\n}\n")),
    ("join", ('inline std::string planted_join(const std::string& a, const std::string& b) {\n'
              '  return a + "/" + b;\n}\n')),
    ("rename", ("template <class Fs, class D>\n"
                "void planted_rename(Fs& fs, const D& a, const D& b) {\n"
                "  fs.rename_at(a, \"new\", b, \"dest\", fs::rename_mode::replace);\n}\n")),
    # an exchange through a policy's own method: the flag alone is the hand-written swap
    ("rename", ("template <class P, class D>\n"
                "void planted_exchange(P& p, const D& a) {\n"
                "  p.swap_at(a, \"new\", a, \"dest\", fs::rename_mode::exchange);\n}\n")),
]


def self_test():
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp)
        for part in ("include", "cli", "src", "bindings/c"):
            shutil.copytree(ROOT / part, copy / part)
        clean = check(copy)
        if clean:
            print("self-test: the copy of today's tree is not clean:", *clean, sep="\n  ")
            return False
        target = copy / "include/clawport/exporter/planted.hpp"
        for rule, plant in PLANTS:
            target.write_text("#pragma once\n// planted\n" + plant, encoding="utf-8")
            found = check(copy, target)
            caught = [p for p in found if p.startswith("include/clawport/exporter/planted.hpp:")
                      and (": %s: " % rule) in p]
            others = [p for p in found if p not in caught]
            print("self-test %-8s %s" % (rule, caught[0] if caught else "NOT CAUGHT"))
            ok = ok and len(caught) == 1 and not others
        # A comment or a string that names the thing is not a violation.
        target.write_text('#pragma once\n// std::cout << 0644; fork();\n'
                          'inline const char* s = "std::cin, system(0600)";\n', encoding="utf-8")
        if check(copy, target):
            print("self-test: a comment or a string was taken for code:", check(copy, target))
            ok = False
    print("self-test:", "every rule fails on its planted violation" if ok else "FAILED")
    return ok


def main():
    import openclaw_reads  # issue 42: string-keyed reads only in openclaw/'s validating readers

    if sys.argv[1:] == ["--self-test"]:
        return 0 if self_test() and openclaw_reads.self_test() else 1
    reads_failed = openclaw_reads.main() != 0
    problems = check(ROOT)
    for p in problems:
        print(p)
    if problems:
        print("%d violation(s): route the code through the rule's home (docs/architecture.md, "
              "\"where each rule lives\"), or add a narrow ALLOWED entry in %s saying why"
              % (len(problems), pathlib.Path(__file__).name))
        return 1
    print("rules: %s: %d files clean" % (", ".join(RULES), len(sources(ROOT))))
    return 1 if reads_failed else 0


if __name__ == "__main__":
    sys.exit(main())
