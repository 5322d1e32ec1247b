# `clawport skills list|audit` on the example install and on hostile temp trees.
. "$(dirname "$0")/lib.sh"
EX="$REPO/examples/zeroclaw-install"
CFG="$EX/config.toml"

# What researcher loads, in precedence order, and why the others are not loaded.
expect_status 0 "$CLAWPORT" skills list --agent researcher --config "$CFG"
expect_grep out "Agent 'researcher' loads 3 skills"
expect_grep out "^  citation_check  workspace "
expect_grep out "arxiv_search    bundle research_tools  shared/skills/research_tools/arxiv_search/SKILL.toml"
expect_grep out "house_tone      bundle house_style "
expect_grep out "shadowed by 'citation_check' from the workspace"
expect_grep out "pdf_extract .*excluded by skill_bundles.research_tools (not in include)"
expect_grep out "summarize_pdf .*excluded by skill_bundles.research_tools (in exclude)"
expect_grep out "changelog-helper .*failed audit: scripts/release: script-like files are blocked"
expect_grep out "web_clipper .*global only"

# JSON shape.
expect_status 0 "$CLAWPORT" skills list --agent researcher --config "$CFG" --json
python3 - "$TMP/out" <<'PY' || failures=$((failures + 1))
import json, sys
doc = json.load(open(sys.argv[1]))
rows = doc["skills"]
loaded = [r["name"] for r in rows if r["loaded"]]
assert loaded == ["citation_check", "arxiv_search", "house_tone"], loaded
for r in rows:
    assert set(r) >= {"name", "bundle", "path", "loaded", "reason"}, r
    assert (r["reason"] is None) == r["loaded"], r
ws = rows[0]
assert ws["bundle"] is None and ws["origin"] == "workspace", ws
assert any(r["name"] == "summarize_pdf" and r["reason"].endswith("(in exclude)") for r in rows)
PY

# --bundle alone shows the bundle unfiltered; with --agent, the agent's view of it.
expect_status 0 "$CLAWPORT" skills list --bundle research_tools --config "$CFG"
expect_grep out "summarize_pdf "
expect_grep out "include/exclude not applied"
expect_status 0 "$CLAWPORT" skills list --agent researcher --bundle house_style --config "$CFG" --json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["skills"]; assert {x["bundle"] for x in r} == {"house_style"}, r' "$TMP/out" || failures=$((failures + 1))

# ZEROCLAW_CONFIG_DIR supplies the default --config.
ZEROCLAW_CONFIG_DIR="$EX" expect_status 0 "$CLAWPORT" skills list --agent assistant
expect_grep out "Agent 'assistant' loads 0 skills"

# Refusals: unknown agent, unknown bundle, missing config (exit 1); bad usage (exit 2).
expect_status 1 "$CLAWPORT" skills list --agent nobody --config "$CFG"
expect_grep err "agent 'nobody' is not configured"
expect_status 1 "$CLAWPORT" skills list --bundle nope --config "$CFG"
expect_grep err "skill bundle 'nope' is not configured"
expect_status 1 "$CLAWPORT" skills list --config "$TMP/missing/config.toml"
expect_status 2 "$CLAWPORT" skills
expect_status 2 "$CLAWPORT" skills audit
expect_status 2 "$CLAWPORT" skills list --bogus

# audit: clean skill exits 0, blocked script exits 1 unless --allow-scripts.
expect_status 0 "$CLAWPORT" skills audit "$EX/shared/skills/research_tools/arxiv_search"
# files scanned counts files (SKILL.md, SKILL.toml, references/query-syntax.md), not directories
expect_grep out "✓ Skill audit passed for .*arxiv_search (3 files scanned)."
expect_status 1 "$CLAWPORT" skills audit "$EX/shared/skills/house-style/changelog-helper"
expect_grep out "    - scripts/release: script-like files are blocked by skill security policy."
expect_grep err "^clawport: error: the skill audit found a blocking problem"
expect_status 0 "$CLAWPORT" skills audit --allow-scripts "$EX/shared/skills/house-style/changelog-helper"

# Hostile tree: link out, symlink, FIFO, huge Markdown, a TOML tool without command.
S="$TMP/hostile"
mkdir -p "$S/refs"
printf -- '---\nname: h\n---\n[out](../secret.md) [abs](/etc/passwd.md)\n' > "$S/SKILL.md"
echo secret > "$TMP/secret.md"
ln -s /etc "$S/etc-link"
mkfifo "$S/pipe"
head -c 600000 /dev/zero | tr '\0' a > "$S/refs/huge.md"
printf '[[tools]]\nname = "t"\nkind = "builtin"\n' > "$S/tools.toml"
expect_status 1 "$CLAWPORT" skills audit --json "$S" "$EX/shared/skills/house-style/tone"
python3 - "$TMP/out" <<'PY' || failures=$((failures + 1))
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
got = [(x["file"], x["line"], x["blocking"]) for x in f]
assert got == [("SKILL.md", 4, True), ("SKILL.md", 4, True), ("etc-link", None, True),
               ("pipe", None, False), ("refs/huge.md", None, True), ("tools.toml", 1, True)], got
assert f[0]["reason"] == "markdown link escapes skill root (../secret.md).", f[0]
assert all(x["skill"].endswith("hostile") for x in f)
PY
# Unauditable input is a blocking failure, not a crash.
expect_status 1 "$CLAWPORT" skills audit "$TMP/does-not-exist"
expect_grep out "Skill source does not exist"
# Issue 9 items 11, 14, 15, 16: the config as input, and escaped human output.
H="$TMP/hostile-install"
mkdir -p "$H/shared/skills/rt/evil" "$H/dotfiles"
printf '[agents.a]\nskill_bundles = ["rt"]\n[skill_bundles.rt]\n' > "$H/dotfiles/config.toml"
printf -- '---\nname: evil\ndescription: d\n---\nbody\n' > "$H/shared/skills/rt/evil/SKILL.md"
mv "$H/shared/skills/rt/evil" "$H/shared/skills/rt/$(printf 'ev\033[2Kil')"
ln -s "$H/dotfiles/config.toml" "$H/config.toml"
# 16: a symlinked config.toml is followed; the install root is where the name is.
expect_status 0 "$CLAWPORT" skills list --agent a --config "$H/config.toml"
expect_grep out "Agent 'a' loads 1 skill"
# 11: the directory name's escape sequence is printed escaped, never raw.
expect_grep out 'ev\\x1b\[2Kil'
if grep -q "$(printf '\033')" "$TMP/out"; then echo "FAIL: raw ESC in skills list"; failures=$((failures + 1)); fi
# Issue 23: one config reader. `skills new` reads the symlinked config as `skills list` does
# (the skill lands below the install root, where the name is, not in dotfiles/); `skills
# bundle add`, which replaces the config, refuses the link by the writer's rule, nothing
# written.
expect_status 0 "$CLAWPORT" skills new via-link --bundle rt --no-subdirs --config "$H/config.toml"
[ -f "$H/shared/skills/rt/via-link/SKILL.md" ] || { echo "FAIL: skills new did not follow the config link"; failures=$((failures + 1)); }
[ ! -e "$H/dotfiles/shared" ] || { echo "FAIL: skills new wrote below the link's target"; failures=$((failures + 1)); }
cfg_before=$(cat "$H/dotfiles/config.toml")
expect_status 1 "$CLAWPORT" skills bundle add more --config "$H/config.toml"
expect_grep err "config.toml is a symlink; replacing it"
[ "$(cat "$H/dotfiles/config.toml")" = "$cfg_before" ] && [ -L "$H/config.toml" ] || { echo "FAIL: bundle add changed the linked config"; failures=$((failures + 1)); }
rm -rf "$H/shared/skills/rt/via-link"
# 15: a FIFO, /dev/zero and a link to it are refused naming them (exit 1, no hang).
mkfifo "$H/pipe.toml"
expect_status 1 timeout "${CLAWPORT_TEST_TIMEOUT:-20}" "$CLAWPORT" skills list --config "$H/pipe.toml"
expect_grep err "pipe.toml is not a regular file"
expect_status 1 timeout "${CLAWPORT_TEST_TIMEOUT:-20}" "$CLAWPORT" skills list --config /dev/zero
expect_grep err "/dev/zero is not a regular file"
ln -s /dev/urandom "$H/random.toml"
expect_status 1 timeout "${CLAWPORT_TEST_TIMEOUT:-20}" "$CLAWPORT" skills list --config "$H/random.toml"
expect_grep err "a symlink to /dev/urandom"
# 14: a 1,000,000-component dotted key is limit_exceeded naming the file, not a crash.
python3 -c 'import sys; open(sys.argv[1], "w").write("[agents.a]\n" + ".".join(["k"] * 1000000) + " = 1\n")' "$H/deep.toml"
expect_status 1 "$CLAWPORT" skills list --config "$H/deep.toml"
expect_grep err "deep.toml:2: the TOML nests deeper than 128 levels"
finish
