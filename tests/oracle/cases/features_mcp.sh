# SPDX-License-Identifier: MIT
# Every manifest feature (MCP servers), one small package each: `claws inspect --json` and
# `claws add --dry-run --json` against `claw inspect --json` and `claw add --dry-run --json`.
# No ClawHub packages here (offline each costs OpenClaw 14 s of retries): packages.sh has them.
. "$ORACLE_REPO/tests/oracle/lib.sh"
H=$CASE_TMP/home
mkdir -p "$H"
both() { inspect_and_plan "$1" "$H"; }

write_claw "$CASE_TMP/stdio" <<'EOF'
---
schemaVersion: 1
agent:
  id: stdio-agent
mcpServers:
  local:
    command: npx
    args: ["--yes", "@acme/tool-mcp@1.2.3"]
    env:
      TOOL_TOKEN: "${TOOL_TOKEN}"
      OTHER: "${OTHER_VAR}"
    toolFilter:
      include: [read_thing, "list_*"]
      exclude: [delete_thing]
    timeout: 30
    connectTimeout: 5
  plain:
    command: node
    args: ["server.js"]
---
EOF
both stdio

write_claw "$CASE_TMP/remote" <<'EOF'
---
schemaVersion: 1
agent:
  id: remote-agent
mcpServers:
  events:
    url: https://mcp.example.com/sse
    transport: sse
  linear:
    url: https://mcp.linear.app/mcp
    transport: streamable-http
    auth: oauth
    toolFilter:
      include: [list_issues]
  loopback:
    url: http://127.0.0.1:8080/mcp
    transport: streamable-http
---
EOF
both remote

