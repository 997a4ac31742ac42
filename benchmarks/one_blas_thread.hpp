#pragma once
// The peer benchmarks run Siconos with one OpenBLAS thread, as `stickslip` does (cli/main.cpp):
// Siconos factors its small matrices with LAPACK, and OpenBLAS's worker threads spin in
// sched_yield on the other cores for matrices far too small to use them, which slows Siconos
// several-fold on a loaded machine and would make the comparison unfair to it.
#include <unistd.h>

#include <cstdlib>

namespace stickslip::bench {

/// Sets OPENBLAS_NUM_THREADS=1 and restarts the program once (the number is read when the
/// library loads); a value the user set is kept. Returns only when no restart happened.
inline void restartWithOneBlasThread(char** argv) {
  if (std::getenv("OPENBLAS_NUM_THREADS") != nullptr) return;
  setenv("OPENBLAS_NUM_THREADS", "1", 1);
  execv("/proc/self/exe", argv);  // returns only on failure: then run with the threads
}

}  // namespace stickslip::bench
