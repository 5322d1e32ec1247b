# SPDX-License-Identifier: MIT
# Issue 42 §2 item 7: diagnostics as openclaw 2026.9.6 reports them (codes, paths, order, exit
# status, and upstream's words where they are stable). `claws inspect --json` against
# `claw inspect --json` (valid, diagnostics), and for ClawHub packages offline the plan's
# blockers (code, path: upstream's message is its network error) and requirementState.
. "$ORACLE_REPO/tests/oracle/lib.sh"
H=$CASE_TMP/home
mkdir -p "$H"

# pkg CLAW-TEXT [package.json text]: a fresh package directory, printed.
pkg() {
  local d
  d=$(mktemp -d "$CASE_TMP/p.XXXXXX")  # called in $(…): a counter would not persist
  printf '%s' "$1" >"$d/CLAW.md"
  local meta='{"name": "t-claw", "version": "1.0.0", "openclaw": {"claw": "CLAW.md"}}'
  printf '%s\n' "${2:-$meta}" >"$d/package.json"
  echo "$d"
}

inspect_both() {  # inspect_both LABEL DIR
  local a b
  oc "$H" claws inspect --json "$2" >oc.json; a=$?
  clawport_run "$H" claw inspect --json "$2" >cp.json; b=$?
  same_status "$1: exit" $a $b
  json_same "$1: valid, diagnostics" oc.json cp.json \
    '{"valid": j.get("valid"), "diagnostics": j.get("diagnostics")}'
}

head='---
schemaVersion: 1
agent:
  id: t
'
# Workspace sources: in byte order of their paths, the first that cannot be used, at
# $.workspace, in upstream's words.
P=$(pkg "${head}workspace:
  bootstrapFiles:
    AGENTS.md: {source: x/link.md}
  files:
    - {source: x, path: dir.md}
    - {source: missing.md, path: m.md}
---
body
")
mkdir -p "$P/x" && echo hi >"$P/x/real.md" && ln -s real.md "$P/x/link.md"
inspect_both "workspace source: a missing file first" "$P"
rm "$P/CLAW.md" && printf '%s' "${head}workspace:
  files:
    - {source: x/link.md, path: l.md}
    - {source: x, path: dir.md}
---
body
" >"$P/CLAW.md"
inspect_both "workspace source: a directory before a symlink" "$P"
printf '%s' "${head}workspace:
  files:
    - {source: x/link.md, path: l.md}
---
body
" >"$P/CLAW.md"
inspect_both "workspace source: a symlink" "$P"
head -c 1048577 /dev/zero >"$P/big.md"
printf '%s' "${head}workspace:
  files:
    - {source: big.md, path: big.md}
---
body
" >"$P/CLAW.md"
inspect_both "workspace source: over 1 MiB" "$P"

# Profile schema errors are invalid_manifest; a profile agent.model that is no object is one.
P=$(pkg "${head}---
body
")
mkdir -p "$P/profiles"
printf 'schemaVersion: 1\nagent:\n  model: gpt-4\n' >"$P/profiles/openclaw.yml"
inspect_both "profile: agent.model a string" "$P"
# A difference kept: a model object upstream applies to the host clawport refuses.
printf 'schemaVersion: 1\nagent:\n  model: {primary: acme/m1}\n' >"$P/profiles/openclaw.yml"
oc "$H" claws inspect --json "$P" >oc.json; a=$?
clawport_run "$H" claw inspect --json "$P" >cp.json; b=$?
expect "profile: a model object: upstream accepts it" 0 $a
expect "profile: a model object: clawport refuses it" \
  "1 legacy_openclaw_profile_requires_conversion" \
  "$b $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["diagnostics"][0]["code"])' cp.json)"
printf 'schemaVersion: 1\nagent:\n  sandbox: {mode: everything}\n' >"$P/profiles/openclaw.yml"
oc "$H" claws inspect --json "$P" >oc.json; a=$?
clawport_run "$H" claw inspect --json "$P" >cp.json; b=$?
same_status "profile: a bad enum: exit" $a $b
json_same "profile: a bad enum: code and path" oc.json cp.json \
  '[(x["code"], x["path"]) for x in j["diagnostics"]]'
# An enum miss in zod 4's words, as upstream.
json_same "profile: a bad enum: message" oc.json cp.json '[x["message"] for x in j["diagnostics"]]'

# The manifest outside the package, absolute, or missing: manifest_escapes_package at $.
P=$(pkg "${head}---
body
" '{"name": "t-claw", "version": "1.0.0", "openclaw": {"claw": "../CLAW.md"}}')
inspect_both "openclaw.claw ../CLAW.md" "$P"
printf '%s\n' '{"name": "t-claw", "version": "1.0.0", "openclaw": {"claw": "/etc/CLAW.md"}}' \
  >"$P/package.json"
inspect_both "openclaw.claw absolute" "$P"
printf '%s\n' '{"name": "t-claw", "version": "1.0.0", "openclaw": {"claw": "NOPE.md"}}' \
  >"$P/package.json"
inspect_both "openclaw.claw missing" "$P"

# An MCP server mixing the stdio and remote shapes: one error, from the matching shape.
P=$(pkg "${head}mcpServers:
  mix:
    command: npx
    args: [\"--yes\", \"a@1.0.0\"]
    url: https://x.example/mcp
    transport: streamable-http
---
body
")
inspect_both "MCP: stdio keys on a remote server" "$P"
P=$(pkg "${head}mcpServers:
  mix:
    command: node
    url: https://x.example/mcp
---
body
")
inspect_both "MCP: url on a stdio server" "$P"

# ClawHub packages offline: <kind>_preflight_failed per package, requirementState conflicting.
P=$(pkg "${head}packages:
  - {kind: skill, source: clawhub, ref: some-skill, version: 1.0.0}
  - {kind: plugin, source: clawhub, ref: \"@acme/tools\", version: 2.0.0}
---
body
")
snap "$H"
oc "$H" claws add --dry-run --json "$P" >oc.json; a=$?
restore "$H"
clawport_run "$H" claw add --dry-run --json "$P" >cp.json; b=$?
same_status "packages offline: exit" $a $b
json_same "packages offline: blocker codes and paths" oc.json cp.json \
  '[(x["code"], x["path"], x["phase"]) for x in j["blockers"]]'
json_same "packages offline: the package actions but their reason" oc.json cp.json \
  '[{k: v for k, v in x.items() if k != "reason"} for x in j["actions"] if x["kind"] == "package"]'
# A difference kept: offline, clawport says why in its own words (upstream prints its network
# error, which depends on the URL).
expect "packages offline: clawport's words" \
  "Package preflight failed: clawport does not contact ClawHub (--without-packages adds the Claw without its packages)." \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["blockers"][0]["message"])' cp.json)"
