#pragma once
// Counts heap allocations while g_armed is set. tests/allocation_counter.cpp interposes
// malloc, calloc and realloc for the test executables that link it (glibc keeps its own
// versions reachable as __libc_*), which catches Eigen's aligned_malloc as well as operator
// new. Under AddressSanitizer nothing is interposed: the interposer would run before ASan's
// runtime is ready (a crash at start-up) and bypass its allocator. The allocation tests are
// then skipped, saying so (ALLOCATION_TEST_PRELUDE).
#include <atomic>

#if defined(__SANITIZE_ADDRESS__)
#define STICKSLIP_COUNTS_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STICKSLIP_COUNTS_ALLOCATIONS 0
#endif
#endif
#ifndef STICKSLIP_COUNTS_ALLOCATIONS
#define STICKSLIP_COUNTS_ALLOCATIONS 1
#endif

extern std::atomic<bool> g_armed;
extern std::atomic<long> g_allocations;

#define ALLOCATION_TEST_PRELUDE()                                          \
  if (!STICKSLIP_COUNTS_ALLOCATIONS) {                                     \
    WARN("not run: allocations are not counted under AddressSanitizer"); \
    return;                                                                \
  }

/// Heap allocations made by `steps` calls of `step()`; `ok` is whether every call returned true.
template <class Step>
long allocationsOver(int steps, Step step, bool& ok) {
  g_allocations = 0;
  g_armed = true;
  ok = true;
  for (int k = 0; k < steps; ++k) ok = step() && ok;
  g_armed = false;
  return g_allocations;
}
