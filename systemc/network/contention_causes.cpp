// Why a head or a ready body flit did not move at an edge: the cause both
// views charge (contention_monitor.h).
#include "systemc/network/contention_monitor.h"
#include "systemc/topology/route_function.h"

namespace wn {

// Active worms (head gone) with a ready flit at the front of an input VC
// that did not move at this edge. The resource view counts network inputs;
// the delay view also follows the source's injection buffer.
void ContentionMonitor::body_stalls(int r, uint64_t now) {
  const Hot& h = occ_.hot(r);
  const int nnet = P_ * V_;
  for (uint64_t m = h.buffered & ~h.sent; m; m &= m - 1) {  // a slot that sent did not stall
    const int s = __builtin_ctzll(m);
    const size_t isx = occ_.slot_index(r, s);
    const InSlot& is = occ_.in_slot(isx);
    if (is.qsize == 0 || !is.front_gone) continue;
    if (occ_.front_written_since(isx, now)) continue;  // written this edge: leaves next edge at zero load
    const uint32_t pid = is.front;
    const int out = is.front_out;  // the output its worm holds
    const int ip = s < nnet ? s / V_ : P_ + (s - nnet);
    Candidate c;
    const int64_t winner = occ_.winner(r, out);
    const int64_t sender = occ_.sender(r, ip);
    if (winner >= 0 && winner != int64_t(pid)) {
      c = {winner, r, out, false, true};  // lost the output in switch allocation
    } else if (sender >= 0) {
      // Its input port sent another VC's flit (one flit per input port per edge).
      c = {sender, r, out, false, true};
    } else {
      c = {-1, r, out, false, false};  // credits
    }
    if (s < nnet) propose(pid, c, now);
    // The stall goes into the flit's ledger when it leaves (or the cause changes). The class is a
    // function of the packet and the blocker (never a port here), and the packet is the front
    // worm's until the flit leaves.
    Occupancy::SlotNote& note = occ_.note(isx);
    const uint32_t blocker = c.blocker < 0 ? kNoBlocker : uint32_t(c.blocker);
    if (note.stall_edges > 0 && note.stall_edges < UINT32_MAX && note.stall_blocker == blocker) {
      ++note.stall_edges;
    } else {
      if (note.stall_edges > 0) note_stalls(pid, note, occ_.tag(isx, is.bfirst));
      note.stall_edges = 1;
      note.stall_blocker = blocker;
    }
  }
}

const ContentionMonitor::RouteNote& ContentionMonitor::route_of(size_t worm, const Worm& e, const RouterConfig& cfg,
                                                                int in, int v) {
  RouteNote& n = routes_[worm];
  if ((n.flags & kRouted) && n.packet == e.packet) return n;
  const Route rt = route(cfg, net_.topology().address(store_[e.packet].dst), in, v);
  n.packet = e.packet;
  n.out = int8_t(rt.out);
  n.vc_lo = int8_t(rt.vc_lo);
  n.vc_hi = int8_t(rt.vc_hi);
  n.flags = uint8_t(kRouted | (rt.eject ? kEject : 0));
  return n;
}

void ContentionMonitor::classify(int r, uint64_t now) {
  const Hot& h = occ_.hot(r);
  const RouterConfig& cfg = cfg_[size_t(r)];
  const int nnet = P_ * V_;
  const uint64_t stage = uint64_t(net_.timing().stage_cycles);
  for (uint64_t m = h.queued; m; m &= m - 1) {
    const int s = __builtin_ctzll(m);
    const bool own_port = s >= nnet;  // the node's injection channel
    const int in = own_port ? -1 : s / V_, v = own_port ? 0 : s % V_;
    const size_t isx = occ_.slot_index(r, s);
    const InSlot& is = occ_.in_slot(isx);
    for (int i = 0; i < is.qsize; ++i) {
      const Worm& e = occ_.worm(isx, is.qfirst + i);
      if (e.head_gone || now < e.arrival + stage) continue;  // moving, or in its zero-load stages
      const RouteNote& rt = route_of(occ_.worm_index(isx, is.qfirst + i), e, cfg, in, v);
      const bool eject = rt.flags & kEject;
      const int out_idx = eject ? P_ : rt.out;  // ejection counted on channel 0's slot
      // Waiting behind the node's own previous packet on its injection
      // channel is the node's port, not the network.
      const auto& prev = occ_.last_tail(isx);
      Candidate c;
      if (i > 0) {  // behind another packet's flits in the same input VC
        c = {int64_t(is.front), r, out_idx, own_port, false};
      } else if (own_port && prev.first >= 0 && prev.second + 1 >= now) {
        // The allocation cycle right after the node's own previous packet
        // left its injection buffer: the node's serialization (port).
        c = {prev.first, r, out_idx, true, false};
      } else if (eject) {
        int64_t holder = -1;
        bool all_held = true;
        for (int j = 0; j < cfg.ej; ++j) {
          const int64_t hj = occ_.out_slot(r, nnet + j).holder;
          if (hj < 0)
            all_held = false;
          else if (holder < 0)
            holder = hj;
        }
        int64_t winner = -1, released = -1;
        for (int j = 0; j < cfg.ej; ++j) {
          const OutSlot& o = occ_.out_slot(r, nnet + j);
          const auto& rel = o.last_release;
          if (o.holder < 0 && rel.first >= 0 && rel.second + 1 == now && rel.first != int64_t(e.packet))
            released = rel.first;
        }
        for (int j = 0; j < cfg.ej && winner < 0; ++j) {
          const int64_t wj = occ_.winner(r, P_ + j);
          if (wj >= 0 && wj != int64_t(e.packet)) winner = wj;
        }
        if (all_held)
          c = {holder, r, out_idx, true, false};
        else if (winner >= 0)
          c = {winner, r, out_idx, true, true};
        else if (released >= 0)
          c = {released, r, out_idx, true, false};
        else if (prev.first >= 0 && prev.second + 1 >= now)
          c = {prev.first, r, out_idx, own_port, false};
        else
          c = {-1, r, out_idx, false, false};
      } else {
        int64_t holder = -1, released = -1;
        bool all_held = true;
        for (int w = rt.vc_lo; w <= rt.vc_hi; ++w) {
          const OutSlot& o = occ_.out_slot(r, rt.out * V_ + w);
          const int64_t hw = o.holder;
          const auto& rel = o.last_release;
          if (hw < 0)
            all_held = false;
          else if (holder < 0)
            holder = hw;
          // Freed at the previous edge: this edge is the head's allocation cycle, still the holder's doing.
          if (hw < 0 && rel.first >= 0 && rel.second + 1 == now && rel.first != int64_t(e.packet)) released = rel.first;
        }
        const int64_t winner = occ_.winner(r, rt.out);
        if (all_held && holder >= 0)
          c = {holder, r, out_idx, false, false};
        else if (winner >= 0 && winner != int64_t(e.packet))
          c = {winner, r, out_idx, false, true};
        else if (released >= 0)
          c = {released, r, out_idx, false, false};
        else if (prev.first >= 0 && prev.second + 1 >= now)
          c = {prev.first, r, out_idx, own_port, false};
        else
          c = {-1, r, out_idx, false, false};
      }
      propose(e.packet, c, now);
      head_delay(e.packet, c, own_port, now);
    }
  }
}

}  // namespace wn
