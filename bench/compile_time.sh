#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Compile cost of clawport, median of N compiles (default 5) with the same flags, of:
#   - include-only TUs: <clawport/clawport.hpp> vs <toml++/toml.h> + <nlohmann/json.hpp>;
#   - using TUs: one basic_exporter<>::run call (plus render_report and to_json) vs a TU that
#     really uses toml++ and nlohmann/json (toml::parse, walk the table, build and dump a json);
#   - the same call in the compiled mode: a TU that includes only <clawport/compiled/api.hpp>
#     (docs/library.md, "Compiled mode"), and, once per program, the TU that defines it
#     (src/compiled.cpp);
#   - the same header-only call in a program that links clawport::compiled: the TU also sees
#     <clawport/compiled/extern_templates.hpp>, so the default-policy instantiations are
#     called, not generated (what the CLI and the tests do).
# Times are CPU seconds of the compiler (user + system, bash `time`): on a shared machine
# they move far less than the wall clock. Targets (issue 48, g++ and clang++): using ratio
# <= 2.0, <clawport/exporter.hpp> include-only <= 1.5, the umbrella include-only <= 2.5.
#   bench/compile_time.sh [runs] [compiler] [flags...]
# The CI gate (.ci/run, issue 48): CLAWPORT_COMPILE_GATE=<target> measures only the reference
# and the using TU, one of each in turn per run (so a change of load moves both), and exits 1
# when the ratio of their medians passes the target by more than 15 %.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
cxx=${2:-g++}
if [ $# -gt 2 ]; then flags=("${@:3}"); else flags=(-std=c++17 -O2); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '#include <clawport/clawport.hpp>\nint main() { return 0; }\n' >"$work/umbrella.cpp"
printf '#include <clawport/exporter.hpp>\nint main() { return 0; }\n' >"$work/exporter_only.cpp"
printf '#include <toml++/toml.h>\n#include <nlohmann/json.hpp>\nint main() { return 0; }\n' \
  >"$work/deps.cpp"
# export_tu <file> <header> <setup> <run> <report> <json>: the same export call, as written
# header-only and in the compiled mode (one text, so the two TUs differ only where they must).
export_tu() {
  cat >"$1" <<CPP
#include <$2>
#include <iostream>
int main(int argc, char** argv) {
  $3
  clawport::export_options o;
  o.alias = argc > 1 ? argv[1] : "researcher";
  o.config_path = argc > 2 ? argv[2] : "/nonexistent/config.toml";
  o.out = "bundle";
  o.out_path = "/nonexistent/bundle";
  try {
    clawport::export_result r = $4(o);
    std::cout << $5(r) << $6 << '\\n';
  } catch (const clawport::error& e) {
    std::cerr << e.what() << '\\n';
    return 1;
  }
  return 0;
}
CPP
}
export_tu "$work/use_exporter.cpp" clawport/exporter.hpp \
  'clawport::fs::posix disk; clawport::basic_exporter<> exporter(disk);' exporter.run \
  clawport::render_report 'clawport::to_json(r).dump(2)'
export_tu "$work/use_extern.cpp" clawport/compiled/extern_templates.hpp \
  'clawport::fs::posix disk; clawport::basic_exporter<> exporter(disk);' exporter.run \
  clawport::render_report 'clawport::to_json(r).dump(2)'
sed -i '1i #define CLAWPORT_LINK_COMPILED' "$work/use_extern.cpp"  # what linking the target sets
export_tu "$work/use_compiled.cpp" clawport/compiled/api.hpp '' clawport::compiled::run_export \
  clawport::compiled::render_report 'clawport::compiled::to_json(r)'
cat >"$work/use_deps.cpp" <<'CPP'
#include <toml++/toml.h>
#include <nlohmann/json.hpp>
#include <iostream>
static nlohmann::json convert(const toml::node& n) {
  if (auto t = n.as_table()) {
    nlohmann::json j = nlohmann::json::object();
    for (auto&& [k, v] : *t) j[std::string(k.str())] = convert(v);
    return j;
  }
  if (auto a = n.as_array()) {
    nlohmann::json j = nlohmann::json::array();
    for (auto&& v : *a) j.push_back(convert(v));
    return j;
  }
  if (auto s = n.value<std::string>()) return *s;
  if (auto i = n.value<std::int64_t>()) return *i;
  if (auto d = n.value<double>()) return *d;
  if (auto b = n.value<bool>()) return *b;
  return nullptr;
}
int main(int argc, char** argv) {
  try {
    toml::table t = toml::parse_file(argc > 1 ? argv[1] : "/nonexistent/config.toml");
    std::cout << convert(t).dump(2) << '\n';
  } catch (const toml::parse_error& e) {
    std::cerr << e.description() << '\n';
    return 1;
  }
  return 0;
}
CPP
median() { # median compile time (CPU ms: user + system) of the TU $1
  local times=() t
  for _ in $(seq "$runs"); do
    t=$( { TIMEFORMAT='%3U %3S'; time "$cxx" "${flags[@]}" -I "$repo/include" -c "$1" -o "$work/out.o"; } 2>&1 | tail -1)
    times+=($(awk -v u="${t% *}" -v s="${t#* }" 'BEGIN { printf "%d", (u + s) * 1000 }'))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}
if [ -n "${CLAWPORT_COMPILE_GATE:-}" ]; then
  cpu_ms() { # CPU ms (user + system) of one compile of the TU $1
    local t
    t=$( { TIMEFORMAT='%3U %3S'; time "$cxx" "${flags[@]}" -I "$repo/include" -c "$1" -o "$work/out.o"; } 2>&1 | tail -1)
    awk -v u="${t% *}" -v s="${t#* }" 'BEGIN { printf "%d", (u + s) * 1000 }'
  }
  refs=() uses=()
  for _ in $(seq "$runs"); do
    refs+=("$(cpu_ms "$work/use_deps.cpp")")
    uses+=("$(cpu_ms "$work/use_exporter.cpp")")
  done
  mid() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
  ud=$(mid "${refs[@]}")
  ue=$(mid "${uses[@]}")
  echo "compile-cost gate: $cxx ${flags[*]}; $runs runs, CPU ms (user + system)"
  echo "reference TU (toml::parse + json dump): ${refs[*]} -> median ${ud} ms"
  echo "using TU (one basic_exporter<>::run call): ${uses[*]} -> median ${ue} ms"
  awk -v u="$ue" -v d="$ud" -v t="$CLAWPORT_COMPILE_GATE" 'BEGIN {
    r = u / d; limit = t * 1.15
    printf "using ratio: %.2f (target <= %.2f, the gate fails above %.2f)\n", r, t, limit
    if (r > limit) {
      printf "FAILED: the header-only export costs %.2fx the reference TU to compile; " \
        "see docs/benchmarks.md, \"Compile cost\", for what it spends on\n", r
      exit 1
    }
  }'
  exit $?
fi
d=$(median "$work/deps.cpp")
u=$(median "$work/umbrella.cpp")
x=$(median "$work/exporter_only.cpp")
ud=$(median "$work/use_deps.cpp")
ue=$(median "$work/use_exporter.cpp")
ux=$(median "$work/use_extern.cpp")
uc=$(median "$work/use_compiled.cpp")
impl=$(median "$repo/src/compiled.cpp")
echo "compiler: $cxx ${flags[*]}; median of $runs runs, CPU ms (user + system)"
echo "include only: toml++ + nlohmann/json : ${d} ms"
echo "include only: <clawport/clawport.hpp>: ${u} ms"
awk -v u="$u" -v d="$d" 'BEGIN { printf "include-only ratio: %.2f (target <= 2.50)\n", u / d }'
echo "include only: <clawport/exporter.hpp>: ${x} ms"
awk -v u="$x" -v d="$d" 'BEGIN { printf "exporter.hpp include-only ratio: %.2f (target <= 1.50)\n", u / d }'
echo "using: toml::parse + json dump        : ${ud} ms"
echo "using: one basic_exporter<>::run call : ${ue} ms"
awk -v u="$ue" -v d="$ud" 'BEGIN { printf "using ratio: %.2f (target <= 2.00)\n", u / d }'
echo "using: the same call, linking clawport::compiled (extern templates): ${ux} ms"
awk -v u="$ux" -v d="$ud" 'BEGIN { printf "extern-template using ratio: %.2f\n", u / d }'
echo "compiled mode: the same call via <clawport/compiled/api.hpp>: ${uc} ms"
awk -v u="$uc" -v d="$ud" 'BEGIN { printf "compiled-mode using ratio: %.2f (target <= 1.50)\n", u / d }'
echo "compiled mode: src/compiled.cpp, once per program : ${impl} ms"
