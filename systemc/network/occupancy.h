// The one shadow of where every flit and every worm sits in the network,
// kept from the routers' observable I/O only (every output with its
// from-port/VC, the links, the injections, the packet store's injection
// times), so it is the same for the RTL, the model and lock-step. The
// contention monitor measures on it and the deadlock report explains waits
// on it (wait_explainer.h); neither keeps a copy of its own.
//
// Compact index spaces, sized by the network actually built (P ports, V VCs,
// I injection, E ejection channels; the same for every router): input slots
// p*V+v then P*V+i, output slots o*V+w then P*V+j, input ports p then P+i,
// output ports o then P+j. Each order is the network's kMaxPorts-padded order
// with the gaps removed.
//
// Laid out for a flit's hop: a body flit leaving one input slot and entering
// the next touches each slot's block (its counts, its front worm's packet, the
// observer's note and its flits' tags: two cache lines, fetched as a pair) and
// each router's record. The worm
// rings and output slots are read when a head or tail moves, or a packet waits.
// A large network's state does not stay in the cache from one edge to the
// next; observe() asks for the next routers' lines ahead of their turn.
//
// A flit on a link is counted in the input slot it enters at the next edge
// (its written edge is then in the future): credits bound a slot's flits and
// worms by the buffer depth, links included.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "systemc/core/flit.h"
#include "systemc/core/huge_pages.h"
#include "systemc/core/packet.h"
#include "systemc/network/network.h"

namespace wn {

class Occupancy {
 public:
  struct Worm {
    uint64_t arrival;  // cycle its head was presented at this input
    uint32_t packet;
    int8_t out = -1;  // output port its head took
    bool head_gone;
  };
  // Per input slot: rings of cap() flits (only their tags are kept) and
  // worms. A slot is written at most once per edge (one link per input port,
  // one flit per injection channel per cycle), so its flits were written at
  // increasing edges, and only the newest two can have been written at the
  // current edge or later: their edges are all the flits' edges a reader needs.
  struct InSlot {
    uint8_t bfirst, bsize, qfirst, qsize;
    uint32_t front;         // the front worm's packet (qsize > 0)
    int8_t front_out;       // ... the output its head took
    bool front_gone;        // ... its head has left
    bool prev_adjacent;     // the flit written before the newest was written one edge before it
    uint64_t last_written;  // edge the newest flit was (or will be) written
  };
  // What the observer (the contention monitor) keeps per input slot, beside it: the edge of the
  // slot's last flit out, and stall edges of its front flit not yet in that flit's ledger.
  struct SlotNote {
    uint64_t last_departure;
    uint32_t stall_edges;
    uint32_t stall_blocker;
  };
  // Per output slot.
  struct OutSlot {
    int64_t holder = -1;
    uint64_t held_since = 0;
    std::pair<int64_t, uint64_t> last_release{-1, 0};
  };
  // Per router, in one small record: what a per-cycle scan needs to skip it.
  struct Hot {
    uint64_t queued = 0;      // input slots with a non-empty worm queue
    uint64_t held = 0;        // output slots held
    uint64_t buffered = 0;    // input slots with flits
    uint64_t sent = 0;        // input slots that sent a flit this edge
    uint32_t sent_ports = 0;  // input ports that sent a flit this edge (network, then injection): sender() valid
    uint32_t won = 0;         // output ports that carried a flit this edge: winner() valid
    int waiting = 0;          // heads in queues
  };
  // A flit leaving router r: through output port op (compact) on output
  // slot os, from input slot s (input port ip) at global slot index is.
  struct Departure {
    int r, op, w, os, s, ip;  // w: output VC (0 for ejection)
    size_t is;
    uint32_t packet;
    bool head, tail, from_injection, to_network;
  };
  // What observe() tells its observer; an observer implements what it needs.
  struct NoObserver {
    void departed(const Departure&, uint64_t&, uint64_t) {}
    void released(int, int, uint64_t, uint64_t) {}
    void head_entered(uint32_t, const PacketRecord&) {}
  };

  Occupancy(const Network& net, const PacketStore& store);

  // After every Network::cycle() of cycle `now`. The observer sees every
  // departure before its flit is written downstream (it may change the
  // flit's tag), every release of an output slot (with the edge it was
  // taken at), and every head entering its injection buffer.
  template <class Observer>
  void observe(uint64_t now, Observer& ob);
  void observe(uint64_t now) {
    NoObserver none;
    observe(now, none);
  }

  int ports() const { return P_; }
  int vcs() const { return V_; }
  int inj() const { return I_; }
  int ej() const { return E_; }
  int in_slots() const { return nin_; }
  int out_slots() const { return nout_; }
  int routers() const { return int(hot_.size()); }
  const Hot& hot(int r) const { return hot_[size_t(r)]; }
  size_t slot_index(int r, int s) const { return size_t(r) * size_t(nin_) + size_t(s); }
  const InSlot& in_slot(size_t is) const { return units_[is * unit_stride_].head; }
  InSlot& in_slot(size_t is) { return units_[is * unit_stride_].head; }
  SlotNote& note(size_t is) { return units_[is * unit_stride_ + 1].note; }
  // The last packet whose tail left input slot is, and when ({-1, 0}: none yet).
  const std::pair<int64_t, uint64_t>& last_tail(size_t is) const { return last_tail_[is]; }
  const OutSlot& out_slot(int r, int s) const { return out_[size_t(r) * size_t(nout_) + size_t(s)]; }
  const Worm& worm(size_t is, int i) const { return worms_[worm_index(is, i)]; }
  // Worm i of slot is in one index space over all slots (worm_slots() of them): an observer's
  // notes per worm.
  size_t worm_index(size_t is, int i) const { return is * cap_ + (size_t(i) & (cap_ - 1)); }
  size_t worm_slots() const { return worms_.size(); }
  // The observer's word of flit i of slot is (carried along the flit's path).
  uint64_t& tag(size_t is, int i) {
    const size_t k = size_t(i) & (cap_ - 1);
    return units_[is * unit_stride_ + 2 + k / 4].tags[k & 3];
  }
  // The front flit of slot is was written at edge `now` or is still on its link (it leaves at the
  // next edge at the earliest).
  bool front_written_since(size_t is, uint64_t now) const {
    const InSlot& s = in_slot(is);
    return s.bsize == 1 ? s.last_written >= now : s.bsize == 2 && s.prev_adjacent && s.last_written == now + 1;
  }
  // The packet whose flit left output port op / input port ip of router r this edge (-1: none).
  int64_t winner(int r, int op) const {
    return hot_[size_t(r)].won >> op & 1 ? int64_t(ports_[size_t(r) * size_t(npo_ + npi_) + size_t(op)]) : -1;
  }
  int64_t sender(int r, int ip) const {
    return hot_[size_t(r)].sent_ports >> ip & 1 ? int64_t(ports_[size_t(r) * size_t(npo_ + npi_) + size_t(npo_ + ip)])
                                                : -1;
  }

 private:
  // A slot's block of whole cache lines: its InSlot, its SlotNote, then its flits' tags, 4 to a unit.
  union SlotUnit {
    InSlot head;
    SlotNote note;
    uint64_t tags[4];
  };
  static_assert(sizeof(SlotUnit) == 32, "two units to a cache line");

  template <class Observer>
  void depart(int r, int op, uint64_t f, int from_port, int from_vc, uint64_t now, Observer& ob);
  template <class Observer>
  void set_holder(int r, int os, int64_t pid, uint64_t now, Observer& ob);
  void push_flit(int r, int s, uint64_t written, uint64_t tag);
  [[noreturn]] static void overflow(const char* what);  // std::logic_error: more flits or worms than credits
  void push_worm(int r, int s, const Worm& w);
  void pop_worm(size_t isx, Hot& h, int s);
  // rtl/README.md §4: every flit that leaves an input returns one credit upstream, at the same edge,
  // for its VC (to the NI for an injection channel), and no credit comes without one. Throws
  // std::runtime_error naming the router, input and VC.
  void check_credits(int r, const RouterOut& o, uint64_t now) const {
    const Hot& h = hot_[size_t(r)];
    const uint32_t pmask = (1u << P_) - 1, imask = (1u << I_) - 1;
    const uint32_t net_sent = h.sent_ports & pmask;
    bool ok = net_sent == (o.in_credit & pmask) && (h.sent_ports >> P_ & imask) == (o.inj_credit & imask);
    const uint64_t vmask = (uint64_t{1} << V_) - 1;
    for (uint32_t m = ok ? net_sent : 0; m; m &= m - 1) {
      const int p = __builtin_ctz(m);
      ok &= o.in_credit_vc[p] == __builtin_ctzll(h.sent >> (p * V_) & vmask);
    }
    if (!ok) credit_violation(r, o, now);
  }
  [[noreturn]] void credit_violation(int r, const RouterOut& o, uint64_t now) const;
  void prefetch(int r) const;
  // After prefetch(r) has brought its outputs: the slots its departing flits leave and enter.
  void prefetch_slots(int r) const;
  // The input slot a flit left from, as the router names it (port, VC); -1: none such (only a
  // broken router names it, and the scoreboard reports that).
  int source_slot(int from_port, int from_vc) const {
    if (from_port >= kInjBase) return from_port - kInjBase < I_ ? P_ * V_ + (from_port - kInjBase) : -1;
    return from_port < P_ && from_vc < V_ ? from_port * V_ + from_vc : -1;
  }
  Worm& worm_at(size_t is, int i) { return worms_[is * cap_ + (size_t(i) & (cap_ - 1))]; }
  OutSlot& out_at(int r, int s) { return out_[size_t(r) * size_t(nout_) + size_t(s)]; }

  const Network& net_;
  const PacketStore& store_;
  int P_ = 0, V_ = 0, I_ = 0, E_ = 0;
  int nin_ = 0, nout_ = 0, npi_ = 0, npo_ = 0;
  size_t cap_ = 1;               // ring capacity: the buffer depth rounded up to a power of two
  size_t unit_stride_ = 4;       // SlotUnits per input slot
  DenseVector<Hot> hot_;         // [router]
  DenseVector<SlotUnit> units_;  // [input slot * unit_stride_ + unit]
  DenseVector<OutSlot> out_;     // [router * nout_ + output slot]
  DenseVector<Worm> worms_;      // [input slot * cap_ + i]
  DenseVector<uint32_t> ports_;  // [router * (npo_ + npi_) + output port, then npo_ + input port]: packets
  DenseVector<std::pair<int64_t, uint64_t>> last_tail_;  // [input slot]
  std::vector<uint32_t> pending_;                        // created, head not injected yet
  uint64_t seen_;  // ids below it are pending or entered (ids before the shadow existed: never)
};

}  // namespace wn

#include "systemc/network/occupancy_observe.h"
