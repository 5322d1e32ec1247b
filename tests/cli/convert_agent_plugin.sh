# SPDX-License-Identifier: MIT
# `clawport convert --to agent-plugin` end to end (issue 46): the example install's
# `researcher` to one Agent Plugins 1.0.0 plugin that the spec's own JSON Schemas accept
# (ajv, Draft 2020-12, installed from npm into the temporary directory: exit 77 when npm is
# unreachable), with no secret and no other format's manifest; --dry-run and --json write
# nothing; a credential in args is refused with nothing written.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1796083200

command -v npm >/dev/null && command -v node >/dev/null || { echo "skipped: no node/npm"; exit 77; }
npm install --prefix "$TMP/ajv" ajv@8 ajv-formats@3 --no-audit --no-fund --silent >/dev/null 2>&1 ||
  { echo "skipped: npm cannot install ajv (registry unreachable)"; exit 77; }
validate() { node "$REPO/tests/plugins/validate.js" "$TMP/ajv/node_modules" "$REPO/tests/plugins/schemas" "$@"; }

# the schemas themselves reject what a plugin must not be (the oracle is not vacuous)
mkdir -p "$TMP/neg"
printf '{"$schema":"https://agent-plugins.org/schemas/1.1.0/plugin.schema.json","name":"My_Plugin"}' >"$TMP/neg/plugin.json"
printf '{"$schema":"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json","mcpServers":{"a":{"type":"http","url":"x"}}}' >"$TMP/neg/mcp.json"
expect_status 1 validate "$TMP/neg"
expect_grep out 'FAIL: .*plugin.json'
expect_grep out 'FAIL: .*mcp.json'

cp -r "$REPO/examples/zeroclaw-install" "$TMP/inst"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/inst/config.toml" --out "$TMP/rb"

# the dry run reports and writes nothing
expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to agent-plugin --out "$TMP/p" --dry-run
expect_grep out 'dry run, nothing written'
expect_grep out 'Agent Plugins 1.0.0 plugin'
[ ! -e "$TMP/p" ] || { echo "FAIL: the dry run wrote"; failures=$((failures + 1)); }
expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to agent-plugin --out "$TMP/p" --dry-run --json
expect_grep out '"direction": "agent-plugin"'
[ ! -e "$TMP/p" ] || { echo "FAIL: the dry run wrote"; failures=$((failures + 1)); }

expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to agent-plugin --out "$TMP/p"
expect_grep out 'dropped  mcp.servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN'
expect_status 0 validate "$TMP/p"
expect_grep out "valid: $TMP/p/plugin.json"
expect_grep out "valid: $TMP/p/mcp.json"
for f in .claude-plugin .codex-plugin .cursor-plugin openclaw.plugin.json; do
  [ ! -e "$TMP/p/$f" ] || { echo "FAIL: $f written"; failures=$((failures + 1)); }
done
# no secret of the install reaches the plugin: no ciphertext, no env or headers at all
if grep -rq 'enc2:' "$TMP/p"; then echo "FAIL: ciphertext in the plugin"; failures=$((failures + 1)); fi
if grep -q '"env"\|"headers"' "$TMP/p/mcp.json"; then echo "FAIL: env/headers written"; failures=$((failures + 1)); fi
grep -q '"GITHUB_PERSONAL_ACCESS_TOKEN"' "$TMP/p/plugin.json" ||
  { echo "FAIL: the required secret is not named"; failures=$((failures + 1)); }
# every skill directory is a valid Agent Skills name and its SKILL.md names it
for d in "$TMP/p"/skills/*/; do
  n=$(basename "$d")
  printf '%s' "$n" | grep -Eq '^[a-z0-9]+(-[a-z0-9]+)*$' || { echo "FAIL: skill dir $n"; failures=$((failures + 1)); }
  grep -q "^name: $n\$" "$d/SKILL.md" || { echo "FAIL: $n/SKILL.md does not name it"; failures=$((failures + 1)); }
done

# a Claw package as the source (the example Claw): the schemas accept what it writes too
expect_status 0 "$CLAWPORT" convert "$REPO/examples/openclaw-claw" --to agent-plugin --out "$TMP/cp"
expect_status 0 validate "$TMP/cp"
expect_grep out "valid: $TMP/cp/mcp.json"

# determinism
expect_status 0 "$CLAWPORT" convert "$TMP/rb" --to agent-plugin --out "$TMP/p2"
[ "$(tree_state "$TMP/p")" = "$(tree_state "$TMP/p2")" ] || { echo "FAIL: not deterministic"; failures=$((failures + 1)); }

# hostile names: a server name with odd bytes, a skill named unlike its directory; still valid
make_researcher_install "$TMP/odd" '
[mcp_bundles.tools]
servers = ["odd name!\u00e9"]

[[mcp.servers]]
name = "odd name!\u00e9"
command = "/opt/bin/tool-mcp"

[skill_bundles.kit]'
sed -i 's/^risk_profile = "guarded"$/risk_profile = "guarded"\nmcp_bundles = ["tools"]\nskill_bundles = ["kit"]/' "$TMP/odd/config.toml"
mkdir -p "$TMP/odd/shared/skills/kit/Some_Dir"
printf -- '---\nname: Other_Name\ndescription: Named unlike its directory.\ntags: [a, b]\n---\nBody.\n' \
  >"$TMP/odd/shared/skills/kit/Some_Dir/SKILL.md"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/odd/config.toml" --out "$TMP/ob"
expect_status 0 "$CLAWPORT" convert "$TMP/ob" --to agent-plugin --out "$TMP/op"
expect_status 0 validate "$TMP/op"
[ -f "$TMP/op/skills/other-name/SKILL.md" ] || { echo "FAIL: skills/other-name"; failures=$((failures + 1)); }
grep -q '"odd-name-"' "$TMP/op/mcp.json" || { echo "FAIL: server name"; failures=$((failures + 1)); }

# a credential in an MCP server's args: refused, nothing written, the value not echoed
make_researcher_install "$TMP/leak" '
[mcp_bundles.tools]
servers = ["leaky"]

[[mcp.servers]]
name = "leaky"
command = "npx"
args = ["-y", "@acme/mcp", "--api-key", "sk-live-cli-secret-0123456789"]'
sed -i 's/^risk_profile = "guarded"$/risk_profile = "guarded"\nmcp_bundles = ["tools"]/' "$TMP/leak/config.toml"
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/leak/config.toml" --out "$TMP/lb"
mkdir "$TMP/lout"
before=$(tree_state "$TMP/lout")
expect_status 1 "$CLAWPORT" convert "$TMP/lb" --to agent-plugin --out "$TMP/lout/p"
expect_grep err 'mcp.servers.leaky.args\[3\]'
if grep -q 'cli-secret' "$TMP/err"; then echo "FAIL: the secret was echoed"; failures=$((failures + 1)); fi
[ "$before" = "$(tree_state "$TMP/lout")" ] || { echo "FAIL: a refusal wrote"; failures=$((failures + 1)); }

finish
