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
  for (uint64_t m = h.buffered; m; m &= m - 1) {
    const int s = __builtin_ctzll(m);
    const size_t isx = occ_.slot_index(r, s);
    const InSlot& is = occ_.in_slot(isx);
    if (is.qsize == 0 || (h.sent >> s & 1)) continue;
    const Worm& front = occ_.worm(isx, is.qfirst);
    if (!front.head_gone) continue;
    Flit& fl = occ_.flit(isx, is.bfirst);
    if (now < fl.written + 1) continue;  // written this edge: leaves next edge at zero load
    const uint32_t pid = front.packet;
    const int out = front.out;  // the output its worm holds
    const int ip = s < nnet ? s / V_ : P_ + (s - nnet);
    Candidate c;
    const int64_t winner = occ_.winners(r)[out];
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
    ledgers_.stall(fl.tag, cause_class(pid, c), c.blocker < 0 ? kNoBlocker : uint32_t(c.blocker));
  }
}

void ContentionMonitor::classify(int r, uint64_t now) {
  const Hot& h = occ_.hot(r);
  const RouterConfig& cfg = cfg_[size_t(r)];
  const Topology& topo = net_.topology();
  const int nnet = P_ * V_;
  const int64_t* const win = occ_.winners(r);
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
      const PacketRecord& p = store_[e.packet];
      const Route rt = route(cfg, topo.address(p.dst), in, v);
      const int out_idx = rt.eject ? P_ : rt.out;  // ejection counted on channel 0's slot
      // Waiting behind the node's own previous packet on its injection
      // channel is the node's port, not the network.
      const auto& prev = is.last_tail;
      Candidate c;
      if (i > 0) {  // behind another packet's flits in the same input VC
        c = {int64_t(occ_.worm(isx, is.qfirst).packet), r, out_idx, own_port, false};
      } else if (own_port && prev.first >= 0 && prev.second + 1 >= now) {
        // The allocation cycle right after the node's own previous packet
        // left its injection buffer: the node's serialization (port).
        c = {prev.first, r, out_idx, true, false};
      } else if (rt.eject) {
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
        for (int j = 0; j < cfg.ej && winner < 0; ++j)
          if (win[P_ + j] >= 0 && win[P_ + j] != int64_t(e.packet)) winner = win[P_ + j];
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
        const int64_t winner = win[rt.out];
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
