// The candidate messages of a synthesis: every allowed (sender, receiver)
// pair with its route cut into straight runs (encode.h says why), the fewest
// messages that reach each node (a lower bound on the steps, and variables
// that cannot be true), and the route-preserving symmetries.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>

#include "algorithms/synth/encode.h"
#include "systemc/core/config_error.h"

namespace wn::alg::synth::detail {

namespace {

// Every route as its node sequence, once (the routing function is the costly part of building).
struct Paths {
  int n = 0;
  std::vector<uint32_t> off;  // pair u * n + v -> [off, off_next) in nodes
  std::vector<int> nodes;
  std::vector<Topology::Link> links;  // parallel to nodes minus the first node of each path
  Paths(const Topology& topo, const std::vector<bool>& avoided) : n(topo.nodes()), off(size_t(n) * size_t(n) + 1, 0) {
    for (int u = 0; u < n; ++u)
      for (int v = 0; v < n; ++v) {
        off[size_t(u) * size_t(n) + size_t(v)] = uint32_t(nodes.size());
        if (u == v || avoided[size_t(u)] || avoided[size_t(v)]) continue;
        nodes.push_back(u);
        links.push_back({-1, -1});
        for (const auto& l : topo.links(u, v)) nodes.push_back(topo.neighbor(l.router, l.port)), links.push_back(l);
      }
    off.back() = uint32_t(nodes.size());
  }
  size_t begin(int u, int v) const { return off[size_t(u) * size_t(n) + size_t(v)]; }
  size_t end(int u, int v) const { return off[size_t(u) * size_t(n) + size_t(v) + 1]; }
};

bool preserves(const Paths& p, const std::vector<int>& sigma) {
  for (int u = 0; u < p.n; ++u)
    for (int v = 0; v < p.n; ++v) {
      const size_t a = p.begin(u, v), b = p.end(u, v);
      const size_t c = p.begin(sigma[size_t(u)], sigma[size_t(v)]);
      if (p.end(sigma[size_t(u)], sigma[size_t(v)]) - c != b - a) return false;
      for (size_t i = 0; i < b - a; ++i)
        if (p.nodes[c + i] != sigma[size_t(p.nodes[a + i])]) return false;
    }
  return true;
}

// Candidate maps: per dimension the identity, a reflection (about `fixing` when given) and, on a
// torus without a fixed node, every translation. The caller keeps those that preserve the routes.
std::vector<std::vector<int>> candidates(const Topology& topo, int fixing) {
  if (topo.kind() == TopoKind::Cube) return {};
  const auto& k = topo.radix();
  const bool torus = topo.kind() == TopoKind::Torus;
  const std::vector<int> fix = fixing >= 0 ? topo.coords(fixing) : std::vector<int>(k.size(), 0);
  // Per dimension: (reflect, shift) options.
  std::vector<std::vector<std::pair<bool, int>>> opt(k.size());
  for (size_t d = 0; d < k.size(); ++d) {
    const int kd = k[d], f = fix[d];
    if (torus) {
      for (int s = 0; s < (fixing >= 0 ? 1 : kd); ++s) opt[d].push_back({false, s}), opt[d].push_back({true, s});
    } else {
      opt[d].push_back({false, 0});
      if (fixing < 0 || 2 * f == kd - 1) opt[d].push_back({true, 0});
    }
  }
  std::vector<std::vector<int>> out;
  std::vector<size_t> pick(k.size(), 0);
  for (;;) {
    bool identity = true;
    for (size_t d = 0; d < k.size(); ++d) identity = identity && !opt[d][pick[d]].first && opt[d][pick[d]].second == 0;
    if (!identity) {
      std::vector<int> sigma(size_t(topo.nodes()));
      for (int v = 0; v < topo.nodes(); ++v) {
        auto c = topo.coords(v);
        for (size_t d = 0; d < k.size(); ++d) {
          const auto [reflect, shift] = opt[d][pick[d]];
          if (reflect) c[d] = torus ? (2 * fix[d] - c[d] + 2 * k[d]) % k[d] : k[d] - 1 - c[d];
          c[d] = (c[d] + shift) % k[d];
        }
        sigma[size_t(v)] = topo.node_at(c);
      }
      out.push_back(std::move(sigma));
    }
    size_t d = 0;
    while (d < k.size() && ++pick[d] == opt[d].size()) pick[d++] = 0;
    if (d == k.size()) return out;
  }
}

std::vector<std::vector<int>> keep(const Paths& p, std::vector<std::vector<int>> cand, const std::vector<bool>& avoided) {
  std::vector<std::vector<int>> out;
  for (auto& s : cand) {
    bool ok = true;
    for (int v = 0; v < p.n && ok; ++v) ok = avoided[size_t(v)] == avoided[size_t(s[size_t(v)])];
    if (ok && preserves(p, s)) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

std::vector<std::vector<int>> route_symmetries(const Topology& topo, const std::vector<bool>& avoided, int fixing) {
  auto cand = candidates(topo, fixing);
  if (cand.empty()) return {};
  return keep(Paths(topo, avoided), std::move(cand), avoided);
}

Net build_net(const Topology& topo, const Request& req, const std::vector<bool>& avoided, bool symmetries) {
  Net net;
  net.n = topo.nodes();
  net.source = req.source;
  net.avoided = avoided;
  net.live = net.n - int(std::count(avoided.begin(), avoided.end(), true));
  const Paths p(topo, avoided);
  std::map<std::pair<int, int>, int> line_of;  // (port, router with the port's coordinate zeroed)
  std::map<std::tuple<int, int, int>, uint32_t> seg_of;
  std::map<Topology::Link, uint32_t> channel;
  auto channel_id = [&](const Topology::Link& l) { return channel.emplace(l, uint32_t(channel.size())).first->second; };
  auto position = [&](const Topology::Link& l, int* line) {
    if (topo.kind() == TopoKind::Cube) {  // every channel its own line
      *line = line_of.emplace(std::make_pair(l.port, l.router), int(line_of.size())).first->second;
      if (size_t(*line) == net.lines.size()) net.lines.push_back({1, 0, 1});
      return 0;
    }
    auto c = topo.coords(l.router);
    const int d = l.port / 2, pos = c[size_t(d)];
    c[size_t(d)] = 0;
    *line = line_of.emplace(std::make_pair(l.port, topo.node_at(c)), int(line_of.size())).first->second;
    if (size_t(*line) == net.lines.size()) {
      const int k = topo.radix()[size_t(d)];
      net.lines.push_back({l.port % 2 == 0 ? 1 : -1, topo.kind() == TopoKind::Torus ? k : 0, k});
    }
    return pos;
  };
  net.edge_of.assign(size_t(net.n) * size_t(net.n), -1);
  net.dist.assign(size_t(net.n) * size_t(net.n), 0);
  for (int u = 0; u < net.n; ++u)
    for (int v = 0; v < net.n; ++v)
      if (p.end(u, v) > p.begin(u, v)) net.dist[size_t(u) * size_t(net.n) + size_t(v)] = uint16_t(p.end(u, v) - p.begin(u, v) - 1);
  for (int u = 0; u < net.n; ++u)
    for (int v = 0; v < net.n; ++v) {
      if (u == v || avoided[size_t(u)] || avoided[size_t(v)] || v == req.source) continue;
      // Broadcast: u sends to v; reduce: v sends its partial result to u (the same tree, reversed).
      const int a = req.collective == Collective::Broadcast ? u : v, b = a == u ? v : u;
      const size_t lo = p.begin(a, b), hi = p.end(a, b);
      Edge e{u, v, int(hi - lo) - 1, {}, 0, 0, {}};
      if (req.max_hops && e.hops > req.max_hops) continue;
      e.at_from = channel_id(p.links[a == u ? lo + 1 : hi - 1]);
      e.at_to = channel_id(p.links[a == u ? hi - 1 : lo + 1]);
      bool through = false;
      for (size_t i = lo; i < hi; ++i) through = through || avoided[size_t(p.nodes[i])];
      if (through) continue;
      for (size_t i = lo + 1; i < hi;) {  // cut into runs of one port
        int line = 0;
        const int start = position(p.links[i], &line);
        size_t j = i + 1;
        while (j < hi && p.links[j].port == p.links[i].port && topo.kind() != TopoKind::Cube) ++j;
        const auto key = std::make_tuple(line, start, int(j - i));
        const auto it = seg_of.emplace(key, uint32_t(net.segs.size())).first;
        if (it->second == net.segs.size()) net.segs.push_back({line, start, int(j - i)});
        e.segs.push_back(it->second);
        i = j;
      }
      for (size_t i = lo + 1; i < hi; ++i) e.channels.push_back(channel_id(p.links[i]));
      net.edge_of[size_t(u) * size_t(net.n) + size_t(v)] = int32_t(net.edges.size());
      net.edges.push_back(std::move(e));
    }
  net.channels = uint32_t(channel.size());
  // Breadth-first over the candidate messages: a node d messages away cannot hold before step d.
  net.level.assign(size_t(net.n), -1);
  std::vector<std::vector<int>> out(size_t(net.n));
  for (const Edge& e : net.edges) out[size_t(e.from)].push_back(e.to);
  std::deque<int> q{req.source};
  net.level[size_t(req.source)] = 0;
  while (!q.empty()) {
    const int u = q.front();
    q.pop_front();
    for (int v : out[size_t(u)])
      if (net.level[size_t(v)] < 0) net.level[size_t(v)] = net.level[size_t(u)] + 1, q.push_back(v);
  }
  for (int v = 0; v < net.n; ++v)
    if (!avoided[size_t(v)] && net.level[size_t(v)] < 0)
      throw ConfigError(req.max_hops ? "--max-hops" : "--avoid",
                        fmt::format("node {} cannot be reached from {} under these constraints; allowed: a larger "
                                    "--max-hops or fewer --avoid nodes",
                                    v, req.source));
  if (symmetries) net.syms = keep(p, candidates(topo, req.source), avoided);
  return net;
}

}  // namespace wn::alg::synth::detail
