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
  nout_ = occ.out_slots();
  flit_cycles_ = uint64_t(net.timing().flit_cycles);
  out_flits_.resize(size_t(n) * size_t(nout_));
  chans_.resize(size_t(n) * size_t(npo_));
  holders_.resize(chans_.size());
  inj_.resize(size_t(n) * size_t(I_));
  routes_.resize(occ.worm_slots());
  last_head_.assign(size_t(n) * size_t(I_), kNoBlocker);
  const RouterConfig base = base_router_config(np);
  cfg_.reserve(size_t(n));
  for (int r = 0; r < n; ++r) cfg_.push_back(net.topology().router_config(r, base));
}

std::map<std::pair<int, int>, ChannelCounters> ContentionMonitor::take_channels() {
  charge_waits();
  std::map<std::pair<int, int>, ChannelCounters> m;
  for (size_t i = 0; i < chans_.size(); ++i) {
    const int r = int(i / size_t(npo_)), op = int(i % size_t(npo_));
    const Chan& c = chans_[i];
    ChannelCounters cc;
    const int s0 = op < P_ ? op * V_ : P_ * V_ + (op - P_), ns = op < P_ ? V_ : 1;
    for (int w = 0; w < ns; ++w) {
      cc.vc_flits[size_t(w)] = out_flits_[size_t(r) * size_t(nout_) + size_t(s0 + w)];
      cc.flits += cc.vc_flits[size_t(w)];
    }
    if (cc.flits == 0 && c.blocked == 0) continue;
    cc.vc_busy = c.vc_busy;
    cc.blocked = c.blocked;
    cc.credit_stall = c.credit_stall;
    cc.sa_loss = c.sa_loss;
    cc.holders = holders_[i].top();
    holders_[i] = BlockerTally();
    // Holds still open at the end count through the last observed edge.
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
    if (inj_[i].flits > 0 || inj_[i].port_wait > 0)
      injection_.emplace(std::pair<int, int>(int(i / size_t(I_)), int(i % size_t(I_))), inj_[i]);
  return injection_;
}

// An output slot's hold ended: busy in every edge from the one it was taken
// at up to this one, exclusive.
void ContentionMonitor::released(int r, int os, uint64_t held_since, uint64_t now) {
  const bool net = os < P_ * V_;
  chan(r, net ? os / V_ : P_ + (os - P_ * V_)).vc_busy[size_t(net ? os % V_ : 0)] += now - held_since;
  // The shadow names the holder until this call returns.
  if (timeline_) timeline_->hold(uint32_t(occ_.out_slot(r, os).holder), r, os, held_since, now);
}

void ContentionMonitor::departed(const Occupancy::Departure& d, uint64_t& ledger, uint64_t now) {
  ++out_flits_[size_t(d.r) * size_t(nout_) + size_t(d.os)];
  if (d.from_injection) ++inj_[size_t(d.r) * size_t(I_) + size_t(d.s - P_ * V_)].flits;
  // A head moves on: its waits go into its accounts before anything else can.
  if (d.head)
    if (Victim* v = victims_.find(d.packet); v && v->head_waits > 0) add_head_waits(d.packet, *v);
  // Delivered: the packet waits no more, and its note goes.
  if (d.tail && !d.to_network)
    if (Victim* v = victims_.find(d.packet)) {
      charge(d.packet, *v);
      victims_.erase(d.packet);
    }
  Occupancy::SlotNote& note = occ_.note(d.is);
  if (note.stall_edges > 0) note_stalls(d.packet, note, ledger);
  flit_delay(d.packet, ledger, note.last_departure, d.from_injection, !d.to_network, d.head, now);
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
    if (packets_.size() <= id) packets_.resize(size_t(id) + 1);
    packets_[id].cycles[size_t(Contention::Port)] += wait;
    const size_t k = size_t(p.src) * size_t(I_) + size_t(p.inj_channel);
    inj_[k].port_wait += wait;
  }
}

void ContentionMonitor::observe(uint64_t now) {
  for (size_t id = steps_.size(); id < store_.size(); ++id)  // ids the store never had: never named
    steps_.push_back(store_.valid(uint32_t(id)) ? store_[uint32_t(id)].step : 0);
  deferred_.resize(steps_.size(), 0);
  edge_now_ = now;
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
  for (const auto& [victim, c] : edge_) blame(victim, c);
  if (timeline_) timeline_->flits(now, net_.flits_in_network());
  last_now_ = now;
  observed_ = true;
}

}  // namespace wn
