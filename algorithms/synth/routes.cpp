// The candidate messages of a synthesis: every allowed (sender, receiver)
// pair with its route cut into straight runs (encode.h says why), the fewest
// messages that reach each node (a lower bound on the steps, and variables
// that cannot be true), and the route-preserving symmetries.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>

#include "algorithms/registry.h"
#include "algorithms/synth/encode.h"
#include "systemc/core/config_error.h"

namespace wn::alg::synth::detail {

namespace {

struct RouteSums;
RouteSums route_sums(const Topology& topo);

// Every route as its node sequence, once (the routing function is the costly part of building).
struct Paths {
  int n = 0;
  std::vector<uint32_t> off;  // pair u * n + v -> [off, off_next) in nodes
  std::vector<int> nodes;
  std::vector<Topology::Link> links;  // parallel to nodes minus the first node of each path
  Paths(const Topology& topo, const std::vector<bool>& avoided, const Budget* budget = nullptr)
      : n(topo.nodes()), off(size_t(n) * size_t(n) + 1, 0) {
    reserve(topo);  // every route's length is known: no vector doubling past the estimate
    for (int u = 0; u < n; ++u) {
      if (budget) budget->check();
      for (int v = 0; v < n; ++v) {
        off[size_t(u) * size_t(n) + size_t(v)] = uint32_t(nodes.size());
        if (u == v || avoided[size_t(u)] || avoided[size_t(v)]) continue;
        nodes.push_back(u);
        links.push_back({-1, -1});
        for (const auto& l : topo.links(u, v)) nodes.push_back(topo.neighbor(l.router, l.port)), links.push_back(l);
      }
    }
    off.back() = uint32_t(nodes.size());
  }
  void reserve(const Topology& topo);
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

std::vector<std::vector<int>> keep(const Paths& p, std::vector<std::vector<int>> cand, const std::vector<bool>& avoided,
                                   const Budget* budget = nullptr) {
  std::vector<std::vector<int>> out;
  for (auto& s : cand) {
    if (budget) budget->check();
    bool ok = true;
    for (int v = 0; v < p.n && ok; ++v) ok = avoided[size_t(v)] == avoided[size_t(s[size_t(v)])];
    if (ok && preserves(p, s)) out.push_back(std::move(s));
  }
  return out;
}

// Route hops summed over every ordered pair of nodes, and the straight runs (one per dimension
// the route moves in; every hop on a cube) summed likewise, in closed form: the routing function
// is minimal (dimension order on meshes, the shorter way round per dimension on tori, e-cube on
// cubes), so each dimension contributes its coordinate distances over every pair of the others.
struct RouteSums {
  uint64_t hops = 0;
  uint64_t runs = 0;
};
RouteSums route_sums(const Topology& topo) {
  const uint64_t n = uint64_t(topo.nodes());
  RouteSums r;
  const bool cube = topo.kind() == TopoKind::Cube, torus = topo.kind() == TopoKind::Torus;
  const std::vector<int> k = cube ? std::vector<int>(size_t(topo.dims()), 2) : topo.radix();
  for (const int kd : k) {
    uint64_t dist = 0, differ = 0;  // over ordered coordinate pairs (a, b) of this dimension
    for (int a = 0; a < kd; ++a)
      for (int b = 0; b < kd; ++b) {
        const int d = a > b ? a - b : b - a;
        dist += uint64_t(torus ? std::min(d, kd - d) : d);
        differ += a != b;
      }
    const uint64_t others = (n / uint64_t(kd)) * (n / uint64_t(kd));
    r.hops += dist * others;
    r.runs += (cube ? dist : differ) * others;
  }
  return r;
}

void Paths::reserve(const Topology& topo) {
  const uint64_t nodes_in_all = route_sums(topo).hops + uint64_t(n) * uint64_t(n - 1);
  nodes.reserve(size_t(nodes_in_all));
  links.reserve(size_t(nodes_in_all));
}

// Bytes of one route in Paths: its nodes (int) and links (Link), source node included.
constexpr uint64_t kRouteBytesPerNode = sizeof(int) + sizeof(Topology::Link);
// A small heap block: glibc's smallest chunk is 32 bytes, then 16-byte steps with 8 of header.
constexpr uint64_t heap_block(uint64_t bytes) {
  return bytes == 0 ? 0 : std::max<uint64_t>(32, (bytes + 8 + 15) / 16 * 16);
}
// Host memory per clause of the encoding (CaDiCaL's clause, its two watches, the variables that
// come with it, the arrays' slack, the first seconds of learnt clauses), measured as peak RSS over
// the clauses of one attempt: cube:9 (all ports, 3 steps, 12.8 M clauses) 143 B, mesh:20x20 (3
// ports, 5 steps, 9.2 M) 154 B after ~5 s of solving; 200-220 B after a minute (cube:7..9,
// mesh:12x12, mesh:16x16), 113 B for mesh:32x32 (docs/results-other/synth.md). The step-by-step guard
// (Encoder::solve) then watches the real resident size.
constexpr uint64_t kBytesPerClause = 150;

}  // namespace

}  // namespace wn::alg::synth::detail

namespace wn::alg::synth {

MemoryEstimate estimate_memory(const Topology& topo, const Request& req) {
  MemoryEstimate e;
  const uint64_t n = uint64_t(topo.nodes()), pairs = n * (n - 1);
  const detail::RouteSums sums = detail::route_sums(topo);
  // Paths: the offsets, then every route's nodes and links.
  e.route_bytes = 4 * (n * n + 1) + (sums.hops + pairs) * detail::kRouteBytesPerNode;
  // Candidates: every pair but those into the root (an upper bound under --avoid and --max-hops).
  e.candidates = (n - 1) * (n - 1);
  const uint64_t hops_avg = pairs ? (sums.hops + pairs - 1) / pairs : 0;
  const uint64_t runs_avg = pairs ? (sums.runs + pairs - 1) / pairs : 0;
  const uint64_t per_edge =
      sizeof(detail::Edge) + detail::heap_block(4 * runs_avg) + detail::heap_block(4 * hops_avg) + 2 * sizeof(int);
  // edge_of and dist per pair, the edges, the channel and run maps (a few per channel).
  e.net_bytes =
      n * n * (sizeof(int32_t) + sizeof(uint16_t)) + e.candidates * per_edge + 64 * 8 * n * uint64_t(topo.dims());
  // One step of the encoding (add_layer): per candidate a variable and 5 clauses, 4 more per run
  // (its at-most-one counter and the run's start); the holder count (a totalizer over the nodes)
  // about n^2 clauses. Within 7 % of the clauses counted on cube:7..9 and meshes 12x12..32x32.
  const uint64_t clauses = e.candidates * 5 + sums.runs * 4 + n * n;
  e.layer_clauses = clauses;
  e.layer_bytes = clauses * detail::kBytesPerClause;
  // The first solver call: --steps, else the lower bound; its first step has the root's messages
  // only, every later one all candidates.
  int lb = 0;
  for (uint64_t p = 1; p < n; p *= uint64_t(req.ports) + 1) ++lb;
  e.first_steps = req.steps > 0 ? req.steps : std::max(1, lb);
  e.peak_bytes = e.net_bytes + std::max(e.route_bytes, uint64_t(e.first_steps - 1) * e.layer_bytes);
  return e;
}

void check_memory(const Topology& topo, const Request& req) {
  const MemoryEstimate e = estimate_memory(topo, req);
  const uint64_t limit = node_memory_limit_bytes();
  if (e.peak_bytes <= limit) return;
  throw ConfigError(Param::topology,
                    fmt::format("synthesis on {} considers {} candidate messages; their routes and the encoding of {} "
                                "step{} need about {} MiB of host memory before the solver starts; allowed: at most "
                                "{} MiB here ({}): a smaller network",
                                topo.name(), e.candidates, e.first_steps, e.first_steps == 1 ? "" : "s",
                                e.peak_bytes >> 20, limit >> 20, node_memory_limit_source()));
}

}  // namespace wn::alg::synth

namespace wn::alg::synth::detail {

std::vector<std::vector<int>> route_symmetries(const Topology& topo, const std::vector<bool>& avoided, int fixing) {
  auto cand = candidates(topo, fixing);
  if (cand.empty()) return {};
  // Every pair's route is compared: refuse a network whose routes alone do not fit.
  const uint64_t n = uint64_t(topo.nodes());
  const uint64_t bytes = 4 * (n * n + 1) + (route_sums(topo).hops + n * (n - 1)) * kRouteBytesPerNode;
  if (bytes > node_memory_limit_bytes())
    throw ConfigError(
        Param::topology,
        fmt::format("the routes of every pair of {} need about {} MiB of host memory; allowed: at most "
                    "{} MiB here ({}): a smaller network",
                    topo.name(), bytes >> 20, node_memory_limit_bytes() >> 20, node_memory_limit_source()));
  return keep(Paths(topo, avoided), std::move(cand), avoided);
}

Net build_net(const Topology& topo, const Request& req, const std::vector<bool>& avoided, bool symmetries,
              const Budget& budget) {
  Net net;
  net.n = topo.nodes();
  net.source = req.source;
  net.avoided = avoided;
  net.live = net.n - int(std::count(avoided.begin(), avoided.end(), true));
  const Paths p(topo, avoided, &budget);
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
      if (p.end(u, v) > p.begin(u, v))
        net.dist[size_t(u) * size_t(net.n) + size_t(v)] = uint16_t(p.end(u, v) - p.begin(u, v) - 1);
  for (int u = 0; u < net.n; ++u) {
    budget.check();
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
      throw ConfigError(req.max_hops ? Param::max_hops : Param::avoid,
                        fmt::format("node {} cannot be reached from {} under these constraints; allowed: a larger "
                                    "{} or fewer {} nodes",
                                    v, req.source, param_ref(Param::max_hops), param_ref(Param::avoid)));
  budget.check();
  if (symmetries) net.syms = keep(p, candidates(topo, req.source), avoided, &budget);
  return net;
}

}  // namespace wn::alg::synth::detail
