#include "systemc/network/contention_monitor.h"

#include "systemc/core/flit.h"

namespace wn {

ContentionMonitor::ContentionMonitor(const Network& net, const PacketStore& store)
    : net_(net),
      store_(store),
      routers_(size_t(net.topology().nodes())),
      channels_(size_t(net.topology().nodes()) * size_t(2 * kMaxPorts)),
      touched_(channels_.size(), 0),
      last_head_(size_t(net.topology().nodes()) * kMaxPorts, kNoBlocker) {
  const RouterConfig base = base_router_config(net.params());
  for (int r = 0; r < net.topology().nodes(); ++r) {
    RouterState& s = routers_[size_t(r)];
    s.cfg = net.topology().router_config(r, base);
    for (auto& o : s.holder) o.fill(-1);
    for (auto& i : s.last_tail) i.fill({-1, 0});
    for (auto& o : s.last_release) o.fill({-1, 0});
    s.winner.fill(-1);
    s.input_sender.fill(-1);
  }
}

std::map<std::pair<int, int>, ChannelCounters> ContentionMonitor::channels() const {
  std::map<std::pair<int, int>, ChannelCounters> m;
  for (size_t i = 0; i < channels_.size(); ++i)
    if (touched_[i]) m.emplace(std::pair<int, int>(int(i / (2 * kMaxPorts)), int(i % (2 * kMaxPorts))), channels_[i]);
  return m;
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

void ContentionMonitor::blame(uint32_t victim, int64_t blocker, int r, int out_idx, bool port, bool sa_loss) {
  ensure(victim);
  PacketContention& pc = packets_[victim];
  const bool flow = blocker < 0;
  const Contention c = port ? Contention::Port : flow ? Contention::Flow : class_of(victim, uint32_t(blocker));
  ++pc.cycles[size_t(c)];
  if (!flow) ++pc.blockers[uint32_t(blocker)];
  if (out_idx < 0) return;
  ChannelCounters& ch = channel(r, out_idx);
  ++ch.blocked;
  if (flow) ++ch.credit_stall;
  if (sa_loss) ++ch.sa_loss;
  if (!flow) ++ch.holders[uint32_t(blocker)];
}

// One cause per packet per edge: a named blocker beats flow control.
void ContentionMonitor::propose(uint32_t victim, const Candidate& c) {
  auto [it, fresh] = edge_.try_emplace(victim, c);
  if (!fresh && it->second.blocker < 0 && c.blocker >= 0) it->second = c;
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

// A flit of packet `pid` leaves input (in, v) of router r at edge `now`. A
// body flit's gap is now exactly (now - departure of the flit ahead - 1):
// its ledger is settled to that, so what it carries out of the last router
// is exactly its share of the packet's delay. At the source router, a gap
// the stalls do not explain is the NI presenting the flit late (credits).
void ContentionMonitor::flit_delay(uint32_t pid, Flit& fl, int r, int in, int v, int out_idx, bool head,
                                   uint64_t now) {
  RouterState& s = routers_[size_t(r)];
  uint64_t& last = s.last_dep[size_t(in)][size_t(v)];
  const bool source = in >= kMaxPorts;
  if (!head) {
    const uint64_t padded = ledgers_.settle(fl.ledger, now - last - 1, Contention::Flow);
    if (!source) unexplained_ += padded;
  }
  last = now;
  if (fl.ledger == 0) return;
  if (source && delays_[pid].source) ledgers_.charge(fl.ledger, *delays_[pid].source);
  if (out_idx >= kMaxPorts) {
    ledgers_.charge(fl.ledger, delays_[pid].delay);
    ledgers_.release(fl.ledger);
  }
}

void ContentionMonitor::depart(int r, int k, uint64_t f, int from_port, int from_vc, uint64_t now) {
  RouterState& s = routers_[size_t(r)];
  const bool inj = from_port >= kInjBase;
  const int in = inj ? kMaxPorts + (from_port - kInjBase) : from_port;
  const int v = inj ? 0 : from_vc;
  auto& q = s.queue[size_t(in)][size_t(v)];
  if (q.empty()) return;  // cannot happen with a consistent network; nothing to attribute
  Entry& e = q.front();
  const uint32_t pid = e.packet;
  const int w = k < kMaxPorts ? flit::vc(f) : 0;
  ChannelCounters& ch = channel(r, k);
  ++ch.flits;
  ++ch.vc_flits[size_t(w)];
  if (inj) ++injection_[{r, from_port - kInjBase}].flits;
  s.winner[size_t(k)] = pid;
  s.input_sender[size_t(in)] = pid;
  s.vc_sent[size_t(in)][size_t(v)] = true;
  Flit fl{now, 0};
  auto& b = s.body[size_t(in)][size_t(v)];
  if (!b.empty()) {
    fl = b.front();
    b.pop_front();
    if (b.empty()) s.buffered &= ~(uint64_t{1} << slot(in, v));
  }
  flit_delay(pid, fl, r, in, v, k, flit::is_head(f), now);
  if (k < kMaxPorts) {
    RouterState& n = routers_[size_t(net_.topology().neighbor(r, k))];
    const int peer = net_.topology().peer_port(k);
    n.body[size_t(peer)][size_t(w)].push_back({now + 1, fl.ledger});
    n.buffered |= uint64_t{1} << slot(peer, w);
  }
  if (flit::is_head(f)) {
    e.head_gone = true;
    e.out = k;
    --s.waiting;
    set_holder(s, k, w, pid);
    if (k < kMaxPorts) {
      const int next = net_.topology().neighbor(r, k);
      RouterState& n = routers_[size_t(next)];
      const int peer = net_.topology().peer_port(k);
      n.queue[size_t(peer)][size_t(w)].push_back({pid, now + 1, false});
      n.queued |= uint64_t{1} << slot(peer, w);
      ++n.waiting;
    }
  }
  if (flit::is_tail(f)) {
    q.pop_front();
    if (q.empty()) s.queued &= ~(uint64_t{1} << slot(in, v));
    s.last_tail[size_t(in)][size_t(v)] = {int64_t(pid), now};
    s.last_release[size_t(k)][size_t(w)] = {int64_t(pid), now};
    set_holder(s, k, w, -1);
    if (inj) delays_[pid].left_source = now;
  }
}

void ContentionMonitor::observe(const Network& net, const PacketStore& store, uint64_t now) {
  for (uint32_t id = uint32_t(seen_); id < store.size(); ++id) pending_.push_back(id);
  seen_ = store.size();
  for (int r : net.evaluated()) {
    RouterState& s = routers_[size_t(r)];
    s.winner.fill(-1);
    s.input_sender.fill(-1);
    for (auto& v : s.vc_sent) v.fill(false);
    const RouterOut& o = net.out(r);
    for (uint32_t m = o.out_valid; m; m &= m - 1) {
      const int k = __builtin_ctz(m);
      depart(r, k, o.out_flit[k], o.from_port[k], o.from_vc[k], now);
    }
    for (uint32_t m = o.ej_valid; m; m &= m - 1) {
      const int j = __builtin_ctz(m);
      depart(r, kMaxPorts + j, o.ej_flit[j], o.from_port[kMaxPorts + j], o.from_vc[kMaxPorts + j], now);
    }
    // Flits the NI presented this cycle are in the injection buffers now.
    for (uint32_t m = net.last_in(r).inj_valid; m; m &= m - 1) {
      const int in = kMaxPorts + __builtin_ctz(m);
      s.body[size_t(in)][0].push_back({now, 0});
      s.buffered |= uint64_t{1} << slot(in, 0);
    }
  }
  // Heads the NIs presented this cycle enter their router's injection buffer.
  for (size_t i = 0; i < pending_.size();) {
    const uint32_t id = pending_[i];
    const PacketRecord& p = store[id];
    if (p.head_injected == kNever) {
      ++i;
      continue;
    }
    RouterState& s = routers_[size_t(p.src)];
    s.queue[size_t(kMaxPorts + p.inj_channel)][0].push_back({id, p.head_injected, false});
    s.queued |= uint64_t{1} << slot(kMaxPorts + p.inj_channel, 0);
    ++s.waiting;
    if (delays_.size() <= id) delays_.resize(id + 1);
    uint32_t& last = last_head_[size_t(p.src) * kMaxPorts + size_t(p.inj_channel)];
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
      injection_[{p.src, p.inj_channel}].port_wait += wait;
    }
    pending_[i] = pending_.back();
    pending_.pop_back();
  }
  edge_.clear();
  // Most routers of a big network hold nothing: three masks skip them.
  for (size_t r = 0; r < routers_.size(); ++r) {
    RouterState& s = routers_[r];
    if (s.waiting > 0) classify(int(r), now);
    if (s.buffered) body_stalls(int(r), now);
    for (uint64_t m = s.held; m; m &= m - 1) {
      const int b = __builtin_ctzll(m);
      ++channel(int(r), slot_port(b)).vc_busy[size_t(slot_vc(b))];
    }
  }
  for (const auto& [victim, c] : edge_) blame(victim, c.blocker, c.r, c.out_idx, c.port, c.sa_loss);
}

}  // namespace wn
