# SPDX-License-Identifier: MIT
# Every manifest feature (agent, body, workspace files), one small package each: `claws inspect --json` and
# `claws add --dry-run --json` against `claw inspect --json` and `claw add --dry-run --json`.
# No ClawHub packages here (offline each costs OpenClaw 14 s of retries): packages.sh has them.
. "$ORACLE_REPO/tests/oracle/lib.sh"
H=$CASE_TMP/home
mkdir -p "$H"
both() { inspect_and_plan "$1" "$H"; }

write_claw "$CASE_TMP/minimal" <<'EOF'
---
schemaVersion: 1
agent:
  id: minimal
---
EOF
both minimal

write_claw "$CASE_TMP/body" <<'EOF'
---
schemaVersion: 1
agent:
  id: body-agent
  name: Body Agent
  description: Has a prompt body.
---
# Body

You are a careful agent.
EOF
both body

mkdir -p "$CASE_TMP/files/src/deep"
echo "# Agents" >"$CASE_TMP/files/src/AGENTS.md"
echo "# Tools" >"$CASE_TMP/files/src/TOOLS.md"
echo "policy" >"$CASE_TMP/files/src/deep/policy.md"
printf '\x89PNG\r\n\x1a\n' >"$CASE_TMP/files/src/avatar.png"
write_claw "$CASE_TMP/files" "@scope/files-claw" <<'EOF'
---
schemaVersion: 1
agent:
  id: files-agent
  identity:
    name: Files
    emoji: "📁"
    avatar: avatars/files.png
workspace:
  bootstrapFiles:
    TOOLS.md:
      source: src/TOOLS.md
    AGENTS.md:
      source: src/AGENTS.md
  files:
    - source: src/deep/policy.md
      path: reference/policy.md
    - source: src/avatar.png
      path: avatars/files.png
---
Files body.
EOF
both files

