#!/usr/bin/env bash
# Builds the benchmarks (scripts/setup.sh --bench installs the peers: Siconos' kernel and
# mechanics, and the engines DART, Bullet, MuJoCo and ODE), runs them, and rewrites the
# generated part of a manual page — the lines between its two "benchmarks:generated" markers —
# with the machine, the date, the versions, each command and its output. On a quiet machine.
#   scripts/bench.sh                     the peers against Siconos and our own benchmarks, into
#                                        docs/benchmarks.md (about ten minutes on two cores)
#   scripts/bench.sh --engines           ours against DART, Bullet, MuJoCo and ODE, into
#                                        docs/engines.md and its figure docs/img/engines-work-precision.png
#   scripts/bench.sh [--engines] --print the same, printing the generated part; nothing written
set -euo pipefail
cd "$(dirname "$0")/.."
engines=0 print=0
for arg in "$@"; do
  case "$arg" in
    --engines) engines=1 ;;
    --print) print=1 ;;
    *) echo "bench: unknown option '$arg' (expected --engines or --print)" >&2; exit 2 ;;
  esac
done

begin='<!-- benchmarks:generated:begin (scripts/bench.sh writes this part) -->'
end='<!-- benchmarks:generated:end -->'
page=docs/benchmarks.md
[[ $engines == 1 ]] && page=docs/engines.md
if [[ $print == 0 ]] && ! { grep -qxF "$begin" "$page" && grep -qxF "$end" "$page"; }; then
  echo "bench: $page lacks the markers '$begin' and '$end'; nothing run" >&2
  exit 2
fi

scripts/setup.sh --bench
bin=${BUILD_DIR:-build}/bin
section=$(mktemp)
json=$(mktemp -d)
trap 'rm -rf "$section" "$section.page" "$json"' EXIT

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
version() { dpkg-query -W -f='${Version}' "$1"; }
{
  echo "$begin"
  echo
  echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores of ${cpu:-an unknown CPU}, $(. /etc/os-release && echo "$PRETTY_NAME"),"
  if [[ $engines == 1 ]]; then
    echo "$(g++ --version | head -n1), Release build; from Debian: MuJoCo $(version libmujoco-dev), Bullet $(version libbullet-dev),"
    echo "DART $(version libdart-dev), ODE $(version libode-dev); \`scripts/bench.sh --engines\`."
  else
    echo "$(g++ --version | head -n1), Release build, Siconos $(version libsiconos-kernel-dev) from Debian; \`scripts/bench.sh\`."
  fi
  echo
} >"$section"
if [[ $engines == 1 ]]; then
  run "LCP solvers: ours against DART's and Bullet's" "$bin/bench_engines_lcp"
  run "A box held by friction on a slope" "$bin/bench_engines_slope"
  run "The belt's stick–slip cycle" "$bin/bench_engines_belt"
  run "Housner's rocking block" "$bin/bench_engines_rocking"
  run "A ladder leaving its wall" "$bin/bench_engines_ladder"
  run "The spatial slider-crank with friction in its guide" "$bin/bench_engines_slider_crank"
  for problem in slope rocking ladder belt slider_crank; do "$bin/bench_engines_$problem" --json >"$json/$problem.json"; done
  figure=docs/img/engines-work-precision.png
  [[ $print == 1 ]] && figure=$json/engines-work-precision.png
  /usr/bin/python3 scripts/plot_engines.py "$json" "$figure"
  printf '## Work–precision\n\n![Each run: its CPU time against its error, per problem](img/engines-work-precision.png)\n\n' >>"$section"
else
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
fi
echo "$end" >>"$section"

if [[ $print == 1 ]]; then
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
