# SPDX-License-Identifier: MIT
# `clawport secrets list` / `secrets set` (issue 27 item 3): the value from standard input,
# never the command line; stored as ZeroClaw stores it (enc2: ChaCha20-Poly1305 under the
# install's .secret_key, checked here by an independent decryptor, python3-cryptography),
# an op:// reference as given, plain text where [secrets] encrypt = false; every other byte
# of the config unchanged, its mode kept, the previous file kept; refusals write nothing.
# Ends with the hand-off: every secret supplied, `status` exits 0.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
state() { tree_state "$1"; }

cp -r "$REPO/examples/zeroclaw-install" "$TMP/src"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b"
mkdir -p "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --json
integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --yes --plan-integrity "$integrity"
chmod 640 "$TMP/dst/config.toml"
rm -f "$TMP/dst/config.toml.bak-"*

# list: every secret field and its state, never a value
expect_status 0 "$CLAWPORT" secrets list --config "$TMP/dst/config.toml"
expect_grep out '11 secret field(s) in '
expect_grep out '  blank  providers.models.anthropic.main.api_key'
expect_grep out '  blank  mcp.servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN'

# set from standard input: enc2:, decrypted by python3-cryptography with the key file
cp "$TMP/dst/config.toml" "$TMP/before.toml"
expect_status 0 "$CLAWPORT" secrets set providers.models.anthropic.main.api_key --config "$TMP/dst/config.toml" < <(printf 'sk-ant-handoff-test\n')
expect_grep out 'set providers.models.anthropic.main.api_key in .*, encrypted (enc2:)'
expect_grep out 'created the install.s key .*/.secret_key (mode 0600)'
[ "$(stat -c %a "$TMP/dst/.secret_key")" = 600 ] || fail "the key file is not mode 0600"
[ "$(stat -c %a "$TMP/dst/config.toml")" = 640 ] || fail "the config's mode was not kept"
# the field was blank: nothing is lost, so no backup (issue 44 item 8), and the output says so
ls "$TMP/dst" | grep -q 'config.toml.bak-' && fail "a backup was kept though the field was blank"
expect_grep out 'no backup kept: the field was blank before and nothing else changed'
python3 - "$TMP/before.toml" "$TMP/dst/config.toml" "$TMP/dst/.secret_key" \
  providers.models.anthropic.main.api_key sk-ant-handoff-test <<'PY' || fail "enc2: does not decrypt, or more than the value changed"
import sys, tomllib
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
before_path, after_path, key_path, path, want = sys.argv[1:]
before_text = open(before_path, encoding="utf-8").read()
after_text = open(after_path, encoding="utf-8").read()
# Only the one line changed, byte for byte.
b, a = before_text.split("\n"), after_text.split("\n")
assert len(a) == len(b), "line count changed"
changed = [i for i in range(len(b)) if a[i] != b[i]]
assert len(changed) == 1, changed
# The parsed configs are equal except at that path.
def walk(doc, segments):
    for s in segments[:-1]:
        doc = doc[s] if isinstance(doc, dict) else next(e for e in doc if e.get("name") == s)
    return doc, segments[-1]
before, after = tomllib.loads(before_text), tomllib.loads(after_text)
parent, leaf = walk(after, path.split("."))
stored = parent[leaf]
assert stored.startswith("enc2:"), stored
blob = bytes.fromhex(stored[len("enc2:"):])
assert stored[5:] == stored[5:].lower()
key = bytes.fromhex(open(key_path).read().strip())
assert len(key) == 32
plain = ChaCha20Poly1305(key).decrypt(blob[:12], blob[12:], None)
assert plain.decode() == want, plain
parent[leaf] = ""
assert after == before, "the config changed beyond the one value"
PY
# replacing a value that was set: the previous config is kept, and named
cp "$TMP/dst/config.toml" "$TMP/before2.toml"
expect_status 0 "$CLAWPORT" secrets set providers.models.anthropic.main.api_key --config "$TMP/dst/config.toml" < <(printf 'sk-ant-rotated\n')
expect_grep out 'previous config kept as .*config.toml.bak-'
cmp -s "$TMP/before2.toml" "$TMP/dst/config.toml".bak-* || fail "the backup is not the previous config"
rm -f "$TMP/dst/config.toml.bak-"*
# a second secret under the same key, with a fresh nonce; a secret in a map (env)
expect_status 0 "$CLAWPORT" secrets set mcp.servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN --config "$TMP/dst/config.toml" --json < <(printf 'ghp-handoff-test')
expect_grep out '"stored": "encrypted"'
expect_grep out '"key_created": false'
python3 - "$TMP/dst/config.toml" "$TMP/dst/.secret_key" <<'PY' || fail "the map secret does not decrypt"
import sys, tomllib
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
c = tomllib.load(open(sys.argv[1], "rb"))
key = bytes.fromhex(open(sys.argv[2]).read().strip())
[gh] = [s for s in c["mcp"]["servers"] if s["name"] == "github"]
blob = bytes.fromhex(gh["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"][5:])
assert ChaCha20Poly1305(key).decrypt(blob[:12], blob[12:], None) == b"ghp-handoff-test"
other = bytes.fromhex(c["providers"]["models"]["anthropic"]["main"]["api_key"][5:])
assert blob[:12] != other[:12], "a nonce was reused"
PY
# an op:// reference is kept as given
expect_status 0 "$CLAWPORT" secrets set providers.models.openai.cheap.api_key --config "$TMP/dst/config.toml" < <(printf 'op://vault/openai/api-key\n')
expect_grep out 'as a reference'
grep -qx 'api_key = "op://vault/openai/api-key"' "$TMP/dst/config.toml" || fail "the reference was not kept as given"
expect_status 0 "$CLAWPORT" secrets list --config "$TMP/dst/config.toml" --json
python3 - "$TMP/out" <<'PY' || fail "secrets list --json"
import json, sys
d = {s["path"]: s["state"] for s in json.load(open(sys.argv[1]))["secrets"]}
assert d["providers.models.anthropic.main.api_key"] == "encrypted", d
assert d["providers.models.openai.cheap.api_key"] == "reference", d
assert d["providers.models.openrouter.backup.api_key"] == "blank", d
PY
if grep -q 'sk-ant-handoff-test\|enc2:\|op://' "$TMP/out"; then fail "secrets list showed a value"; fi

# refusals: nothing written (the install's files, modes, sizes and config identical)
before=$(state "$TMP/dst")
expect_status 2 "$CLAWPORT" secrets set providers.models.openrouter.backup.api_key --config "$TMP/dst/config.toml" < <(printf '')
expect_grep err 'empty value'
expect_status 1 "$CLAWPORT" secrets set agents.researcher.model_provider --config "$TMP/dst/config.toml" --json < <(printf 'x')
expect_grep out '"code": "not_found"'
expect_grep err 'secrets list'
expect_status 2 "$CLAWPORT" secrets set providers.models.openrouter.backup.api_key --config "$TMP/dst/config.toml" < <(printf 'enc2:00ff')
expect_grep err 'already ciphertext'
# a value on the command line (issue 44, polish 1): bad usage that never repeats it
for json in "" --json; do
  expect_status 2 "$CLAWPORT" secrets set providers.models.openrouter.backup.api_key sk-on-argv --config "$TMP/dst/config.toml" $json
  expect_grep err 'a secret value is never taken as an argument'
  expect_grep err 'pipe it on stdin or type it at the prompt'
  ! grep -q sk-on-argv "$TMP/out" "$TMP/err" || fail "the secret on the command line was echoed ($json)"
done
expect_status 2 "$CLAWPORT" secrets set providers.models.openrouter.backup.api_key sk-one sk-two --config "$TMP/dst/config.toml"
! grep -q 'sk-one\|sk-two' "$TMP/out" "$TMP/err" || fail "two words on the command line were echoed"
cp "$TMP/dst/.secret_key" "$TMP/key.keep" && printf 'not hex\n' >"$TMP/dst/.secret_key"
before_badkey=$(state "$TMP/dst")
expect_status 1 "$CLAWPORT" secrets set providers.models.openrouter.backup.api_key --config "$TMP/dst/config.toml" < <(printf 'x')
expect_grep err 'does not hold a 32-byte key'
[ "$(state "$TMP/dst")" = "$before_badkey" ] || fail "a refusal with a bad key wrote"
cp "$TMP/key.keep" "$TMP/dst/.secret_key"
[ "$(state "$TMP/dst")" = "$before" ] || fail "a refused secrets set wrote"

# plain text where [secrets] encrypt = false; no key is created
mkdir -p "$TMP/plain"
cat >"$TMP/plain/config.toml" <<'TOML'
schema_version = 3

[secrets]
encrypt = false

[providers.models.anthropic.main]
api_key = ""   # supplied later
model = "claude-opus-5"
TOML
expect_status 0 "$CLAWPORT" secrets set providers.models.anthropic.main.api_key --config "$TMP/plain/config.toml" < <(printf 'sk-plain "quoted"\n')
expect_grep out 'as plain text'
grep -qx 'api_key = "sk-plain \\"quoted\\""   # supplied later' "$TMP/plain/config.toml" ||
  fail "plain text not written in place (the comment after it kept)"
[ ! -e "$TMP/plain/.secret_key" ] || fail "a key was created for plain text"

# the hand-off: every remaining blank secret supplied, then nothing is pending
expect_status 1 "$CLAWPORT" status --config "$TMP/dst/config.toml"
expect_status 0 "$CLAWPORT" secrets list --config "$TMP/dst/config.toml" --json
python3 -c 'import json,sys; [print(s["path"]) for s in json.load(open(sys.argv[1]))["secrets"] if s["state"] == "blank"]' "$TMP/out" >"$TMP/blank"
[ "$(wc -l <"$TMP/blank")" = 8 ] || fail "expected 8 blank secrets, got $(wc -l <"$TMP/blank")"
while read -r path; do
  expect_status 0 "$CLAWPORT" secrets set "$path" --config "$TMP/dst/config.toml" < <(printf 'value-of-%s' "$path")
done <"$TMP/blank"
expect_status 0 "$CLAWPORT" status --config "$TMP/dst/config.toml"
expect_grep out 'nothing pending'
finish
