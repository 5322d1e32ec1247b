# SPDX-License-Identifier: MIT
# Refusals about the workspace declarations and the package itself: `claws inspect --json`
# against `claw inspect --json`.
. "$ORACLE_REPO/tests/oracle/lib.sh"
H=$CASE_TMP/home
mkdir -p "$H"
refused() {  # refused NAME: the manifest on stdin (files the package needs made before)
  write_claw "$CASE_TMP/$1"
  pair "$1" "$H" -- claws inspect --json "$CASE_TMP/$1" -- claw inspect --json "$CASE_TMP/$1"
  compare_pair "refused $1: inspect" "$1" "$F_ERROR_MEMBER"
}
echo outside >"$CASE_TMP/outside.md"
refused escaping-source <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
workspace:
  files:
    - source: ../outside.md
      path: notes.md
    - source: /etc/hostname
      path: host.md
---
EOF
mkdir -p "$CASE_TMP/reserved/src"
echo x >"$CASE_TMP/reserved/src/a.md"
refused reserved <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
workspace:
  files:
    - source: src/a.md
      path: BOOTSTRAP.md
    - source: src/a.md
      path: Notes.md
    - source: src/a.md
      path: notes.md
---
EOF
refused missing-source <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
workspace:
  bootstrapFiles:
    AGENTS.md:
      source: src/missing.md
---
EOF
refused bad-yaml <<'EOF'
---
schemaVersion: 1
agent: [unclosed
---
EOF
# package.json without openclaw.claw, and a package with no CLAW.md.
mkdir -p "$CASE_TMP/no-pointer" "$CASE_TMP/no-manifest"
printf -- '---\nschemaVersion: 1\nagent:\n  id: demo\n---\n' >"$CASE_TMP/no-pointer/CLAW.md"
printf '{"name": "no-pointer", "version": "1.0.0"}\n' >"$CASE_TMP/no-pointer/package.json"
pair no-pointer "$H" -- claws inspect --json "$CASE_TMP/no-pointer" -- claw inspect --json "$CASE_TMP/no-pointer"
compare_pair "refused no-pointer: inspect" no-pointer "$F_ERROR_MEMBER"
printf '{"name": "no-manifest", "version": "1.0.0", "openclaw": {"claw": "CLAW.md"}}\n' >"$CASE_TMP/no-manifest/package.json"
pair no-manifest "$H" -- claws inspect --json "$CASE_TMP/no-manifest" -- claw inspect --json "$CASE_TMP/no-manifest"
compare_pair "refused no-manifest: inspect" no-manifest "$F_ERROR_MEMBER"
# Hostile: the manifest a symlink out of the package; a source that is a symlink.
mkdir -p "$CASE_TMP/link-manifest" "$CASE_TMP/link-source/src"
printf -- '---\nschemaVersion: 1\nagent:\n  id: demo\n---\n' >"$CASE_TMP/elsewhere.md"
ln -s "$CASE_TMP/elsewhere.md" "$CASE_TMP/link-manifest/CLAW.md"
printf '{"name": "link-manifest", "version": "1.0.0", "openclaw": {"claw": "CLAW.md"}}\n' >"$CASE_TMP/link-manifest/package.json"
pair link-manifest "$H" -- claws inspect --json "$CASE_TMP/link-manifest" -- claw inspect --json "$CASE_TMP/link-manifest"
compare_pair "hostile: CLAW.md a symlink out of the package" link-manifest "$F_ERROR_MEMBER"
ln -s "$CASE_TMP/outside.md" "$CASE_TMP/link-source/src/notes.md"
write_claw "$CASE_TMP/link-source" <<'EOF'
---
schemaVersion: 1
agent:
  id: demo
workspace:
  files:
    - source: src/notes.md
      path: notes.md
---
EOF
inspect_and_plan link-source "$H"
