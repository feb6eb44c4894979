#include "systemc/cosim/packet_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "systemc/cosim/engine.h"
#include "systemc/cosim/node_module.h"

namespace wn {

PacketRunResult run_packets(const Topology& topo, const NetworkParams& params,
                            const std::vector<ScheduledPacket>& packets, uint64_t max_cycles,
                            uint64_t watchdog_window) {
  // Scenarios are small: always explain a deadlock.
  EngineOptions eo;
  eo.watchdog = watchdog_window;
  eo.explain_deadlock = true;
  eo.wording.summary = false;
  Engine engine(topo, params, eo);
  Network& net = engine.network();
  PacketStore& store = engine.store();
  Scoreboard& sb = engine.scoreboard();
  std::vector<std::unique_ptr<NodeModule>> nodes;
  for (int i = 0; i < topo.nodes(); ++i)
    nodes.push_back(std::make_unique<NodeModule>(fmt::format("node{}", i).c_str(), i, net, store, sb));
  std::vector<size_t> order(packets.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return packets[a].post_cycle < packets[b].post_cycle; });
  std::vector<uint32_t> ids(packets.size(), UINT32_MAX);
  size_t next = 0;
  PacketRunResult res;
  auto before = [&](uint64_t now) {
    for (; next < order.size() && packets[order[next]].post_cycle <= now; ++next) {
      const ScheduledPacket& s = packets[order[next]];
      PacketRecord p;
      p.src = s.src;
      p.dst = s.dst;
      p.flits = s.flits;
      p.step = s.step;
      p.inj_channel = s.inj_channel;
      p.created = now;
      ids[order[next]] = store.add(p);
      nodes[size_t(s.src)]->ni.post(ids[order[next]]);
    }
    for (auto& n : nodes) n->ni.drive(now);
  };
  auto after = [&](uint64_t now) {
    for (int r : net.evaluated()) nodes[size_t(r)]->ni.collect(now);
    if (engine.deadlocked(now)) {
      res.deadlock = true;
      res.report = engine.deadlock_report();
      return false;
    }
    if (!sb.ok()) return false;
    if (next == order.size() && sb.delivered() == packets.size()) return false;
    return now + 1 < max_cycles;
  };
  engine.run(before, after);
  res.cycles = engine.now();
  for (const auto& e : sb.errors()) res.report += e + "\n";
  res.ok = sb.ok() && !res.deadlock && sb.delivered() == packets.size();
  for (size_t i = 0; i < packets.size(); ++i)
    if (store.valid(ids[i])) res.packets.push_back(store[ids[i]]);
  return res;
}

}  // namespace wn
