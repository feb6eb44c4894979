#include "systemc/network/flit_tracker.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

#include "systemc/core/flit.h"
#include "systemc/topology/route_function.h"

namespace wn {

FlitTracker::FlitTracker(const Network& net) {
  const NetworkParams& prm = net.params();
  ports_ = net.topology().ports();
  nin_ = ports_ + prm.inj;
  nout_ = ports_ + prm.ej;
  vcs_ = prm.vcs;
  const size_t nodes = size_t(net.topology().nodes());
  slots_.resize(nodes * size_t(nin_) * size_t(vcs_));
  vc_.resize(slots_.size());
  holder_.assign(nodes * size_t(nout_) * size_t(vcs_), -1);
  moved_.reserve(nodes * size_t(ports_));
}

// Removes the front entry of input VC ring i (a flit left through an output);
// returns it, or kNone when the ring is empty (only a broken router does that;
// the scoreboard reports it).
inline uint32_t FlitTracker::pop(size_t i) {
  VcState& st = vc_[i];
  if (st.size == 0) return kNone;
  const uint32_t e = slots_[i].e[st.head];
  st.head = uint8_t((st.head + 1) & (kMaxBuf - 1));
  --st.size;
  return e;
}

inline void FlitTracker::push(size_t i, uint32_t e) {
  VcState& st = vc_[i];
  slots_[i].e[(st.head + st.size++) & (kMaxBuf - 1)] = e;
}

// A flit that leaves router r through output `out` (network port or ports_ + j
// for ejection channel j) on output VC out_vc, from input `from` (port, or
// kInjBase + i) and its VC. Returns the entry it had, kNone if none.
inline uint32_t FlitTracker::depart(int r, int out, int out_vc, uint64_t f, int from, int from_vc) {
  const int in = from >= kInjBase ? ports_ + (from - kInjBase) : from;
  if (in >= nin_ || from_vc >= vcs_) return kNone;  // only a broken router; the scoreboard reports it
  const uint32_t e = pop(idx(r, in, from_vc));
  if (e == kNone) return kNone;
  int32_t& holder = holder_[hidx(r, out, out_vc)];
  if (flit::is_head(f)) holder = int32_t(e & ~kHeadFlag);
  if (flit::is_tail(f)) holder = -1;
  return e;
}

// A flit written into an injection FIFO: body flits carry no packet id, they
// belong to the packet whose head came last on the channel.
inline void FlitTracker::inject(size_t i, uint64_t f) {
  VcState& st = vc_[i];
  if (flit::is_head(f)) st.open = int32_t(flit::msg(f));
  if (st.open < 0) return;
  push(i, uint32_t(st.open) | (flit::is_head(f) ? kHeadFlag : 0));
  ++occupancy_;
  if (flit::is_tail(f)) st.open = -1;
}

void FlitTracker::observe(const Network& net) {
  const uint32_t in_mask = (1u << ports_) - 1, inj_mask = (1u << (nin_ - ports_)) - 1;
  const uint32_t ej_mask = (1u << (nout_ - ports_)) - 1;
  // Phase 1, in every evaluated router: departures (a flit written at this
  // edge can not leave at it), then injections. A flit sent on a link is
  // entered into the downstream FIFO in phase 2, after every departure of
  // this edge: a FIFO then never holds more than its credits allow.
  moved_.clear();
  for (int r : net.evaluated()) {
    const RouterOut& out = net.out(r);
    for (uint32_t m = out.out_valid & in_mask; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      const uint64_t f = out.out_flit[o];
      const int w = flit::vc(f);
      if (w >= vcs_) continue;  // only a broken router
      const uint32_t e = depart(r, o, w, f, out.from_port[o], out.from_vc[o]);
      const auto [nb, p] = net.link(r, o);
      if (e != kNone && nb >= 0)
        moved_.push_back({idx(nb, p, w), (e & ~kHeadFlag) | (flit::is_head(f) ? kHeadFlag : 0)});
      else if (e != kNone)
        --occupancy_;  // a link to nowhere: only a broken router
    }
    for (uint32_t m = out.ej_valid & ej_mask; m; m &= m - 1) {
      const int j = __builtin_ctz(m);
      if (depart(r, ports_ + j, 0, out.ej_flit[j], out.from_port[kMaxPorts + j], out.from_vc[kMaxPorts + j]) != kNone)
        --occupancy_;
    }
    for (uint32_t m = net.last_in(r).inj_valid & inj_mask; m; m &= m - 1) {
      const int i = __builtin_ctz(m);
      inject(idx(r, ports_ + i, 0), net.last_in(r).inj_flit[i]);
    }
  }
  // Phase 2: flits on the links, counted in the FIFO they are written into at the next edge.
  for (const auto& [i, e] : moved_) push(i, e);
}

std::string FlitTracker::explain_waits(const Network& net, const PacketStore& store) const {
  const Topology& topo = net.topology();
  const NetworkParams& prm = net.params();
  const RouterConfig base = base_router_config(prm);
  auto port_name = [&](int in) { return in >= ports_ ? fmt::format("inj{}", in - ports_) : fmt::format("in{}", in); };
  // Ring entries and holders carry the flit's msg field (the packet id's
  // tag); the store turns it back into the packet id.
  auto pid = [&](uint32_t e) { return store.id_of_tag(e & ~kHeadFlag); };
  // Wait-for graph between packets, with the reason of each edge.
  std::map<uint32_t, std::vector<std::pair<uint32_t, std::string>>> waits;
  auto wait_on_downstream = [&](uint32_t a, int r, int o, int w, const std::string& why) {
    const auto [nb, p] = net.link(r, o);
    if (nb < 0) return;
    const size_t down = idx(nb, p, w);
    if (vc_[down].size < prm.buf) return;  // not full: not a credit stall
    const uint32_t b = pid(front_entry(down));
    if (b != a)
      waits[a].push_back({b, fmt::format("{}; router {} out{} vc {} has no credit: router {} in{} vc {} is full, "
                                         "packet {} at its front",
                                         why, r, o, w, nb, p, w, b)});
  };
  for (int r = 0; r < topo.nodes(); ++r) {
    const RouterConfig cfg = topo.router_config(r, base);
    for (int in = 0; in < nin_; ++in) {
      for (int v = 0; v < vcs_; ++v) {
        const size_t ring = idx(r, in, v);
        const int size = vc_[ring].size;
        if (size == 0) continue;
        const uint32_t head_e = front_entry(ring), a = pid(head_e);
        const std::string at = fmt::format("router {} {} vc {}", r, port_name(in), v);
        for (int i = 1; i < size; ++i) {
          const uint32_t b = pid(entry(ring, i));
          if (b != a) waits[b].push_back({a, fmt::format("queued behind packet {} at {}", a, at)});
        }
        if (!store.valid(a)) continue;
        if (head_e & kHeadFlag) {
          const Route rt = route(cfg, topo.address(store[a].dst), in >= ports_ ? -1 : in, v);
          if (rt.eject) {
            for (int j = 0; j < prm.ej; ++j) {
              const int64_t h =
                  holder_[hidx(r, ports_ + j, 0)] < 0 ? -1 : pid(uint32_t(holder_[hidx(r, ports_ + j, 0)]));
              if (h >= 0 && uint32_t(h) != a)
                waits[a].push_back({uint32_t(h), fmt::format("head at {} needs an ejection channel; channel {} is "
                                                             "held by packet {}",
                                                             at, j, h)});
            }
            continue;
          }
          for (int w = rt.vc_lo; w <= rt.vc_hi; ++w) {
            const int64_t h = holder_[hidx(r, rt.out, w)] < 0 ? -1 : pid(uint32_t(holder_[hidx(r, rt.out, w)]));
            const std::string why =
                fmt::format("head at {} routed to out{} (VCs {}-{})", at, rt.out, rt.vc_lo, rt.vc_hi);
            if (h >= 0 && uint32_t(h) != a)
              waits[a].push_back({uint32_t(h), fmt::format("{}; out{} vc {} is held by packet {}", why, rt.out, w, h)});
            else
              wait_on_downstream(a, r, rt.out, w, why);
          }
        } else {
          // A body flit: its packet holds an output VC here; it waits for credits.
          for (int o = 0; o < topo.ports(); ++o)
            for (int w = 0; w < prm.vcs; ++w)
              if (holder_[hidx(r, o, w)] >= 0 && pid(uint32_t(holder_[hidx(r, o, w)])) == a)
                wait_on_downstream(a, r, o, w, fmt::format("body flit at {}", at));
        }
      }
    }
  }
  if (waits.empty()) return "no packet waits on another (flits are stuck without a wait cycle)";
  // Find a cycle in the wait-for graph (iterative DFS, colours).
  std::map<uint32_t, int> colour;
  std::vector<std::pair<uint32_t, std::string>> stack;
  std::function<bool(uint32_t)> dfs = [&](uint32_t a) -> bool {
    colour[a] = 1;
    for (const auto& [b, why] : waits[a]) {
      stack.push_back({a, why});
      if (colour[b] == 1) {
        // Trim the stack to the cycle starting at b.
        size_t s = 0;
        while (s < stack.size() && stack[s].first != b) ++s;
        stack.erase(stack.begin(), stack.begin() + long(s));
        return true;
      }
      if (colour[b] == 0 && dfs(b)) return true;
      stack.pop_back();
    }
    colour[a] = 2;
    return false;
  };
  for (const auto& kv : waits) {
    if (colour[kv.first] == 0 && dfs(kv.first)) {
      std::string s = fmt::format("cycle of {} waits:\n", stack.size());
      for (const auto& [pkt, why] : stack) s += fmt::format("  packet {} waits: {}\n", pkt, why);
      return s;
    }
    stack.clear();
  }
  std::string s = "blocked packets (no cycle found):\n";
  int shown = 0;
  for (const auto& [a, edges] : waits)
    for (const auto& e : edges)
      if (shown++ < 20) s += fmt::format("  packet {} waits: {}\n", a, e.second);
  return s;
}

}  // namespace wn
