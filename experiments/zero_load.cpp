#include "experiments/zero_load.h"

#include <fmt/format.h>

#include <map>

#include "systemc/cosim/packet_run.h"

namespace wn {

ZeroLoadTiming measure_zero_load(const Topology& topo, const NetworkParams& params, int long_flits, uint64_t spacing) {
  ZeroLoadTiming t;
  std::map<int, int> by_hops;  // hop distance -> the first node at it
  for (int v = 1; v < topo.nodes(); ++v) by_hops.emplace(topo.hops(0, v), v);
  std::vector<ScheduledPacket> probes;
  for (const auto& [h, dst] : by_hops)
    for (int flits : {1, 2, long_flits}) {
      ScheduledPacket p;
      p.src = 0;
      p.dst = dst;
      p.flits = flits;
      p.post_cycle = uint64_t(probes.size()) * spacing;
      probes.push_back(p);
      t.samples.push_back({dst, h, flits, 0});
    }
  if (probes.empty()) {
    t.error = "a network of one node has no hop to measure";
    return t;
  }
  const PacketRunResult r = run_packets(topo, params, probes, uint64_t(probes.size() + 1) * spacing + 100000, spacing);
  if (!r.ok || r.packets.size() != probes.size()) {
    t.error = r.report.empty() ? "not every probe packet was delivered" : r.report;
    return t;
  }
  for (size_t i = 0; i < probes.size(); ++i)
    t.samples[i].latency = r.packets[i].tail_ejected - r.packets[i].head_injected;
  // P from the shortest route's one-flit packet (P·2) and the next distance; f from its two-flit one.
  const ZeroLoadSample& one = t.samples[0];
  t.hop_cycles = int(one.latency / 2);
  t.flit_cycles = int(t.samples[1].latency - one.latency);
  for (const ZeroLoadSample& s : t.samples) {
    const uint64_t want =
        uint64_t(t.hop_cycles) * uint64_t(s.hops + 1) + uint64_t(t.flit_cycles) * uint64_t(s.flits - 1);
    if (s.latency != want) {
      t.mismatch = fmt::format("node 0 -> {} ({} hops), {} flits: {} cycles, P·(h+1) + f·(F-1) = {}", s.dst, s.hops,
                               s.flits, s.latency, want);
      return t;
    }
  }
  t.consistent = one.latency % 2 == 0;
  if (!t.consistent) t.mismatch = fmt::format("a one-hop, one-flit packet takes {} cycles: not 2·P", one.latency);
  return t;
}

}  // namespace wn
