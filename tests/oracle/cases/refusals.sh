# SPDX-License-Identifier: MIT
# Each refusal of the manifest schema: `claws inspect --json` (codes, paths, order, messages,
# exit status) against `claw inspect --json`.
. "$ORACLE_REPO/tests/oracle/lib.sh"
H=$CASE_TMP/home
mkdir -p "$H"
refused() {  # refused NAME: the manifest on stdin
  write_claw "$CASE_TMP/$1"
  pair "$1" "$H" -- claws inspect --json "$CASE_TMP/$1" -- claw inspect --json "$CASE_TMP/$1"
  compare_pair "refused $1: inspect" "$1" "$F_ERROR_MEMBER"
}
refused unknown-key <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
  model: gpt-x
extra: 1
---
EOF
refused bad-agent-id <<'EOF'
---
schemaVersion: 1
agent:
  id: Bad_ID
---
EOF
refused schema-version <<'EOF'
---
schemaVersion: 2
agent:
  id: demo
---
EOF
refused unpinned-npx <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
mcpServers:
  tool:
    command: npx
    args: ["@acme/tool-mcp"]
---
EOF
refused env-literal <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
mcpServers:
  tool:
    command: node
    env:
      TOKEN: sk-live-secret
      PATH: "${PATH}"
---
EOF
refused duplicate-cron <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
cronJobs:
  - id: daily
    schedule:
      cron: "0 9 * * *"
      timezone: UTC
    session: main
    message: One.
  - id: daily
    schedule:
      cron: "0 10 * * *"
      timezone: Mars/Olympus
    session: main
    message: Two.
---
EOF
refused package-ref <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
packages:
  - kind: connector
    source: clawhub
    ref: Bad Ref
    version: "^1.0"
---
EOF
refused http-remote <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
mcpServers:
  remote:
    url: http://mcp.example.com/mcp
    transport: sse
  creds:
    url: https://user:pw@mcp.example.com/mcp#frag
    transport: streamable-http
---
EOF
