# `clawport skills install --upgrade`, `skills restore`, `skills bundle list|remove` end to
# end on a temporary install: the worked examples of docs/cli.md, refusals (exit 1, nothing
# written), bad usage (exit 2), --json.
. "$(dirname "$0")/lib.sh"
I="$TMP/install"
CFG="$I/config.toml"
mkdir -p "$I"
cat > "$CFG" <<'EOF'
[agents.default]
skill_bundles = ["ops"]
EOF
export SOURCE_DATE_EPOCH=1700000000
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
state() { tree_state "$I"; }
skill() {  # skill <dir> <version>
  mkdir -p "$1/refs"
  printf -- '---\nname: lint\ndescription: Lint the docs\n---\n# Lint %s\n' "$2" > "$1/SKILL.md"
  echo "$2" > "$1/refs/notes.md"
}
"$CLAWPORT" skills bundle add ops --config "$CFG" >/dev/null
"$CLAWPORT" skills bundle add docs --config "$CFG" >/dev/null
skill "$TMP/src/lint" v1
expect_status 0 "$CLAWPORT" skills install "$TMP/src/lint" --config "$CFG"
expect_grep out "Skill installed and audited: $I/shared/skills/ops/lint (2 files scanned)"

# Without --upgrade a taken name is refused, naming --upgrade; nothing written.
skill "$TMP/src/lint" v2
before=$(state)
expect_status 1 "$CLAWPORT" skills install "$TMP/src/lint" --config "$CFG"
expect_grep err "skill 'ops/lint' already exists at $I/shared/skills/ops/lint; nothing was written (--upgrade replaces it"
# A new version that fails the audit is refused by --upgrade; the old one stays.
ln -s /etc/passwd "$TMP/src/lint/pw.md"
expect_status 1 "$CLAWPORT" skills install "$TMP/src/lint" --upgrade --config "$CFG"
expect_grep err "symlinks are not allowed in installed skills"
rm "$TMP/src/lint/pw.md"
[ "$before" = "$(state)" ] || fail "a refused install wrote"

# --upgrade: the new version in place, the old one archived.
expect_status 0 "$CLAWPORT" skills install "$TMP/src/lint" --upgrade --config "$CFG"
expect_grep out "✓ Skill upgraded and audited: $I/shared/skills/ops/lint (2 files scanned)"
expect_grep out "previous version archived at $I/shared/skills/_deleted/ops-lint-1700000000$"
grep -q '# Lint v2' "$I/shared/skills/ops/lint/SKILL.md" || fail "not upgraded"
grep -q '# Lint v1' "$I/shared/skills/_deleted/ops-lint-1700000000/SKILL.md" || fail "old not archived"
[ "$(ls -A "$I/shared/skills/ops")" = "lint" ] || fail "something beside the skill: $(ls -A "$I/shared/skills/ops")"
skill "$TMP/src/lint" v3
expect_status 0 "$CLAWPORT" skills install "$TMP/src/lint" --upgrade --json --config "$CFG"
python3 - "$TMP/out" "$I" <<'PY' || fail "upgrade --json"
import json, sys
d = json.load(open(sys.argv[1])); i = sys.argv[2]
assert d["upgraded"] is True and d["archived_to"] == i + "/shared/skills/_deleted/ops-lint-1700000000.2", d
assert d["files_scanned"] == 2 and d["files_copied"] == 2, d
PY

# restore: refused while the name is taken; after remove, the newest archive comes back.
before=$(state)
expect_status 1 "$CLAWPORT" skills restore lint --config "$CFG"
expect_grep err "skill 'ops/lint' is installed at $I/shared/skills/ops/lint; remove it first"
expect_status 1 "$CLAWPORT" skills restore ghost --config "$CFG"
expect_grep err "no archive of skill 'ghost'"
expect_status 1 "$CLAWPORT" skills restore lint --from ops-lint-9 --config "$CFG"
expect_grep err "is not an archive of skill 'lint'"
expect_status 1 "$CLAWPORT" skills restore lint --json --config "$CFG"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["error"]["code"]=="destination_refused", d' "$TMP/out" || fail "restore refusal --json"
[ "$before" = "$(state)" ] || fail "a refused restore wrote"
expect_status 0 "$CLAWPORT" skills remove lint --purge --config "$CFG"
expect_status 0 "$CLAWPORT" skills restore lint --config "$CFG"
expect_grep out "✓ Skill 'lint' restored into bundle 'ops' at $I/shared/skills/ops/lint"
expect_grep out "from $I/shared/skills/_deleted/ops-lint-1700000000.2$"
expect_grep out "1 older archive(s) kept: ops-lint-1700000000$"
grep -q '# Lint v2' "$I/shared/skills/ops/lint/SKILL.md" || fail "restored the wrong version"
expect_status 0 "$CLAWPORT" skills remove lint --purge --config "$CFG"
expect_status 0 "$CLAWPORT" skills restore lint --from ops-lint-1700000000 --json --config "$CFG"
python3 - "$TMP/out" "$I" <<'PY' || fail "restore --json"
import json, sys
d = json.load(open(sys.argv[1])); i = sys.argv[2]
assert d == {"name": "lint", "bundle": "ops", "directory": i + "/shared/skills/ops/lint",
             "restored_from": i + "/shared/skills/_deleted/ops-lint-1700000000",
             "other_archives": []}, d
PY
grep -q '# Lint v1' "$I/shared/skills/ops/lint/SKILL.md" || fail "--from restored the wrong version"
expect_status 2 "$CLAWPORT" skills restore

# bundle list: directories, skills, agents; --json.
expect_status 0 "$CLAWPORT" skills bundle list --config "$CFG"
expect_grep out "^2 skill bundle(s) in $CFG:"
expect_grep out "^  ops  $I/shared/skills/ops$"
expect_grep out "^    skills: lint$"
expect_grep out "^    agents: default$"
expect_grep out "^    agents: none (no agent loads it)$"
expect_status 0 "$CLAWPORT" skills bundle list --json --config "$CFG"
python3 - "$TMP/out" <<'PY' || fail "bundle list --json"
import json, sys
d = json.load(open(sys.argv[1]))
assert [(b["alias"], b["skills"], b["agents"], b["exists"]) for b in d["bundles"]] == [
    ("docs", [], [], True), ("ops", ["lint"], ["default"], True)], d
PY

# bundle remove: refused while an agent lists it, or unknown; nothing written.
before=$(state)
expect_status 1 "$CLAWPORT" skills bundle remove ops --config "$CFG"
expect_grep err "listed in the skill_bundles of agent(s) default; remove it from agents.default.skill_bundles first; nothing was written"
expect_status 1 "$CLAWPORT" skills bundle remove ghost --config "$CFG"
expect_grep err "skill bundle 'ghost' is not configured (configured: docs, ops)"
expect_status 1 "$CLAWPORT" skills bundle remove ghost --json --config "$CFG"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["error"]["code"]=="not_found", d' "$TMP/out" || fail "bundle remove refusal --json"
expect_status 1 "$CLAWPORT" skills bundle remove docs --config "$TMP/nowhere/config.toml"
[ "$before" = "$(state)" ] || fail "a refused bundle remove wrote"
chmod 600 "$CFG"
cp "$CFG" "$TMP/cfg.before"
expect_status 0 "$CLAWPORT" skills bundle remove docs --config "$CFG"
expect_grep out "✓ removed skill_bundles.docs from $CFG"
expect_grep out "its directory $I/shared/docs stays on disk\|its directory $I/shared/skills/docs stays on disk"
grep -q 'skill_bundles.docs' "$CFG" && fail "table still there"
[ "$(stat -c %a "$CFG")" = 600 ] || fail "mode not kept"
bak=$(ls "$I"/config.toml.bak-* | tail -n 1)
cmp -s "$bak" "$TMP/cfg.before" || fail "backup differs from the previous config"
test -d "$I/shared/skills/docs" || fail "the bundle directory was removed"
expect_status 0 "$CLAWPORT" skills bundle list --config "$CFG"
expect_grep out "^1 skill bundle(s)"
expect_status 2 "$CLAWPORT" skills bundle remove
finish
