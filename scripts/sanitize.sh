#!/usr/bin/env bash
# Builds the whole test suite with AddressSanitizer + UndefinedBehaviorSanitizer in a separate
# build directory (build-asan) and runs every CTest test; any sanitizer report fails the
# test that raised it, so a clean run means no report at all. Needs the Debian packages of
# scripts/setup.sh. Not part of .ci/run: the instrumented build takes hours on one core.
#   scripts/sanitize.sh                     configure, build and run everything
#   JOBS=1 scripts/sanitize.sh              build and test jobs (default: nproc)
#   TARGETS="test_lcp" scripts/sanitize.sh  build only these test executables (CTest then
#                                           knows only their tests)
#   scripts/sanitize.sh -R lemke            extra arguments go to ctest (e.g. a test filter)
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${BUILD_DIR:-build-asan}
jobs=${JOBS:-$(nproc)}
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"

cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="" -DCMAKE_C_FLAGS_DEBUG="" \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
targets=()
skip=()
if [[ -n ${TARGETS:-} ]]; then
  read -r -a targets <<<"--target $TARGETS"
  skip=(-E _NOT_BUILT)  # CTest's placeholders for the executables left out
fi
cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
# Catch's test discovery takes any exit status as a test count, so an executable that dies at
# start-up would leave CTest silently without its tests: list each one and stop if it is empty.
for exe in "$build_dir"/bin/test_* "$build_dir"/bin/dynamics_*; do
  [[ -x $exe ]] || continue
  listed=$("$exe" --list-test-names-only 2>/dev/null || true)
  [[ -n $listed ]] || { echo "sanitize.sh: $exe lists no tests (it crashes at start-up?)" >&2; exit 1; }
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=0:detect_leaks=1:check_initialization_order=1:strict_init_order=1}
# Siconos Numerics' own leaks (see sanitize.supp) are not ours to fix.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/sanitize.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# OpenBLAS worker threads only slow things down here (and keep the suite deterministic).
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
ctest --test-dir "$build_dir" -j "$jobs" --output-on-failure --timeout 3600 "${skip[@]}" "$@"
