#include <cstdlib>
#include <unistd.h>

#include "cli/command.hpp"

int main(int argc, char** argv) {
  // Siconos Numerics brings OpenBLAS, whose worker threads start with the library and spin on
  // the other cores for a while even though our problems are far too small to use them.
  // Their number is read when the library loads, so it is set here and the program restarted
  // once; a value the user set is kept.
  if (std::getenv("OPENBLAS_NUM_THREADS") == nullptr) {
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    execv("/proc/self/exe", argv);  // returns only on failure: then run with the threads
  }
  return stickslip::cli::dispatch(argc, argv);
}
