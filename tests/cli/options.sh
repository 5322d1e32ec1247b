# SPDX-License-Identifier: MIT
# Issue 41 item 17: an empty `--config ""` or `--state-dir ""` (an unset shell variable) is bad
# usage (exit 2) for every command that takes it, never the default install: HOME holds a
# ZeroClaw install and an OpenClaw state directory that must stay untouched. The commands
# are found by walking `--help` from the top, so a new command that takes either option is
# covered without editing this test; each required positional gets a dummy value.
. "$(dirname "$0")/lib.sh"
unset ZEROCLAW_CONFIG_DIR ZEROCLAW_DATA_DIR OPENCLAW_STATE_DIR OPENCLAW_CONFIG_PATH
export HOME="$TMP/home"
make_researcher_install "$HOME/.zeroclaw" '[skill_bundles.tools]'
mkdir -p "$HOME/.openclaw" "$TMP/cwd"
printf '{}\n' >"$HOME/.openclaw/openclaw.json"
before=$(tree_state "$TMP" --mtime)

python3 - "$CLAWPORT" "$TMP/cwd" <<'PY' || failures=$((failures + 1))
import re, subprocess, sys

clawport, cwd = sys.argv[1], sys.argv[2]
bad = 0


def helped(words):
    r = subprocess.run([clawport, *words, "--help"], capture_output=True, text=True, cwd=cwd)
    return r.stdout


def section(text, name):
    m = re.search(r"^%s:\n((?:  .*\n|\s*\n)*)" % name, text, re.M)
    return m.group(1) if m else ""


def leaves(words):
    text = helped(words)
    subs = re.findall(r"^  (\S+) ", section(text, "Subcommands"), re.M)
    if not subs:
        yield words, text
    for s in subs:
        yield from leaves(words + [s])


tried = []
for words, text in leaves([]):
    if not words:
        continue
    positionals = re.findall(r"^  (\S+) \S+ REQUIRED", section(text, "Positionals"), re.M)
    for option in ("--config", "--state-dir"):
        if not re.search(r"^\s+%s " % option, text, re.M):
            continue
        argv = [*words, *["x"] * len(positionals), option, ""]
        tried.append(" ".join(words) + " " + option)
        r = subprocess.run([clawport, *argv], capture_output=True, text=True, cwd=cwd,
                           stdin=subprocess.DEVNULL)
        if r.returncode != 2 or "must not be empty" not in r.stderr:
            bad += 1
            print("FAIL: clawport %s exited %d, expected 2 (%s)" % (argv, r.returncode,
                                                                   r.stderr.strip()))
# The walk found the commands this test is about (a help format change would find none).
for must in ("import --config", "skills bundle add --config", "skills install --config",
             "export --config", "claw update --state-dir", "workspace resolve --state-dir"):
    if must not in tried:
        bad += 1
        print("FAIL: the --help walk did not find `%s` (found: %s)" % (must, tried))
sys.exit(1 if bad else 0)
PY
[ "$(tree_state "$TMP" --mtime)" = "$before" ] || fail_write=1
if [ -n "${fail_write:-}" ]; then echo "FAIL: a command given an empty option wrote"; failures=$((failures + 1)); fi
finish
