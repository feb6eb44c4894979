// Why a head or a ready body flit did not move at an edge: the cause both
// views charge (contention_monitor.h).
#include "systemc/network/contention_monitor.h"
#include "systemc/topology/route_function.h"

namespace wn {

// Active worms (head gone) with a ready flit at the front of an input VC
// that did not move at this edge. The resource view counts network inputs;
// the delay view also follows the source's injection buffer.
void ContentionMonitor::body_stalls(int r, uint64_t now) {
  RouterState& s = routers_[size_t(r)];
  for (uint64_t m = s.buffered; m; m &= m - 1) {
    const int in = slot_port(__builtin_ctzll(m)), v = slot_vc(__builtin_ctzll(m));
    {
      const auto& q = s.queue[size_t(in)][size_t(v)];
      auto& b = s.body[size_t(in)][size_t(v)];
      if (q.empty() || !q.front().head_gone || s.vc_sent[size_t(in)][size_t(v)]) continue;
      if (now < b.front().written + 1) continue;  // written this edge: leaves next edge at zero load
      const uint32_t pid = q.front().packet;
      const int out = q.front().out;  // the output VC its worm holds
      Candidate c;
      const int64_t winner = s.winner[size_t(out)];
      if (winner >= 0 && winner != int64_t(pid)) {
        c = {winner, r, out, false, true};  // lost the output in switch allocation
      } else if (s.input_sender[size_t(in)] >= 0) {
        // Its input port sent another VC's flit (one flit per input port per edge).
        c = {s.input_sender[size_t(in)], r, out, false, true};
      } else {
        c = {-1, r, out, false, false};  // credits
      }
      if (in < kMaxPorts) propose(pid, c);
      ledgers_.stall(b.front().ledger, cause_class(pid, c), c.blocker < 0 ? kNoBlocker : uint32_t(c.blocker));
    }
  }
}

void ContentionMonitor::classify(int r, uint64_t now) {
  RouterState& s = routers_[size_t(r)];
  const Topology& topo = net_.topology();
  for (uint64_t m = s.queued; m; m &= m - 1) {
    const int in = slot_port(__builtin_ctzll(m)), v = slot_vc(__builtin_ctzll(m));
    {
      auto& q = s.queue[size_t(in)][size_t(v)];
      for (size_t i = 0; i < q.size(); ++i) {
        const Entry& e = q[i];
        if (e.head_gone || now < e.arrival + 2) continue;  // moving, or still in its zero-load pipeline
        const PacketRecord& p = store_[e.packet];
        const Route rt = route(s.cfg, topo.address(p.dst), in < kMaxPorts ? in : -1, v);
        const int out_idx = rt.eject ? kMaxPorts : rt.out;  // ejection counted on channel 0's slot
        // Waiting behind the node's own previous packet on its injection
        // channel is the node's port, not the network.
        const bool own_port = in >= kMaxPorts;
        const auto& prev = s.last_tail[size_t(in)][size_t(v)];
        Candidate c;
        if (i > 0) {  // behind another packet's flits in the same input VC
          c = {int64_t(q.front().packet), r, out_idx, own_port, false};
        } else if (own_port && prev.first >= 0 && prev.second + 1 >= now) {
          // The allocation cycle right after the node's own previous packet
          // left its injection buffer: the node's serialization (port).
          c = {prev.first, r, out_idx, true, false};
        } else if (rt.eject) {
          int64_t holder = -1;
          bool all_held = true;
          for (int j = 0; j < s.cfg.ej; ++j) {
            const int64_t h = s.holder[size_t(kMaxPorts + j)][0];
            if (h < 0) all_held = false;
            else if (holder < 0) holder = h;
          }
          int64_t winner = -1, released = -1;
          for (int j = 0; j < s.cfg.ej; ++j) {
            const auto& rel = s.last_release[size_t(kMaxPorts + j)][0];
            if (s.holder[size_t(kMaxPorts + j)][0] < 0 && rel.first >= 0 && rel.second + 1 == now &&
                rel.first != int64_t(e.packet))
              released = rel.first;
          }
          for (int j = 0; j < s.cfg.ej && winner < 0; ++j)
            if (s.winner[size_t(kMaxPorts + j)] >= 0 && s.winner[size_t(kMaxPorts + j)] != int64_t(e.packet))
              winner = s.winner[size_t(kMaxPorts + j)];
          if (all_held) c = {holder, r, out_idx, true, false};
          else if (winner >= 0) c = {winner, r, out_idx, true, true};
          else if (released >= 0) c = {released, r, out_idx, true, false};
          else if (prev.first >= 0 && prev.second + 1 >= now) c = {prev.first, r, out_idx, own_port, false};
          else c = {-1, r, out_idx, false, false};
        } else {
          int64_t holder = -1, released = -1;
          bool all_held = true;
          for (int w = rt.vc_lo; w <= rt.vc_hi; ++w) {
            const int64_t h = s.holder[size_t(rt.out)][size_t(w)];
            const auto& rel = s.last_release[size_t(rt.out)][size_t(w)];
            if (h < 0) all_held = false;
            else if (holder < 0) holder = h;
            // Freed at the previous edge: this edge is the head's allocation cycle, still the holder's doing.
            if (h < 0 && rel.first >= 0 && rel.second + 1 == now && rel.first != int64_t(e.packet)) released = rel.first;
          }
          const int64_t winner = s.winner[size_t(rt.out)];
          if (all_held && holder >= 0) c = {holder, r, out_idx, false, false};
          else if (winner >= 0 && winner != int64_t(e.packet)) c = {winner, r, out_idx, false, true};
          else if (released >= 0) c = {released, r, out_idx, false, false};
          else if (prev.first >= 0 && prev.second + 1 >= now) c = {prev.first, r, out_idx, own_port, false};
          else c = {-1, r, out_idx, false, false};
        }
        propose(e.packet, c);
        head_delay(e.packet, c, in >= kMaxPorts, now);
      }
    }
  }
}

}  // namespace wn
