# SPDX-License-Identifier: MIT
# `clawport export` end to end on the real filesystem.
. "$(dirname "$0")/lib.sh"

export_to() { expect_status "$1" "$CLAWPORT" export researcher --config "$TMP/install/config.toml" --out "$2" "${@:3}"; }
only_bundle() {
  local got; got=$(ls -A "$1")
  [ "$got" = "bundle" ] || { echo "FAIL: $1 holds '$got', expected only bundle"; failures=$((failures + 1)); }
}

make_researcher_install "$TMP/install"
WS=$TMP/install/agents/researcher/workspace

# fresh destination (its parent is created)
export_to 0 "$TMP/dest/bundle"
expect_grep out 'exported agent `researcher` to '"$TMP"'/dest/bundle (1 workspace file(s), 0 KiB of them)'
expect_grep out 'providers.models.anthropic.main.api_key'
expect_grep out 'Published with exchange'
for f in config.toml zeroclaw-agent.toml workspace/IDENTITY.md; do
  [ -f "$TMP/dest/bundle/$f" ] || { echo "FAIL: bundle lacks $f"; failures=$((failures + 1)); }
done
only_bundle "$TMP/dest"
# the digest list: sha256sum -c accepts it and it names every other file
(cd "$TMP/dest/bundle" && sha256sum --quiet --strict -c zeroclaw-agent.sha256) ||
  { echo "FAIL: sha256sum -c refused the digest list"; failures=$((failures + 1)); }
[ "$(cd "$TMP/dest/bundle" && find . -type f ! -name zeroclaw-agent.sha256 | sed 's|^\./||' | LC_ALL=C sort)" = \
  "$(sed 's/^[0-9a-f]*  //' "$TMP/dest/bundle/zeroclaw-agent.sha256")" ] ||
  { echo "FAIL: the digest list does not name exactly the other files"; failures=$((failures + 1)); }
if grep -rq 'sk-ant-cli-test-secret' "$TMP/dest/bundle"; then echo "FAIL: secret in bundle"; failures=$((failures + 1)); fi

# non-empty without --force: refused, left alone
mkdir -p "$TMP/busy/bundle" && echo mine >"$TMP/busy/bundle/config.toml"
export_to 1 "$TMP/busy/bundle"
expect_grep err 'replacing its contents needs the force option (--force)'
[ "$(cat "$TMP/busy/bundle/config.toml")" = mine ] || { echo "FAIL: destination changed"; failures=$((failures + 1)); }
only_bundle "$TMP/busy"

# --force replaces, never merges
echo stale >"$TMP/busy/bundle/leftover.toml"
export_to 0 "$TMP/busy/bundle" --force
[ "$(ls "$TMP/busy/bundle" | tr '\n' ' ')" = "config.toml workspace zeroclaw-agent.sha256 zeroclaw-agent.toml " ] ||
  { echo "FAIL: forced bundle holds $(ls "$TMP/busy/bundle")"; failures=$((failures + 1)); }
only_bundle "$TMP/busy"

# --publish swap, --no-sync, --json
export_to 0 "$TMP/swap/bundle" --publish swap --no-sync --json
expect_grep out '"strategy": "swap"'
expect_grep out '"guarantee": "atomic"'
if command -v python3 >/dev/null; then
  python3 - "$TMP/out" <<'PY' || { echo "FAIL: --json shape"; failures=$((failures + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
for k in ["alias", "out", "workspace", "skills", "skipped", "risk_flags", "required_secrets", "dropped", "publish"]:
    assert k in d, k
assert d["workspace"] == {"files": 1, "bytes": 13}, d["workspace"]
assert set(d["skipped"]) == {"symlinks", "hard_links", "special", "replaced", "names"}
assert set(d["publish"]) >= {"strategy", "guarantee"}
assert d["required_secrets"] == ["providers.models.anthropic.main.api_key"]
PY
fi
export_to 0 "$TMP/swap/bundle" --publish swap --force
expect_grep out 'Published with swap (recoverable'

# a file destination is refused even with --force
echo a-file >"$TMP/file"
export_to 1 "$TMP/file" --force
expect_grep err 'exists and is not a directory'
[ "$(cat "$TMP/file")" = a-file ] || { echo "FAIL: file changed"; failures=$((failures + 1)); }

# a symlink to a directory is resolved to its target (upstream); a dangling one is refused
mkdir -p "$TMP/real" && ln -s "$TMP/real" "$TMP/linkdir"
export_to 0 "$TMP/linkdir/bundle"
[ -f "$TMP/real/bundle/config.toml" ] || { echo "FAIL: not published through the link"; failures=$((failures + 1)); }
ln -s "$TMP/nowhere" "$TMP/dangling"
export_to 1 "$TMP/dangling" --force
expect_grep err 'is a symlink'
[ -L "$TMP/dangling" ] && [ ! -e "$TMP/nowhere" ] || { echo "FAIL: dangling link followed"; failures=$((failures + 1)); }

# destinations inside and containing the workspace
export_to 1 "$WS/exports/bundle"
expect_grep err 'is inside the agent workspace'
[ ! -e "$WS/exports" ] || { echo "FAIL: created inside the workspace"; failures=$((failures + 1)); }
export_to 1 "$TMP/install" --force
expect_grep err 'contains the agent workspace'
# `..` through a directory that does not exist
export_to 1 "$TMP/missing/../bundle2"
expect_grep err 'reaches through `..`'
[ ! -e "$TMP/missing" ] || { echo "FAIL: missing/ created"; failures=$((failures + 1)); }

# symlink, hard link and FIFO in the workspace are skipped and reported
echo outside >"$TMP/outside.txt"
ln -s "$TMP/outside.txt" "$WS/link.md"
ln "$TMP/outside.txt" "$WS/hard.md"
mkfifo "$WS/agent.fifo"
export_to 0 "$TMP/skips/bundle"
expect_grep out '1 hard-linked file(s) skipped'
expect_grep out '1 special file(s) skipped'
expect_grep out '1 symlink(s) skipped'
for f in link.md hard.md agent.fifo; do
  [ ! -e "$TMP/skips/bundle/workspace/$f" ] || { echo "FAIL: $f carried"; failures=$((failures + 1)); }
done
rm -f "$WS/link.md" "$WS/hard.md" "$WS/agent.fifo"

# an unreadable file fails the export and leaves the previous bundle
if [ "$(id -u)" = 0 ]; then
  echo "skipped: unreadable-file case (running as root, which reads mode-000 files)"
else
  echo locked >"$WS/locked.md" && chmod 000 "$WS/locked.md"
  export_to 1 "$TMP/busy/bundle" --force
  expect_grep err 'workspace/locked.md'
  [ "$(ls "$TMP/busy/bundle" | tr '\n' ' ')" = "config.toml workspace zeroclaw-agent.sha256 zeroclaw-agent.toml " ] ||
    { echo "FAIL: previous bundle touched"; failures=$((failures + 1)); }
  only_bundle "$TMP/busy"
  chmod 600 "$WS/locked.md" && rm -f "$WS/locked.md"
fi

# --dry-run writes nothing, not even the parent
export_to 0 "$TMP/dry/bundle" --dry-run
expect_grep out 'dry run: would export agent `researcher`'
[ ! -e "$TMP/dry" ] || { echo "FAIL: dry run wrote"; failures=$((failures + 1)); }

# SOURCE_DATE_EPOCH makes two exports byte-identical
SOURCE_DATE_EPOCH=1786406400 "$CLAWPORT" export researcher --config "$TMP/install/config.toml" --out "$TMP/r1" >/dev/null
SOURCE_DATE_EPOCH=1786406400 "$CLAWPORT" export researcher --config "$TMP/install/config.toml" --out "$TMP/r2" >/dev/null
diff -r "$TMP/r1" "$TMP/r2" >/dev/null || { echo "FAIL: not reproducible"; failures=$((failures + 1)); }
grep -q 'exported_at = "2026-08-11T00:00:00+00:00"' "$TMP/r1/zeroclaw-agent.toml" ||
  { echo "FAIL: exported_at"; cat "$TMP/r1/zeroclaw-agent.toml"; failures=$((failures + 1)); }

# --config defaults to $ZEROCLAW_CONFIG_DIR/config.toml; usage errors exit 2
ZEROCLAW_CONFIG_DIR=$TMP/install expect_status 0 "$CLAWPORT" export researcher --out "$TMP/env/bundle"
expect_status 2 "$CLAWPORT" export researcher
expect_status 2 "$CLAWPORT" export researcher --out "$TMP/x" --publish bogus
expect_status 1 "$CLAWPORT" export nobody --config "$TMP/install/config.toml" --out "$TMP/x"
# issue 22 item 1: a five-deep fallback chain exports a bundle that verifies (the edge past the
# carried depth is removed and listed as depth_limit) and imports
mkdir -p "$TMP/chain/agents/researcher/workspace"
{
  printf 'schema_version = 3\n[risk_profiles.guarded]\n[agents.researcher]\nmodel_provider = "openai.l0"\nrisk_profile = "guarded"\n'
  for i in 0 1 2 3 4; do
    printf '[providers.models.openai.l%d]\nmodel = "m"\n' "$i"
    [ "$i" -lt 4 ] && printf 'fallback = ["openai.l%d"]\n' $((i + 1))
  done
} >"$TMP/chain/config.toml"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/chain/config.toml" --out "$TMP/chain-b" --json
expect_grep out '"path": "providers.models.openai.l3.fallback\[0\]"'
expect_grep out '"reason": "depth_limit"'
expect_status 0 "$CLAWPORT" verify "$TMP/chain-b"
mkdir -p "$TMP/chain-dst" && printf 'schema_version = 3\n' >"$TMP/chain-dst/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/chain-b" --config "$TMP/chain-dst/config.toml" --dry-run

# issue 22 item 2: the bundle's depth limit (64 levels below the bundle root) holds for export
# and verify alike: at the limit both pass; one past, export refuses and publishes nothing
mkdir -p "$TMP/deep/agents/researcher/workspace"
cp "$TMP/install/config.toml" "$TMP/deep/config.toml"
d="$TMP/deep/agents/researcher/workspace"
for i in $(seq 2 64); do d="$d/d"; done
mkdir -p "$d" && echo leaf >"$d/leaf.md"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/deep/config.toml" --out "$TMP/deep-b"
expect_status 0 "$CLAWPORT" verify "$TMP/deep-b"
mkdir "$d/d" && echo leaf >"$d/d/leaf.md"
expect_status 1 "$CLAWPORT" export researcher --config "$TMP/deep/config.toml" --out "$TMP/deep-b2" --json
expect_grep out '"code": "limit_exceeded"'
[ ! -e "$TMP/deep-b2" ] || { echo "FAIL: a refused export wrote"; failures=$((failures + 1)); }

# issue 22 item 3 and issue 30: odd names are skipped and listed, memory stays home, a
# workspace skill is a capability grant; the bundle verifies
W=$TMP/install/agents/researcher/workspace
printf 'x' >"$W/$(printf 'caf\351.md')"
printf 'x' >"$W/$(printf 'new\nline.md')"
printf 'MEMORY-SENTINEL\n' >"$W/MEMORY.md"
printf 'MEMORY-SENTINEL\n' >"$W/memory.md"
printf 'MEMORY-SENTINEL\n' >"$W/USER.md"
mkdir -p "$W/memory" "$W/skills/helper" && printf 'MEMORY-SENTINEL\n' >"$W/memory/notes.md"
printf -- '---\nname: helper\ndescription: d\n---\nhelp\n' >"$W/skills/helper/SKILL.md"
export_to 0 "$TMP/odd/bundle" --json
cp "$TMP/out" "$TMP/odd.json"
expect_grep out '"path": "workspace/caf\\\\xe9.md"'
expect_grep out '"reason": "unportable_name"'
expect_grep out '"names": 2'
for p in MEMORY.md memory.md USER.md; do expect_grep out '"path": "workspace/'$p'"'; done
expect_grep out '"kind": "carried_workspace_skills"'
export_to 0 "$TMP/odd2/bundle"
expect_grep out '2 entry/entries skipped for their name'
if grep -rq 'MEMORY-SENTINEL' "$TMP/odd" "$TMP/odd.json" "$TMP/out" "$TMP/err"; then
  echo "FAIL: memory reached the bundle or the report"; failures=$((failures + 1))
fi
expect_status 0 "$CLAWPORT" verify "$TMP/odd/bundle"
[ "$(cd "$TMP/odd/bundle/workspace" && find . -type f | LC_ALL=C sort | tr '\n' ' ')" = "./IDENTITY.md ./skills/helper/SKILL.md " ] ||
  { echo "FAIL: the workspace holds $(find "$TMP/odd/bundle/workspace" -type f)"; failures=$((failures + 1)); }

finish
