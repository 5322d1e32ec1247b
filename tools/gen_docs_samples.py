#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generates the sample outputs of README.md and docs/*.md by running the built CLI (issue 27,
item 9), so a sample can never drift from what the tool prints.

A sample in a document is a marker line followed by a fenced block:

    <!-- sample: skills-manage -->
    ```text
    ...replaced by the generator...
    ```

Each sample below is a list of steps run with bash in a fresh directory: the example install
(examples/zeroclaw-install) and Claw (examples/openclaw-claw) are copied there first, `clawport`
on PATH is the binary given, SOURCE_DATE_EPOCH is fixed, HOME is private and standard input is
empty. A shown step prints `$ <command>` and its output (stdout and stderr as they interleave);
a hidden step prepares. Every step's exit status is checked against the one the sample
expects, so a sample whose command starts failing breaks the generator instead of the docs.
The working directory is replaced by `/tmp/demo` in what is shown, and what is random by
design (an `enc2:` value's nonce and ciphertext) by a description of it.

    tools/gen_docs_samples.py <clawport binary>           rewrite the marked blocks
    tools/gen_docs_samples.py <clawport binary> --check   fail (exit 1, a diff) if any differs

Runs in a few seconds. The directory is fixed (a lock keeps two runs apart) so that digests
that cover absolute paths, like an import's plan integrity, are the same on every run.
"""
import concurrent.futures
import difflib
import fcntl
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
PLACEHOLDER = "/tmp/demo"
EPOCH = "1764676800"  # 2025-12-02T12:00:00Z
# What differs on every run by design, shown as a stable description instead.
RANDOM = [(re.compile(r"enc2:[0-9a-f]{40,}"), "enc2:<hex of a random nonce, the ciphertext and its tag>")]
MARKER = re.compile(r"^<!-- sample: ([a-z0-9-]+(?:#[0-9]+)?) -->$")


class Step:
    """One command: `cmd` run by bash; `show` prints it; `status` is the exit it must have;
    `head` keeps the first lines of its output (the rest counted in a `...` line); `shown`
    replaces the command as printed (e.g. without a shell variable); `part` N > 1 puts it in
    the block marked `<!-- sample: name#N -->`, so one run can feed several blocks (a tuple
    of parts shows the step in each); `prompt` False shows the output alone (a file's
    contents, a quoted message)."""

    def __init__(self, cmd, show=True, status=0, head=None, shown=None, part=1, echo_status=False,
                 prompt=True):
        self.cmd, self.show, self.status, self.head, self.shown = cmd, show, status, head, shown
        self.part, self.echo_status, self.prompt = part, echo_status, prompt


def hidden(cmd):
    return Step(cmd, show=False)


# A ZeroClaw install from the example, with an empty target install beside it.
INSTALL = [hidden("cp -r $EXAMPLES/zeroclaw-install install && mkdir fresh")]
# The target: an empty install is a config holding only its schema version.
FRESH = [Step("echo 'schema_version = 3' > fresh/config.toml")]
SKILLS_INSTALL = [hidden("""mkdir -p zc && cat > zc/config.toml <<'EOF'
[agents.default]
skill_bundles = ["ops"]
EOF
mkdir -p src/lint/refs
printf -- '---\\nname: lint\\ndescription: Lint the docs\\n---\\n# Lint v1\\n' > src/lint/SKILL.md
echo 'house rules' > src/lint/refs/rules.md""")]

# The whole hand-off of `researcher` (README.md): export, verify, import (plan, then apply),
# secrets, status.
HANDOFF = INSTALL + FRESH + [
    Step("clawport export researcher --config install/config.toml --out bundle", head=3),
    Step("clawport verify bundle"),
    Step("clawport import bundle --config fresh/config.toml", head=12),
    hidden("clawport import bundle --config fresh/config.toml --json"
           " | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"plan_integrity\"])'"
           " > integrity"),
    Step('clawport import bundle --config fresh/config.toml --yes --plan-integrity "$(cat integrity)"',
         shown=None),
    Step("clawport status --config fresh/config.toml", status=1, head=8),
    Step("printf 'sk-ant-example\\n' | clawport secrets set providers.models.anthropic.main.api_key"
         " --config fresh/config.toml"),
    Step("for p in $(clawport secrets list --config fresh/config.toml --json | python3 -c "
         "'import json,sys; print(\" \".join(s[\"path\"] for s in json.load(sys.stdin)[\"secrets\"]"
         " if s[\"state\"] == \"blank\"))'); do\n"
         "  printf 'example-value\\n' | clawport secrets set \"$p\" --config fresh/config.toml"
         " >/dev/null\ndone", shown="# ... and the other blank secrets the same way"),
    Step("clawport status --config fresh/config.toml"),
]

# README.md's memory cycle (issue 47): export --with-memory, verify, import --with-memory
# (plan, then apply) into an install without a store, and the merged rows read back.
MEMORY_CYCLE = INSTALL + FRESH + [
    Step("clawport export researcher --config install/config.toml --out bundle --with-memory"
         " | sed -n '/MEMORY TRAVELS/,$p'",
         shown="clawport export researcher --config install/config.toml --out bundle"
         " --with-memory  # the privacy warning"),
    Step("clawport verify bundle"),
    Step("clawport import bundle --config fresh/config.toml --with-memory"
         " | sed -n '/^memory merged/,/^$/p;/for the memory merged/,/^$/p'",
         shown="clawport import bundle --config fresh/config.toml --with-memory"
         "  # the memory part of the plan"),
    hidden("clawport import bundle --config fresh/config.toml --with-memory --json"
           " | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"plan_integrity\"])'"
           " > integrity"),
    Step('clawport import bundle --config fresh/config.toml --with-memory --yes'
         ' --plan-integrity "$(cat integrity)"', head=3),
    Step("python3 -c 'import sqlite3; d = sqlite3.connect(\"fresh/data/memory/brain.db\");"
         " [print(*r) for r in d.execute(\"SELECT a.alias, m.category, m.key FROM memories m"
         " JOIN agents a ON a.id = m.agent_id ORDER BY m.created_at\")]'"),
]

# docs/cli.md's worked example: a skill's whole life (tests/cli/skills_lifecycle.sh's
# scenario). ZEROCLAW_CONFIG_DIR names the install, through the sample's .env (BASH_ENV).
SKILLS_LIFE = [
    hidden("""mkdir zc && echo "export ZEROCLAW_CONFIG_DIR=$PWD/zc" > .env
printf 'schema_version = 3\\n\\n[providers.models.ollama.local]\\nmodel = "llama3.3"\\n\\n[risk_profiles.guarded]\\n\\n[agents.default]\\nmodel_provider = "ollama.local"\\nrisk_profile = "guarded"\\nskill_bundles = ["ops"]\\n\\n[skills]\\nallow_scripts = true\\n' > zc/config.toml
mkdir -p src/changelog && cd src/changelog
printf -- '---\\nname: changelog\\ndescription: Keep the changelog in order\\n---\\n# Changelog\\nEvery entry is dated.\\n' > SKILL.md
printf 'test -f SKILL.md | 0 |\\ngrep -c dated SKILL.md | 0 | ^1\\n' > TEST.sh
git init -q && git add . && git -c user.email=d@d -c user.name=d commit -qm init"""),
    Step("clawport skills bundle add ops"),
    Step('clawport skills new release-check --bundle ops --description'
         ' "Check release readiness before tagging"'),
    hidden("printf 'grep -q \"^name: release-check\" SKILL.md | 0 |\\n'"
           " > zc/shared/skills/ops/release-check/TEST.sh"),
    Step("clawport skills install file://$PWD/src/changelog --agent default",
         shown="clawport skills install file:///tmp/demo/src/changelog --agent default"),
    Step("clawport skills list --agent default"),
    Step("clawport skills test"),
    Step("clawport export default --out $PWD/default-bundle", head=2,
         shown="clawport export default --out /tmp/demo/default-bundle"),
    Step("clawport skills remove changelog --bundle ops"),
    Step("clawport skills list --agent default"),
]

# docs/cli.md, `verify`.
VERIFY = [
    hidden("cp -r $EXAMPLES/zeroclaw-install install"
           " && clawport export researcher --config install/config.toml --out researcher-bundle"
           " >/dev/null"),
    Step("clawport verify ./researcher-bundle"),
]

# docs/cli.md, `import`'s worked example: into an install that already has a `researcher`.
IMPORT_WORKED = [
    hidden("cp -r $EXAMPLES/zeroclaw-install home && cp -r $EXAMPLES/zeroclaw-install work"),
    Step("clawport export researcher --config home/config.toml --out researcher-bundle", head=0),
    Step("clawport verify researcher-bundle"),
    Step("clawport import researcher-bundle --config work/config.toml"),
    hidden("clawport import researcher-bundle --config work/config.toml --json"
           " | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"plan_integrity\"])'"
           " > integrity"),
    Step('clawport import researcher-bundle --config work/config.toml --yes --plan-integrity'
         ' "$(cat integrity)"', part=2),
    Step("cmp -n $(stat -c %s home/config.toml) home/config.toml work/config.toml"
         " && tail -c +$(($(stat -c %s home/config.toml) + 1)) work/config.toml | sed '1{/^$/d}'",
         prompt=False, part=3),
]

# docs/cli.md, `secrets` and `status`: the example's researcher imported into a fresh install.
SECRETS = INSTALL + [
    hidden("echo 'schema_version = 3' > fresh/config.toml"
           " && clawport export researcher --config install/config.toml --out researcher-bundle"
           " >/dev/null"
           " && clawport import researcher-bundle --config fresh/config.toml --yes"
           " --plan-integrity $(clawport import researcher-bundle --config fresh/config.toml"
           " --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"plan_integrity\"])')"
           " >/dev/null"),
    Step("clawport secrets list --config fresh/config.toml", head=4),
    Step("printf 'sk-ant-example\\n' | clawport secrets set providers.models.anthropic.main.api_key"
         " --config fresh/config.toml"),
    Step("echo op://work-vault/openai/api-key | clawport secrets set"
         " providers.models.openai.cheap.api_key --config fresh/config.toml"),
    Step('grep -n "enc2:\\|op://" fresh/config.toml'),
    Step("clawport status --config fresh/config.toml", status=1, part=2),
]

# docs/convert.md: the example install's researcher to a Claw package, and the example Claw
# package to a bundle that imports into an empty install.
CONVERT_TO_CLAW = INSTALL + [
    Step("clawport export researcher --config install/config.toml --out researcher-bundle", head=0),
    Step("clawport convert researcher-bundle --to claw --out researcher-claw", status=1,
         echo_status=True),
    Step("clawport convert researcher-bundle --to claw --out researcher-claw 2>&1 >/dev/null",
         status=1, prompt=False, part=3),
    Step("clawport convert researcher-bundle --to claw --out researcher-claw --allow-narrowing"),
    Step("clawport claw inspect researcher-claw", part=2),
    Step("clawport claw plan researcher-claw", part=2),
]
CONVERT_TO_AGENT_PLUGIN = INSTALL + [
    Step("clawport export researcher --config install/config.toml --out researcher-bundle", head=0),
    Step("clawport convert researcher-bundle --to agent-plugin --out researcher-plugin", head=12),
    Step("cat researcher-plugin/mcp.json", prompt=False, part=2),
]
CONVERT_FROM_CLAW = [
    hidden("cp -r $EXAMPLES/openclaw-claw incident-triage && mkdir empty"
           " && echo 'schema_version = 3' > empty/config.toml"),
    Step("clawport convert incident-triage --to zeroclaw --out incident-triage-bundle"),
    Step("clawport verify incident-triage-bundle"),
    Step("sed -n '/^schema_version/,$p' incident-triage-bundle/config.toml", prompt=False, part=3),
    Step("clawport import incident-triage-bundle --config empty/config.toml", part=2),
]

# docs/openclaw.md: the example Claw package. Each sample has its own HOME (so its own
# default state directory, ~/.openclaw) through its .env.
CLAW_HOME = [hidden('echo "export HOME=$PWD/home; unset OPENCLAW_STATE_DIR" > .env && mkdir home'
                    " && cp -r $EXAMPLES/openclaw-claw incident-triage")]
BAD_CLAW = [hidden("""mkdir bad && cat > bad/CLAW.md <<'EOF'
---
schemaVersion: 1
agent: {id: demo, model: gpt}
packages:
  - {kind: connector, source: clawhub, ref: Bad_Ref, version: "^1.0"}
---
EOF""")]
PLAN_INTEGRITY = ("| python3 -c 'import json,sys; print(json.load(sys.stdin)[\"planIntegrity\"])'"
                  " > integrity")
# The actions of a plan counted by verb (the example's 16).
COUNT_ACTIONS = ("| python3 -c 'import collections,json,sys; print(dict(sorted(collections.Counter("
                 "a[\"action\"] for a in json.load(sys.stdin)[\"actions\"]).items())))'")
CLAW_CYCLE = CLAW_HOME + [
    hidden("clawport claw plan incident-triage --without-packages --json " + PLAN_INTEGRITY),
    Step('clawport claw add incident-triage --without-packages --yes --plan-integrity'
         ' "$(cat integrity)"', status=0, head=3),
    Step("clawport claw export incident-triage --out exported"),
    Step("clawport claw inspect exported"),
    Step("clawport claw plan --json --state-dir other-state --without-packages exported "
         + COUNT_ACTIONS),
    Step("clawport claw update incident-triage --from exported --dry-run", status=1,
         echo_status=True),
    Step("echo edit >> ~/.openclaw/workspace-incident-triage/TOOLS.md"),
    Step("clawport claw update incident-triage --dry-run", status=1, echo_status=True),
    Step("clawport claw export incident-triage --out exported2", status=1, echo_status=True),
    Step("cp incident-triage/workspace/TOOLS.md ~/.openclaw/workspace-incident-triage/TOOLS.md"),
    hidden("cp -r incident-triage incident-triage-1.4.0 && cd incident-triage-1.4.0"
           " && sed -i 's/\"version\": \"1.3.0\"/\"version\": \"1.4.0\"/' package.json"
           " && sed -i 's/version: \"1.4.0\"/version: \"1.5.0\"/' CLAW.md"
           " && echo 'Prefer the status page over chat reports.' >> workspace/TOOLS.md"),
    Step("# incident-triage-1.4.0: TOOLS.md gains a line, the skill moves to 1.5.0"),
    Step("clawport claw update incident-triage --from incident-triage-1.4.0 --dry-run"),
    hidden("clawport claw update incident-triage --from incident-triage-1.4.0 --dry-run --json "
           + PLAN_INTEGRITY),
    Step('clawport claw update incident-triage --from incident-triage-1.4.0 --yes'
         ' --plan-integrity "$(cat integrity)"', status=1, echo_status=True),
    Step("clawport claw status incident-triage"),
    hidden("clawport claw remove incident-triage --dry-run --json " + PLAN_INTEGRITY),
    Step('clawport claw remove incident-triage --yes --plan-integrity "$(cat integrity)"'),
]
# An agent that never came from a package: `worker`, with a name, an explicit workspace and
# humanDelay; its workspace holds AGENTS.md, SOUL.md and notes.md.
CLAW_MIGRATE = [
    hidden("""mkdir -p ws state && printf '# Worker\\nKeep the queue short.\\n' > ws/AGENTS.md
printf 'Be brief.\\n' > ws/SOUL.md && printf 'my notes\\n' > ws/notes.md
printf '{"agents": {"entries": {"worker": {"name": "Worker", "workspace": "%s",'\
' "humanDelay": {"mode": "natural"}}}}}\\n' "$PWD/ws" > state/openclaw.json"""),
    Step("clawport claw migrate worker --state-dir state"),
    hidden("clawport claw migrate worker --state-dir state --json " + PLAN_INTEGRITY),
    Step('clawport claw migrate worker --state-dir state --yes --plan-integrity "$(cat integrity)"',
         part=(1, 2)),
    Step("clawport claw status worker --state-dir state"),
]

SAMPLES = {
    "claw-inspect": CLAW_HOME + [
        Step("clawport claw inspect incident-triage"),
        Step("clawport claw plan incident-triage", status=1, echo_status=True, part=2),
    ],
    "claw-invalid": BAD_CLAW + [
        Step("clawport claw inspect bad/CLAW.md", status=1),
        Step("clawport claw inspect --codes clawhub bad/CLAW.md", status=1, part=2),
    ],
    "claw-cycle": CLAW_CYCLE,
    "claw-migrate": CLAW_MIGRATE,
    "skills-list": INSTALL + [
        Step("clawport skills list --agent researcher --config install/config.toml",
             shown="clawport skills list --agent researcher"
             " --config examples/zeroclaw-install/config.toml"),
    ],
    "readme-demo": [
        Step("CLAWPORT=$(command -v clawport) $EXAMPLES/../tools/demo.sh", shown="tools/demo.sh"),
    ],
    "convert-to-claw": CONVERT_TO_CLAW,
    "convert-from-claw": CONVERT_FROM_CLAW,
    "convert-to-agent-plugin": CONVERT_TO_AGENT_PLUGIN,
    "verify": VERIFY,
    "import-worked": IMPORT_WORKED,
    "secrets": SECRETS,
    "skills-life": SKILLS_LIFE,
    "readme-handoff": HANDOFF,
    "readme-memory": MEMORY_CYCLE,
    "skills-audit": [
        Step("cd install/shared/skills && clawport skills audit research_tools/arxiv_search"
             " house-style/changelog-helper", status=1,
             shown="cd examples/zeroclaw-install/shared/skills\n$ clawport skills audit"
             " research_tools/arxiv_search house-style/changelog-helper"),
    ],
    "skills-manage": SKILLS_INSTALL + [
        Step("clawport skills bundle add docs --config zc/config.toml", show=False),
        Step("clawport skills bundle add ops --config zc/config.toml", show=False),
        Step("clawport skills install src/lint --config zc/config.toml"),
        hidden("sed -i 's/v1/v2/' src/lint/SKILL.md"),
        Step("clawport skills install src/lint --config zc/config.toml", status=1),
        Step("clawport skills install src/lint --upgrade --config zc/config.toml"),
        Step("clawport skills remove lint --config zc/config.toml"),
        Step("clawport skills restore lint --config zc/config.toml"),
        Step("clawport skills bundle list --config zc/config.toml"),
        Step("clawport skills bundle remove ops --config zc/config.toml", status=1),
        Step("clawport skills bundle remove docs --config zc/config.toml"),
    ],
    "skills-test-failure": SKILLS_INSTALL + [
        hidden("clawport skills bundle add ops --config zc/config.toml >/dev/null"),
        hidden("printf '# command | exit | pattern\\ntest -f SKILL.md | 0 |\\necho lint ok | 0 | "
               "lint fails\\n' > src/lint/TEST.sh"),
        hidden("printf '[skills]\\nallow_scripts = true\\n' >> zc/config.toml"),
        hidden("clawport skills install src/lint --config zc/config.toml >/dev/null"),
        Step("clawport skills test lint --config zc/config.toml", status=1),
    ],
}

# For the steps above: the sample IDs whose install copies are needed.
for name in ("skills-audit",):
    SAMPLES[name] = INSTALL + SAMPLES[name]


def run_sample(name, steps, work, binary):
    d = work / name
    d.mkdir()
    bindir = work / "bin"
    env = {
        "PATH": f"{bindir}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(work / "home"),
        "LANG": "C.UTF-8",
        "SOURCE_DATE_EPOCH": EPOCH,
        "EXAMPLES": str(ROOT / "examples"),
        "TMPDIR": str(work / "tmp"),
        "BASH_ENV": str(d / ".env"),  # a sample's own environment, if it writes one
    }
    out = {}
    for step in steps:
        p = subprocess.run(["bash", "-c", step.cmd], cwd=d, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=60)
        if p.returncode != step.status:
            sys.exit(f"gen_docs_samples: sample {name}: `{step.cmd}` exited {p.returncode}, "
                     f"expected {step.status}:\n{p.stdout}")
        if not step.show:
            continue
        shown = step.shown if step.shown else step.cmd
        if '"$(cat integrity)"' in shown:
            shown = shown.replace('"$(cat integrity)"', (d / "integrity").read_text().strip())
        lines = [f"$ {shown}"] if step.prompt else []
        body = p.stdout.rstrip("\n").split("\n") if p.stdout.strip() else []
        if step.head is not None and len(body) > step.head:
            rest = len(body) - step.head
            body = body[:step.head] + [f"... ({rest} more line(s))"]
        lines += body
        if step.echo_status:  # as the reader would see it with `echo $?`
            lines += ["$ echo $?", str(p.returncode)]
        for part in step.part if isinstance(step.part, tuple) else (step.part,):
            out.setdefault(part, []).append("\n".join(lines))
    parts = {}
    for part, blocks in out.items():
        text = "\n".join(blocks) + "\n"
        for path in (str(d), str(work)):
            text = text.replace(path, PLACEHOLDER)
        for pattern, stable in RANDOM:
            text = pattern.sub(stable, text)
        parts[name if part == 1 else f"{name}#{part}"] = text
    return parts


def rewrite(doc_text, outputs, used):
    lines = doc_text.split("\n")
    result = []
    i = 0
    while i < len(lines):
        result.append(lines[i])
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        if name not in outputs:
            raise KeyError(name)
        used.add(name)
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            raise ValueError(f"sample {name}: the marker must be followed by a fenced block")
        result.append(lines[i + 1])
        j = i + 2
        while j < len(lines) and lines[j] != "```":
            j += 1
        result.extend(outputs[name].rstrip("\n").split("\n"))
        result.append("```")
        i = j + 1
    return "\n".join(result)


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    check = "--check" in sys.argv[1:]
    if len(args) != 1:
        sys.exit(__doc__)
    binary = pathlib.Path(args[0]).resolve()
    if not os.access(binary, os.X_OK):
        sys.exit(f"gen_docs_samples: {binary} is not an executable")
    work = pathlib.Path(tempfile.gettempdir()) / f"clawport-docs-samples-{os.getuid()}"
    lock = open(str(work) + ".lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    shutil.rmtree(work, ignore_errors=True)
    (work / "bin").mkdir(parents=True)
    (work / "home").mkdir()
    (work / "tmp").mkdir()
    os.symlink(binary, work / "bin" / "clawport")
    try:
        outputs = {}
        # The samples are independent (a directory each): run them side by side.
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            runs = [pool.submit(run_sample, n, s, work, binary) for n, s in SAMPLES.items()]
            for r in runs:
                outputs.update(r.result())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    used = set()
    stale = 0
    for doc in DOCS:
        old = doc.read_text()
        try:
            new = rewrite(old, outputs, used)
        except KeyError as e:
            sys.exit(f"gen_docs_samples: {doc.relative_to(ROOT)} names unknown sample {e}")
        if new == old:
            continue
        if check:
            stale += 1
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), str(doc.relative_to(ROOT)),
                str(doc.relative_to(ROOT)) + " (generated)"))
        else:
            doc.write_text(new)
            print(f"rewrote {doc.relative_to(ROOT)}")
    unused = sorted(set(outputs) - used)
    if unused:
        sys.exit(f"gen_docs_samples: sample(s) no document shows: {', '.join(unused)}")
    if stale:
        sys.exit(f"gen_docs_samples: {stale} document(s) differ from the generated samples; "
                 f"run tools/gen_docs_samples.py <clawport> and commit")
    print(f"{len(SAMPLES)} sample(s) {'checked' if check else 'generated'}")


if __name__ == "__main__":
    main()
