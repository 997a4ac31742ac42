// The allocation counter of tests/allocation_counter.hpp: malloc, calloc and realloc
// interposed, counting while g_armed is set. Linked once into each test executable that
// counts allocations.
#include "allocation_counter.hpp"

#include <cstdlib>

std::atomic<bool> g_armed{false};
std::atomic<long> g_allocations{0};

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
