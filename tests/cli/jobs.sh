# SPDX-License-Identifier: MIT
# `--jobs N` (issue 25; convert: issue 48): export, verify, import and convert on several
# threads print, write and install exactly what one thread does; a bundle changed after its
# verify is refused with jobs too, nothing installed.
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1786493040

# same_as_one_job <what> <prefix> <suffix>: the file <prefix>N<suffix> of --jobs 2 and 4 is
# byte for byte that of --jobs 1
same_as_one_job() {
  local j
  for j in 2 4; do
    cmp -s "${2}1$3" "$2$j$3" || { echo "FAIL: $1 of --jobs $j differs"; failures=$((failures + 1)); }
  done
}

make_researcher_install "$TMP/install"
WS=$TMP/install/agents/researcher/workspace
for d in 0 1 2 3 4 5; do
  mkdir -p "$WS/notes/d$d/deeper"
  for i in $(seq 0 24); do
    head -c $(((i * 613 + d * 97) % 9000)) /dev/zero | tr '\0' "$(printf "\\$(printf '%03o' $((97 + i)))")" \
      >"$WS/notes/d$d/n$i.md"
  done
  printf 'deep %s\n' "$d" >"$WS/notes/d$d/deeper/leaf.md"
done

# export: the same bundle (every byte), the same --json and text but for the destination
for j in 1 2 4; do
  expect_status 0 "$CLAWPORT" export researcher --config "$TMP/install/config.toml" \
    --out "$TMP/b$j/bundle" --no-sync --json --jobs "$j"
  sed "s|$TMP/b$j/bundle|<out>|g" "$TMP/out" >"$TMP/export-$j.json"
  expect_status 0 "$CLAWPORT" export researcher --config "$TMP/install/config.toml" \
    --out "$TMP/t$j/bundle" --no-sync --jobs "$j"
  sed "s|$TMP/t$j/bundle|<out>|g" "$TMP/out" >"$TMP/export-$j.txt"
  tree_state "$TMP/b$j/bundle" >"$TMP/bundle-$j.state"
done
grep -q 'notes/d5/deeper/leaf.md' "$TMP/b1/bundle/zeroclaw-agent.sha256" ||
  { echo "FAIL: the digest list lacks the workspace's files"; failures=$((failures + 1)); }
same_as_one_job "the bundle" "$TMP/bundle-" .state
same_as_one_job "the digest list" "$TMP/b" /bundle/zeroclaw-agent.sha256
same_as_one_job "export --json" "$TMP/export-" .json
same_as_one_job "export's text" "$TMP/export-" .txt

# convert (issue 48 item 5): the same package, plugin and bundle back (every byte), the same
# --json but for the destination, for --jobs 1, 2 and 4; the option is in --help
expect_status 0 "$CLAWPORT" convert --help
expect_grep out '--jobs'
for j in 1 2 4; do
  mkdir -p "$TMP/c$j"
  expect_status 0 "$CLAWPORT" convert "$TMP/b1/bundle" --to claw --allow-narrowing \
    --out "$TMP/c$j/claw" --json --jobs "$j"
  sed "s|$TMP/c$j/claw|<out>|g" "$TMP/out" >"$TMP/convert-$j.json"
  tree_state "$TMP/c$j/claw" >"$TMP/claw-$j.state"
  expect_status 0 "$CLAWPORT" convert "$TMP/b1/bundle" --to agent-plugin \
    --out "$TMP/c$j/plugin" --jobs "$j"
  tree_state "$TMP/c$j/plugin" >"$TMP/plugin-$j.state"
  expect_status 0 "$CLAWPORT" convert "$TMP/c1/claw" --to zeroclaw --out "$TMP/c$j/back" --jobs "$j"
  tree_state "$TMP/c$j/back" >"$TMP/back-$j.state"
done
grep -q 'notes/d5/deeper/leaf.md' "$TMP/claw-1.state" ||
  { echo "FAIL: the Claw lacks the workspace's files"; failures=$((failures + 1)); }
same_as_one_job "convert --to claw" "$TMP/claw-" .state
same_as_one_job "convert --to claw --json" "$TMP/convert-" .json
same_as_one_job "convert --to agent-plugin" "$TMP/plugin-" .state
same_as_one_job "convert --to zeroclaw" "$TMP/back-" .state
expect_status 2 "$CLAWPORT" convert "$TMP/b1/bundle" --to claw --out "$TMP/c0" --jobs 0
[ ! -e "$TMP/c0" ] || { echo "FAIL: bad usage wrote"; failures=$((failures + 1)); }

# verify: the same report, clean and tampered
verify_all() { # <tag> <status>
  for j in 1 2 4; do
    expect_status "$2" "$CLAWPORT" verify "$TMP/b1/bundle" --json --jobs "$j"
    cp "$TMP/out" "$TMP/verify-$1-$j.json"
    expect_status "$2" "$CLAWPORT" verify "$TMP/b1/bundle" --jobs "$j"
    cp "$TMP/out" "$TMP/verify-$1-$j.txt"
  done
  same_as_one_job "verify --json ($1)" "$TMP/verify-$1-" .json
  same_as_one_job "verify's text ($1)" "$TMP/verify-$1-" .txt
}
verify_all clean 0
cp -a "$TMP/b1/bundle" "$TMP/saved"
printf 'tampered' >"$TMP/b1/bundle/workspace/notes/d2/n3.md"
printf 'unlisted' >"$TMP/b1/bundle/workspace/notes/d4/extra.md"
rm "$TMP/b1/bundle/workspace/notes/d1/n7.md"
verify_all tampered 1
grep -q 'notes/d2/n3.md' "$TMP/verify-tampered-1.txt" ||
  { echo "FAIL: the tampered file is not reported"; failures=$((failures + 1)); }
rm -rf "$TMP/b1/bundle" && mv "$TMP/saved" "$TMP/b1/bundle"

# import: the same plan (text, JSON, integrity), the same result and the same install (each
# into the same target, which the plan names; the install is moved aside after each)
for j in 1 2 4; do
  mkdir -p "$TMP/dst" && printf 'schema_version = 3\n' >"$TMP/dst/config.toml"
  expect_status 0 "$CLAWPORT" import "$TMP/b1/bundle" --config "$TMP/dst/config.toml" --json --jobs "$j"
  cp "$TMP/out" "$TMP/plan-$j.json"
  expect_status 0 "$CLAWPORT" import "$TMP/b1/bundle" --config "$TMP/dst/config.toml" --jobs "$j"
  # the closing line repeats the command as typed, --jobs with it
  sed 's/ --jobs [0-9]* / /' "$TMP/out" >"$TMP/plan-$j.txt"
  integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/plan-$j.json")
  expect_status 0 "$CLAWPORT" import "$TMP/b1/bundle" --config "$TMP/dst/config.toml" --jobs "$j" \
    --yes --plan-integrity "$integrity" --json
  cp "$TMP/out" "$TMP/result-$j.json"
  tree_state "$TMP/dst" >"$TMP/installed-$j.state"
  mv "$TMP/dst" "$TMP/dst$j"
done
[ -f "$TMP/dst1/agents/researcher/workspace/notes/d5/deeper/leaf.md" ] ||
  { echo "FAIL: the import did not install the workspace"; failures=$((failures + 1)); }
same_as_one_job "the import plan (--json)" "$TMP/plan-" .json
same_as_one_job "the import plan" "$TMP/plan-" .txt
same_as_one_job "the import result" "$TMP/result-" .json
same_as_one_job "the install" "$TMP/installed-" .state

# a file rewritten at its size after the plan was shown: refused by the copy, nothing installed
mkdir -p "$TMP/late" && printf 'schema_version = 3\n' >"$TMP/late/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/b2/bundle" --config "$TMP/late/config.toml" --json --jobs 2
integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
size=$(stat -c %s "$TMP/b2/bundle/workspace/notes/d3/n9.md")
head -c "$size" /dev/zero | tr '\0' Z >"$TMP/b2/bundle/workspace/notes/d3/n9.md"
before=$(tree_state "$TMP/late")
expect_status 1 "$CLAWPORT" import "$TMP/b2/bundle" --config "$TMP/late/config.toml" --jobs 2 \
  --yes --plan-integrity "$integrity"
expect_grep err 'changed after it was verified'
expect_grep err 'notes/d3/n9.md'
[ "$(tree_state "$TMP/late")" = "$before" ] || { echo "FAIL: a refused import wrote"; failures=$((failures + 1)); }

# the option's checks
expect_status 2 "$CLAWPORT" verify "$TMP/b1/bundle" --jobs 0
expect_status 2 "$CLAWPORT" verify "$TMP/b1/bundle" --jobs x


# Review B1: many one-file directories under a low descriptor limit. Each file in work keeps
# its directories open, so how many are in work follows RLIMIT_NOFILE: export, verify and
# import with four jobs succeed where one job does (before: "too many open files").
make_researcher_install "$TMP/fd"
for i in $(seq -w 0 299); do
  mkdir -p "$TMP/fd/agents/researcher/workspace/many/d$i"
  head -c 65536 /dev/zero >"$TMP/fd/agents/researcher/workspace/many/d$i/f.bin"
done
low_fds() { sh -c "ulimit -n $1 && shift && exec \"\$@\"" low_fds "$@"; }
expect_status 0 "$CLAWPORT" export researcher --config "$TMP/fd/config.toml" \
  --out "$TMP/fdb/bundle" --no-sync --jobs 1
expect_status 0 low_fds 64 "$CLAWPORT" export researcher --config "$TMP/fd/config.toml" \
  --out "$TMP/fdl/bundle" --no-sync --jobs 4
expect_status 0 low_fds 40 "$CLAWPORT" verify "$TMP/fdb/bundle" --jobs 4
mkdir -p "$TMP/fdi" && printf 'schema_version = 3\n' >"$TMP/fdi/config.toml"
expect_status 0 "$CLAWPORT" import "$TMP/fdb/bundle" --config "$TMP/fdi/config.toml" --json --jobs 4
integrity=$(sed -n 's/.*"plan_integrity": "\(sha256:[0-9a-f]*\)".*/\1/p' "$TMP/out")
expect_status 0 low_fds 64 "$CLAWPORT" import "$TMP/fdb/bundle" --config "$TMP/fdi/config.toml" \
  --jobs 4 --yes --plan-integrity "$integrity"
[ "$(find "$TMP/fdi" -name f.bin | wc -l)" = 300 ] ||
  { echo "FAIL: the import under a low descriptor limit did not install every file"; failures=$((failures + 1)); }

finish
