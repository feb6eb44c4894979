#include "systemc/network/contention_monitor.h"

#include <stdexcept>

#include "systemc/core/flit.h"

namespace wn {

ContentionMonitor::ContentionMonitor(const Network& net, const PacketStore& store) : net_(net), store_(store) {
  const NetworkParams& np = net.params();
  const int n = net.topology().nodes();
  P_ = net.topology().ports();
  V_ = np.vcs;
  I_ = np.inj;
  E_ = np.ej;
  nin_ = P_ * V_ + I_;
  nout_ = P_ * V_ + E_;
  npi_ = P_ + I_;
  npo_ = P_ + E_;
  if (nin_ > 64 || nout_ > 64) throw std::logic_error("contention monitor: slots must fit a mask");
  while (cap_ < size_t(np.buf)) cap_ *= 2;
  hot_.resize(size_t(n));
  in_.resize(size_t(n) * size_t(nin_));
  out_.resize(size_t(n) * size_t(nout_));
  flits_.resize(in_.size() * cap_);
  entries_.resize(in_.size() * cap_);
  winner_.assign(size_t(n) * size_t(npo_), -1);
  sender_.assign(size_t(n) * size_t(npi_), -1);
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

std::map<std::pair<int, int>, ChannelCounters> ContentionMonitor::channels() const {
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
    cc.holders = holders_[i];
    // Holds still open at the end count through the last observed edge.
    const int s0 = op < P_ ? op * V_ : P_ * V_ + (op - P_), ns = op < P_ ? V_ : 1;
    for (int w = 0; w < ns && observed_; ++w) {
      const OutSlot& o = out_[size_t(r) * size_t(nout_) + size_t(s0 + w)];
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

void ContentionMonitor::blame(uint32_t victim, const Candidate& c) {
  ensure(victim);
  PacketContention& pc = packets_[victim];
  const bool flow = c.blocker < 0;
  const Contention cls = c.port ? Contention::Port : flow ? Contention::Flow : class_of(victim, uint32_t(c.blocker));
  ++pc.cycles[size_t(cls)];
  if (!flow) ++pc.blockers[uint32_t(c.blocker)];
  if (c.out_idx < 0) return;
  Chan& ch = chan(c.r, c.out_idx);
  ++ch.blocked;
  if (flow) ++ch.credit_stall;
  if (c.sa_loss) ++ch.sa_loss;
  if (!flow) ++holders_[size_t(c.r) * size_t(npo_) + size_t(c.out_idx)][uint32_t(c.blocker)];
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

void ContentionMonitor::set_holder(int r, int os, int64_t pid, uint64_t now) {
  OutSlot& o = out_slot(r, os);
  Hot& h = hot_[size_t(r)];
  const uint64_t bit = uint64_t{1} << os;
  if (pid >= 0) {
    if (o.holder < 0) o.held_since = now;
    h.held |= bit;
  } else {
    // Busy in every edge from the one it was taken at up to this one, exclusive.
    if (o.holder >= 0) {
      const bool net = os < P_ * V_;
      chan(r, net ? os / V_ : P_ + (os - P_ * V_)).vc_busy[size_t(net ? os % V_ : 0)] += now - o.held_since;
    }
    h.held &= ~bit;
  }
  o.holder = pid;
}

void ContentionMonitor::push_flit(int r, int s, const Flit& f) {
  const size_t is = size_t(r) * size_t(nin_) + size_t(s);
  InSlot& in = in_[is];
  if (in.bsize == cap_) throw std::logic_error("contention monitor: more flits at an input than its credits allow");
  flit_at(is, in.bfirst + in.bsize) = f;
  ++in.bsize;
  hot_[size_t(r)].buffered |= uint64_t{1} << s;
}

void ContentionMonitor::push_entry(int r, int s, const Entry& e) {
  const size_t is = size_t(r) * size_t(nin_) + size_t(s);
  InSlot& in = in_[is];
  if (in.qsize == cap_) throw std::logic_error("contention monitor: more worms at an input than its credits allow");
  entry_at(is, in.qfirst + in.qsize) = e;
  ++in.qsize;
  Hot& h = hot_[size_t(r)];
  h.queued |= uint64_t{1} << s;
  ++h.waiting;
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

// A flit of packet `pid` leaves input slot `is` at edge `now`. A body flit's
// gap is now exactly (now - departure of the flit ahead - 1): its ledger is
// settled to that, so what it carries out of the last router is exactly its
// share of the packet's delay. At the source router, a gap the stalls do not
// explain is the NI presenting the flit late (credits).
void ContentionMonitor::flit_delay(uint32_t pid, Flit& fl, InSlot& is, bool source, bool eject, bool head,
                                   uint64_t now) {
  if (!head) {
    const uint64_t padded = ledgers_.settle(fl.ledger, now - is.last_dep - 1, Contention::Flow);
    if (!source) unexplained_ += padded;
  }
  is.last_dep = now;
  if (fl.ledger == 0) return;
  if (source && delays_[pid].source) ledgers_.charge(fl.ledger, *delays_[pid].source);
  if (eject) {
    ledgers_.charge(fl.ledger, delays_[pid].delay);
    ledgers_.release(fl.ledger);
  }
}

void ContentionMonitor::depart(int r, int op, uint64_t f, int from_port, int from_vc, uint64_t now) {
  const bool inj = from_port >= kInjBase;
  const int ip = inj ? P_ + (from_port - kInjBase) : from_port;
  const int s = inj ? P_ * V_ + (from_port - kInjBase) : from_port * V_ + from_vc;
  const size_t isx = size_t(r) * size_t(nin_) + size_t(s);
  InSlot& is = in_[isx];
  if (is.qsize == 0) return;  // cannot happen with a consistent network; nothing to attribute
  Entry& e = entry_at(isx, is.qfirst);
  const uint32_t pid = e.packet;
  const bool net_out = op < P_;
  const int w = net_out ? int(flit::vc(f)) : 0;
  Chan& ch = chan(r, op);
  ++ch.flits;
  ++ch.vc_flits[size_t(w)];
  Hot& h = hot_[size_t(r)];
  if (inj) {
    const size_t k = size_t(r) * size_t(I_) + size_t(from_port - kInjBase);
    ++inj_[k].flits;
    inj_touched_[k] = 1;
  }
  winner_[size_t(r) * size_t(npo_) + size_t(op)] = pid;
  sender_[size_t(r) * size_t(npi_) + size_t(ip)] = pid;
  h.sent |= uint64_t{1} << s;
  Flit fl{now, 0};
  if (is.bsize) {
    fl = flit_at(isx, is.bfirst);
    is.bfirst = uint8_t((is.bfirst + 1) & (cap_ - 1));
    if (--is.bsize == 0) h.buffered &= ~(uint64_t{1} << s);
  }
  const bool head = flit::is_head(f);
  flit_delay(pid, fl, is, inj, !net_out, head, now);
  std::pair<int, int> next{-1, -1};
  if (net_out) {
    next = net_.link(r, op);
    push_flit(next.first, next.second * V_ + w, {now + 1, fl.ledger});
  }
  const int os = net_out ? op * V_ + w : P_ * V_ + (op - P_);
  if (head) {
    e.head_gone = true;
    e.out = int8_t(op);
    --h.waiting;
    set_holder(r, os, pid, now);
    if (net_out) push_entry(next.first, next.second * V_ + w, {now + 1, pid, -1, false});
  }
  if (flit::is_tail(f)) {
    is.qfirst = uint8_t((is.qfirst + 1) & (cap_ - 1));
    if (--is.qsize == 0) h.queued &= ~(uint64_t{1} << s);
    is.last_tail = {int64_t(pid), now};
    out_slot(r, os).last_release = {int64_t(pid), now};
    set_holder(r, os, -1, now);
    if (inj) delays_[pid].left_source = now;
  }
}

void ContentionMonitor::observe(const Network& net, const PacketStore& store, uint64_t now) {
  for (uint32_t id = uint32_t(seen_); id < store.size(); ++id) pending_.push_back(id);
  seen_ = store.size();
  for (int r : net.evaluated()) {
    std::fill_n(winner_.begin() + std::ptrdiff_t(size_t(r) * size_t(npo_)), npo_, -1);
    std::fill_n(sender_.begin() + std::ptrdiff_t(size_t(r) * size_t(npi_)), npi_, -1);
    hot_[size_t(r)].sent = 0;
    const RouterOut& o = net.out(r);
    for (uint32_t m = o.out_valid; m; m &= m - 1) {
      const int k = __builtin_ctz(m);
      depart(r, k, o.out_flit[k], o.from_port[k], o.from_vc[k], now);
    }
    for (uint32_t m = o.ej_valid; m; m &= m - 1) {
      const int j = __builtin_ctz(m);
      depart(r, P_ + j, o.ej_flit[j], o.from_port[kMaxPorts + j], o.from_vc[kMaxPorts + j], now);
    }
    // Flits the NI presented this cycle are in the injection buffers now.
    for (uint32_t m = net.last_in(r).inj_valid; m; m &= m - 1) push_flit(r, P_ * V_ + __builtin_ctz(m), {now, 0});
  }
  // Heads the NIs presented this cycle enter their router's injection buffer.
  for (size_t i = 0; i < pending_.size();) {
    const uint32_t id = pending_[i];
    const PacketRecord& p = store[id];
    if (p.head_injected == kNever) {
      ++i;
      continue;
    }
    push_entry(p.src, P_ * V_ + p.inj_channel, {p.head_injected, id, -1, false});
    if (delays_.size() <= id) delays_.resize(id + 1);
    uint32_t& last = last_head_[size_t(p.src) * size_t(I_) + size_t(p.inj_channel)];
    if (last != kNoBlocker && p.message != UINT32_MAX && store[last].message == p.message) delays_[id].after = last;
    last = id;
    // The firmware stores a message's packets under consecutive ids.
    if (p.message != UINT32_MAX && ((id > 0 && store[id - 1].message == p.message) ||
                                    (id + 1 < store.size() && store[id + 1].message == p.message)))
      delays_[id].source = std::make_shared<DelayAccount>();
    const uint64_t wait = p.head_injected - p.created;
    if (wait > 0) {  // the NI held it: every injection channel it may use was busy
      ensure(id);
      packets_[id].cycles[size_t(Contention::Port)] += wait;
      const size_t k = size_t(p.src) * size_t(I_) + size_t(p.inj_channel);
      inj_[k].port_wait += wait;
      inj_touched_[k] = 1;
    }
    pending_[i] = pending_.back();
    pending_.pop_back();
  }
  edge_.clear();
  // Most routers of a big network hold nothing: two masks skip them. Held
  // output VCs need no visit: their busy cycles are added when the hold ends.
  const size_t n = hot_.size();
  for (size_t r = 0; r < n; ++r) {
    const Hot& h = hot_[r];
    if (h.waiting > 0) classify(int(r), now);
    if (h.buffered) body_stalls(int(r), now);
  }
  for (const auto& [victim, c] : edge_) blame(victim, c);
  last_now_ = now;
  observed_ = true;
}

}  // namespace wn
