# SPDX-License-Identifier: MIT
# What `claws add --yes --plan-integrity` writes (the result, the tree with its modes,
# openclaw.json) and what `claws export` writes back (package.json, CLAW.md, modes), then the
# workspace each agent resolves to (`agents list --json` against `workspace resolve`).
. "$ORACLE_REPO/tests/oracle/lib.sh"
H=$CASE_TMP/home P=$CASE_TMP/pkg
mkdir -p "$H" "$P/ws/ref"
echo "# Agents" >"$P/ws/AGENTS.md"
echo "notes" >"$P/ws/ref/notes.md"
write_claw "$P" "mini-claw" <<'EOF'
---
schemaVersion: 1
agent:
  id: mini
  name: Mini
  description: "A small agent: it reads notes."
workspace:
  bootstrapFiles:
    AGENTS.md:
      source: ws/AGENTS.md
  files:
    - source: ws/ref/notes.md
      path: ref/notes.md
mcpServers:
  tools:
    command: node
    args: ["server.js", "--port", "8080"]
    env:
      API_TOKEN: "${API_TOKEN}"
  remote:
    url: https://mcp.example.com/mcp
    transport: streamable-http
    auth: oauth
---
You are mini.
EOF
snap "$H"
# Upstream, start to end: plan, add, export, agents list.
oc "$H" claws add --dry-run --json "$P" >oc-plan.json
pi=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["planIntegrity"])' oc-plan.json)
oc "$H" claws add --yes --plan-integrity "$pi" --json "$P" >oc-add.json 2>oc-add.err; oc_add=$?
tree_modes "$H" >oc-tree.txt
command cp "$H/.openclaw/openclaw.json" oc-config.json
oc "$H" claws export mini --out "$CASE_TMP/exp" --json >oc-export.json 2>/dev/null; oc_exp=$?
tree_modes "$CASE_TMP/exp" >oc-exp-tree.txt
command cp "$CASE_TMP/exp/package.json" oc-package.json
command cp "$CASE_TMP/exp/CLAW.md" oc-CLAW.md
rm -rf "$CASE_TMP/exp"
oc "$H" agents list --json >oc-agents.json 2>/dev/null
restore "$H"
# clawport, the same steps on the same paths.
clawport_run "$H" claw add --dry-run --json "$P" >cp-plan.json
clawport_run "$H" claw add --yes --plan-integrity "$pi" --json "$P" >cp-add.json 2>cp-add.err; cp_add=$?
tree_modes "$H" >cp-tree.txt
command cp "$H/.openclaw/openclaw.json" cp-config.json
clawport_run "$H" claw export mini --out "$CASE_TMP/exp" --json >cp-export.json; cp_exp=$?
tree_modes "$CASE_TMP/exp" >cp-exp-tree.txt
command cp "$CASE_TMP/exp/package.json" cp-package.json
command cp "$CASE_TMP/exp/CLAW.md" cp-CLAW.md
python3 - "$H" >cp-agents.json <<'PY'
import json, subprocess, sys, os
# clawport's counterpart of `agents list`: `workspace resolve` for each configured agent.
home = sys.argv[1]
cfg = json.load(open(home + "/.openclaw/openclaw.json"))
out = []
for agent in cfg["agents"]["entries"]:
    r = subprocess.run(["env", "-i", "HOME=" + home, os.environ["CLAWPORT"], "workspace", "resolve",
                        "--agent-id", agent, "--json"], capture_output=True, text=True)
    out.append({"id": agent, "workspace": json.loads(r.stdout)["workspace"]})
print(json.dumps(out))
PY

json_same "add --dry-run --json" oc-plan.json cp-plan.json
same_status "add --yes (exit)" "$oc_add" "$cp_add"
# The result documents differ by design (docs/openclaw.md: clawport's own field names, its
# ledger instead of upstream's state database): what both say is compared.
json_same "add --yes --json: planIntegrity, status, agent, workspace" oc-add.json cp-add.json \
  '{"planIntegrity": j["planIntegrity"], "status": j["status"], "agent": j.get("agentId", j.get("agent", {}).get("finalId")), "workspace": j["workspace"] if isinstance(j.get("workspace"), str) else j["agent"]["workspace"]}'
# The tree and its modes. Upstream's state database, config backup and journal key, and
# clawport's ledger, are each program's own bookkeeping (docs/openclaw.md).
own='^\.openclaw/(state|state/.*|openclaw\.json\.bak.*|config-journal-fingerprint\.key|clawport-claws\.json) '
grep -Ev "$own" oc-tree.txt >oc-tree.cmp
grep -Ev "$own" cp-tree.txt >cp-tree.cmp
same_text "add --yes: the files written and their modes" oc-tree.cmp cp-tree.cmp
# openclaw.json: OpenClaw's config writer also stamps `meta` and its bundled plugins'
# defaults on every write; clawport writes only what the add needs (docs/openclaw.md).
json_same "add --yes: openclaw.json" oc-config.json cp-config.json \
  '{k: v for k, v in j.items() if k not in ("meta", "plugins")}'
same_status "export (exit)" "$oc_exp" "$cp_exp"
json_same "export: package.json" oc-package.json cp-package.json
same_text "export: package.json bytes" oc-package.json cp-package.json
same_text "export: CLAW.md bytes" oc-CLAW.md cp-CLAW.md
same_text "export: the files written and their modes" oc-exp-tree.txt cp-exp-tree.txt
json_same "export --json: manifest and files written" oc-export.json cp-export.json \
  '{"manifest": j["manifest"], "filesWritten": sorted(j["filesWritten"])}'
json_same "agents list: the workspace of each agent" oc-agents.json cp-agents.json \
  'sorted([{"id": a["id"], "workspace": a["workspace"]} for a in j], key=lambda a: a["id"])'
