#!/usr/bin/env bash
# Installs what is needed, builds everything and runs the test suite (CTest summary at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
ctest --test-dir "${BUILD_DIR:-build}" -j "$(nproc)" --output-on-failure --timeout 600
