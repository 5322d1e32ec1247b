# SPDX-License-Identifier: MIT
# An Agent Plugin in (issue 46 items 4-5): `clawport verify <plugin dir>` with the spec's
# failure boundaries, `convert <plugin> --to zeroclaw` (a bundle that verifies and imports,
# the plugin's required secrets blank in the import's to-do) and `--to claw` (a Claw that
# `claw inspect` reads clean; the real OpenClaw installs the plugin in tests/oracle/), and the
# round trip bundle -> plugin -> bundle on the example install's `researcher`: every carried
# skill's bytes and every server's non-secret fields come back; what changed is in the loss
# report. Hostile inputs: a secret in args, a server name with odd bytes, a skill named unlike
# its directory, 1,000 skills; --dry-run writes nothing.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

cp -r "$REPO/examples/zeroclaw-install" "$TMP/inst"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/inst/config.toml" --out "$TMP/rb"
expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to agent-plugin --out "$TMP/p"

# ---- verify recognises the plugin ----
expect_status 0 "$CLAWPORT" verify "$TMP/p"
expect_grep out "plugin $TMP/p verifies: an Agent Plugins 1.0.0 plugin"
expect_grep out 'servers:  3 load'
expect_status 0 "$CLAWPORT" verify "$TMP/p" --json
expect_grep out '"kind": "agent-plugin"'
expect_grep out '"ok": true'

# ---- the round trip: bundle -> plugin -> bundle ----
mkdir "$TMP/dry"
expect_status 0 "$CLAWPORT" convert "$TMP/p" --to zeroclaw --out "$TMP/dry/b" --dry-run
expect_grep out 'dry run, nothing written'
expect_status 0 "$CLAWPORT" convert "$TMP/p" --to claw --out "$TMP/dry/c" --dry-run --json
expect_grep out '"source_kind": "agent-plugin"'
[ -z "$(ls -A "$TMP/dry")" ] || { echo "FAIL: a dry run wrote"; failures=$((failures + 1)); }

expect_status 0 "$CLAWPORT" convert "$TMP/p" --to zeroclaw --out "$TMP/b2"
expect_grep out 'Agent Plugin `researcher` to a ZeroClaw agent bundle (agent `researcher`)'
expect_status 0 "$CLAWPORT" verify "$TMP/b2"
# every skill file the plugin carried is back where it came from, byte for byte (the
# rewritten SKILL.md files restored from the plugin's dev.clawport/ copy)
n=0
for f in $(cd "$TMP/b2" && find skills workspace -type f); do
  n=$((n + 1))
  cmp -s "$TMP/b2/$f" "$TMP/rb/$f" || { echo "FAIL: $f differs after the round trip"; failures=$((failures + 1)); }
done
[ "$n" -ge 5 ] || { echo "FAIL: only $n skill files came back"; failures=$((failures + 1)); }
# every server's non-secret fields are the original's; its secrets are blank and required
python3 - "$TMP/rb" "$TMP/b2" <<'PY' || failures=$((failures + 1))
import sys, tomllib
a = tomllib.load(open(sys.argv[1] + "/config.toml", "rb"))["mcp"]["servers"]
b = {s["name"]: s for s in tomllib.load(open(sys.argv[2] + "/config.toml", "rb"))["mcp"]["servers"]}
bad = 0
for s in a:
    t = b.get(s["name"])
    if t is None:
        print("FAIL: server", s["name"], "lost"); bad += 1; continue
    for k in ("transport", "command", "args", "url", "tool_timeout_secs", "pinned_resources", "tls_ca_cert_path"):
        if s.get(k, "stdio" if k == "transport" else None) != t.get(k, "stdio" if k == "transport" else None):
            print("FAIL:", s["name"], k, s.get(k), "!=", t.get(k)); bad += 1
    for k in ("env", "headers"):
        if sorted(s.get(k, {})) != sorted(t.get(k, {})) or any(t.get(k, {}).values()):
            print("FAIL:", s["name"], k, "names differ or a value travelled"); bad += 1
m = tomllib.load(open(sys.argv[2] + "/zeroclaw-agent.toml", "rb"))
need = {"mcp.servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN", "mcp.servers.search.headers.Authorization",
        "mcp.servers.fetch.headers.X-Api-Key"}
if not need <= set(m["required_secrets"]):
    print("FAIL: required_secrets", m["required_secrets"]); bad += 1
sys.exit(1 if bad else 0)
PY
# what changed on the way is in the reports: the way out lists the skill it could not carry
expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to agent-plugin --out "$TMP/p-again" --json
expect_grep out '"path": "skills/research_tools/citation_check"'
# the bundle imports; the to-do asks for the plugin's secrets
mkdir -p "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/b2" --config "$TMP/dst/config.toml"
expect_grep out "clawport secrets set mcp.servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN --config $TMP/dst/config.toml"
expect_grep out 'installed as: researcher'

# --to claw: a Claw that OpenClaw's reader takes
expect_status 0 "$CLAWPORT" convert "$TMP/p" --to claw --out "$TMP/c2"
expect_status 0 "$CLAWPORT" claw inspect "$TMP/c2"
expect_grep out 'is valid'
[ -f "$TMP/c2/workspace/skills/arxiv_search/SKILL.md" ] || { echo "FAIL: claw skill"; failures=$((failures + 1)); }

# ---- a Claw package as the source (item 1) ----
mkdir "$TMP/cdry"
expect_status 0 "$CLAWPORT" convert "$REPO/examples/openclaw-claw" --to agent-plugin --out "$TMP/cdry/p" --dry-run
[ -z "$(ls -A "$TMP/cdry")" ] || { echo "FAIL: a dry run wrote"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" convert "$REPO/examples/openclaw-claw" --to agent-plugin --out "$TMP/cp"
expect_grep out 'Claw package of agent `incident-triage` to an Agent Plugins 1.0.0 plugin'
expect_grep out 'dropped  $.mcpServers.statuspage.env.STATUSPAGE_TOKEN'
expect_grep out 'dropped  $.cronJobs\[0\]'
expect_status 0 "$CLAWPORT" verify "$TMP/cp"
if grep -rq '\${' "$TMP/cp"; then echo "FAIL: a \${VAR} reference reached the plugin"; failures=$((failures + 1)); fi
grep -q '"STATUSPAGE_TOKEN"' "$TMP/cp/plugin.json" || { echo "FAIL: the reference is not named"; failures=$((failures + 1)); }
# and on to a bundle: the Claw's reference is a blank required secret there
expect_status 0 "$CLAWPORT" convert "$TMP/cp" --to zeroclaw --out "$TMP/cpb"
expect_status 0 "$CLAWPORT" verify "$TMP/cpb"
grep -q '"mcp.servers.statuspage.env.STATUSPAGE_TOKEN"' "$TMP/cpb/zeroclaw-agent.toml" ||
  { echo "FAIL: STATUSPAGE_TOKEN is not required"; failures=$((failures + 1)); }
# a Claw with skills (the one converted from the plugin above): they come back as plugin skills
expect_status 0 "$CLAWPORT" convert "$TMP/c2" --to agent-plugin --out "$TMP/c2p"
expect_status 0 "$CLAWPORT" verify "$TMP/c2p"
expect_grep out 'skills:   3 load'
cmp -s "$TMP/c2p/skills/citation-check/SKILL.md" "$TMP/p/skills/citation-check/SKILL.md" ||
  { echo "FAIL: the Claw's skill bytes changed"; failures=$((failures + 1)); }

# a Claw skill the audit blocks (a shell script): refused after staging, nothing published
cp -r "$TMP/c2" "$TMP/c3"
printf '#!/bin/sh\necho hi\n' >"$TMP/c3/workspace/skills/tone/run.sh"
sed -i 's|^    - source: workspace/skills/tone/SKILL.md|    - source: workspace/skills/tone/run.sh\n      path: skills/tone/run.sh\n    - source: workspace/skills/tone/SKILL.md|' "$TMP/c3/CLAW.md"
mkdir "$TMP/c3out"
expect_status 1 "$CLAWPORT" convert "$TMP/c3" --to agent-plugin --out "$TMP/c3out/p"
expect_grep err 'skills/house-tone of the Claw is blocked by the skill audit'
[ -z "$(ls -A "$TMP/c3out")" ] || { echo "FAIL: a blocked skill was published"; failures=$((failures + 1)); }

# ---- a plugin from elsewhere: boundaries, hostile names ----
mkdir -p "$TMP/h/skills/good" "$TMP/h/skills/Some_Dir"
printf '{"$schema":"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json","name":"acme.tools","extra":1}' >"$TMP/h/plugin.json"
printf -- '---\nname: good\ndescription: Good.\n---\nBody.\n' >"$TMP/h/skills/good/SKILL.md"
printf -- '---\nname: other-name\ndescription: Named unlike its directory.\n---\n' >"$TMP/h/skills/Some_Dir/SKILL.md"
printf '{"$schema":"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json","mcpServers":{"odd name!\\u00e9\\u001b[2J":{"type":"stdio","command":"node","args":["${PLUGIN_ROOT}/s.js"],"cwd":"${PLUGIN_DATA}"},"bad":{"type":"sse","url":"http://example.com/sse"}}}' >"$TMP/h/mcp.json"
expect_status 1 "$CLAWPORT" verify "$TMP/h"
expect_grep out 'loads, but a client skips part of it'
expect_grep out 'error \[skill\] skills/Some_Dir/SKILL.md'
expect_grep out 'error \[server\] mcp.json:mcpServers.bad'
expect_grep out 'warning \[field\] plugin.json:extra'
if grep -q $'\x1b' "$TMP/out"; then echo "FAIL: an escape reached the terminal"; failures=$((failures + 1)); fi
expect_status 1 "$CLAWPORT" verify "$TMP/h" --json
expect_grep out '"scope": "skill"'
expect_status 0 "$CLAWPORT" convert "$TMP/h" --to zeroclaw --out "$TMP/hb"
expect_grep out 'dropped  skills/Some_Dir/SKILL.md'
expect_grep out 'changed  plugin.json:name'
expect_grep out 'dropped  mcp.json:mcpServers.odd name'
expect_status 0 "$CLAWPORT" verify "$TMP/hb"
[ -f "$TMP/hb/skills/acme_tools/good/SKILL.md" ] || { echo "FAIL: skills/acme_tools/good"; failures=$((failures + 1)); }
# a plugin that does not load is refused, nothing written
mkdir -p "$TMP/bad" "$TMP/bout"
printf '{"$schema":"https://agent-plugins.org/schemas/1.1.0/plugin.schema.json","name":"x"}' >"$TMP/bad/plugin.json"
expect_status 1 "$CLAWPORT" verify "$TMP/bad"
expect_grep out 'does not load'
expect_status 1 "$CLAWPORT" convert "$TMP/bad" --to zeroclaw --out "$TMP/bout/b"
expect_grep err 'does not load'
[ -z "$(ls -A "$TMP/bout")" ] || { echo "FAIL: a refusal wrote"; failures=$((failures + 1)); }

# a secret in args: refused, not echoed, nothing written
mkdir -p "$TMP/leak"
printf '{"$schema":"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json","name":"leak"}' >"$TMP/leak/plugin.json"
printf '{"$schema":"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json","mcpServers":{"s":{"type":"stdio","command":"npx","args":["--api-key","sk-live-plugin-secret-0123456789"]}}}' >"$TMP/leak/mcp.json"
expect_status 1 "$CLAWPORT" convert "$TMP/leak" --to zeroclaw --out "$TMP/bout/l"
expect_grep err 'mcpServers.s.args\[1\]'
if grep -q 'plugin-secret' "$TMP/err"; then echo "FAIL: the secret was echoed"; failures=$((failures + 1)); fi
[ -z "$(ls -A "$TMP/bout")" ] || { echo "FAIL: a refusal wrote"; failures=$((failures + 1)); }

# 1,000 skills: all verified, all carried, the bundle verifies
mkdir -p "$TMP/k"
printf '{"$schema":"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json","name":"many"}' >"$TMP/k/plugin.json"
for i in $(seq 1 1000); do
  mkdir "$TMP/k/skills" 2>/dev/null; mkdir "$TMP/k/skills/s$i"
  printf -- '---\nname: s%s\ndescription: Skill %s.\n---\n' "$i" "$i" >"$TMP/k/skills/s$i/SKILL.md"
done
expect_status 0 "$CLAWPORT" verify "$TMP/k"
expect_grep out 'skills:   1000 load'
expect_status 0 "$CLAWPORT" convert "$TMP/k" --to zeroclaw --out "$TMP/kb"
expect_status 0 "$CLAWPORT" verify "$TMP/kb"
[ "$(ls "$TMP/kb/skills/many" | wc -l)" = 1000 ] || { echo "FAIL: not 1000 skills"; failures=$((failures + 1)); }

finish
