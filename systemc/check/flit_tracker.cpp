#include "check/flit_tracker.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

#include "core/flit.h"
#include "model/route_function.h"

namespace wn {

FlitTracker::FlitTracker(const Network& net) {
  const NetworkParams& prm = net.params();
  ports_ = net.topology().ports();
  nin_ = ports_ + prm.inj;
  nout_ = ports_ + prm.ej;
  vcs_ = prm.vcs;
  const size_t nodes = size_t(net.topology().nodes());
  rings_.resize(nodes * size_t(nin_) * size_t(vcs_));
  open_.assign(rings_.size(), -1);
  holder_.assign(nodes * size_t(nout_) * size_t(vcs_), -1);
}

void FlitTracker::observe(const Network& net) {
  Ring* const rings = rings_.data();
  int32_t* const open_all = open_.data();
  int32_t* const holder_all = holder_.data();
  const uint32_t in_mask = (1u << ports_) - 1, inj_mask = (1u << (nin_ - ports_)) - 1;
  const uint32_t ej_mask = (1u << (nout_ - ports_)) - 1;
  int64_t occ = int64_t(occupancy_);
  for (int r : net.evaluated()) {
    const RouterOut& out = net.out(r);
    Ring* const ring_r = rings + idx(r, 0, 0);
    int32_t* const holder_r = holder_all + hidx(r, 0, 0);
    // Departures first: a flit written at this edge can not leave at it.
    auto depart = [&](int o, uint64_t f, int from, int from_vc, int out_vc) {
      const int in = from >= kInjBase ? ports_ + (from - kInjBase) : from;
      if (in >= nin_ || from_vc >= vcs_) return;  // only a broken router; the scoreboard reports it
      Ring& ring = ring_r[in * vcs_ + from_vc];
      if (ring.size == 0) return;  // cannot happen with a correct router; the scoreboard reports it
      const uint32_t e = ring.pop();
      --occ;
      int32_t& h = holder_r[o * vcs_ + out_vc];
      if (flit::is_head(f)) h = int32_t(e & ~kHeadFlag);
      if (flit::is_tail(f)) h = -1;
    };
    for (uint32_t m = out.out_valid & in_mask; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      const uint64_t f = out.out_flit[o];
      const int w = flit::vc(f);
      if (w < vcs_) depart(o, f, out.from_port[o], out.from_vc[o], w);
    }
    for (uint32_t m = out.ej_valid & ej_mask; m; m &= m - 1) {
      const int j = __builtin_ctz(m);
      depart(ports_ + j, out.ej_flit[j], out.from_port[kMaxPorts + j], out.from_vc[kMaxPorts + j], 0);
    }
    const RouterIn& in = net.last_in(r);
    int32_t* const open_r = open_all + idx(r, 0, 0);
    auto arrive = [&](int port, uint64_t f, int vc) {
      int32_t& open = open_r[port * vcs_ + vc];
      if (flit::is_head(f)) open = int32_t(flit::msg(f));
      if (open < 0) return;
      ring_r[port * vcs_ + vc].push(uint32_t(open) | (flit::is_head(f) ? kHeadFlag : 0));
      ++occ;
      if (flit::is_tail(f)) open = -1;
    };
    for (uint32_t m = in.in_valid & in_mask; m; m &= m - 1) {
      const int p = __builtin_ctz(m);
      const uint64_t f = in.in_flit[p];
      const int v = flit::vc(f);
      if (v < vcs_) arrive(p, f, v);
    }
    for (uint32_t m = in.inj_valid & inj_mask; m; m &= m - 1) {
      const int i = __builtin_ctz(m);
      arrive(ports_ + i, in.inj_flit[i], 0);
    }
  }
  occupancy_ = uint64_t(occ);
}

std::string FlitTracker::explain_waits(const Network& net, const PacketStore& store) const {
  const Topology& topo = net.topology();
  const NetworkParams& prm = net.params();
  const RouterConfig base = base_router_config(prm);
  auto port_name = [&](int in) {
    return in >= ports_ ? fmt::format("inj{}", in - ports_) : fmt::format("in{}", in);
  };
  // Wait-for graph between packets, with the reason of each edge.
  std::map<uint32_t, std::vector<std::pair<uint32_t, std::string>>> waits;
  auto wait_on_downstream = [&](uint32_t a, int r, int o, int w, const std::string& why) {
    const auto [nb, p] = net.link(r, o);
    if (nb < 0) return;
    const Ring& down = rings_[idx(nb, p, w)];
    if (down.size < prm.buf) return;  // not full: not a credit stall
    const uint32_t b = down.front() & ~kHeadFlag;
    if (b != a)
      waits[a].push_back({b, fmt::format("{}; router {} out{} vc {} has no credit: router {} in{} vc {} is full, "
                                         "packet {} at its front", why, r, o, w, nb, p, w, b)});
  };
  for (int r = 0; r < topo.nodes(); ++r) {
    const RouterConfig cfg = topo.router_config(r, base);
    for (int in = 0; in < nin_; ++in) {
      for (int v = 0; v < vcs_; ++v) {
        const Ring& ring = rings_[idx(r, in, v)];
        if (ring.size == 0) continue;
        const uint32_t front = ring.front(), a = front & ~kHeadFlag;
        const std::string at = fmt::format("router {} {} vc {}", r, port_name(in), v);
        for (int i = 1; i < ring.size; ++i) {
          const uint32_t b = ring.at(i) & ~kHeadFlag;
          if (b != a) waits[b].push_back({a, fmt::format("queued behind packet {} at {}", a, at)});
        }
        if (!store.valid(a)) continue;
        if (front & kHeadFlag) {
          const Route rt = route(cfg, topo.address(store[a].dst), in >= ports_ ? -1 : in, v);
          if (rt.eject) {
            for (int j = 0; j < prm.ej; ++j) {
              const int64_t h = holder_[hidx(r, ports_ + j, 0)];
              if (h >= 0 && uint32_t(h) != a)
                waits[a].push_back({uint32_t(h), fmt::format("head at {} needs an ejection channel; channel {} is "
                                                             "held by packet {}", at, j, h)});
            }
            continue;
          }
          for (int w = rt.vc_lo; w <= rt.vc_hi; ++w) {
            const int64_t h = holder_[hidx(r, rt.out, w)];
            const std::string why = fmt::format("head at {} routed to out{} (VCs {}-{})", at, rt.out, rt.vc_lo, rt.vc_hi);
            if (h >= 0 && uint32_t(h) != a)
              waits[a].push_back({uint32_t(h), fmt::format("{}; out{} vc {} is held by packet {}", why, rt.out, w, h)});
            else
              wait_on_downstream(a, r, rt.out, w, why);
          }
        } else {
          // A body flit: its packet holds an output VC here; it waits for credits.
          for (int o = 0; o < topo.ports(); ++o)
            for (int w = 0; w < prm.vcs; ++w)
              if (holder_[hidx(r, o, w)] == int64_t(a))
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
