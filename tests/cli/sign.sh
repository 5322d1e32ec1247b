# SPDX-License-Identifier: MIT
# Signed bundles (issue 29) end to end, with keys made here: `export --sign` (an ed25519
# file, an ecdsa file, an ed25519 key held by an ssh-agent this script starts and kills),
# `verify --allowed-signers [--signer]`, `import --require-signature`, and each refusal:
# unsigned, a file changed with its digest list rewritten to match, a signature from
# another bundle, a signer not in the file, an expired valid-before entry. One signature is
# also checked by ssh-keygen itself. Without ssh-keygen the suite says so and is skipped
# (exit 77), never passed.
. "$(dirname "$0")/lib.sh"

if ! command -v ssh-keygen >/dev/null 2>&1 || ! command -v ssh-agent >/dev/null 2>&1; then
  echo "SKIP: ssh-keygen/ssh-agent not installed (Debian: apt-get install openssh-client);" \
    "the signed-bundle tests did NOT run"
  exit 77
fi
AGENT_PID=
trap '[ -n "$AGENT_PID" ] && kill "$AGENT_PID" 2>/dev/null; rm -rf "$TMP"' EXIT

# expect_code <status> <json error code> <command...>: the exit status and the --json code.
expect_code() {
  local want="$1" code="$2"; shift 2
  expect_status "$want" "$@"
  expect_grep out "\"code\": \"$code\""
}
nothing_written() {  # the target holds its config alone, unchanged
  [ "$(ls -A "$TMP/dst")" = config.toml ] && [ "$(cat "$TMP/dst/config.toml")" = "schema_version = 3" ] ||
    { echo "FAIL: a refused import wrote ($1)"; failures=$((failures + 1)); }
}

make_researcher_install "$TMP/install"
mkdir -p "$TMP/keys" "$TMP/dst"
printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
K="$TMP/keys"
ssh-keygen -q -t ed25519 -N '' -C alice -f "$K/alice"
ssh-keygen -q -t ecdsa -b 256 -N '' -C carol -f "$K/carol"
ssh-keygen -q -t ed25519 -N '' -C mallory -f "$K/mallory"
ssh-keygen -q -t ed25519 -N '' -C dave -f "$K/dave"
pub() { cut -d' ' -f1,2 "$K/$1.pub"; }
{ echo "alice@example.org $(pub alice)"; echo "carol@example.org $(pub carol)";
  echo "dave@example.org $(pub dave)"; } >"$K/allowed"
echo "alice@example.org valid-before=\"20000101\" $(pub alice)" >"$K/expired"
export SOURCE_DATE_EPOCH=1700000000
exp() { "$CLAWPORT" export researcher --config "$TMP/install/config.toml" --out "$@"; }

# 1. An ed25519 file key: the bundle carries the signature; verify names the signer.
expect_status 0 exp "$TMP/b" --sign "$K/alice"
expect_grep out 'signed: zeroclaw-agent.sha256.sig'
[ -f "$TMP/b/zeroclaw-agent.sha256.sig" ] || { echo "FAIL: no signature file"; failures=$((failures + 1)); }
if grep -q 'sha256.sig' "$TMP/b/zeroclaw-agent.sha256"; then echo "FAIL: the list names the signature"; failures=$((failures + 1)); fi
expect_status 0 "$CLAWPORT" verify "$TMP/b" --allowed-signers "$K/allowed"
expect_grep out 'signed by `alice@example.org`'
expect_status 0 "$CLAWPORT" verify "$TMP/b" --allowed-signers "$K/allowed" --signer alice@example.org --json
expect_grep out '"signed_by": "alice@example.org"'
expect_grep out '"signed": true'
# without --allowed-signers: present, not checked
expect_status 0 "$CLAWPORT" verify "$TMP/b" --json
expect_grep out '"signed_by": null'
expect_grep out '"code": "signature_unchecked"'
# the same signature, checked by ssh-keygen alone
if ! ssh-keygen -Y verify -f "$K/allowed" -I alice@example.org -n clawport-bundle \
    -s "$TMP/b/zeroclaw-agent.sha256.sig" <"$TMP/b/zeroclaw-agent.sha256" >"$TMP/out" 2>&1; then
  echo "FAIL: ssh-keygen -Y verify refuses the bundle's signature"; cat "$TMP/out"; failures=$((failures + 1))
fi
expect_grep out 'Good "clawport-bundle" signature for alice@example.org'

# 2. Re-export is deterministic apart from the signature (ed25519's is deterministic too).
expect_status 0 exp "$TMP/b_again" --sign "$K/alice"
diff -r "$TMP/b" "$TMP/b_again" >/dev/null || { echo "FAIL: re-export differs"; diff -r "$TMP/b" "$TMP/b_again"; failures=$((failures + 1)); }
expect_status 0 exp "$TMP/b_unsigned"
diff -r -x zeroclaw-agent.sha256.sig "$TMP/b" "$TMP/b_unsigned" >/dev/null ||
  { echo "FAIL: a signed export differs from an unsigned one beyond the signature"; failures=$((failures + 1)); }

# 3. An ecdsa key, and an ed25519 key whose private half only the agent holds.
expect_status 0 exp "$TMP/b_ecdsa" --sign "$K/carol"
expect_status 0 "$CLAWPORT" verify "$TMP/b_ecdsa" --allowed-signers "$K/allowed" --json
expect_grep out '"signed_by": "carol@example.org"'
eval "$(ssh-agent -s)" >/dev/null
AGENT_PID=$SSH_AGENT_PID
ssh-add -q "$K/dave" 2>/dev/null
mv "$K/dave" "$K/dave.private-elsewhere"  # only the agent can sign now
expect_status 0 exp "$TMP/b_agent" --sign "$K/dave.pub"
expect_status 0 "$CLAWPORT" verify "$TMP/b_agent" --allowed-signers "$K/allowed" --signer dave@example.org
expect_grep out 'signed by `dave@example.org`'
kill "$AGENT_PID"; AGENT_PID=
# the agent gone, the same .pub cannot sign, and nothing is published
expect_code 1 signing_failed exp "$TMP/b_noagent" --sign "$K/dave.pub" --json
[ ! -e "$TMP/b_noagent" ] || { echo "FAIL: a failed signing published"; failures=$((failures + 1)); }
ls "$TMP" | grep -q 'b_noagent' && { echo "FAIL: a staging directory was left"; failures=$((failures + 1)); }
unset SSH_AUTH_SOCK SSH_AGENT_PID
expect_code 1 signing_failed exp "$TMP/b_nokey" --sign "$K/nosuchkey" --json
expect_grep out 'nosuchkey'
[ ! -e "$TMP/b_nokey" ] || { echo "FAIL: a failed signing published"; failures=$((failures + 1)); }

# 4. Refusals of verify (exit 1, the code in --json).
expect_code 1 unsigned "$CLAWPORT" verify "$TMP/b_unsigned" --allowed-signers "$K/allowed" --json
# a flipped byte in a bundle file: the digest list catches it
cp -r "$TMP/b" "$TMP/t1"
printf '# researcheR\n' >"$TMP/t1/workspace/IDENTITY.md"
expect_code 1 digest_mismatch "$CLAWPORT" verify "$TMP/t1" --allowed-signers "$K/allowed" --json
if grep -q signature_unchecked "$TMP/out"; then echo "FAIL: checked, yet reported unchecked"; failures=$((failures + 1)); fi
# the same change with the digest list rewritten to match: the signature catches it
(cd "$TMP/t1" && sed -i "s|^[0-9a-f]*  workspace/IDENTITY.md\$|$(sha256sum workspace/IDENTITY.md | cut -d' ' -f1)  workspace/IDENTITY.md|" zeroclaw-agent.sha256)
expect_status 0 "$CLAWPORT" verify "$TMP/t1"  # the list alone is fooled
expect_code 1 signature_invalid "$CLAWPORT" verify "$TMP/t1" --allowed-signers "$K/allowed" --json
# a flipped byte in the digest list itself
cp -r "$TMP/b" "$TMP/t2"
python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); b[0]^=1; open(p,"wb").write(b)' "$TMP/t2/zeroclaw-agent.sha256"
expect_status 1 "$CLAWPORT" verify "$TMP/t2" --allowed-signers "$K/allowed"
# a signature swapped in from another bundle (another agent's, same signer)
mkdir -p "$TMP/install/agents/other/workspace"
printf '\n[agents.other]\nmodel_provider = "anthropic.main"\nrisk_profile = "guarded"\n' >>"$TMP/install/config.toml"
printf '# other\n' >"$TMP/install/agents/other/workspace/IDENTITY.md"
expect_status 0 "$CLAWPORT" export other --config "$TMP/install/config.toml" --out "$TMP/b_other" --sign "$K/alice"
cp -r "$TMP/b" "$TMP/t3" && cp "$TMP/b_other/zeroclaw-agent.sha256.sig" "$TMP/t3/"
expect_code 1 signature_invalid "$CLAWPORT" verify "$TMP/t3" --allowed-signers "$K/allowed" --json
# a signer not in the file; a signer other than the one asked; an expired entry
expect_status 0 exp "$TMP/b_mallory" --sign "$K/mallory"
expect_code 1 signer_untrusted "$CLAWPORT" verify "$TMP/b_mallory" --allowed-signers "$K/allowed" --json
expect_grep out 'allowed'
# issue 44 item 9: the refusal names the signing key as `ssh-keygen -l` prints it (whom to trust)
mallory_fp=$(ssh-keygen -l -f "$K/mallory.pub" | awk '{print $2}')
expect_grep out "the signing key is ED25519 $mallory_fp"
expect_status 1 "$CLAWPORT" verify "$TMP/b_mallory" --allowed-signers "$K/allowed"
expect_grep out "the signing key is ED25519 $mallory_fp"
expect_code 1 signer_untrusted "$CLAWPORT" verify "$TMP/b" --allowed-signers "$K/allowed" --signer carol@example.org --json
expect_code 1 signer_untrusted "$CLAWPORT" verify "$TMP/b" --allowed-signers "$K/expired" --json
# a signature made for another purpose with an allowed key
cp -r "$TMP/b" "$TMP/t4"
ssh-keygen -q -Y sign -f "$K/alice" -n clawport-claw <"$TMP/t4/zeroclaw-agent.sha256" >"$TMP/t4/zeroclaw-agent.sha256.sig" 2>/dev/null
expect_code 1 signature_invalid "$CLAWPORT" verify "$TMP/t4" --allowed-signers "$K/allowed" --json
# issue 41 item 15: a pattern line allows the signer asked for, as `ssh-keygen -Y verify -I`
# does; a first line for the key limited to namespaces="git" does not hide a later one; a
# pattern is never reported as the signer (refused without --signer; refused as --signer).
echo "*@example.org $(pub alice)" >"$K/pattern"
{ echo "bob@example.org namespaces=\"git\" $(pub alice)"; echo "alice@example.org $(pub alice)"; } >"$K/git-first"
for f in pattern git-first; do
  expect_status 0 "$CLAWPORT" verify "$TMP/b" --allowed-signers "$K/$f" --signer alice@example.org --json
  expect_grep out '"signed_by": "alice@example.org"'
done
expect_code 1 signer_untrusted "$CLAWPORT" verify "$TMP/b" --allowed-signers "$K/pattern" --json
expect_grep out '"signed_by": null'
expect_grep out 'pass --signer\|--signer <principal>'
expect_code 2 invalid_argument "$CLAWPORT" verify "$TMP/b" --allowed-signers "$K/pattern" --signer '*@example.org' --json
# usage: --signer needs --allowed-signers
expect_status 2 "$CLAWPORT" verify "$TMP/b" --signer alice@example.org
# issue 44 (polish 2): a missing allowed-signers file is not_found naming it, not
# signer_untrusted; import refuses it the same way and writes nothing
expect_code 1 not_found "$CLAWPORT" verify "$TMP/b" --allowed-signers "$K/nosuchfile" --json
expect_grep out "the allowed-signers file $K/nosuchfile does not exist"
expect_status 1 "$CLAWPORT" verify "$TMP/b" --allowed-signers "$K/nosuchfile"
expect_grep err "the allowed-signers file $K/nosuchfile does not exist"
! grep -q "signer_untrusted\|signing key is not in" "$TMP/err" ||
  { echo "FAIL: a missing allowed-signers file told as untrusted"; failures=$((failures + 1)); }
expect_code 1 not_found "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" \
  --require-signature --allowed-signers "$K/nosuchfile" --json
nothing_written "missing allowed-signers"

# 5. import --require-signature: each refusal writes nothing; the plan names the signer and
# its integrity binds the signature.
for refused in "unsigned b_unsigned" "signature_invalid t1" "signer_untrusted b_mallory"; do
  set -- $refused
  expect_code 1 "$1" "$CLAWPORT" import "$TMP/$2" --config "$TMP/dst/config.toml" \
    --require-signature --allowed-signers "$K/allowed" --json
  expect_code 1 "$1" "$CLAWPORT" import "$TMP/$2" --config "$TMP/dst/config.toml" \
    --require-signature --allowed-signers "$K/allowed" --yes --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000000 --json
  nothing_written "$1"
done
expect_status 2 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --require-signature
# issue 44 item 9: --allowed-signers alone asks for the signature, as verify's does
expect_code 1 signer_untrusted "$CLAWPORT" import "$TMP/b_mallory" --config "$TMP/dst/config.toml" \
  --allowed-signers "$K/allowed" --json
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --allowed-signers "$K/allowed" --json
expect_grep out '"signed_by": "alice@example.org"'
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --dry-run
expect_grep out 'warning: the bundle is signed, but no allowed signers'
unsigned_integrity=$(sed -n 's/.*\(sha256:[0-9a-f]\{64\}\).*/\1/p' "$TMP/out" | tail -1)
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" \
  --require-signature --allowed-signers "$K/allowed" --json
expect_grep out '"signed_by": "alice@example.org"'
integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
[ -n "$integrity" ] && [ "$integrity" != "$unsigned_integrity" ] ||
  { echo "FAIL: the signed plan's integrity does not bind the signature ($integrity)"; failures=$((failures + 1)); }
# the signed plan's integrity is not accepted without the signature check
expect_status 1 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" --yes --plan-integrity "$integrity"
nothing_written "integrity without the signature"
expect_status 0 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst/config.toml" \
  --require-signature --allowed-signers "$K/allowed" --yes --plan-integrity "$integrity"
expect_grep out 'researcher'
grep -q '^\[agents.researcher\]' "$TMP/dst/config.toml" || { echo "FAIL: the signed import did not apply"; failures=$((failures + 1)); }
finish
