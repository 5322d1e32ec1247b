# SPDX-License-Identifier: MIT
# Issue 41 items 8-13: files keep their owner and never get wider; secrets and keys.
#  8  run as root in a user's install (chowned to uid 12345): `secrets set`'s new key, the
#     import's trees and its ledger end up owned by 12345 (skipped, and said, when not root)
#  9  `claw migrate` keeps a 0600 TOOLS.md 0600 in the package (fs::copied_mode); `claw
#     export` of it keeps a 0400 TOOLS.md 0400 (copied_mode within OpenClaw's 0600)
# 10  `claw migrate` with <state>/claws a symlink out of the state directory: refused,
#     nothing written anywhere
# 11  `secrets set` with enc2: values and no .secret_key: refused, no key made; `status`
#     says the values are encrypted and the key is missing
# 12  `secrets set` checks the field before reading; reads at most 64 KiB (< /dev/zero)
# 13  Ctrl-C at the no-echo prompt restores echo and exits 130 (a real pty)
# 14  a blank channel token is listed by `secrets list` and `status`, set by `secrets set`
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
unchanged() { [ "$(tree_state "$1")" = "$2" ] || fail "$3 wrote something"; }

cp -r "$REPO/examples/zeroclaw-install" "$TMP/src"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"
fresh_install() {  # <dir>: an install with the researcher imported (its secrets blank)
  mkdir -p "$1" && printf 'schema_version = 3\n' >"$1/config.toml"
  expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$1/config.toml" --json
  local integrity
  integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
  expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$1/config.toml" --yes --plan-integrity "$integrity"
}
fresh_install "$TMP/dst"
api=providers.models.anthropic.main.api_key

# 12: the field is checked before any input is read: a wrong field with empty input names
# the field; `< /dev/zero` is refused at 64 KiB (no bad_alloc), nothing written.
before=$(tree_state "$TMP/dst")
expect_status 1 "$CLAWPORT" secrets set providers.nope.api_key --config "$TMP/dst/config.toml" </dev/null
expect_grep err 'providers.nope.api_key is not a secret field of'
expect_status 1 timeout 20 "$CLAWPORT" secrets set providers.nope.api_key --config "$TMP/dst/config.toml" </dev/zero
expect_grep err 'providers.nope.api_key is not a secret field of'
expect_status 1 timeout 20 "$CLAWPORT" secrets set "$api" --config "$TMP/dst/config.toml" </dev/zero
expect_grep err "the value for $api is longer than 64 KiB on standard input; nothing was written"
grep -q 'bad_alloc' "$TMP/err" && fail "/dev/zero ended in bad_alloc"
head -c 65536 /dev/zero | tr '\0' x >"$TMP/64k"
expect_status 1 "$CLAWPORT" secrets set "$api" --config "$TMP/dst/config.toml" < <(cat "$TMP/64k"; printf y)
expect_grep err 'longer than 64 KiB'
unchanged "$TMP/dst" "$before" "a refused secrets set"

# 11: enc2: values in the config and no .secret_key: refused naming the key file, no key
# made; status reports it (exit 1: pending).
expect_status 0 "$CLAWPORT" secrets set "$api" --config "$TMP/dst/config.toml" < <(printf 'sk-first')
[ -f "$TMP/dst/.secret_key" ] || fail "no key was made"
mv "$TMP/dst/.secret_key" "$TMP/key.kept"
before=$(tree_state "$TMP/dst")
expect_status 1 "$CLAWPORT" secrets set mcp.servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN --config "$TMP/dst/config.toml" < <(printf 'ghp-x')
expect_grep err "1 value(s) of the config are encrypted and the key $TMP/dst/.secret_key that ZeroClaw decrypts them with is missing; restore that file"
unchanged "$TMP/dst" "$before" "secrets set without the key"
[ -e "$TMP/dst/.secret_key" ] && fail "a second key was made"
expect_status 1 "$CLAWPORT" status --config "$TMP/dst/config.toml"
expect_grep out "1 value(s) are encrypted and the key is missing: restore $TMP/dst/.secret_key"
expect_status 1 "$CLAWPORT" status --config "$TMP/dst/config.toml" --json
expect_grep out '"encrypted_without_key": 1'
mv "$TMP/key.kept" "$TMP/dst/.secret_key"
expect_status 0 "$CLAWPORT" secrets set mcp.servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN --config "$TMP/dst/config.toml" < <(printf 'ghp-x')

# 13: Ctrl-C at the prompt that does not echo: echo is on again and the exit is 130.
python3 - "$CLAWPORT" "$TMP/dst/config.toml" "$api" <<'PY' || fail "Ctrl-C at the no-echo prompt"
import os, pty, select, sys, termios, time
exe, config, path = sys.argv[1:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(exe, [exe, "secrets", "set", path, "--config", config])
out = b""
deadline = time.time() + 20
while b"(not echoed): " not in out and time.time() < deadline:
    if select.select([fd], [], [], 0.5)[0]:
        out += os.read(fd, 4096)
assert b"(not echoed): " in out, out
assert not termios.tcgetattr(fd)[3] & termios.ECHO, "echo is on at the prompt"
os.write(fd, b"sk-typed\x03")
_, status = os.waitpid(pid, 0)
assert os.waitstatus_to_exitcode(status) == 130, status
assert termios.tcgetattr(fd)[3] & termios.ECHO, "echo is still off after Ctrl-C"
PY

# 8: as root, in an install that belongs to uid 12345: the key, the imported trees and the
# ledger belong to 12345 (and the config keeps its owner).
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$TMP/user" && printf 'schema_version = 3\n' >"$TMP/user/config.toml"
  chown -R 12345:12345 "$TMP/user"
  expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/user/config.toml" --json
  integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
  expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/user/config.toml" --yes --plan-integrity "$integrity"
  expect_status 0 "$CLAWPORT" secrets set "$api" --config "$TMP/user/config.toml" < <(printf 'sk-root')
  [ -f "$TMP/user/clawport-required-secrets.json" ] || fail "no ledger was written"
  [ -f "$TMP/user/.secret_key" ] || fail "no key was written"
  others=$(find "$TMP/user" ! -user 12345 -o ! -group 12345)
  [ -z "$others" ] || fail "not owned by 12345:12345: $others"
  [ "$(stat -c %a "$TMP/user/.secret_key")" = 600 ] || fail "the key is not 0600"
else
  echo "skip: item 8 needs root (chown to another uid)"
fi

# 14: a blank channel token is a secret field as the runtime's schema says: `secrets list`
# and `status` show it, `secrets set` encrypts it; one list for all of them.
mkdir -p "$TMP/ch" && printf 'schema_version = 3\n\n[channels.telegram.work]\nenabled = true\nbot_token = ""\n' >"$TMP/ch/config.toml"
expect_status 0 "$CLAWPORT" secrets list --config "$TMP/ch/config.toml"
expect_grep out '  blank  channels.telegram.work.bot_token'
expect_status 1 "$CLAWPORT" status --config "$TMP/ch/config.toml" --json
expect_grep out '"path": "channels.telegram.work.bot_token"'
expect_status 0 "$CLAWPORT" secrets set channels.telegram.work.bot_token --config "$TMP/ch/config.toml" < <(printf '123:tg')
grep -q '^bot_token = "enc2:' "$TMP/ch/config.toml" || fail "the channel token was not encrypted"
expect_status 0 "$CLAWPORT" status --config "$TMP/ch/config.toml"
expect_grep out 'nothing pending'

# 9 and 10: claw migrate.
export HOME="$TMP/home"
unset OPENCLAW_STATE_DIR OPENCLAW_HOME
state="$TMP/state"
ws="$TMP/home/worker-ws"
mkdir -p "$ws" "$state" "$TMP/elsewhere"
printf '# Existing agent\n' >"$ws/AGENTS.md"
printf 'private tools\n' >"$ws/TOOLS.md" && chmod 600 "$ws/TOOLS.md"
printf '{"agents": {"entries": {"worker": {"name": "Existing worker", "workspace": "%s"}}}}\n' \
  "$ws" >"$state/openclaw.json"
migrate() {  # plans, then applies that plan
  expect_status 0 "$CLAWPORT" claw migrate worker --state-dir "$state" --plan-out "$TMP/plan.json"
  expect_status "$1" "$CLAWPORT" claw migrate worker --state-dir "$state" --yes --plan "$TMP/plan.json"
}
# 10: <state>/claws -> $TMP/elsewhere: refused, nothing written there or in the state dir.
ln -s "$TMP/elsewhere" "$state/claws"
snap() { for d in home state elsewhere; do echo "== $d"; tree_state "$TMP/$d"; done; }
before=$(snap)
expect_status 1 "$CLAWPORT" claw migrate worker --state-dir "$state" --json
expect_grep out "$state/claws is a symbolic link; clawport writes only through real directories"
integrity=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["planIntegrity"])' "$TMP/out")
expect_status 1 "$CLAWPORT" claw migrate worker --state-dir "$state" --json --yes --plan-integrity "$integrity"
expect_grep out "$state/claws is a symbolic link"
[ "$(snap)" = "$before" ] || fail "a migrate through a symlinked claws/ wrote something"
[ -z "$(ls -A "$TMP/elsewhere")" ] || fail "migrate wrote through the link"
# 9: the package's TOOLS.md keeps 0600 (a state directory of its own).
state="$TMP/state9" && mkdir -p "$state" && cp "$TMP/state/openclaw.json" "$state/"
migrate 0
pkg="$state/claws/local/worker"
[ "$(stat -c %a "$pkg/workspace/TOOLS.md")" = 600 ] || fail "TOOLS.md is $(stat -c %a "$pkg/workspace/TOOLS.md"), not 600"
[ "$(stat -c %a "$pkg/workspace/AGENTS.md")" = 644 ] || fail "AGENTS.md is not 644"
# claw export (issue 41, the last gap): a prompt file's copy gets fs::copied_mode of the
# workspace file within the 0600 OpenClaw's export writes: a 0400 TOOLS.md stays 0400, a
# 0644 AGENTS.md is 0600, the generated files 0600 (was: every file 0600 whatever its source).
chmod 400 "$ws/TOOLS.md"
expect_status 0 "$CLAWPORT" claw export worker --state-dir "$state" --out "$TMP/exported"
for f in workspace/TOOLS.md:400 workspace/AGENTS.md:600 package.json:600 CLAW.md:600; do
  got=$(stat -c %a "$TMP/exported/${f%%:*}")
  [ "$got" = "${f##*:}" ] || fail "claw export wrote ${f%%:*} $got, not ${f##*:}"
done
finish
