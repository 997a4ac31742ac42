#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (address + undefined sanitizers) in
# build-fuzz and runs each for SECONDS (default 600) on its corpus, one after the other.
# Seeds: fuzz/corpus/<target>/ (hand-made) and, for fuzz_dat_reader, tests/data/siconos/.
# fuzz_run_options runs once per route (FUZZ_ROUTE), SECONDS each; FUZZ_ROUTES=... picks some.
# New corpus entries go to build-fuzz/corpus/<target>/, crash/timeout/leak inputs to
# build-fuzz/artifacts/. Exit status 1 if any target reported a finding.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 60 fuzz_lemke
#   JOBS=1 scripts/fuzz.sh                    build jobs (default: nproc)
#   BUILD_LOCK=/tmp/x.lock scripts/fuzz.sh    configure and build under flock(1) on that file
#                                             (shared build machines); the runs take no lock
# Reproduce a finding: build-fuzz/bin/<target> build-fuzz/artifacts/<target>-crash-<hash>
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(fuzz_dat_reader fuzz_fc3d_reader fuzz_round_cone fuzz_lemke fuzz_friction fuzz_scenario_file fuzz_planar_model fuzz_run_options)
build_dir=${BUILD_DIR:-build-fuzz}
jobs=${JOBS:-$(nproc)}

if ! command -v clang++ >/dev/null; then
  echo "fuzz: installing clang" >&2
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang >/dev/null
fi

# -O1 -g without NDEBUG: Eigen's bounds assertions stay on.
lock=()
[[ -n ${BUILD_LOCK:-} ]] && lock=(flock "$BUILD_LOCK")
"${lock[@]}" cmake -S . -B "$build_dir" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" -DSTICKSLIP_FUZZ=ON -DSTICKSLIP_BUILD_TESTS=OFF >/dev/null
"${lock[@]}" cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
# Siconos Numerics' own unfreed allocations (its 4.4 fc3d NSGS leaks per solve) are not findings.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/sanitize.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
mkdir -p "$build_dir/artifacts"
failed=()
# A target and its session: fuzz_run_options once per route.
sessions=()
for t in "${targets[@]}"; do
  if [[ $t == fuzz_run_options ]]; then
    for r in ${FUZZ_ROUTES:-event-driven moreau-jean penalty minimal-form}; do sessions+=("$t:$r"); done
  else
    sessions+=("$t:")
  fi
done
for session in "${sessions[@]}"; do
  t=${session%%:*}
  route=${session#*:}
  name=$t${route:+-$route}
  corpus=("$build_dir/corpus/$t" "fuzz/corpus/$t")
  extra=()
  # The collection's largest MLCP files (up to 250 kB) would make every mutation slow; their
  # first 8 kB still exercise the readers, and the solver sees sizes ≤ 64 anyway.
  [[ $t == fuzz_dat_reader ]] && corpus+=(tests/data/siconos) && extra+=(-max_len=8192)
  mkdir -p "$build_dir/corpus/$t"
  log="$build_dir/artifacts/$name.log"
  echo "fuzz: $name for ${seconds} s (log: $log)" >&2
  # -timeout: an input running longer than 10 s counts as a hang; -rss_limit_mb: memory blow-up.
  # A run of the mechanisms may take seconds under the sanitizers: its hang is 60 s.
  timeout=10
  [[ $t == fuzz_run_options ]] && timeout=60
  if FUZZ_ROUTE=$route "$build_dir/bin/$t" -max_total_time="$seconds" -timeout=$timeout -rss_limit_mb=2048 \
      -print_final_stats=1 "${extra[@]}" -artifact_prefix="$build_dir/artifacts/$name-" "${corpus[@]}" >"$log" 2>&1; then
    echo "fuzz: $name: $(grep -E '^(Done|#[0-9]+ +DONE)' "$log" | tail -1)" >&2
  else
    failed+=("$name")
    echo "fuzz: $name FAILED; last lines of $log:" >&2
    tail -n 30 "$log" >&2
  fi
done
ls "$build_dir"/artifacts/*-{crash,timeout,leak,oom,slow-unit}-* 2>/dev/null | sed 's/^/fuzz: artifact /' >&2 || true
if ((${#failed[@]})); then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: no findings (${#sessions[@]} sessions, ${seconds} s each)" >&2
