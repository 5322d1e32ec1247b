# SPDX-License-Identifier: MIT
# `clawport import` end to end: plan (exit 0, nothing written), apply with the integrity,
# a stale integrity refused, an import into the source install (renames), and the round
# trip export -> import into an empty install -> export again, equal bundles.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

mkdir -p "$TMP/src/agents/researcher/workspace/notes" "$TMP/src/shared/skills/research_tools/web_search"
cat >"$TMP/src/config.toml" <<'TOML'
schema_version = 3

[providers.models.anthropic.main]
api_key = "sk-ant-cli-test-secret"
model = "claude-opus-5"

[risk_profiles.guarded]

[skill_bundles.research_tools]

[agents.researcher]
model_provider = "anthropic.main"
risk_profile = "guarded"
skill_bundles = ["research_tools"]
TOML
printf '# researcher\n' >"$TMP/src/agents/researcher/workspace/IDENTITY.md"
printf 'the plan\n' >"$TMP/src/agents/researcher/workspace/notes/plan.md"
printf '# web search\n' >"$TMP/src/shared/skills/research_tools/web_search/SKILL.md"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/src/config.toml" --out "$TMP/b1"

# an empty install: the plan is shown, nothing written
mkdir -p "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/b1" --config "$TMP/dst/config.toml"
expect_grep out 'installed as: researcher'
expect_grep out "clawport secrets set providers.models.anthropic.main.api_key --config $TMP/dst/config.toml"
expect_grep out 'credential(s) to supply after the import (or `zeroclaw config set <path>` there):'
expect_grep out 'plan_integrity: sha256:'
[ "$(ls -A "$TMP/dst")" = "config.toml" ] || { echo "FAIL: planning wrote"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" import "$TMP/b1" --config "$TMP/dst/config.toml" --json
expect_grep out '"plan_integrity": "sha256:'
integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")

# --yes without the integrity (a usage error), and with a wrong one: refused, nothing written
expect_status 2 "$CLAWPORT" import "$TMP/b1" --config "$TMP/dst/config.toml" --yes
expect_grep err 'plan-integrity'
expect_status 1 "$CLAWPORT" import "$TMP/b1" --config "$TMP/dst/config.toml" --yes --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000000
expect_grep err 'plan changed'
# issue 44: what to run names no bare `import --dry-run` (it would lack the bundle and config)
expect_grep err 'run the same command without --yes to see the new plan\.'
grep -q 'dry-run again' "$TMP/err" && { echo "FAIL: the mismatch suggests a bare --dry-run"; failures=$((failures + 1)); }
# issue 43: the one consent path: the code of `claw add|update|remove` for a changed plan
expect_status 1 "$CLAWPORT" import "$TMP/b1" --config "$TMP/dst/config.toml" --yes --plan-integrity sha256:0000000000000000000000000000000000000000000000000000000000000001 --json
expect_grep out '"code": "plan_integrity_mismatch"'
[ "$(ls -A "$TMP/dst")" = "config.toml" ] || { echo "FAIL: a refused import wrote"; failures=$((failures + 1)); }

# apply
expect_status 0 "$CLAWPORT" import "$TMP/b1" --config "$TMP/dst/config.toml" --yes --plan-integrity "$integrity"
expect_grep out 'imported agent `researcher` as `researcher`'
head -1 "$TMP/dst/config.toml" | grep -qx 'schema_version = 3' || { echo "FAIL: user bytes"; failures=$((failures + 1)); }
ls "$TMP/dst" | grep -q '^config.toml.bak-' || { echo "FAIL: no backup"; failures=$((failures + 1)); }

# round trip: supply the secret as the plan said, export again, compare
sed -i 's/^api_key = ""$/api_key = "sk-ant-cli-test-secret"/' "$TMP/dst/config.toml"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/dst/config.toml" --out "$TMP/b2"
# Equal but for one expected line of the manifest: the first export reports forcing
# delegate_same_risk_profile to false; the second reads false already, so there is
# nothing to report (and the digest list differs in the manifest's line).
diff -r -x zeroclaw-agent.toml -x zeroclaw-agent.sha256 "$TMP/b1" "$TMP/b2" >"$TMP/diff" ||
  { echo "FAIL: round trip differs"; cat "$TMP/diff"; failures=$((failures + 1)); }
same_manifest() {  # <a> <b> [sed renames for b]: parsed manifests equal, minus that drop
  python3 - "$@" <<'PY'
import sys, tomllib
def load(p, ren):
    t = open(p, encoding="utf-8").read()
    for pair in ren:
        a, b = pair.split("=")
        t = t.replace(a, b)
    m = tomllib.loads(t)
    m["dropped"] = [d for d in m["dropped"] if not d["path"].endswith(".delegate_same_risk_profile")]
    return m
a = load(sys.argv[1], [])
b = load(sys.argv[2], sys.argv[3:])
sys.exit(0 if a == b else 1)
PY
}
same_manifest "$TMP/b1/zeroclaw-agent.toml" "$TMP/b2/zeroclaw-agent.toml" ||
  { echo "FAIL: round-trip manifest differs"; failures=$((failures + 1)); }
grep -v ' zeroclaw-agent.toml$' "$TMP/b1/zeroclaw-agent.sha256" >"$TMP/l1"
grep -v ' zeroclaw-agent.toml$' "$TMP/b2/zeroclaw-agent.sha256" >"$TMP/l2"
diff "$TMP/l1" "$TMP/l2" || { echo "FAIL: round-trip digests differ"; failures=$((failures + 1)); }

# ---- issue 25: the bundle changed between the plan shown and its apply -----------------
# The plan holds the digest of the digest list's lines, not the files; the apply reads the
# list again as it copies. A file rewritten at its size (its line kept) plans to the same
# integrity and is refused by the copy; a line removed or added (with its file) changes the
# plan. Each refused, nothing below the target written.
i25() {  # <name>: a fresh copy of the bundle, a fresh target, the integrity of their plan
  rm -rf "$TMP/i25b" "$TMP/i25dst"
  cp -a "$TMP/b1" "$TMP/i25b"
  mkdir -p "$TMP/i25dst" && printf 'schema_version = 3\n' >"$TMP/i25dst/config.toml"
  expect_status 0 "$CLAWPORT" import "$TMP/i25b" --config "$TMP/i25dst/config.toml" --json
  i25_integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
  tree_state "$TMP/i25dst" >"$TMP/i25before"
}
i25_refused() {  # <what> <pattern of the error>
  expect_status 1 "$CLAWPORT" import "$TMP/i25b" --config "$TMP/i25dst/config.toml" --yes --plan-integrity "$i25_integrity"
  expect_grep err "$2"
  tree_state "$TMP/i25dst" | diff "$TMP/i25before" - >/dev/null || fail "issue 25: $1: the target was written"
}
i25
printf 'the PLAN\n' >"$TMP/i25b/workspace/notes/plan.md"
i25_refused "a file rewritten" 'changed after it was verified (workspace/notes/plan.md does not match'
i25
rm "$TMP/i25b/workspace/notes/plan.md"
grep -v '  workspace/notes/plan.md$' "$TMP/i25b/zeroclaw-agent.sha256" >"$TMP/i25l" && cat "$TMP/i25l" >"$TMP/i25b/zeroclaw-agent.sha256"
i25_refused "a line removed" 'plan changed'
i25
printf 'more\n' >"$TMP/i25b/workspace/notes/zz.md"
(cd "$TMP/i25b" && sha256sum workspace/notes/zz.md >>zeroclaw-agent.sha256 && LC_ALL=C sort -k2 -o zeroclaw-agent.sha256 zeroclaw-agent.sha256)
i25_refused "a line added" 'plan changed'
# Unchanged, the same plan applies.
i25
expect_status 0 "$CLAWPORT" import "$TMP/i25b" --config "$TMP/i25dst/config.toml" --yes --plan-integrity "$i25_integrity"
[ -f "$TMP/i25dst/agents/researcher/workspace/notes/plan.md" ] || fail "issue 25: the unchanged bundle was not imported"

# into the install it came from: everything collides, renamed; re-export equal up to names
expect_status 0 "$CLAWPORT" import "$TMP/b1" --config "$TMP/src/config.toml" --json
expect_grep out '"alias": "researcher_imported"'
integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
expect_status 0 "$CLAWPORT" import "$TMP/b1" --config "$TMP/src/config.toml" --yes --plan-integrity "$integrity"
expect_status 0 "$CLAWPORT" export researcher_imported --config "$TMP/src/config.toml" --out "$TMP/b3"
rename() { sed -e 's/researcher_imported/researcher/g' -e 's/research_tools_imported/research_tools/g'; }
rename <"$TMP/b3/config.toml" | diff "$TMP/b1/config.toml" - >"$TMP/diff" ||
  { echo "FAIL: config.toml differs beyond the renamed aliases"; cat "$TMP/diff"; failures=$((failures + 1)); }
same_manifest "$TMP/b1/zeroclaw-agent.toml" "$TMP/b3/zeroclaw-agent.toml" \
  research_tools_imported=research_tools researcher_imported=researcher ||
  { echo "FAIL: manifest differs beyond the renamed aliases"; failures=$((failures + 1)); }
diff -r "$TMP/b1/workspace" "$TMP/b3/workspace" || { echo "FAIL: workspace"; failures=$((failures + 1)); }
diff -r "$TMP/b1/skills/research_tools" "$TMP/b3/skills/research_tools_imported" ||
  { echo "FAIL: skills"; failures=$((failures + 1)); }

# ---- issue 22: the shared file I/O rules ---------------------------------------------
# item 6: a hard-linked config.toml is refused by import and `skills bundle add` as a
# symlinked one is (replacing it would split it); nothing written, both names kept equal.
mkdir -p "$TMP/hl" && printf 'schema_version = 3\n' >"$TMP/hl/config.toml"
ln "$TMP/hl/config.toml" "$TMP/hl-dotfiles.toml"
expect_status 1 "$CLAWPORT" import "$TMP/b1" --config "$TMP/hl/config.toml"
expect_grep err "$TMP/hl/config.toml has 2 hard links"
expect_status 1 "$CLAWPORT" skills bundle add ops --config "$TMP/hl/config.toml"
expect_grep err "$TMP/hl/config.toml has 2 hard links"
[ "$(ls -A "$TMP/hl")" = config.toml ] && [ "$(cat "$TMP/hl-dotfiles.toml")" = 'schema_version = 3' ] &&
  [ "$(stat -c %h "$TMP/hl/config.toml")" = 2 ] || fail "item 6: a hard-linked config was written or split"
# item 13: a device or FIFO as --config is refused naming it, never read (no OOM, no hang).
expect_status 1 timeout 30 "$CLAWPORT" import "$TMP/b1" --config /dev/zero
expect_grep err '/dev/zero is not a regular file'
mkdir -p "$TMP/ff" && mkfifo "$TMP/ff/config.toml"
expect_status 1 timeout 30 "$CLAWPORT" import "$TMP/b1" --config "$TMP/ff/config.toml" --json
expect_grep out '"code": "unsupported"'
[ "$(ls -A "$TMP/ff")" = config.toml ] || fail "item 13: a refused import wrote"
# item 16: an install path that is not UTF-8 (a Latin-1 home) plans, prints valid JSON
# (the bytes replaced by U+FFFD) and applies.
lat="$TMP/caf$(printf '\351')"
mkdir -p "$lat" && printf 'schema_version = 3\n' >"$lat/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/b1" --config "$lat/config.toml"
expect_grep out 'plan_integrity: sha256:'
expect_status 0 "$CLAWPORT" import "$TMP/b1" --config "$lat/config.toml" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); assert "\ufffd" in d["config"], d["config"]' "$TMP/out" ||
  fail "item 16: the plan is not JSON"
integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
expect_status 0 "$CLAWPORT" import "$TMP/b1" --config "$lat/config.toml" --yes --plan-integrity "$integrity" --json
expect_grep out '"applied": true'
# item 20: exported again before its secret is supplied, the agent's bundle still requires
# it (the import recorded it in clawport-required-secrets.json), and verify does not warn.
grep -q '"providers.models.anthropic.main.api_key"' "$lat/clawport-required-secrets.json" ||
  fail "item 20: the ledger does not record the blank secret"
expect_status 0 "$CLAWPORT" export researcher --config "$lat/config.toml" --out "$TMP/b4"
python3 -c 'import sys, tomllib; m = tomllib.load(open(sys.argv[1], "rb")); assert m["required_secrets"] == ["providers.models.anthropic.main.api_key"], m["required_secrets"]' "$TMP/b4/zeroclaw-agent.toml" ||
  fail "item 20: the re-export does not list the blank secret"
expect_status 0 "$CLAWPORT" verify "$TMP/b4"
if grep -q secret_unlisted "$TMP/out"; then fail "item 20: verify warns secret_unlisted"; fi

# a tampered bundle is refused before anything is planned
printf 'x' >"$TMP/b1/workspace/extra.md"
expect_status 1 "$CLAWPORT" import "$TMP/b1" --config "$TMP/dst/config.toml" --json
expect_status 2 "$CLAWPORT" import

# Raw bytes never reach the terminal (issue 22, item 15): control sequences in an MCP
# `args` entry cannot erase or repaint the capability-grant lines of the import plan; the
# plan shows them escaped, --json keeps the string, nothing is written.
mkdir -p "$TMP/esc/agents/a/workspace" "$TMP/escdst"
cat >"$TMP/esc/config.toml" <<'TOML'
schema_version = 3

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
args = ["ok\r\u001b[2K\u001b[1A\u001b[2Kfake line"]
TOML
printf 'hi\n' >"$TMP/esc/agents/a/workspace/IDENTITY.md"
printf 'schema_version = 3\n' >"$TMP/escdst/config.toml"
expect_status 0 "$CLAWPORT" export a --config "$TMP/esc/config.toml" --out "$TMP/escb"
expect_status 0 "$CLAWPORT" import "$TMP/escb" --config "$TMP/escdst/config.toml"
expect_grep out '1 capability grant(s) to accept:'
expect_grep out 'process_spawn mcp.servers.srv.command: starts a local process on the target host: run ok\\x0d\\x1b\[2K\\x1b\[1A\\x1b\[2Kfake line'
if LC_ALL=C grep -q "$(printf '[\r\033]')" "$TMP/out"; then echo "FAIL: raw CR or ESC in the import plan"; failures=$((failures + 1)); fi
expect_status 0 "$CLAWPORT" import "$TMP/escb" --config "$TMP/escdst/config.toml" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any("ok\r\x1b[2K" in f["detail"] for f in d["risk_flags"]), d["risk_flags"]' "$TMP/out" || failures=$((failures + 1))
[ "$(ls -A "$TMP/escdst")" = "config.toml" ] || { echo "FAIL: planning wrote"; failures=$((failures + 1)); }
# ---- issue 27 item 1: the target operator's to-do list --------------------------------
# The example install's researcher: the plan lists what export told the source operator,
# grouped (secrets, host-local settings, what was left behind), in text and in --json.
cp -r "$REPO/examples/zeroclaw-install" "$TMP/ex"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/ex/config.toml" --out "$TMP/exb"
mkdir -p "$TMP/exdst" && printf 'schema_version = 3\n' >"$TMP/exdst/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/exb" --config "$TMP/exdst/config.toml"
expect_grep out '11 credential(s) to supply after the import (or `zeroclaw config set <path>` there):'
expect_grep out '2 host-local setting(s) travelled; review them on this host:'
expect_grep out '\[host_path\] providers.models.custom.summarizer.tls_ca_cert_path'
expect_grep out 'item(s) were left behind on the source; re-create them here if wanted:'
expect_grep out '\[not_yet_portable\] agents.researcher.cron_jobs'
expect_grep out '\[host_specific\] risk_profiles.guarded.approval_route'
expect_status 0 "$CLAWPORT" import "$TMP/exb" --config "$TMP/exdst/config.toml" --json
python3 - "$TMP/out" "$TMP/exb/zeroclaw-agent.toml" <<'PY' || fail "item 1: the JSON todo is not the manifest's list"
import json, sys, tomllib
plan = json.load(open(sys.argv[1]))
manifest = tomllib.load(open(sys.argv[2], "rb"))
todo = plan["todo"]
groups = [t["group"] for t in todo]
assert groups == sorted(groups, key=["secret", "review", "recreate"].index), groups
assert [t["path"] for t in todo if t["group"] == "secret"] == manifest["required_secrets"]
config = plan["config"]
assert all(t["command"] == f"clawport secrets set {t['path']} --config {config}"
           for t in todo if t["group"] == "secret"), todo
assert [(t["kind"], t["path"]) for t in todo if t["group"] == "recreate"] == \
    [(d["reason"], d["path"]) for d in manifest["dropped"]]
assert {t["path"] for t in todo if t["group"] == "review"} == {
    "mcp.servers.search.tls_ca_cert_path", "providers.models.custom.summarizer.tls_ca_cert_path"}
PY
[ "$(ls -A "$TMP/exdst")" = "config.toml" ] || fail "item 1: planning wrote"
finish
