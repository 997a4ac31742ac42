#!/usr/bin/env bash
# Builds the benchmarks (scripts/setup.sh --bench installs Siconos' kernel and mechanics for
# the peers), runs every one of them, and rewrites the generated part of the manual's
# benchmarks page (docs/benchmarks.md) — the
# lines between the two "benchmarks:generated" markers — with the machine, the date, each
# command and its output. About ten minutes on two cores; run it on a quiet machine.
#   scripts/bench.sh             run all and update docs/benchmarks.md
#   scripts/bench.sh --print     run all and print the section; docs/benchmarks.md untouched
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
[[ -z $mode || $mode == --print ]] || { echo "bench: unknown option '$mode' (expected --print)" >&2; exit 2; }

begin='<!-- benchmarks:generated:begin (scripts/bench.sh writes this part) -->'
end='<!-- benchmarks:generated:end -->'
page=docs/benchmarks.md
if [[ -z $mode ]] && ! { grep -qxF "$begin" "$page" && grep -qxF "$end" "$page"; }; then
  echo "bench: $page lacks the markers '$begin' and '$end'; nothing run" >&2
  exit 2
fi

scripts/setup.sh --bench
bin=${BUILD_DIR:-build}/bin
section=$(mktemp)
trap 'rm -f "$section" "$section.readme"' EXIT

# Tables go to the page as they are; every other line becomes its own paragraph.
run() {
  local title=$1
  shift
  echo "running: $*" >&2
  local output
  output=$("$@")  # a failing benchmark stops the script: no partial section is written
  {
    printf '## %s\n\n`%s`\n\n' "$title" "$*"
    awk '/^\|/ { print; table = 1; next }
         table { print ""; table = 0 }
         NF { print; print "" }' <<<"$output"
    echo
  } >>"$section"
}

cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -n1)
{
  echo "$begin"
  echo
  echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores of ${cpu:-an unknown CPU}, $(. /etc/os-release && echo "$PRETTY_NAME"),"
  echo "$(g++ --version | head -n1), Release build, Siconos $(dpkg-query -W -f='${Version}' libsiconos-kernel-dev) from Debian; \`scripts/bench.sh\`."
  echo
} >"$section"
run "Moreau–Jean on flores-translational: ours vs Siconos' kernel" "$bin/bench_peer_flores"
run "Moreau–Jean on the spatial slider-crank: ours vs Siconos' NewtonEulerDS and joints" "$bin/bench_peer_spatial"
run "Moreau–Jean on belt: error against h, ours vs Siconos' kernel" "$bin/bench_peer_belt"
run "Work–precision on belt, dupont and incline" "$bin/bench_work_precision"
run "Scaling: a chain of N blocks on a belt, and a hanging clearance chain" "$bin/bench_scaling"
run "LCP solvers: ours vs Siconos Numerics" "$bin/stickslip" bench --what lcp
run "Siconos' planar friction problems: ours vs Siconos' solvers" "$bin/stickslip" bench --what fc2d --data tests/data/siconos/fc2d-more
run "Siconos' spatial friction problems: our faceted Lemke vs Siconos' fc3d solvers" "$bin/stickslip" bench --what fc3d --data tests/data/siconos/fc3d
run "Equations of motion: the thesis' methods on the slider-crank" "$bin/stickslip" bench --what eom
run "Every friction law on the belt (penalty route)" "$bin/stickslip" bench --what friction
echo "$end" >>"$section"

if [[ $mode == --print ]]; then
  cat "$section"
  exit 0
fi
# Replace the old generated part in a complete copy first, then write it over the page.
awk -v begin="$begin" -v end="$end" -v file="$section" '
  $0 == begin { while ((getline line < file) > 0) print line; skip = 1; next }
  $0 == end { skip = 0; next }
  !skip { print }' "$page" >"$section.page"
cat "$section.page" >"$page"
echo "bench: $page updated" >&2
