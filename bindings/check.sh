#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bindings' gate (run by .ci/run): the C header compiles as C99; the error codes of the
# bindings are what tools/gen_error_codes.py makes of errc; the C test program passes under
# ASan+UBSan and clean under valgrind; the C link lines of docs/vendoring.md ("Linking C")
# work as written (by hand, pkg-config and CMake after `cmake --install`); `cargo test
# --offline` passes in bindings/rust/ (the example's hand-off among its tests), every public
# item of the crate is documented (`cargo doc` with -Dwarnings); the example exports
# `researcher` from examples/zeroclaw-install and imports it into a fresh install, and runs
# the hand-off (`agents handoff`: export signed, verify with the signature, import plan,
# apply, status). The C ABI is compiled both ways: as its one unity TU (clawport.cpp: the
# sanitized test, the "by hand" link line) and as the parts build.rs and CMake compile in
# parallel. Installs Debian's valgrind, cargo and pkg-config when missing.
#   bindings/check.sh            (CXX, CC honoured; CXX may carry a launcher: "ccache g++")
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
CXX=${CXX:-g++}
CC=${CC:-gcc}
work=$(mktemp -d "${TMPDIR:-/tmp}/clawport-bindings.XXXXXX")
trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }

# Debian packages this check needs beyond tools/install-deps.sh ci.
missing=()
command -v valgrind >/dev/null || missing+=(valgrind)
command -v cargo >/dev/null || missing+=(cargo)
command -v pkg-config >/dev/null || missing+=(pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      sudo=(sudo)
    else
      echo "bindings/check.sh needs: apt-get install ${missing[*]}" >&2
      exit 1
    fi
  fi
  echo "installing: ${missing[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

step "the header is C99 (gcc -std=c99 -Wall -Wextra -Werror -pedantic)"
for cc in "$CC" clang; do
  command -v "${cc##* }" >/dev/null || continue
  $cc -std=c99 -Wall -Wextra -Werror -pedantic -fsyntax-only -x c bindings/c/clawport.h
  $cc -std=c99 -Wall -Wextra -Werror -pedantic -DCLAWPORT_NO_SHORT_NAMES -fsyntax-only -x c \
    bindings/c/clawport.h
  echo "ok: $cc"
done

step "the error codes are generated from errc (tools/gen_error_codes.py --check)"
python3 tools/gen_error_codes.py --check
echo "ok: fresh"

# The C test program: the C++ TU (or an object of it already built) and test.c, linked.
build() {  # build <name> <object of clawport.cpp, or ""> <flags...>
  local name=$1 obj=$2
  shift 2
  if [ -z "$obj" ]; then
    obj=$work/$name-clawport.o
    $CXX -std=c++17 -O0 -g1 -Wall -Wextra -Wpedantic -Werror "$@" -Iinclude \
      -c bindings/c/clawport.cpp -o "$obj"
  fi
  $CC -std=c99 -O0 -g1 -Wall -Wextra -Werror -pedantic "$@" -c bindings/c/test.c \
    -o "$work/$name-test.o"
  $CXX "$@" -pthread "$work/$name-test.o" "$obj" -lsodium -o "$work/$name-test"
}

step "C test under ASan+UBSan"
build asan "" -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$work/asan-test" "$root"

# The crate's build.rs compiles the same TU at -O0 (the dev profile); with these flags added
# its archive is also the plain build the valgrind run links, so the TU is compiled twice
# (sanitized, plain), not three times.
# Every cargo command below runs with the same CXX and CLAWPORT_CXXFLAGS: build.rs reruns (and
# recompiles the C ABI, ~50 s of CPU) whenever one of them changes (issue 48: cargo doc ran
# without them, and the example's build then compiled it a third time).
crate_env=(CXX="$CXX" CLAWPORT_CXXFLAGS="-g1 -Wpedantic -Werror")
step "cargo test --offline ($(cargo --version))"
cd "$root/bindings/rust"
env "${crate_env[@]}" cargo test --offline
target=$(cargo metadata --offline --format-version 1 --no-deps |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
archive=$(ls -t "$target"/debug/build/clawport-*/out/libclawport_c.a | head -1)

step "cargo doc --offline: every public item documented, no warning"
env "${crate_env[@]}" RUSTDOCFLAGS=-Dwarnings cargo doc --offline --no-deps
cd "$root"

step "C test under valgrind (linked with the crate's archive: $archive)"
build plain "$archive"
valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
  --errors-for-leak-kinds=definite,indirect --track-fds=no -q "$work/plain-test" "$root"

# The fenced block after `<!-- bindings/check.sh: NAME -->` in docs/vendoring.md.
doc_block() {
  local text
  text=$(awk -v m="<!-- bindings/check.sh: $1 -->" '
    $0 == m { found = 1; next }
    found == 1 && /^```/ { found = 2; next }
    found == 2 && /^```/ { exit }
    found == 2 { print }' docs/vendoring.md)
  [ -n "$text" ] || { echo "FAIL: docs/vendoring.md has no block $1" >&2; exit 1; }
  printf '%s\n' "$text"
}
# `g++` and `gcc` of the blocks are $CXX and $CC (a launcher kept, the compiler resolved).
wrap() {  # wrap <name> <command words...>
  local name=$1
  shift
  local words=("$@")
  words[${#words[@]} - 1]=$(command -v "${words[${#words[@]} - 1]}")
  printf '#!/bin/sh\nexec %s "$@"\n' "${words[*]}" >"$work/bin/$name"
  chmod +x "$work/bin/$name"
}
read -ra cxx_words <<<"$CXX"
read -ra cc_words <<<"$CC"
mkdir -p "$work/bin"
wrap g++ "${cxx_words[@]}"
wrap gcc "${cc_words[@]}"

step "Linking C by hand, as docs/vendoring.md writes it"
mkdir -p "$work/by-hand" && cp bindings/c/test.c "$work/by-hand/main.c"
doc_block c-by-hand >"$work/by-hand.sh"
(cd "$work/by-hand" && PATH="$work/bin:$PATH" CLAWPORT=$root bash -euo pipefail "$work/by-hand.sh")
"$work/by-hand/main" "$root"

step "Linking C after cmake --install: pkg-config and clawport::c, as docs/vendoring.md writes it"
export PREFIX=$work/prefix CLAWPORT=$root
doc_block c-install >"$work/install.sh"
# CMake chooses its compiler from CXX/CC (without a launcher: it adds ccache itself).
(cd "$work" && CXX=${cxx_words[${#cxx_words[@]} - 1]} CC=${cc_words[${#cc_words[@]} - 1]} \
  bash -euo pipefail "$work/install.sh" >"$work/install.log") ||
  { cat "$work/install.log" >&2; exit 1; }
mkdir -p "$work/pc" && cp bindings/c/test.c "$work/pc/main.c"
doc_block c-pkg-config >"$work/pc.sh"
(cd "$work/pc" && PATH="$work/bin:$PATH" bash -euo pipefail "$work/pc.sh")
"$work/pc/main" "$root"
mkdir -p "$work/app" && cp bindings/c/test.c "$work/app/main.c"
doc_block c-cmake >"$work/app/CMakeLists.txt"
(cd "$work/app" && CC=${cc_words[${#cc_words[@]} - 1]} cmake -S . -B build \
  -DCMAKE_PREFIX_PATH="$PREFIX" >/dev/null && cmake --build build >/dev/null)
"$work/app/build/app" "$root"

step "the example: agents export researcher, agents import into a fresh install, agents handoff"
cd "$root/bindings/rust"
env "${crate_env[@]}" cargo build --offline --example agents
agents=$target/debug/examples/agents
"$agents" export researcher --out "$work/bundle" --config "$root/examples/zeroclaw-install/config.toml"
mkdir -p "$work/fresh" && printf 'schema_version = 3\n' >"$work/fresh/config.toml"
"$agents" import "$work/bundle" --config "$work/fresh/config.toml" | tee "$work/plan.txt"
[ "$(ls -A "$work/fresh")" = config.toml ] || { echo "FAIL: the plan wrote" >&2; exit 1; }
integrity=$(sed -n 's/.*--yes \(sha256:[0-9a-f]*\)$/\1/p' "$work/plan.txt")
"$agents" import "$work/bundle" --config "$work/fresh/config.toml" --yes "$integrity"
grep -q '^\[agents\.researcher\]' "$work/fresh/config.toml" ||
  { echo "FAIL: researcher not in the fresh install's config" >&2; exit 1; }
"$agents" handoff "$work/handoff" "$root" | tee "$work/handoff.txt"
grep -q '^hand-off done: `researcher` signed by alice@example.org' "$work/handoff.txt" ||
  { echo "FAIL: the hand-off did not finish" >&2; exit 1; }
echo "ok: bindings"
