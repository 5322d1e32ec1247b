# SPDX-License-Identifier: MIT
# `clawport convert --to agent-plugin` (issue 46) against the real OpenClaw: the plugin it
# writes installs (`plugins install <dir> --force --accept-capabilities`), `plugins inspect
# --json` reports the Agent Plugins format (`bundleFormat: agent`) with every server of
# mcp.json and no diagnostic, and `skills list --json` loads every skills/<name>/ written.
# Sub-cases: the example install's researcher; a hostile install (a server name with odd
# bytes, a skill whose name differs from its directory, ZeroClaw-only frontmatter keys); the
# example Claw converted to a plugin; the example's plugin converted back to a Claw, which
# `claws inspect` reads valid.
. "$ORACLE_REPO/tests/oracle/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

# plugin_agrees LABEL PLUGIN_DIR ID: install, inspect and list skills in a fresh HOME.
plugin_agrees() {
  local label=$1 p=$2 id=$3 h=$CASE_TMP/home-$1
  mkdir -p "$h"
  oc "$h" skills list --json >"$CASE_TMP/$label-skills-before.json" 2>/dev/null
  oc "$h" plugins install "$p" --force --accept-capabilities >"$CASE_TMP/$label-install.out" 2>&1
  expect "$label: plugins install exit" 0 $?
  oc "$h" plugins inspect "$id" --json >"$CASE_TMP/$label-inspect.json" 2>/dev/null
  expect "$label: plugins inspect exit" 0 $?
  oc "$h" skills list --json >"$CASE_TMP/$label-skills.json" 2>/dev/null
  local want got
  want=$(python3 -c 'import json,sys; print(json.dumps({"bundleFormat": "agent", "diagnostics": [],
  "mcpServers": sorted(json.load(open(sys.argv[1]))["mcpServers"]) if len(sys.argv) > 1 else []}))' \
    $( [ -f "$p/mcp.json" ] && echo "$p/mcp.json"))
  got=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps({
  "bundleFormat": j["plugin"].get("bundleFormat"), "diagnostics": j["diagnostics"],
  "mcpServers": sorted(s["name"] for s in j["mcpServers"])}))' "$CASE_TMP/$label-inspect.json")
  expect "$label: inspect reports format agent, its servers, no diagnostic" "$want" "$got"
  want=$(cd "$p/skills" && ls -1 | LC_ALL=C sort)
  # what the install added to the skill list (OpenClaw names no plugin per skill)
  got=$(python3 -c 'import json,sys; names = lambda f: {s["name"] for s in json.load(open(f))["skills"]}
print("\n".join(sorted(names(sys.argv[2]) - names(sys.argv[1]))))' \
    "$CASE_TMP/$label-skills-before.json" "$CASE_TMP/$label-skills.json")
  expect "$label: skills list gains exactly the skills written" "$want" "$got"
}

# 1. the example install's researcher
command cp -a "$ORACLE_REPO/examples/zeroclaw-install" "$CASE_TMP/inst"
clawport_run "$CASE_TMP" export researcher --config "$CASE_TMP/inst/config.toml" --out "$CASE_TMP/rb" >/dev/null
clawport_run "$CASE_TMP" convert "$CASE_TMP/rb" --to agent-plugin --out "$CASE_TMP/p1" >/dev/null
expect "example: convert exit" 0 $?
plugin_agrees example "$CASE_TMP/p1" researcher

# 2. hostile: odd server name, a skill named unlike its directory, ZeroClaw-only keys
I=$CASE_TMP/hostile
mkdir -p "$I/agents/Odd_Agent/workspace" "$I/shared/skills/kit/Some_Dir" "$I/shared/skills/kit/plain"
cat >"$I/config.toml" <<'TOML'
schema_version = 3

[providers.models.anthropic.main]
api_key = "hostile-secret-2"
model = "claude-opus-5"

[risk_profiles.r]

[mcp_bundles.m]
servers = ["odd name!\u00e9", "local"]

[[mcp.servers]]
name = "odd name!\u00e9"
command = "/opt/bin/tool-mcp"
args = ["--flag", "value with spaces"]
env = { SOME_KEY = "hostile-secret-1" }

[[mcp.servers]]
name = "local"
transport = "http"
url = "http://127.0.0.1:8080/mcp"

[skill_bundles.kit]

[agents.Odd_Agent]
model_provider = "anthropic.main"
risk_profile = "r"
mcp_bundles = ["m"]
skill_bundles = ["kit"]
TOML
printf -- '---\nname: Other_Name\ndescription: A skill whose name is not its directory.\nversion: 2.0.0\nalways: true\n---\nBody.\n' \
  >"$I/shared/skills/kit/Some_Dir/SKILL.md"
printf -- '---\nname: plain\ndescription: Already Agent Skills.\n---\nPlain.\n' >"$I/shared/skills/kit/plain/SKILL.md"
clawport_run "$CASE_TMP" export Odd_Agent --config "$I/config.toml" --out "$CASE_TMP/hb" >/dev/null
clawport_run "$CASE_TMP" convert "$CASE_TMP/hb" --to agent-plugin --out "$CASE_TMP/p2" >/dev/null
expect "hostile: convert exit" 0 $?
expect "hostile: no secret in the plugin" "" "$(grep -rl 'hostile-secret' "$CASE_TMP/p2")"
plugin_agrees hostile "$CASE_TMP/p2" odd-agent

# 3. a Claw package as the source (the example Claw): the plugin installs as format agent
clawport_run "$CASE_TMP" convert "$ORACLE_REPO/examples/openclaw-claw" --to agent-plugin --out "$CASE_TMP/p3" >/dev/null
expect "claw: convert exit" 0 $?
plugin_agrees claw "$CASE_TMP/p3" incident-triage

# 4. the way back: the example's plugin as a Claw package that the real OpenClaw reads valid,
# with every skill the plugin carried among its workspace files
clawport_run "$CASE_TMP" convert "$CASE_TMP/p1" --to claw --out "$CASE_TMP/c4" >/dev/null
expect "plugin to claw: convert exit" 0 $?
mkdir -p "$CASE_TMP/home-c4"
oc "$CASE_TMP/home-c4" claws inspect --json "$CASE_TMP/c4" >"$CASE_TMP/c4-inspect.json" 2>/dev/null
expect "plugin to claw: claws inspect exit" 0 $?
expect "plugin to claw: valid, no error diagnostic" '{"valid": true, "errors": []}' \
  "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps({"valid": j.get("valid"),
  "errors": [d["code"] for d in j.get("diagnostics", []) if d.get("level") == "error"]}))' "$CASE_TMP/c4-inspect.json")"
