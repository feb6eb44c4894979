// The per-cycle cost of sharing a cycle's routers out (RouterPool::run) with no work in it: what
// `--threads N` adds to every cycle whatever the network. Prints figures (docs/results-other/
// performance.md#threads); no test reads them.
//   build/pool_bench [max threads, default 4] [rounds, default 200000]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "systemc/network/router_pool.h"

int main(int argc, char** argv) {
  const int max_threads = argc > 1 ? std::atoi(argv[1]) : 4;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 200000;
  if (max_threads < 2 || max_threads > 256 || rounds < 1) {
    std::fprintf(stderr, "usage: pool_bench [max threads 2..256] [rounds >= 1]\n");
    return 2;
  }
  std::printf("threads  ns per cycle (synchronisation only, %d cycles)\n", rounds);
  for (int t = 2; t <= max_threads; ++t) {
    wn::RouterPool pool(t);
    volatile int sink = 0;
    const std::function<void(int, int)> fn = [&](int lo, int hi) { sink = sink + hi - lo; };
    for (int i = 0; i < 1000; ++i) pool.run(64 * t, 64, fn);  // the workers are up and spinning
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds; ++i) pool.run(64 * t, 64, fn);
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%7d  %.0f\n", t, ns / rounds);
  }
  return 0;
}
