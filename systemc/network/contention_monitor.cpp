#include "systemc/network/contention_monitor.h"

#include "systemc/core/flit.h"
#include "systemc/topology/route_function.h"

namespace wn {

const char* contention_name(Contention c) {
  switch (c) {
    case Contention::Stepwise: return "stepwise";
    case Contention::Depth: return "depth";
    case Contention::Port: return "port";
    case Contention::Flow: return "flow";
  }
  return "?";
}

ContentionMonitor::ContentionMonitor(const Network& net, const PacketStore& store)
    : net_(net),
      store_(store),
      routers_(size_t(net.topology().nodes())),
      channels_(size_t(net.topology().nodes()) * size_t(2 * kMaxPorts)),
      touched_(channels_.size(), 0) {
  const RouterConfig base = base_router_config(net.params());
  for (int r = 0; r < net.topology().nodes(); ++r) {
    RouterState& s = routers_[size_t(r)];
    s.cfg = net.topology().router_config(r, base);
    for (auto& o : s.holder) o.fill(-1);
    for (auto& i : s.last_tail) i.fill({-1, 0});
    for (auto& o : s.last_release) o.fill({-1, 0});
    s.winner.fill(-1);
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
  s.input_sent[size_t(in)] = true;
  s.vc_sent[size_t(in)][size_t(v)] = true;
  if (!inj && !s.body[size_t(in)][size_t(v)].empty()) {
    s.body[size_t(in)][size_t(v)].pop_front();
    --s.body_flits;
  }
  if (k < kMaxPorts) {
    RouterState& n = routers_[size_t(net_.topology().neighbor(r, k))];
    n.body[size_t(net_.topology().peer_port(k))][size_t(w)].push_back(now + 1);
    ++n.body_flits;
  }
  if (flit::is_head(f)) {
    e.head_gone = true;
    --s.waiting;
    set_holder(s, k, w, pid);
    if (k < kMaxPorts) {
      const int next = net_.topology().neighbor(r, k);
      RouterState& n = routers_[size_t(next)];
      n.queue[size_t(net_.topology().peer_port(k))][size_t(w)].push_back({pid, now + 1, false});
      ++n.waiting;
    }
  }
  if (flit::is_tail(f)) {
    q.pop_front();
    s.last_tail[size_t(in)][size_t(v)] = {int64_t(pid), now};
    s.last_release[size_t(k)][size_t(w)] = {int64_t(pid), now};
    set_holder(s, k, w, -1);
  }
}

// One cause per packet per edge: a named blocker beats flow control.
void ContentionMonitor::propose(uint32_t victim, const Candidate& c) {
  auto [it, fresh] = edge_.try_emplace(victim, c);
  if (!fresh && it->second.blocker < 0 && c.blocker >= 0) it->second = c;
}

// Active worms (head gone) with a ready body flit in a network input VC that
// did not move at this edge.
void ContentionMonitor::body_stalls(int r, uint64_t now) {
  RouterState& s = routers_[size_t(r)];
  for (int in = 0; in < kMaxPorts; ++in) {
    for (int v = 0; v < kMaxVcs; ++v) {
      const auto& q = s.queue[size_t(in)][size_t(v)];
      const auto& b = s.body[size_t(in)][size_t(v)];
      if (q.empty() || !q.front().head_gone || b.empty() || s.vc_sent[size_t(in)][size_t(v)]) continue;
      if (now < b.front() + 1) continue;  // arrived this cycle: leaves next edge at zero load
      const uint32_t pid = q.front().packet;
      // Where is this worm going? The output VC it holds.
      int out = -1;
      for (int k = 0; k < 2 * kMaxPorts && out < 0; ++k)
        for (int w = 0; w < kMaxVcs; ++w)
          if (s.holder[size_t(k)][size_t(w)] == int64_t(pid)) out = k;
      if (out < 0) continue;
      const int64_t winner = s.winner[size_t(out)];
      if (winner >= 0 && winner != int64_t(pid)) {
        propose(pid, {winner, r, out, false, true});  // lost the output in switch allocation
      } else if (s.input_sent[size_t(in)]) {
        // Its input port sent another VC's flit (one flit per input port per edge).
        int64_t other = -1;
        for (int w = 0; w < kMaxVcs && other < 0; ++w)
          if (w != v && s.vc_sent[size_t(in)][size_t(w)] && !s.queue[size_t(in)][size_t(w)].empty())
            other = s.queue[size_t(in)][size_t(w)].front().packet;
        propose(pid, {other, r, out, false, true});
      } else {
        propose(pid, {-1, r, out, false, false});  // credits
      }
    }
  }
}

void ContentionMonitor::classify(int r, uint64_t now) {
  RouterState& s = routers_[size_t(r)];
  const Topology& topo = net_.topology();
  for (int in = 0; in < 2 * kMaxPorts; ++in) {
    for (int v = 0; v < kMaxVcs; ++v) {
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
        if (i > 0) {  // behind another packet's flits in the same input VC
          propose(e.packet, {int64_t(q.front().packet), r, out_idx, own_port, false});
          continue;
        }
        const auto& prev = s.last_tail[size_t(in)][size_t(v)];
        // The allocation cycle right after the node's own previous packet
        // left its injection buffer: the node's serialization (port).
        if (own_port && prev.first >= 0 && prev.second + 1 >= now) {
          propose(e.packet, {prev.first, r, out_idx, true, false});
          continue;
        }
        if (rt.eject) {
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
          if (all_held) propose(e.packet, {holder, r, out_idx, true, false});
          else if (winner >= 0) propose(e.packet, {winner, r, out_idx, true, true});
          else if (released >= 0) propose(e.packet, {released, r, out_idx, true, false});
          else if (prev.first >= 0 && prev.second + 1 >= now) propose(e.packet, {prev.first, r, out_idx, own_port, false});
          else propose(e.packet, {-1, r, out_idx, false, false});
          continue;
        }
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
        if (all_held && holder >= 0) propose(e.packet, {holder, r, out_idx, false, false});
        else if (winner >= 0 && winner != int64_t(e.packet)) propose(e.packet, {winner, r, out_idx, false, true});
        else if (released >= 0) propose(e.packet, {released, r, out_idx, false, false});
        else if (prev.first >= 0 && prev.second + 1 >= now) propose(e.packet, {prev.first, r, out_idx, own_port, false});
        else propose(e.packet, {-1, r, out_idx, false, false});
      }
    }
  }
}

void ContentionMonitor::observe(const Network& net, const PacketStore& store, uint64_t now) {
  for (uint32_t id = uint32_t(seen_); id < store.size(); ++id) pending_.push_back(id);
  seen_ = store.size();
  for (int r : net.evaluated()) {
    RouterState& s = routers_[size_t(r)];
    s.winner.fill(-1);
    s.input_sent.fill(false);
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
    ++s.waiting;
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
  // Most routers of a big network hold nothing: three counters skip them.
  for (size_t r = 0; r < routers_.size(); ++r) {
    RouterState& s = routers_[r];
    if (s.waiting > 0) classify(int(r), now);
    if (s.body_flits > 0) body_stalls(int(r), now);
    if (s.held == 0) continue;
    for (int k = 0; k < 2 * kMaxPorts; ++k)
      for (int w = 0; w < kMaxVcs; ++w)
        if (s.holder[size_t(k)][size_t(w)] >= 0) ++channel(int(r), k).vc_busy[size_t(w)];
  }
  for (const auto& [victim, c] : edge_) blame(victim, c.blocker, c.r, c.out_idx, c.port, c.sa_loss);
}

}  // namespace wn
