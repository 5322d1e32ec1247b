#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages clawport needs, if any are missing.
#   tools/install-deps.sh [build|ci|bench]
# build: compiler, CMake, Ninja, the library's dependencies, libsodium for the CLI's
#        `secrets set` and python3-cryptography for its test, libsqlite3-dev for the CLI's
#        memory (`--with-memory`, <clawport/sqlite.hpp>) (the default);
# ci:    additionally clang, clang-format and meson for the CI checks, and openssh-client
#        (ssh-keygen, ssh-agent) for the signed-bundle tests (tests/cli/sign.sh), and npm
#        (unless one is installed) for the OpenClaw oracle (tests/oracle/run.sh), zsh and
#        fish for the completion scripts and groff-base for the manual pages
#        (tests/cli/completions.sh, manpages.sh);
# bench: additionally Google Benchmark, strace and time for bench/ (docs/benchmarks.md).
# Uses apt-get as root, or through sudo; otherwise names the missing packages and fails.
set -euo pipefail
packages=(g++ cmake ninja-build pkg-config python3 libtomlplusplus-dev nlohmann-json3-dev
          doctest-dev libcli11-dev python3-yaml git libsodium-dev python3-cryptography
          libsqlite3-dev)
if [ "${1:-build}" = ci ]; then
  packages+=(clang clang-format meson libclang-rt-14-dev openssh-client zsh fish groff-base)
  # npm installs the OpenClaw oracle (tests/oracle/run.sh); a node install may bring its own
  command -v npm >/dev/null || packages+=(npm)
fi
if [ "${1:-build}" = bench ]; then
  packages+=(libbenchmark-dev strace time openssl)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then
  sudo=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  sudo=(sudo)
else
  echo "clawport needs these Debian packages; please install them:" >&2
  echo "  apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "installing: ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
