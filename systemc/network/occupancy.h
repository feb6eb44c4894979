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
// with the gaps removed. A 64x64 torus keeps ~2 KB per router, so the state
// of the routers that move flits stays in the cache.
//
// A flit on a link is counted in the input slot it enters at the next edge
// (its written edge is then in the future): credits bound a slot's flits and
// worms by the buffer depth, links included.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "systemc/core/flit.h"
#include "systemc/core/packet.h"
#include "systemc/network/network.h"

namespace wn {

class Occupancy {
 public:
  struct Flit {
    uint64_t written;  // edge it was (or will be) written into the buffer
    uint32_t tag = 0;  // the observer's word, carried along the flit's path (the monitor's delay ledger)
  };
  struct Worm {
    uint64_t arrival;  // cycle its head was presented at this input
    uint32_t packet;
    int8_t out = -1;  // output port its head took
    bool head_gone;
  };
  // Per input slot: rings of cap() flits and worms.
  struct InSlot {
    std::pair<int64_t, uint64_t> last_tail{-1, 0};  // last packet whose tail left, and when
    uint8_t bfirst = 0, bsize = 0, qfirst = 0, qsize = 0;
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
    uint32_t sent_ports = 0;  // input ports that sent a flit this edge (network, then injection)
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
    void departed(const Departure&, Flit&, uint64_t) {}
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
  const InSlot& in_slot(size_t is) const { return in_[is]; }
  const OutSlot& out_slot(int r, int s) const { return out_[size_t(r) * size_t(nout_) + size_t(s)]; }
  const Worm& worm(size_t is, int i) const { return worms_[is * cap_ + (size_t(i) & (cap_ - 1))]; }
  Flit& flit(size_t is, int i) { return flits_[is * cap_ + (size_t(i) & (cap_ - 1))]; }
  // Packets whose flit left output port op / input port ip of router r this edge (-1: none).
  const int64_t* winners(int r) const { return &winner_[size_t(r) * size_t(npo_)]; }
  int64_t sender(int r, int ip) const { return sender_[size_t(r) * size_t(npi_) + size_t(ip)]; }

 private:
  template <class Observer>
  void depart(int r, int op, uint64_t f, int from_port, int from_vc, uint64_t now, Observer& ob);
  template <class Observer>
  void set_holder(int r, int os, int64_t pid, uint64_t now, Observer& ob);
  void push_flit(int r, int s, const Flit& f);
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
  void push_worm(int r, int s, const Worm& w);
  Worm& worm_at(size_t is, int i) { return worms_[is * cap_ + (size_t(i) & (cap_ - 1))]; }
  OutSlot& out_at(int r, int s) { return out_[size_t(r) * size_t(nout_) + size_t(s)]; }

  const Network& net_;
  const PacketStore& store_;
  int P_ = 0, V_ = 0, I_ = 0, E_ = 0;
  int nin_ = 0, nout_ = 0, npi_ = 0, npo_ = 0;
  size_t cap_ = 1;                 // ring capacity: the buffer depth rounded up to a power of two
  std::vector<Hot> hot_;           // [router]
  std::vector<InSlot> in_;         // [router * nin_ + input slot]
  std::vector<OutSlot> out_;       // [router * nout_ + output slot]
  std::vector<Flit> flits_;        // [input slot * cap_ + i]
  std::vector<Worm> worms_;        // [input slot * cap_ + i]
  std::vector<int64_t> winner_;    // [router * npo_ + output port]
  std::vector<int64_t> sender_;    // [router * npi_ + input port]
  std::vector<uint32_t> pending_;  // created, head not injected yet
  uint64_t seen_;                  // ids below it are pending or entered (ids before the shadow existed: never)
};

template <class Observer>
void Occupancy::set_holder(int r, int os, int64_t pid, uint64_t now, Observer& ob) {
  OutSlot& o = out_at(r, os);
  Hot& h = hot_[size_t(r)];
  const uint64_t bit = uint64_t{1} << os;
  if (pid >= 0) {
    if (o.holder < 0) o.held_since = now;
    h.held |= bit;
  } else {
    if (o.holder >= 0) ob.released(r, os, o.held_since, now);
    h.held &= ~bit;
  }
  o.holder = pid;
}

template <class Observer>
void Occupancy::depart(int r, int op, uint64_t f, int from_port, int from_vc, uint64_t now, Observer& ob) {
  const bool inj = from_port >= kInjBase;
  const bool net_out = op < P_;
  const int w = net_out ? int(flit::vc(f)) : 0;
  // Only a broken router names what does not exist (the scoreboard reports it).
  if (inj ? from_port - kInjBase >= I_ : (from_port >= P_ || from_vc >= V_)) return;
  if (w >= V_) return;
  const int ip = inj ? P_ + (from_port - kInjBase) : from_port;
  const int s = inj ? P_ * V_ + (from_port - kInjBase) : from_port * V_ + from_vc;
  const size_t isx = slot_index(r, s);
  InSlot& is = in_[isx];
  if (is.qsize == 0) return;  // cannot happen with a consistent network
  Worm& e = worm_at(isx, is.qfirst);
  const uint32_t pid = e.packet;
  Hot& h = hot_[size_t(r)];
  winner_[size_t(r) * size_t(npo_) + size_t(op)] = pid;
  sender_[size_t(r) * size_t(npi_) + size_t(ip)] = pid;
  h.sent |= uint64_t{1} << s;
  h.sent_ports |= 1u << ip;
  Flit fl{now, 0};
  if (is.bsize) {
    fl = flit(isx, is.bfirst);
    is.bfirst = uint8_t((is.bfirst + 1) & (cap_ - 1));
    if (--is.bsize == 0) h.buffered &= ~(uint64_t{1} << s);
  }
  const int os = net_out ? op * V_ + w : P_ * V_ + (op - P_);
  const Departure d{r, op, w, os, s, ip, isx, pid, flit::is_head(f), flit::is_tail(f), inj, net_out};
  ob.departed(d, fl, now);
  std::pair<int, int> next{-1, -1};
  if (net_out) {
    next = net_.link(r, op);
    if (next.first < 0) return;  // a link to nowhere: only a broken router
    push_flit(next.first, next.second * V_ + w, {now + 1, fl.tag});
  }
  if (d.head) {
    e.head_gone = true;
    e.out = int8_t(op);
    --h.waiting;
    set_holder(r, os, pid, now, ob);
    if (net_out) push_worm(next.first, next.second * V_ + w, {now + 1, pid, -1, false});
  }
  if (d.tail) {
    is.qfirst = uint8_t((is.qfirst + 1) & (cap_ - 1));
    if (--is.qsize == 0) h.queued &= ~(uint64_t{1} << s);
    is.last_tail = {int64_t(pid), now};
    out_at(r, os).last_release = {int64_t(pid), now};
    set_holder(r, os, -1, now, ob);
  }
}

template <class Observer>
void Occupancy::observe(uint64_t now, Observer& ob) {
  for (uint64_t id = seen_; id < store_.size(); ++id) pending_.push_back(uint32_t(id));
  seen_ = store_.size();
  for (int r : net_.evaluated()) {
    std::fill_n(winner_.begin() + std::ptrdiff_t(size_t(r) * size_t(npo_)), npo_, -1);
    std::fill_n(sender_.begin() + std::ptrdiff_t(size_t(r) * size_t(npi_)), npi_, -1);
    hot_[size_t(r)].sent = 0;
    hot_[size_t(r)].sent_ports = 0;
    const RouterOut& o = net_.out(r);
    for (uint32_t m = o.out_valid & ((1u << P_) - 1); m; m &= m - 1) {
      const int k = __builtin_ctz(m);
      depart(r, k, o.out_flit[k], o.from_port[k], o.from_vc[k], now, ob);
    }
    for (uint32_t m = o.ej_valid & ((1u << E_) - 1); m; m &= m - 1) {
      const int j = __builtin_ctz(m);
      depart(r, P_ + j, o.ej_flit[j], o.from_port[kMaxPorts + j], o.from_vc[kMaxPorts + j], now, ob);
    }
    check_credits(r, o, now);
    // Flits the NI presented this cycle are in the injection buffers now.
    for (uint32_t m = net_.last_in(r).inj_valid & ((1u << I_) - 1); m; m &= m - 1)
      push_flit(r, P_ * V_ + __builtin_ctz(m), {now, 0});
  }
  // Heads the NIs presented this cycle enter their router's injection buffer.
  for (size_t i = 0; i < pending_.size();) {
    const uint32_t id = pending_[i];
    const PacketRecord& p = store_[id];
    if (p.head_injected == kNever) {
      ++i;
      continue;
    }
    push_worm(p.src, P_ * V_ + p.inj_channel, {p.head_injected, id, -1, false});
    ob.head_entered(id, p);
    pending_[i] = pending_.back();
    pending_.pop_back();
  }
}

}  // namespace wn
