#pragma once
// Counts heap allocations while g_armed is set, by interposing malloc/calloc/realloc (glibc
// keeps its own versions reachable as __libc_*), which catches Eigen's aligned_malloc as well
// as operator new. It defines those functions: include it in one file of a test executable.
// Under AddressSanitizer nothing is interposed: the interposer would run before ASan's runtime
// is ready (a crash at start-up) and bypass its allocator. The allocation tests are then
// skipped, saying so (ALLOCATION_TEST_PRELUDE).
#include <atomic>
#include <cstdlib>

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

namespace {
std::atomic<bool> g_armed{false};
std::atomic<long> g_allocations{0};
}  // namespace

#define ALLOCATION_TEST_PRELUDE()                                          \
  if (!STICKSLIP_COUNTS_ALLOCATIONS) {                                     \
    WARN("not run: allocations are not counted under AddressSanitizer"); \
    return;                                                                \
  }

#if STICKSLIP_COUNTS_ALLOCATIONS
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* malloc(std::size_t size) {
  if (g_armed.load(std::memory_order_relaxed)) ++g_allocations;
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) {
  if (g_armed.load(std::memory_order_relaxed)) ++g_allocations;
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) {
  if (g_armed.load(std::memory_order_relaxed)) ++g_allocations;
  return __libc_realloc(p, size);
}
}
#endif

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
