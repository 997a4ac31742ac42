#!/usr/bin/env bash
# Installs the Debian packages stickslip needs (only those missing), configures a Release
# build in build/, builds the `stickslip` executable (build/bin/stickslip) and the Python
# module (build/python), and puts the module on Debian Python's path: a stickslip.pth in the
# user's site directory, so that /usr/bin/python3 -c "import stickslip" works.
#   scripts/setup.sh            build the CLI
#   scripts/setup.sh --tests    also build the test executables (and install chromium, mkdocs and
#                               doxygen: the browser test of `stickslip animate`, the manual)
#   scripts/setup.sh --bench    also install the peers (Siconos' kernel and mechanics; the engines
#                               DART, Bullet, MuJoCo and ODE) and build benchmarks/, with
#                               link-time optimization
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++ cmake make pkg-config
  libeigen3-dev libsuitesparse-dev libsiconos-numerics-dev libboost-program-options-dev catch2
  libsundials-dev libyaml-cpp-dev libmuparser-dev nlohmann-json3-dev gnuplot-nox libbenchmark-dev libjs-three
  pybind11-dev python3-dev python3-numpy python3-pytest python3-matplotlib python3-yaml
  python3-venv python3-setuptools python3-wheel  # pip install --no-build-isolation . (pyproject.toml)
)
mode=${1:-}
case "$mode" in
  "") ;;
  --tests) packages+=(chromium mkdocs doxygen) ;;  # the browser test of `animate`; the manual
  --bench) packages+=(libsiconos-kernel-dev libsiconos-mechanics-dev  # benchmarks/peer_*.cpp
                      libdart-dev libdart-external-odelcpsolver-dev libbullet-dev libmujoco-dev
                      libode-dev) ;;  # benchmarks/engines/
  *) echo "setup: unknown option '$mode' (expected --tests or --bench)" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_dir=${BUILD_DIR:-build}
targets=(--target stickslip --target stickslip_python)
benchmarks=OFF
[[ $mode == --tests ]] && targets=()
lto=()
[[ $mode == --bench ]] && benchmarks=ON && lto=(-DSTICKSLIP_LTO=ON)  # peak speed for the comparisons
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DSTICKSLIP_BUILD_BENCHMARKS=$benchmarks "${lto[@]}" >/dev/null
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
if [[ $benchmarks == ON ]]; then
  cmake --build "$build_dir" -j "$(nproc)" --target benchmarks
fi
# Debian's interpreter, not another python3 earlier on PATH.
site=$(/usr/bin/python3 -m site --user-site)
mkdir -p "$site"
echo "$(cd "$build_dir" && pwd)/python" >"$site/stickslip.pth"
