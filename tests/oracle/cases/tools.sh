# SPDX-License-Identifier: MIT
# Issue 42 §2 item 2: a profile's `tools` as claws add persists them, materialised from
# upstream's tool catalogue (include/clawport/openclaw/tool_catalog.hpp, generated from this
# release by tools/gen_openclaw_tools.py): the plan's agent config and agent action, and the
# capability effect (the profile as written); and the catalogue's schema rules (a grant outside
# the profile, `full` or a bundle-mcp profile without an allow list, unbounded grants).
. "$ORACLE_REPO/tests/oracle/lib.sh"
H=$CASE_TMP/home P=$CASE_TMP/pkg
mkdir -p "$H" "$P/profiles"
printf '%s\n' '{"name": "tools-claw", "version": "1.0.0", "openclaw": {"claw": "CLAW.md"}}' \
  >"$P/package.json"
printf -- '---\nschemaVersion: 1\nagent:\n  id: tooled\n---\nUse the tools.\n' >"$P/CLAW.md"

tools_both() {  # tools_both LABEL TOOLS-YAML (flow mapping)
  local a b
  printf 'schemaVersion: 1\nagent:\n  tools: %s\n' "$2" >"$P/profiles/openclaw.yml"
  oc "$H" claws add --dry-run --json "$P" >oc.json; a=$?
  clawport_run "$H" claw add --dry-run --json "$P" >cp.json; b=$?
  same_status "$1: exit" $a $b
  json_same "$1: config, agent action, capabilities, diagnostics" oc.json cp.json \
    '{"config": j.get("agent", {}).get("config"),
      "action": [x["details"] for x in j.get("actions", []) if x["kind"] == "agent"],
      "capabilities": [(x["id"], x["effect"]) for x in j.get("capabilityChanges", [])],
      "diagnostics": j.get("diagnostics")}'
}

tools_both "minimal, deny exec" '{profile: minimal, deny: [exec]}'
tools_both "coding narrowed, alias, MCP tool, fs" \
  '{profile: coding, allow: [read, write, edit, cron, statuspage__list_incidents], deny: [exec], fs: {workspaceOnly: true}}'
tools_both "messaging narrowed by a glob-free group" '{profile: messaging, allow: [group:sessions]}'
tools_both "minimal with alsoAllow" '{profile: minimal, alsoAllow: [read, group:web]}'
tools_both "no profile: a group and an alias" '{allow: [group:fs, bash], deny: [apply-patch]}'
tools_both "no profile, deny only" '{deny: [exec]}'
tools_both "full with an allow list" '{profile: full, allow: [read, sessions_list]}'
tools_both "coding alone" '{profile: coding}'
tools_both "full alone" '{profile: full}'
tools_both "a grant outside the profile" '{profile: coding, allow: [read, tts]}'
tools_both "an unknown group" '{allow: [group:nope]}'
