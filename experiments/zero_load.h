// The router's zero-load timing, measured rather than assumed: single packets, each alone in the
// network, from node 0 to a node at every hop distance, with several lengths. A wormhole router
// with a P-cycle pipeline per hop and one flit per cycle delivers a packet of F flits over h hops
// at P·(h + 1) + f·(F − 1) cycles after its head is injected (rtl/README.md §5; the shipped router:
// P = 3, f = 1, kShippedTiming). The measurement finds P and f and says whether every sample fits
// them — the first check of a router of your own (docs/changing-the-router.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "systemc/network/network.h"

namespace wn {

struct ZeroLoadSample {
  int dst = 0, hops = 0, flits = 0;
  uint64_t latency = 0;  // tail ejected - head injected
};

struct ZeroLoadTiming {
  int hop_cycles = 0;   // P
  int flit_cycles = 0;  // f
  bool consistent = false;
  std::string mismatch;  // the first sample that does not fit P and f ("" when consistent)
  std::string error;     // the probe run failed (deadlock, scoreboard): what it said
  std::vector<ZeroLoadSample> samples;
};

// Probes `topo` with `params` (its backend): every hop distance from node 0, packets of 1, 2 and
// `long_flits` flits, each posted `spacing` cycles after the previous one.
ZeroLoadTiming measure_zero_load(const Topology& topo, const NetworkParams& params, int long_flits = 8,
                                 uint64_t spacing = 400);

}  // namespace wn
