#include "systemc/network/wait_explainer.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

#include "systemc/topology/route_function.h"

namespace wn {

std::string explain_waits(const Occupancy& occ, const Network& net, const PacketStore& store) {
  const Topology& topo = net.topology();
  const NetworkParams& prm = net.params();
  const RouterConfig base = base_router_config(prm);
  const int P = occ.ports(), V = occ.vcs();
  auto port_name = [&](int s) { return s >= P * V ? fmt::format("inj{}", s - P * V) : fmt::format("in{}", s / V); };
  // Wait-for graph between packets, with the reason of each edge.
  std::map<uint32_t, std::vector<std::pair<uint32_t, std::string>>> waits;
  auto wait_on_downstream = [&](uint32_t a, int r, int o, int w, const std::string& why) {
    const auto [nb, p] = net.link(r, o);
    if (nb < 0) return;
    const size_t down = occ.slot_index(nb, p * V + w);
    const Occupancy::InSlot& ds = occ.in_slot(down);
    if (ds.bsize < prm.buf || ds.qsize == 0) return;  // not full: not a credit stall
    const uint32_t b = occ.worm(down, ds.qfirst).packet;
    if (b != a)
      waits[a].push_back({b, fmt::format("{}; router {} out{} vc {} has no credit: router {} in{} vc {} is full, "
                                         "packet {} at its front",
                                         why, r, o, w, nb, p, w, b)});
  };
  for (int r = 0; r < topo.nodes(); ++r) {
    const RouterConfig cfg = topo.router_config(r, base);
    for (int s = 0; s < occ.in_slots(); ++s) {
      const size_t ring = occ.slot_index(r, s);
      const Occupancy::InSlot& is = occ.in_slot(ring);
      if (is.bsize == 0 || is.qsize == 0) continue;
      // The flits of a slot are its worms' in order: the front flit is the front worm's.
      const Occupancy::Worm& front = occ.worm(ring, is.qfirst);
      const uint32_t a = front.packet;
      const bool inj = s >= P * V;
      const int in = inj ? -1 : s / V, v = inj ? 0 : s % V;
      const std::string at = fmt::format("router {} {} vc {}", r, port_name(s), v);
      for (int i = 1; i < is.qsize; ++i) {
        const uint32_t b = occ.worm(ring, is.qfirst + i).packet;
        if (b != a) waits[b].push_back({a, fmt::format("queued behind packet {} at {}", a, at)});
      }
      if (!store.valid(a)) continue;
      if (!front.head_gone) {
        const Route rt = route(cfg, topo.address(store[a].dst), in, v);
        if (rt.eject) {
          for (int j = 0; j < prm.ej; ++j) {
            const int64_t h = occ.out_slot(r, P * V + j).holder;
            if (h >= 0 && uint32_t(h) != a)
              waits[a].push_back({uint32_t(h), fmt::format("head at {} needs an ejection channel; channel {} is "
                                                           "held by packet {}",
                                                           at, j, h)});
          }
          continue;
        }
        for (int w = rt.vc_lo; w <= rt.vc_hi; ++w) {
          const int64_t h = occ.out_slot(r, rt.out * V + w).holder;
          const std::string why = fmt::format("head at {} routed to out{} (VCs {}-{})", at, rt.out, rt.vc_lo, rt.vc_hi);
          if (h >= 0 && uint32_t(h) != a)
            waits[a].push_back({uint32_t(h), fmt::format("{}; out{} vc {} is held by packet {}", why, rt.out, w, h)});
          else
            wait_on_downstream(a, r, rt.out, w, why);
        }
      } else {
        // A body flit: its packet holds an output VC here; it waits for credits.
        for (int o = 0; o < P; ++o)
          for (int w = 0; w < V; ++w)
            if (occ.out_slot(r, o * V + w).holder == int64_t(a))
              wait_on_downstream(a, r, o, w, fmt::format("body flit at {}", at));
      }
    }
  }
  if (waits.empty()) return "no packet waits on another (flits are stuck without a wait cycle)";
  // Find a cycle in the wait-for graph (iterative DFS, colours).
  std::map<uint32_t, int> colour;
  std::vector<std::pair<uint32_t, std::string>> stack;
  std::function<bool(uint32_t)> dfs = [&](uint32_t a) -> bool {
    colour[a] = 1;
    for (const auto& [b, why] : waits[a]) {
      stack.push_back({a, why});
      if (colour[b] == 1) {
        // Trim the stack to the cycle starting at b.
        size_t s = 0;
        while (s < stack.size() && stack[s].first != b) ++s;
        stack.erase(stack.begin(), stack.begin() + long(s));
        return true;
      }
      if (colour[b] == 0 && dfs(b)) return true;
      stack.pop_back();
    }
    colour[a] = 2;
    return false;
  };
  for (const auto& kv : waits) {
    if (colour[kv.first] == 0 && dfs(kv.first)) {
      std::string s = fmt::format("cycle of {} waits:\n", stack.size());
      for (const auto& [pkt, why] : stack) s += fmt::format("  packet {} waits: {}\n", pkt, why);
      return s;
    }
    stack.clear();
  }
  std::string s = "blocked packets (no cycle found):\n";
  int shown = 0;
  for (const auto& [a, edges] : waits)
    for (const auto& e : edges)
      if (shown++ < 20) s += fmt::format("  packet {} waits: {}\n", a, e.second);
  return s;
}

}  // namespace wn
