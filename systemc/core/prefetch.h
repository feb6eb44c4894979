// A hint that a cache line is wanted soon. A large network's state does not
// stay in the cache from one cycle to the next; the loops over its routers
// know what the next ones will read and ask for it while they work.
#pragma once

namespace wn {

inline void prefetch_line(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  // Not __builtin_prefetch: GCC 12 drops it in some inlined contexts (a
  // prefetch under a test of the index it addresses, in tail position).
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

}  // namespace wn
