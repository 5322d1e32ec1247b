#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The attack table of docs/security.md on the real filesystem through the CLI (the rows
# other suites already cover are named there). For each row: the expected outcome, nothing
# outside the tree read (a canary file outside never reaches any output), nothing of the
# previous state lost (a tree listing with contents, before and after), no leftovers.
# Rows needing root (a device node, tmpfs mounts for a full and a read-only filesystem) run
# when the script may mount, and say so when skipped. CLAWPORT_SECURITY_BIG=1 adds the
# 100,000-entry directory.
# Usage: attacks.sh <clawport binary> <repository root>
. "$(dirname "$0")/../cli/lib.sh"

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
tree() { (cd "$1" && find . -printf '%p %y %l\n' | LC_ALL=C sort && find . -type f -exec md5sum {} + | LC_ALL=C sort); }
no_canary() {  # <what> <paths...>: the canary's bytes are in none of them
  local what=$1; shift
  if grep -rqs CANARY-OUTSIDE "$@"; then fail "$what: the outside canary was read into the output"; fi
}
no_leftovers() {  # <dir> <allowed names...>: nothing else in <dir>
  local dir=$1 n; shift
  for n in $(ls -A "$dir"); do
    case " $* " in *" $n "*) ;; *) fail "leftover in $dir: $n" ;; esac
  done
}

mkdir -p "$TMP/outside"
echo CANARY-OUTSIDE >"$TMP/outside/secret.txt"
make_install() {  # <dir>
  mkdir -p "$1/agents/a/workspace" "$1/shared/skills/tools/s"
  cat >"$1/config.toml" <<'TOML'
schema_version = 3

[providers.models.openai.m]
api_key = "sk-attack-table"
model = "x"

[risk_profiles.r]

[skill_bundles.tools]

[agents.a]
model_provider = "openai.m"
risk_profile = "r"
skill_bundles = ["tools"]
TOML
  echo notes >"$1/agents/a/workspace/notes.md"
  echo '# s' >"$1/shared/skills/tools/s/SKILL.md"
}
can_mount=0
if [ "$(id -u)" = 0 ] && mkdir -p "$TMP/probe" && mount -t tmpfs -o size=64k tmpfs "$TMP/probe" 2>/dev/null; then
  umount "$TMP/probe" && can_mount=1
fi
mounts=()
cleanup_mounts() { local m; for m in "${mounts[@]:-}"; do [ -n "$m" ] && umount "$m" 2>/dev/null; done; rm -rf "$TMP"; }
trap cleanup_mounts EXIT

# ---- row: special files, links to the outside, long names in the workspace and skills ----
make_install "$TMP/i1"
W=$TMP/i1/agents/a/workspace S=$TMP/i1/shared/skills/tools/s
mkfifo "$W/fifo" "$S/fifo"
ln -s "$TMP/outside/secret.txt" "$W/link_file"
ln -s "$TMP/outside" "$W/link_dir"
ln -s ../../../../../outside/secret.txt "$S/link_rel"
ln "$TMP/outside/secret.txt" "$W/hard"
printf 'long\n' >"$W/$(printf 'L%.0s' $(seq 255))"
specials=2
if [ "$(id -u)" = 0 ] && mknod "$W/null" c 1 3 2>/dev/null; then specials=3; fi
expect_status 0 "$CLAWPORT" export a --config "$TMP/i1/config.toml" --out "$TMP/o1/b" --no-sync --json
cp "$TMP/out" "$TMP/o1.json"
no_canary "special files" "$TMP/o1" "$TMP/o1.json" "$TMP/err"
grep -q '"special": '$specials "$TMP/o1.json" || fail "special files: not $specials counted: $(grep -A5 skipped "$TMP/o1.json")"
grep -q '"symlinks": 3' "$TMP/o1.json" || fail "special files: the three symlinks not counted"
grep -q '"hard_links": 1' "$TMP/o1.json" || fail "special files: the hard link not counted"
[ -f "$TMP/o1/b/workspace/$(printf 'L%.0s' $(seq 255))" ] || fail "a 255-byte name did not travel"
[ -z "$(find "$TMP/o1/b" ! -type f ! -type d)" ] || fail "the bundle holds something not a file or directory"
expect_status 0 "$CLAWPORT" verify "$TMP/o1/b"  # what export writes, verify accepts
no_leftovers "$TMP/o1" b

# ---- row: names with a newline or bytes that are not UTF-8 (workspace and skill) ---------
# Skipped and listed under `dropped` (unportable_name, escaped), counted; the rest travels and
# the bundle verifies (issue 22 item 3).
make_install "$TMP/i2"
for where in agents/a/workspace shared/skills/tools/s; do
  for name in "$(printf 'a\nb')" "$(printf 'x\377y')"; do
    printf 'x\n' >"$TMP/i2/$where/$name"
    expect_status 0 "$CLAWPORT" export a --config "$TMP/i2/config.toml" --out "$TMP/o2/b" --force --no-sync --json
    grep -q '"reason": "unportable_name"' "$TMP/out" || fail "hostile name in $where: not listed: $(cat "$TMP/out")"
    grep -q '"names": 1' "$TMP/out" || fail "hostile name in $where: not counted"
    [ -z "$(find "$TMP/o2/b" -name "$name")" ] || fail "hostile name in $where: carried"
    grep -q 'reason = "unportable_name"' "$TMP/o2/b/zeroclaw-agent.toml" || fail "hostile name in $where: not in the manifest"
    expect_status 0 "$CLAWPORT" verify "$TMP/o2/b"
    no_leftovers "$TMP/o2" b
    rm -f "$TMP/i2/$where/$name"
  done
done

# ---- row: a tree deeper than the bundle's depth limit (4,096 levels) -------------------------
make_install "$TMP/i3"
python3 -c 'import os, sys
os.chdir(sys.argv[1])
for _ in range(4096):
    os.mkdir("d"); os.chdir("d")
open("f", "w").write("deep\n")' "$TMP/i3/agents/a/workspace"
expect_status 0 "$CLAWPORT" export a --config "$TMP/i2/config.toml" --out "$TMP/o3/b" --no-sync
prev=$(tree "$TMP/o3")
expect_status 1 "$CLAWPORT" export a --config "$TMP/i3/config.toml" --out "$TMP/o3/b" --force --no-sync --json
grep -q '"code": "limit_exceeded"' "$TMP/out" || fail "deep tree: not limit_exceeded: $(head -c 300 "$TMP/out")"
[ "$(tree "$TMP/o3")" = "$prev" ] || fail "deep tree: the previous bundle changed"
no_leftovers "$TMP/o3" b
rm -rf "$TMP/i3"

# ---- row: a 100,000-entry directory (opt-in: minutes under the sanitizers) ---------------
if [ "${CLAWPORT_SECURITY_BIG:-0}" = 1 ]; then
  make_install "$TMP/i4"
  mkdir "$TMP/i4/agents/a/workspace/many"
  (cd "$TMP/i4/agents/a/workspace/many" && seq 1 100000 | xargs touch)
  expect_status 0 "$CLAWPORT" export a --config "$TMP/i4/config.toml" --out "$TMP/o4/b" --no-sync
  [ "$(ls "$TMP/o4/b/workspace/many" | wc -l)" = 100000 ] || fail "100,000 entries: not all carried"
  expect_status 0 "$CLAWPORT" verify "$TMP/o4/b"
  rm -rf "$TMP/i4" "$TMP/o4"
else
  echo "skipped: the 100,000-entry directory (set CLAWPORT_SECURITY_BIG=1)"
fi

# ---- rows: a full filesystem and a read-only destination (tmpfs mounts) ------------------
if [ $can_mount = 1 ]; then
  make_install "$TMP/i5"
  head -c 400000 /dev/zero | tr '\0' x >"$TMP/i5/agents/a/workspace/big.txt"
  mkdir -p "$TMP/full" && mount -t tmpfs -o size=256k tmpfs "$TMP/full" && mounts+=("$TMP/full")
  make_install "$TMP/i5small"
  expect_status 0 "$CLAWPORT" export a --config "$TMP/i5small/config.toml" --out "$TMP/full/b" --no-sync
  prev=$(tree "$TMP/full")
  expect_status 1 "$CLAWPORT" export a --config "$TMP/i5/config.toml" --out "$TMP/full/b" --force --no-sync --json
  grep -q '"code": "io"' "$TMP/out" || fail "full filesystem: not an io error: $(head -c 300 "$TMP/out")"
  [ "$(tree "$TMP/full")" = "$prev" ] || fail "full filesystem: the previous bundle changed"
  no_leftovers "$TMP/full" b
  # import into an install on a full filesystem: refused, the install as it was
  mkdir -p "$TMP/full/dst" && printf 'schema_version = 3\n' >"$TMP/full/dst/config.toml"
  head -c 200000 /dev/zero >"$TMP/full/filler" 2>/dev/null || true
  expect_status 0 "$CLAWPORT" export a --config "$TMP/i5/config.toml" --out "$TMP/o5/b" --no-sync
  expect_status 0 "$CLAWPORT" import "$TMP/o5/b" --config "$TMP/full/dst/config.toml" --json
  integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
  before=$(tree "$TMP/full/dst")
  expect_status 1 "$CLAWPORT" import "$TMP/o5/b" --config "$TMP/full/dst/config.toml" --yes --plan-integrity "$integrity"
  [ "$(tree "$TMP/full/dst")" = "$before" ] || fail "import on a full filesystem: the install changed"
  rm -f "$TMP/full/filler"

  mkdir -p "$TMP/ro" && mount -t tmpfs -o size=256k tmpfs "$TMP/ro" && mounts+=("$TMP/ro")
  mkdir -p "$TMP/ro/dst" && printf 'schema_version = 3\n' >"$TMP/ro/dst/config.toml"
  mount -o remount,ro "$TMP/ro"
  before=$(tree "$TMP/ro")
  expect_status 1 "$CLAWPORT" export a --config "$TMP/i5small/config.toml" --out "$TMP/ro/b" --no-sync
  expect_status 0 "$CLAWPORT" import "$TMP/o5/b" --config "$TMP/ro/dst/config.toml" --json
  integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
  expect_status 1 "$CLAWPORT" import "$TMP/o5/b" --config "$TMP/ro/dst/config.toml" --yes --plan-integrity "$integrity"
  [ "$(tree "$TMP/ro")" = "$before" ] || fail "read-only destination: something changed"
else
  echo "skipped: the full and read-only filesystem rows (need root and tmpfs mounts; the fs::memory and fs::faulty sweeps cover ENOSPC and EROFS)"
fi

# ---- rows: hostile bundles for import (verify first; nothing written, nothing outside read)
make_install "$TMP/i6"
expect_status 0 "$CLAWPORT" export a --config "$TMP/i6/config.toml" --out "$TMP/b6" --no-sync
mkdir -p "$TMP/dst6" && printf 'schema_version = 3\n' >"$TMP/dst6/config.toml"
before=$(tree "$TMP/dst6")
attack_bundle() {  # <what> <setup command on $TMP/b>
  rm -rf "$TMP/b" && cp -a "$TMP/b6" "$TMP/b"
  eval "$2"
  expect_status 1 "$CLAWPORT" import "$TMP/b" --config "$TMP/dst6/config.toml" --json
  no_canary "$1" "$TMP/out" "$TMP/err" "$TMP/dst6"
  [ "$(tree "$TMP/dst6")" = "$before" ] || fail "$1: the target install changed"
}
attack_bundle "a symlinked workspace file" 'ln -s "$TMP/outside/secret.txt" "$TMP/b/workspace/x.md"'
attack_bundle "a symlinked workspace" 'rm -rf "$TMP/b/workspace" && ln -s "$TMP/outside" "$TMP/b/workspace"'
attack_bundle "a symlinked config.toml" 'rm "$TMP/b/config.toml" && ln -s "$TMP/outside/secret.txt" "$TMP/b/config.toml"'
attack_bundle "a symlinked skill" 'rm -rf "$TMP/b/skills/tools/s" && ln -s "$TMP/outside" "$TMP/b/skills/tools/s"'
attack_bundle "a hard link to an outside file" 'ln "$TMP/outside/secret.txt" "$TMP/b/workspace/h.md"'
attack_bundle "a FIFO in the workspace" 'mkfifo "$TMP/b/workspace/p"'
attack_bundle "a newline in a name" 'echo x >"$TMP/b/workspace/$(printf "n\nl")"'
attack_bundle "a name that is not UTF-8" 'echo x >"$TMP/b/workspace/$(printf "n\377l")"'
attack_bundle "a secret value in the closure" 'sed -i "s/^api_key = \"\"/api_key = \"sk-live\"/" "$TMP/b/config.toml"'
attack_bundle "a file the digest list does not name" 'echo x >"$TMP/b/workspace/extra.md"'
attack_bundle "the memory store" 'mkdir "$TMP/b/workspace/memory" && echo x >"$TMP/b/workspace/memory/brain.db"'
# a symlinked destination install: the import plans nothing through it
ln -s "$TMP/outside" "$TMP/dst_link"
expect_status 1 "$CLAWPORT" import "$TMP/b6" --config "$TMP/dst_link/config.toml"
[ "$(ls -A "$TMP/outside")" = "secret.txt" ] || fail "import through a symlinked install wrote outside"
finish
