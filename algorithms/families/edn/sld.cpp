// sld-broadcast: single-level dominating-node broadcast (Tsai's thesis,
// Fig 3.3) on a 2^k x 2^k mesh, k >= 2. D = pattern B tiled over the 4x4
// blocks: inside its block every other node has exactly one D neighbour (B is
// a perfect code of the block), so the block neighbours of the D nodes
// partition the rest and the last step delivers everything exactly once.
//  1. Multicast from the source to D, sorted in chain order (x most
//     significant: the XY order under which U-mesh halving is channel-disjoint):
//     - source in D: recursive halving over D from the source;
//     - otherwise the all-port trick of Fig 3.3: in step 0 the source sends to
//       one holder in each half of D, the one nearest the source in chain order
//       (so the two chain intervals meet only at the source and the first hops
//       leave in different directions), then halving inside each half.
//     Either way log2 |D| = log2 N - 2 steps.
//  2. Early extras (Fig 3.3 step 2): a D node that already holds the message
//     also sends to its own block neighbours whose first channel no message of
//     the step uses, up to 3 sends in the step.
//  3. Last step: every D node sends to its block neighbours not yet reached.
// Total log2 N - 1 steps; never a send to the source (it holds the message).
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "algorithms/families/edn/edn.h"
#include "algorithms/group.h"
#include "algorithms/halving.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"

namespace wn::alg::edn {

namespace {

constexpr int kMaxSends = 3;  // the thesis's 3-port node

bool in_d(int x, int y) { return (2 * (x % 4) + y % 4) % 5 == 2; }  // pattern B, the thesis's Fig 3.3 set

// The non-D neighbours of D node `u` inside its 4x4 block (the nodes it dominates).
std::vector<int> dominated(const Topology& topo, int u) {
  const auto c = topo.coords(u);
  std::vector<int> out;
  for (const auto& [dx, dy] : std::vector<std::pair<int, int>>{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}) {
    const int x = c[0] + dx, y = c[1] + dy;
    if (x < 0 || y < 0 || x / 4 != c[0] / 4 || y / 4 != c[1] / 4 || in_d(x, y)) continue;
    out.push_back(topo.node_at({x, y}));
  }
  return out;
}

}  // namespace

std::vector<IdSends> sld_steps(const Topology& topo, int source) {
  const int w = topo.radix()[0];
  std::vector<int> d;  // chain order: x outer, y inner
  for (int x = 0; x < w; ++x)
    for (int y = 0; y < w; ++y)
      if (in_d(x, y)) d.push_back(topo.node_at({x, y}));
  const int m = int(d.size()), multicast = ceil_log2(m);
  std::vector<IdSends> steps(size_t(multicast + 1));
  auto rd = [&](int lo, int hi, int holder, size_t first) {
    halving(hi - lo, holder - lo, [&](int h, int to, int, int, uint32_t t) {
      steps[first + t].push_back({d[size_t(lo + h)], d[size_t(lo + to)]});
    });
  };
  if (const auto it = std::find(d.begin(), d.end(), source); it != d.end()) {
    rd(0, m, int(it - d.begin()), 0);
  } else {
    const auto sc = topo.coords(source);
    const int pos = int(std::count_if(d.begin(), d.end(), [&](int u) { return topo.coords(u) < sc; }));
    const int half = m / 2;
    const int low = pos >= 1 ? std::min(pos, half) - 1 : 0, high = pos < m ? std::max(pos, half) : m - 1;
    steps[0] = {{source, d[size_t(low)]}, {source, d[size_t(high)]}};
    rd(0, half, low, 1);
    rd(half, m, high, 1);
  }
  std::vector<char> holds(size_t(topo.nodes()), 0), reached(size_t(topo.nodes()), 0);
  holds[size_t(source)] = reached[size_t(source)] = 1;
  for (int t = 0; t < multicast; ++t) {
    IdSends& st = steps[size_t(t)];
    std::set<Topology::Link> used;
    std::vector<int> sends(size_t(topo.nodes()), 0);
    for (const auto& [f, to] : st) {
      for (const Topology::Link& l : topo.links(f, to)) used.insert(l);
      ++sends[size_t(f)];
    }
    const IdSends multicast_sends = st;
    for (int u : d) {
      if (!holds[size_t(u)]) continue;
      for (int v : dominated(topo, u)) {
        const Topology::Link first = topo.links(u, v).front();
        if (reached[size_t(v)] || sends[size_t(u)] >= kMaxSends || used.count(first)) continue;
        st.push_back({u, v});
        used.insert(first);
        ++sends[size_t(u)];
        reached[size_t(v)] = 1;
      }
    }
    for (const auto& [f, to] : multicast_sends) holds[size_t(to)] = reached[size_t(to)] = 1;
  }
  for (int u : d)
    for (int v : dominated(topo, u))
      if (!reached[size_t(v)]) steps.back().push_back({u, v});
  return steps;
}

}  // namespace wn::alg::edn

namespace wn::alg {

AlgorithmInfo sld_info() {
  AlgorithmInfo a;
  a.name = "sld-broadcast";
  a.summary =
      "single-level dominating-node broadcast (thesis Fig 3.3): multicast to pattern B tiled over "
      "4x4 blocks, then every dominating node to its block neighbours (log2 N - 1 steps; mesh:2^k x 2^k)";
  a.params = "--source --bytes --ports (3 ports per node suffice)";
  a.rooted = true;
  a.exactly_once = true;
  a.supports = [](const Topology& topo) {
    return edn::mesh_k(topo) ? std::string()
                             : fmt::format(
                                   "sld-broadcast runs on square meshes of side 2^k, k >= 2, not {}; "
                                   "allowed: mesh:4x4, mesh:8x8, mesh:16x16, mesh:32x32",
                                   topo.name());
  };
  a.check = [](const Topology& topo, const AlgorithmArgs& args) { edn::check_message(topo, args, args.words); };
  a.max_messages = [](const Topology& topo, const AlgorithmArgs&) { return uint64_t(topo.nodes()); };
  a.build = [](const Topology& topo, const AlgorithmArgs& args) {
    return edn::broadcast_schedule("sld-broadcast", topo, args.source, args.words, edn::sld_steps(topo, args.source));
  };
  a.cost = [](const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
    return step_model_prediction(
        s, topo, c,
        fmt::format("log2 N - 1 = {} steps ({} multicast to the dominating set, 1 to its "
                    "neighbours); step model with alpha={} gamma={}, F={} flits, h <= {}",
                    s.steps, s.steps - 1, c.alpha, c.gamma, c.flits(args.words), max_hops(s, topo)));
  };
  return a;
}

}  // namespace wn::alg
