# SPDX-License-Identifier: MIT
# Schema diagnostics in zod 4's words, as openclaw 2026.9.6 reports them: a wrong type
# ("Invalid input: expected string, received number"), a missing member (its type, enum or
# literal "received undefined"), bounds ("Too small: …"), integers, unknown keys after an
# object's members and before its refinements, and the MCP server union ("Invalid input"
# when its shape fails on a type). Code, path, message and order of every diagnostic.
. "$ORACLE_REPO/tests/oracle/lib.sh"
H=$CASE_TMP/home
mkdir -p "$H"

n=0
both() {  # both LABEL FRONTMATTER [PROFILE]: inspect --json of one package by both programs
  n=$((n + 1))
  local d=$CASE_TMP/z$n a b
  mkdir -p "$d"
  printf -- '---\n%s\n---\nBody.\n' "$2" >"$d/CLAW.md"
  printf '%s\n' '{"name": "t-claw", "version": "1.0.0", "openclaw": {"claw": "CLAW.md"}}' \
    >"$d/package.json"
  if [ -n "${3:-}" ]; then
    mkdir -p "$d/profiles"
    printf '%s\n' "$3" >"$d/profiles/openclaw.yml"
  fi
  oc "$H" claws inspect --json "$d" >oc.json; a=$?
  clawport_run "$H" claw inspect --json "$d" >cp.json; b=$?
  same_status "$1: exit" $a $b
  json_same "$1: diagnostics" oc.json cp.json \
    '[(x["code"], x["path"], x["message"]) for x in j["diagnostics"]]'
}

both "manifest: wrong types" 'schemaVersion: 1
agent:
  id: typed
  name: 5
  description: [a]
  identity: {name: 1, bogus: 2}
workspace:
  bootstrapFiles: []
  files: "x"
  extra: 1
cronJobs: {}
packages: [{kind: skill, name: 3}]'

both "manifest: missing schemaVersion" 'agent: {id: x}'

both "manifest: missing members, bounds, cron" 'schemaVersion: 1
agent: {name: x}
mcpServers:
  s: {command: node, timeout: 0}
  t: {command: node, timeout: -1}
cronJobs:
  - {id: 5, schedule: {kind: cron}, message: 3}
  - {id: a, schedule: {cron: "* * * * *", timezone: UTC}, session: main, message: m, delivery: {mode: 1, q: 1}}
packages:
  - {source: clawhub, ref: a, version: 1.0.0}'

both "manifest: MCP server union" 'schemaVersion: 1
agent: {id: x}
mcpServers:
  s: {command: node, args: "a", env: {A: 1}, timeout: "3", bogus: 1}
  u: {url: "https://x.example/m", transport: sse, timeout: "5"}
  v: {command: npx, args: [a], env: {A: 1}, bogus: 1, timeout: 0}
  w: {args: [a]}
  y: {url: "https://x.example/m", transport: sse, toolFilter: {include: [], q: 1}}
  mix: {command: node, url: "https://x.example/mcp"}
  b: {command: node, bogus: 1}
  c: {command: node, env: {A: 1}}
  d: {command: npx, args: [a]}
  e: {command: node, env: {A: "plain"}, timeout: 0}
  f: {command: npx, args: [a], q: 1}
  g: {url: "ftp://x", transport: sse, q: 1, timeout: 0}'

ok='schemaVersion: 1
agent: {id: x}'
both "profile: types, bounds, integers" "$ok" 'schemaVersion: 1
agent:
  heartbeat: {every: 5, timeoutSeconds: 1.5}
  groupChat: {mentionPatterns: []}
  tools: {allow: []}'

both "profile: integer bounds" "$ok" 'schemaVersion: 1
agent:
  heartbeat: {timeoutSeconds: 0}
  humanDelay: {minMs: -1, maxMs: "3"}'

both "profile: unknown keys after members" "$ok" 'schemaVersion: 1
agent:
  tools: {profile: 3, bogus: 1, fs: {workspaceOnly: false, z: 1}}
  memory: {search: {enabled: 1, q: 2}, x: 1}
  sandbox: {mode: 5, zz: 1}
  groupChat: {mentionPatterns: [1], y: 2}
  humanDelay: {mode: 1, k: 1}
  heartbeat: {every: 1, activeHours: {start: 1, w: 1}, bogus: 1}'

both "profile: refinements after unknown keys" "$ok" 'schemaVersion: 1
agent:
  tools: {profile: minimal, allow: [exec], alsoAllow: [x], fs: {workspaceOnly: "no"}, zz: 1}
  memory: {search: {sources: [sessions], q: 1}}'

both "profile: extensions and the root" "$ok" 'schemaVersion: 1
agent: {bogus: 1}
extensions: [{id: 1, kind: x, bogus: 2}]
other: 1'
