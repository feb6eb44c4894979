#include "systemc/network/contention_monitor.h"

#include <stdexcept>

#include "systemc/core/flit.h"

namespace wn {

ContentionMonitor::ContentionMonitor(Occupancy& occ, const Network& net, const PacketStore& store)
    : occ_(occ), net_(net), store_(store) {
  const NetworkParams& np = net.params();
  const int n = net.topology().nodes();
  P_ = occ.ports();
  V_ = occ.vcs();
  I_ = occ.inj();
  npo_ = P_ + occ.ej();
  flit_cycles_ = uint64_t(net.timing().flit_cycles);
  last_dep_.assign(size_t(n) * size_t(occ.in_slots()), 0);
  chans_.resize(size_t(n) * size_t(npo_));
  holders_.resize(chans_.size());
  touched_.assign(chans_.size(), 0);
  inj_.resize(size_t(n) * size_t(I_));
  inj_touched_.assign(inj_.size(), 0);
  last_head_.assign(size_t(n) * size_t(I_), kNoBlocker);
  const RouterConfig base = base_router_config(np);
  cfg_.reserve(size_t(n));
  for (int r = 0; r < n; ++r) cfg_.push_back(net.topology().router_config(r, base));
}

std::map<std::pair<int, int>, ChannelCounters> ContentionMonitor::take_channels() {
  std::map<std::pair<int, int>, ChannelCounters> m;
  for (size_t i = 0; i < chans_.size(); ++i) {
    if (!touched_[i]) continue;
    const int r = int(i / size_t(npo_)), op = int(i % size_t(npo_));
    const Chan& c = chans_[i];
    ChannelCounters cc;
    cc.flits = c.flits;
    cc.vc_flits = c.vc_flits;
    cc.vc_busy = c.vc_busy;
    cc.blocked = c.blocked;
    cc.credit_stall = c.credit_stall;
    cc.sa_loss = c.sa_loss;
    cc.holders = holders_[i].top();
    holders_[i] = BlockerTally();
    // Holds still open at the end count through the last observed edge.
    const int s0 = op < P_ ? op * V_ : P_ * V_ + (op - P_), ns = op < P_ ? V_ : 1;
    for (int w = 0; w < ns && observed_; ++w) {
      const OutSlot& o = occ_.out_slot(r, s0 + w);
      if (o.holder >= 0) cc.vc_busy[size_t(w)] += last_now_ + 1 - o.held_since;
    }
    m.emplace(std::pair<int, int>(r, op < P_ ? op : kMaxPorts + (op - P_)), std::move(cc));
  }
  return m;
}

const std::map<std::pair<int, int>, ContentionMonitor::InjectionCounters>& ContentionMonitor::injection() const {
  injection_.clear();
  for (size_t i = 0; i < inj_.size(); ++i)
    if (inj_touched_[i]) injection_.emplace(std::pair<int, int>(int(i / size_t(I_)), int(i % size_t(I_))), inj_[i]);
  return injection_;
}

void ContentionMonitor::ensure(uint32_t id) {
  if (packets_.size() <= id) packets_.resize(id + 1);
}

std::array<uint64_t, kContentionClasses> ContentionMonitor::totals() const {
  std::array<uint64_t, kContentionClasses> t{};
  for (const auto& p : packets_)
    for (int c = 0; c < kContentionClasses; ++c) t[size_t(c)] += p.cycles[size_t(c)];
  return t;
}

Contention ContentionMonitor::class_of(uint32_t victim, uint32_t blocker) const {
  return store_[victim].step == store_[blocker].step ? Contention::Stepwise : Contention::Depth;
}

void ContentionMonitor::blame(uint32_t victim, const Candidate& c, uint64_t now) {
  ensure(victim);
  PacketContention& pc = packets_[victim];
  const bool flow = c.blocker < 0;
  const Contention cls = c.port ? Contention::Port : flow ? Contention::Flow : class_of(victim, uint32_t(c.blocker));
  ++pc.cycles[size_t(cls)];
  if (c.out_idx < 0) return;
  Chan& ch = chan(c.r, c.out_idx);
  ++ch.blocked;
  if (flow) ++ch.credit_stall;
  if (c.sa_loss) ++ch.sa_loss;
  if (!flow)
    holders_[size_t(c.r) * size_t(npo_) + size_t(c.out_idx)].charge(
        uint32_t(c.blocker), [this, now](uint32_t pid) { return blocks_no_more(pid, now); });
}

// Every cause names a packet with a flit or a held output in the router, or one whose tail left
// an input or released an output at the previous edge (contention_causes.cpp): a packet whose
// tail left the network at edge t (tail_ejected = t + 1) is charged at t + 1 at the latest.
// Two edges more, for certainty.
bool ContentionMonitor::blocks_no_more(uint32_t pid, uint64_t now) const {
  if (!store_.valid(pid)) return false;  // a released record says nothing: kept counting
  const uint64_t t = store_[pid].tail_ejected;
  return t != kNever && now > t + 3;
}

// One cause per packet per edge: a named blocker beats flow control.
void ContentionMonitor::propose(uint32_t victim, const Candidate& c, uint64_t now) {
  if (edge_at_.size() <= victim) {
    edge_at_.resize(size_t(victim) + 1, 0);
    edge_pos_.resize(size_t(victim) + 1, 0);
  }
  if (edge_at_[victim] != now + 1) {
    edge_at_[victim] = now + 1;
    edge_pos_[victim] = uint32_t(edge_.size());
    edge_.emplace_back(victim, c);
    return;
  }
  Candidate& cur = edge_[edge_pos_[victim]].second;
  if (cur.blocker < 0 && c.blocker >= 0) cur = c;
}

// An output slot's hold ended: busy in every edge from the one it was taken
// at up to this one, exclusive.
void ContentionMonitor::released(int r, int os, uint64_t held_since, uint64_t now) {
  const bool net = os < P_ * V_;
  chan(r, net ? os / V_ : P_ + (os - P_ * V_)).vc_busy[size_t(net ? os % V_ : 0)] += now - held_since;
}

void ContentionMonitor::head_delay(uint32_t pid, const Candidate& c, bool at_source, uint64_t now) {
  PacketDelay& d = delays_[pid];
  if (at_source && d.after != kNoBlocker) {
    // Behind its own message's previous packet, and the allocation cycle
    // after its tail: the serialization zero load already includes.
    const uint64_t left = delays_[d.after].left_source;
    if (left == UINT64_MAX || now <= left + 1) return;
  }
  const Contention cls = cause_class(pid, c);
  const uint32_t b = c.blocker < 0 ? kNoBlocker : uint32_t(c.blocker);
  d.delay.add(cls, b, 1);
  if (at_source && d.source) d.source->add(cls, b, 1);
}

// A flit of packet `pid` leaves its input slot at edge `now`. A body flit's
// gap is now exactly (now - departure of the flit ahead - flit_cycles_): its ledger is
// settled to that, so what it carries out of the last router is exactly its
// share of the packet's delay. At the source router, a gap the stalls do not
// explain is the NI presenting the flit late (credits).
void ContentionMonitor::flit_delay(uint32_t pid, uint32_t& ledger, uint64_t& last_dep, bool source, bool eject,
                                   bool head, uint64_t now) {
  if (!head) {
    // Closer than the zero-load spacing only on a router whose spacing is not uniform: no gap (the
    // conservation check then names the packet).
    const uint64_t gap = now - last_dep > flit_cycles_ ? now - last_dep - flit_cycles_ : 0;
    const uint64_t padded = ledgers_.settle(ledger, gap, Contention::Flow);
    if (!source) unexplained_ += padded;
  }
  last_dep = now;
  if (ledger == 0) return;
  if (source && delays_[pid].source) ledgers_.charge(ledger, *delays_[pid].source);
  if (eject) {
    ledgers_.charge(ledger, delays_[pid].delay);
    ledgers_.release(ledger);
  }
}

void ContentionMonitor::departed(const Occupancy::Departure& d, Flit& fl, uint64_t now) {
  Chan& ch = chan(d.r, d.op);
  ++ch.flits;
  ++ch.vc_flits[size_t(d.w)];
  if (d.from_injection) {
    const size_t k = size_t(d.r) * size_t(I_) + size_t(d.s - P_ * V_);
    ++inj_[k].flits;
    inj_touched_[k] = 1;
  }
  flit_delay(d.packet, fl.tag, last_dep_[d.is], d.from_injection, !d.to_network, d.head, now);
  if (d.tail && d.from_injection) delays_[d.packet].left_source = now;
}

void ContentionMonitor::head_entered(uint32_t id, const PacketRecord& p) {
  if (delays_.size() <= id) delays_.resize(id + 1);
  uint32_t& last = last_head_[size_t(p.src) * size_t(I_) + size_t(p.inj_channel)];
  if (last != kNoBlocker && p.message != UINT32_MAX && store_[last].message == p.message) delays_[id].after = last;
  last = id;
  // The firmware stores a message's packets under consecutive ids.
  if (p.message != UINT32_MAX && ((id > 0 && store_[id - 1].message == p.message) ||
                                  (id + 1 < store_.size() && store_[id + 1].message == p.message)))
    delays_[id].source = std::make_shared<DelayAccount>();
  const uint64_t wait = p.head_injected - p.created;
  if (wait > 0) {  // the NI held it: every injection channel it may use was busy
    ensure(id);
    packets_[id].cycles[size_t(Contention::Port)] += wait;
    const size_t k = size_t(p.src) * size_t(I_) + size_t(p.inj_channel);
    inj_[k].port_wait += wait;
    inj_touched_[k] = 1;
  }
}

void ContentionMonitor::observe(uint64_t now) {
  occ_.observe(now, *this);
  edge_.clear();
  // Most routers of a big network hold nothing: two masks skip them. Held
  // output VCs need no visit: their busy cycles are added when the hold ends.
  const int n = occ_.routers();
  for (int r = 0; r < n; ++r) {
    const Hot& h = occ_.hot(r);
    if (h.waiting > 0) classify(r, now);
    if (h.buffered) body_stalls(r, now);
  }
  for (const auto& [victim, c] : edge_) blame(victim, c, now);
  last_now_ = now;
  observed_ = true;
}

}  // namespace wn
