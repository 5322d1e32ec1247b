# SPDX-License-Identifier: MIT
# Collisions with what the state directory holds: the agent id, MCP servers (identical and
# different), the workspace; and the --agent-id / --workspace overrides.
. "$ORACLE_REPO/tests/oracle/lib.sh"
P=$CASE_TMP/pkg
write_claw "$P" <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
mcpServers:
  docs:
    url: https://mcp.example.com/mcp
    transport: streamable-http
---
Demo.
EOF
state() {  # state NAME JSON: a home whose openclaw.json is JSON
  mkdir -p "$CASE_TMP/$1/.openclaw"
  printf '%s\n' "$2" >"$CASE_TMP/$1/.openclaw/openclaw.json"
}
plan_in() {  # plan_in NAME [args…]: both plans with the home $CASE_TMP/NAME
  local name=$1
  shift
  pair "$name" "$CASE_TMP/$name" -- claws add --dry-run --json "$@" "$P" -- claw add --dry-run --json "$@" "$P"
  compare_pair "$name: add --dry-run" "$name" "$F_PLAN"
}
state agent-taken '{"agents": {"ownership": "explicit", "entries": {"main": {}, "demo": {"workspace": "/srv/demo"}}}}'
plan_in agent-taken
state mcp-same '{"mcp": {"servers": {"docs": {"url": "https://mcp.example.com/mcp", "transport": "streamable-http"}}}}'
plan_in mcp-same
state mcp-other '{"mcp": {"servers": {"docs": {"url": "https://other.example.com/mcp", "transport": "sse"}}}}'
plan_in mcp-other
mkdir -p "$CASE_TMP/ws-taken/.openclaw/workspace-demo"
echo "mine" >"$CASE_TMP/ws-taken/.openclaw/workspace-demo/SOUL.md"
plan_in ws-taken
mkdir -p "$CASE_TMP/ws-empty/.openclaw/workspace-demo"
plan_in ws-empty
mkdir -p "$CASE_TMP/override"
plan_in override --agent-id other-id
mkdir -p "$CASE_TMP/override-ws"
plan_in override-ws --workspace "$CASE_TMP/override-ws/custom-ws"
