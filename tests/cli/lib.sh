# Shared helpers for the CLI end-to-end scripts (sourced, not run).
set -u
# the human marks are ✓/✗ unless the environment asks for plain text (tests/cli/plain.sh)
unset NO_COLOR TERM
# absolute, so a script may cd (meson passes a path relative to its build directory)
CLAWPORT="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
REPO="$2"
failures=0
# expect_status <status> <command...>: runs the command, checks its exit status.
expect_status() {
  local want="$1"; shift
  local got=0
  "$@" >"$TMP/out" 2>"$TMP/err" || got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: '$*' exited $got, expected $want"; cat "$TMP/err"; failures=$((failures + 1))
  fi
}
# expect_grep <file> <pattern>: the last output contains the pattern.
expect_grep() {
  if ! grep -q -- "$2" "$TMP/$1"; then
    echo "FAIL: $1 does not contain '$2'"; cat "$TMP/$1"; failures=$((failures + 1))
  fi
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# make_researcher_install <dir> [toml]: the smallest install with one agent, `researcher`, one
# provider holding a secret and one workspace file; the fixture several suites start from.
# The optional TOML is appended to its config.toml.
make_researcher_install() {
  mkdir -p "$1/agents/researcher/workspace"
  cat >"$1/config.toml" <<'TOML'
schema_version = 3

[providers.models.anthropic.main]
api_key = "sk-ant-cli-test-secret"
model = "claude-opus-5"

[risk_profiles.guarded]

[agents.researcher]
model_provider = "anthropic.main"
risk_profile = "guarded"
TOML
  if [ -n "${2:-}" ]; then printf '%s\n' "$2" >>"$1/config.toml"; fi
  printf '# researcher\n' >"$1/agents/researcher/workspace/IDENTITY.md"
}
# tree_state <dir> [--mtime]: every entry below <dir> (path, type, mode, size, link target,
# and with --mtime its modification time) and every file's SHA-256, one line each, sorted:
# two equal states prove nothing below <dir> was written, moved or re-permissioned.
tree_state() {
  local fmt='%p %y %m %s %l\n'
  [ "${2:-}" = --mtime ] && fmt='%p %y %m %s %l %T@\n'
  (cd "$1" && find . -printf "$fmt" | LC_ALL=C sort && find . -type f -exec sha256sum {} + | LC_ALL=C sort)
}
# on_tty <answers file> <command...>: runs the command on a pseudo-terminal, answering each
# prompt (a line ending in `: ` or `] `) with the next line of the answers file.
on_tty() {
  python3 - "$@" >"$TMP/out" <<'PY'
import os, pty, re, select, sys
answers = open(sys.argv[1], "rb").read().split(b"\n")
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
seen, asked = b"", 0
while True:
    r, _, _ = select.select([fd], [], [], 30)
    if not r:
        sys.stdout.write("TIMEOUT\n"); os.kill(pid, 9); break
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
    while len(re.findall(rb"(\(not echoed\): |\[y/N\] )", seen)) > asked:
        os.write(fd, (answers[asked] if asked < len(answers) else b"") + b"\n")
        asked += 1
_, status = os.waitpid(pid, 0)
sys.stdout.write(seen.decode("utf-8", "replace"))
sys.stdout.write("\nEXIT %d\n" % os.waitstatus_to_exitcode(status))
PY
}
finish() { [ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }; echo ok; }
