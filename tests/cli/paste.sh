# SPDX-License-Identifier: MIT
# Issue 41 item 1: a command line clawport prints for a person to paste (the import plan's
# `clawport secrets set ...` to-do, `status`'s, the `to apply:` line) runs nothing when pasted
# into bash, and gives the command exactly the words meant. A bundle whose MCP server has
# env keys holding a quote, `$(...)`, backticks, `\`, a newline, ESC and CR, exported into a
# bundle directory and imported into an install whose names hold a quote, `$(...)`, ESC,
# a newline and a byte that is not UTF-8, and `claw add` of a Claw package directory so named:
# each printed line is run in bash with `clawport` a function that prints its argv (nothing
# may run, the argv must be exact), then for real.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040

python3 - "$CLAWPORT" "$TMP" "$REPO" <<'PY' || failures=$((failures + 1))
import json, os, shutil, subprocess, sys

clawport, tmp, repo = sys.argv[1].encode(), sys.argv[2].encode(), sys.argv[3].encode()
pwned = tmp + b"/pwned"
bad = 0


def fail(msg):
    global bad
    bad += 1
    print("FAIL:", msg)


# Relative: a key holding a dot would be another config path (cwd is the temporary dir).
keys = ["GITHUB_TOKEN'$(touch pwned)'", "A`touch pwned`",
        "B\\x", "C\nD", "E\x1b[2KF", "G\rH", "I$HOME!x"]
src = tmp + b"/src"
os.makedirs(src + b"/agents/a/workspace")
open(src + b"/agents/a/workspace/IDENTITY.md", "w").write("hi\n")
env = ", ".join("%s = %s" % (json.dumps(k), json.dumps("s%d" % i)) for i, k in enumerate(keys))
open(src + b"/config.toml", "w").write("""schema_version = 3

[providers.models.anthropic.main]
api_key = "sk-x"
model = "m"

[risk_profiles.r]

[agents.a]
model_provider = "anthropic.main"
risk_profile = "r"
mcp_bundles = ["b"]

[mcp_bundles.b]
servers = ["srv"]

[[mcp.servers]]
name = "srv"
command = "run"
env = { %s }
""" % env)


def run(*args, **kw):
    return subprocess.run([clawport, *args], cwd=tmp, capture_output=True, **kw)


def pasted(line, real=False, stdin=b""):
    """Runs a printed line in bash; `clawport` prints its argv (NUL-separated), or runs."""
    fn = b'clawport() { "$CP" "$@"; }; ' if real else b'clawport() { printf "%s\\0" "$@"; }; '
    e = dict(os.environ, CP=clawport.decode())
    r = subprocess.run([b"bash", b"-c", fn + line], cwd=tmp, capture_output=True, env=e,
                       input=stdin)
    return r.returncode, r.stdout.split(b"\0")[:-1]


def check_lines(out, prefix, expected, what):
    lines = [l.strip() for l in out.split(b"\n") if l.strip().startswith(prefix)]
    got = []
    for line in lines:
        if b"\x1b" in line or b"\r" in line:
            fail("%s: a raw control byte in %r" % (what, line))
        rc, argv = pasted(line)
        if os.path.exists(pwned):
            fail("%s: pasting %r ran a command substitution" % (what, line))
            os.remove(pwned)
        if rc != 0:
            fail("%s: pasting %r is not one command (bash exit %d)" % (what, line, rc))
        got.append(argv)
    if sorted(got) != sorted(expected):
        fail("%s: argv %r, expected %r" % (what, got, expected))
    return lines


def scenario(name, weird, real):
    """Exports into `b<weird>`, plans an import into `<name><weird>/config.toml`, checks
    every printed line; with `real`, runs them: the import applies, each secret is set."""
    bundle = b"b" + name + weird  # relative: the apply line repeats it as typed
    dst = tmp + b"/" + name + weird
    os.makedirs(dst)
    open(dst + b"/config.toml", "w").write("schema_version = 3\n")
    config = dst + b"/config.toml"
    r = run(b"export", b"a", b"--config", src + b"/config.toml", b"--out", bundle)
    if r.returncode != 0:
        fail("export: %r" % r.stderr)
    r = run(b"import", bundle, b"--config", config)
    if r.returncode != 0:
        fail("import plan: %r" % r.stderr)
    out = r.stdout
    if b"\x1b" in out or b"\r" in out:
        fail("a raw ESC or CR in the import plan")
    paths = [b"providers.models.anthropic.main.api_key"] + [
        b"mcp.servers.srv.env." + k.encode() for k in keys]
    want = [[b"secrets", b"set", p, b"--config", config] for p in paths]
    secret_lines = check_lines(out, b"clawport secrets set ", want, "import plan to-do")
    integrity = out.split(b"plan_integrity: ")[1].split(b"\n")[0]
    apply = [l.split(b"; to apply: ", 1)[1] for l in out.split(b"\n") if b"; to apply: " in l]
    check_lines(b"\n".join(apply), b"clawport import ",
                [[b"import", bundle, b"--config", config, b"--yes", b"--plan-integrity",
                  integrity]], "the to apply: line")
    if not real:
        return
    # The same lines, run for real: the import applies, then each secret is set by its line.
    rc, _ = pasted(apply[0], real=True)
    if rc != 0 or not os.path.isdir(dst + b"/agents/a"):
        fail("the pasted apply line did not import (rc %d)" % rc)
    r = run(b"status", b"--config", config)
    check_lines(r.stdout, b"clawport secrets set ", want, "status")
    for line in secret_lines:
        rc, _ = pasted(line, real=True, stdin=b"value\n")
        if rc != 0:
            fail("the pasted line %r did not set its secret" % line)
    r = run(b"status", b"--config", config)
    if b"secret(s) still blank" in r.stdout or os.path.exists(pwned):
        fail("after every pasted line, status still lists blank secrets: %r" % r.stdout)


shell = b"'$(touch " + pwned + b")`touch " + pwned + b"`\\\n"
# An install path that is not UTF-8 or holds ESC or CR is refused by the import (its
# provenance comment cannot hold it), so those names are only pasted, not applied.
scenario(b"printed", shell + b"\x1b[2K\r\xff", real=False)
scenario(b"applied", shell, real=True)


def claw_scenario(name, weird, real):
    """The `to apply:` line of `claw add` for a package directory named `<name><weird>`."""
    package = b"claw-" + name + weird
    shutil.copytree(os.path.join(repo, b"examples/openclaw-claw"), os.path.join(tmp, package))
    state = tmp + b"/state-" + name
    os.makedirs(state)
    open(state + b"/openclaw.json", "w").write("{}\n")
    args = [b"claw", b"add", package, b"--state-dir", state, b"--without-packages"]
    r = run(*args)
    if r.returncode != 0:
        fail("claw add plan: %r" % r.stderr)
    out = r.stdout
    if b"\x1b" in out or b"\r" in out:
        fail("a raw ESC or CR in the claw add plan")
    integrity = out.split(b"--plan-integrity ")[-1].split(b"\n")[0]
    apply = [l.split(b"; to apply: ", 1)[1] for l in out.split(b"\n") if b"; to apply: " in l]
    check_lines(b"\n".join(apply), b"clawport claw add ",
                [[*args, b"--yes", b"--plan-integrity", integrity]], "claw add's to apply: line")
    if real:
        rc, _ = pasted(apply[0], real=True)
        if rc != 0 or b"incident-triage" not in open(state + b"/openclaw.json", "rb").read():
            fail("the pasted claw add line did not add the Claw (rc %d)" % rc)


claw_scenario(b"printed", shell + b"\x1b[2K\r\xff", real=False)
claw_scenario(b"applied", shell, real=True)
sys.exit(1 if bad else 0)
PY
finish
