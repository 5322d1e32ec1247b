# SPDX-License-Identifier: MIT
# Issue 44 item 2: walks every subcommand of `clawport` (found from its own --help, so a new
# command is walked too, and must be given a failing invocation below) and checks the contract
# of docs/cli.md: --help exits 0; an unknown option is bad usage (exit 2, `clawport: error:` and
# `Run with --help` on stderr, with --json one JSON object whose error.code is
# invalid_argument); a failure exits 1 (2 when it is bad usage) with a `clawport: error:` line
# on stderr, and with --json one JSON object on stdout with an `error` member {code, message,
# subject}. Run by tests/cli/contract.sh: python3 contract.py <clawport> <scratch dir>.
import json, os, re, subprocess, sys

CLAWPORT, T = sys.argv[1], sys.argv[2]
failures = []
env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
env["HOME"] = T


def run(args, stdin=subprocess.DEVNULL):
    p = subprocess.run([CLAWPORT] + args, stdin=stdin, capture_output=True, env=env, cwd=T)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def leaves(path):
    """Every leaf command below `path`, from the Subcommands section of its --help."""
    _, out, _ = run(path + ["--help"])
    subs = re.findall(r"^  (\S+)\s{2,}\S", out.split("Subcommands:")[1], re.M) if "Subcommands:" in out else []
    if not subs:
        return [path]
    found = []
    for s in subs:
        found += leaves(path + [s])
    return found


def has_json(path):
    return "--json" in run(path + ["--help"])[1]


none = T + "/none/config.toml"
nostate = T + "/nostate"
# One invocation that fails per leaf command (the bundle, package, config or state missing).
failing = {
    "claw inspect": ["claw", "inspect", T + "/nopkg"],
    "claw plan": ["claw", "plan", T + "/nopkg", "--state-dir", nostate],
    "claw add": ["claw", "add", T + "/nopkg", "--state-dir", nostate],
    "claw status": ["claw", "status", "nobody", "--state-dir", nostate],
    "claw update": ["claw", "update", "nobody", "--state-dir", nostate],
    "claw remove": ["claw", "remove", "nobody", "--state-dir", nostate],
    "claw export": ["claw", "export", "nobody", "--out", T + "/cx", "--state-dir", nostate],
    "claw migrate": ["claw", "migrate", "nobody", "--state-dir", nostate],
    "completions": ["completions", "tcsh"],
    "convert": ["convert", T + "/nobundle", "--to", "claw", "--out", T + "/co"],
    "export": ["export", "nobody", "--out", T + "/eo", "--config", none],
    "import": ["import", T + "/nobundle", "--config", none],
    "recover": ["recover", T + "/nodir/x"],
    "secrets list": ["secrets", "list", "--config", none],
    "secrets set": ["secrets", "set", "providers.models.x.api_key", "--config", none],
    "skills list": ["skills", "list", "--config", none],
    "skills audit": ["skills", "audit", T + "/noskill"],
    "skills new": ["skills", "new", "x", "--config", none],
    "skills install": ["skills", "install", T + "/noskill", "--config", none],
    "skills remove": ["skills", "remove", "x", "--config", none],
    "skills restore": ["skills", "restore", "x", "--config", none],
    "skills test": ["skills", "test", "x", "--config", none],
    "skills bundle add": ["skills", "bundle", "add", "x", "--config", none],
    "skills bundle list": ["skills", "bundle", "list", "--config", none],
    "skills bundle remove": ["skills", "bundle", "remove", "x", "--config", none],
    "status": ["status", "--config", none],
    "verify": ["verify", T + "/nobundle"],
    "workspace resolve": ["workspace", "resolve", "--agent-id", "../x", "--state-dir", nostate],
    "workspace bootstrap": ["workspace", "bootstrap", "--agent-id", "../x", "--state-dir", nostate],
    "workspace doctor": ["workspace", "doctor", "--workspace", T + "/ws", "--state-dir", nostate],
}
# Every command's failure line is checked (skills audit/test print theirs since issue 43).
line_owned_elsewhere = set()
# workspace doctor fails on a workspace holding what must not live there
os.makedirs(T + "/ws", exist_ok=True)
open(T + "/ws/.env", "w").write("TOKEN=x\n")


def fail(name, what, out, err):
    failures.append("%s: %s\n  stdout: %s\n  stderr: %s" % (name, what, out[:400], err[:400]))


def check_json_error(name, out, err, code=None):
    try:
        doc = json.loads(out)
    except ValueError:
        return fail(name, "--json printed no single JSON document", out, err)
    e = doc.get("error") if isinstance(doc, dict) else None
    if not isinstance(e, dict) or not {"code", "message", "subject"} <= set(e):
        return fail(name, "--json has no error {code, message, subject}", out, err)
    if code is not None and e["code"] != code:
        fail(name, "error.code %s, expected %s" % (e["code"], code), out, err)


def error_line(err):
    return any(l.startswith("clawport: error: ") for l in err.splitlines())


commands = leaves([])
for path in commands:
    name = " ".join(path)
    if name not in failing:
        failures.append("%s: a new command: give it a failing invocation in contract.py" % name)
        continue
    rc, out, err = run(path + ["--help"])
    if rc != 0 or "Usage: clawport " + name not in out:
        fail(name, "--help exited %d or printed no usage" % rc, out, err)
    rc, out, err = run(path + ["--no-such-option"])
    if rc != 2 or not error_line(err) or "Run with --help" not in err:
        fail(name, "an unknown option: exit %d, expected 2 and the error line" % rc, out, err)
    rc, out, err = run(failing[name])
    if rc not in (1, 2) or (not error_line(err) and name not in line_owned_elsewhere):
        fail(name, "a failure exited %d or printed no `clawport: error:` line" % rc, out, err)
    if has_json(path):
        rc2, out, err = run(path + ["--json", "--no-such-option"])
        if rc2 != 2:
            fail(name, "--json with an unknown option exited %d" % rc2, out, err)
        check_json_error(name + " (usage)", out, err, "invalid_argument")
        rcj, out, err = run(failing[name] + ["--json"])
        if rcj != rc or (not error_line(err) and name not in line_owned_elsewhere):
            fail(name, "--json failure exited %d (%d without) or printed no error line" % (rcj, rc), out, err)
        check_json_error(name, out, err)

# invalid_argument is bad usage everywhere: exit 2
rc, out, err = run(failing["workspace resolve"] + ["--json"])
if rc != 2:
    fail("workspace resolve --agent-id ../x", "exit %d, expected 2" % rc, out, err)
check_json_error("workspace resolve --agent-id ../x", out, err, "invalid_argument")
# a missing config is named one way by every command that reads one
for name in ("export", "secrets list", "secrets set", "status", "skills list", "skills bundle list"):
    rc, out, err = run(failing[name])
    if "clawport: error: the config " + none + " does not exist" not in err:
        fail(name, "the missing config is not named as `the config ... does not exist`", out, err)
if len(commands) < 25:
    failures.append("only %d commands found in --help" % len(commands))
for f in failures:
    print("FAIL: " + f)
print("%d command(s) walked, %d failure(s)" % (len(commands), len(failures)))
sys.exit(1 if failures else 0)
