# SPDX-License-Identifier: MIT
# Every manifest feature (cron jobs, profile, metadata, development sources), one small package each: `claws inspect --json` and
# `claws add --dry-run --json` against `claw inspect --json` and `claw add --dry-run --json`.
# No ClawHub packages here (offline each costs OpenClaw 14 s of retries): packages.sh has them.
. "$ORACLE_REPO/tests/oracle/lib.sh"
H=$CASE_TMP/home
mkdir -p "$H"
both() { inspect_and_plan "$1" "$H"; }

write_claw "$CASE_TMP/cron" <<'EOF'
---
schemaVersion: 1
agent:
  id: cron-agent
cronJobs:
  - id: daily
    name: Daily digest
    schedule:
      cron: "0 9 * * 1-5"
      timezone: America/New_York
    session: isolated
    message: Summarize.
    delivery:
      mode: announce
      channel: last
  - id: weekly
    schedule:
      cron: "30 16 * * 5"
      timezone: UTC
    session: main
    message: Review.
    delivery:
      mode: none
---
EOF
both cron

mkdir -p "$CASE_TMP/profile/profiles"
cat >"$CASE_TMP/profile/profiles/openclaw.yml" <<'EOF'
schemaVersion: 1
agent:
  groupChat:
    mentionPatterns: ["@p"]
  sandbox:
    mode: all
    scope: agent
    workspaceAccess: ro
  memory:
    search:
      enabled: true
      sources: [memory]
  heartbeat:
    every: 30m
    lightContext: true
  humanDelay:
    mode: natural
EOF
write_claw "$CASE_TMP/profile" <<'EOF'
---
schemaVersion: 1
agent:
  id: profile-agent
metadata:
  com.example.team: platform
---
EOF
both profile

write_claw "$CASE_TMP/metadata" <<'EOF'
---
schemaVersion: 1
agent:
  id: meta-agent
metadata:
  com.example.category: ops
  com.example.tier: "2"
---
EOF
both metadata

# A standalone manifest (a development source, `local:<name>`), Markdown and JSON.
mkdir -p "$CASE_TMP/dev"
cat >"$CASE_TMP/dev/CLAW.md" <<'EOF'
---
schemaVersion: 1
agent:
  id: dev-agent
---
Dev body.
EOF
pair dev-md-inspect "$H" -- claws inspect --json "$CASE_TMP/dev/CLAW.md" -- claw inspect --json "$CASE_TMP/dev/CLAW.md"
compare_pair "development CLAW.md: inspect" dev-md-inspect
cat >"$CASE_TMP/dev/agent.claw.json" <<'EOF'
{"schemaVersion": 1, "agent": {"id": "dev-json"}}
EOF
pair dev-json-inspect "$H" -- claws inspect --json "$CASE_TMP/dev/agent.claw.json" -- claw inspect --json "$CASE_TMP/dev/agent.claw.json"
compare_pair "development agent.claw.json: inspect" dev-json-inspect
pair dev-json-plan "$H" -- claws add --dry-run --json "$CASE_TMP/dev/agent.claw.json" -- claw add --dry-run --json "$CASE_TMP/dev/agent.claw.json"
compare_pair "development agent.claw.json: add --dry-run" dev-json-plan
