// ft-broadcast: Fibonacci-tree pipelined broadcast (thesis Ch 5 [50];
// Table 5.3) on any topology, one port. The message is cut
// into K packets (as equal as possible, in word order). A holder with t steps
// left sends packets 1..K to its next child in K consecutive steps; the child,
// with t - 1 steps left, forwards packet j to its own first child in the step
// after packet j arrived (a step's sends go before its receives, so it may
// send in step s + 1 what arrived in step s), and the holder goes on with
// t - K steps. So N(t, K) = N(t - 1, K) + N(t - K, K) nodes for t >= K, else
// 1, and P nodes take t(P, K) steps; one send and one receive per node per step.
//
// Placement: the nodes sorted lexicographically (the first-routed dimension
// most significant: the chain order of U-mesh), rotated so the source comes
// first; every subtree is an interval of that list, its root first, and a
// holder keeps the prefix of its interval and gives its child the rest (the
// first child the largest, N(t - 1, K)). Concurrent messages then lie in
// disjoint chain intervals, which U-mesh makes channel-disjoint under
// dimension-ordered routing; only the intervals that straddle the rotation's
// wrap are not chain intervals. Rotating keeps every source on the same tree
// shape with t(P, K) steps. Stepwise and depth contention are measured (tests,
// `wormnet check --simulate`), not assumed.
#include <algorithm>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "algorithms/families/edn/edn.h"
#include "algorithms/step_cost.h"
#include "algorithms/thesis_formulas.h"
#include "systemc/core/config_error.h"

namespace wn::alg::edn {

namespace {

uint32_t packets_of(const AlgorithmArgs& a) { return uint32_t(a.options.number("--packets")); }

// Packet j of K over `words` words: the first words % K packets one word longer.
Range packet(uint32_t words, uint32_t k, uint32_t j) {
  const uint32_t base = words / k, rem = words % k;
  return {j * base + std::min(j, rem), base + (j < rem ? 1u : 0u), 1};
}

}  // namespace

Schedule build_ft_broadcast(const Topology& topo, const AlgorithmArgs& args) {
  const int nodes = topo.nodes(), src = args.source, k = int(packets_of(args));
  const uint32_t m = args.words;
  std::vector<int> list(static_cast<size_t>(nodes));
  for (int i = 0; i < nodes; ++i) list[size_t(i)] = i;
  std::stable_sort(list.begin(), list.end(), [&](int a, int b) { return topo.coords(a) < topo.coords(b); });
  std::rotate(list.begin(), std::find(list.begin(), list.end(), src), list.end());
  std::vector<std::map<uint32_t, Step>> by_node(static_cast<size_t>(nodes));
  uint32_t last = 0;
  // The subtree [a, b) of the list rooted at a, t steps left from step `start`.
  std::function<void(int, int, int, uint32_t)> tree = [&](int a, int b, int t, uint32_t start) {
    while (b - a > 1) {
      const int child = b - int(std::min<uint64_t>(uint64_t(b - a - 1), ft_nodes(t - 1, k)));
      const int from = list[size_t(a)], to = list[size_t(child)];
      for (int j = 0; j < k; ++j) {
        const uint32_t tag = start + uint32_t(j);
        const Range r = packet(m, uint32_t(k), uint32_t(j));
        by_node[size_t(from)][tag].sends.push_back({to, {r}, tag, -1});
        by_node[size_t(to)][tag].recvs.push_back({from, {r}, tag, {}});
        last = std::max(last, tag);
      }
      tree(child, b, t - 1, start + 1);
      b = child, t -= k, start += uint32_t(k);
    }
  };
  tree(0, nodes, ft_steps(uint64_t(nodes), k), 0);
  Schedule s;
  s.algorithm = "ft-broadcast";
  s.nodes = nodes;
  s.steps = nodes > 1 ? int(last) + 1 : 0;
  s.memory_words = m;
  s.programs.resize(size_t(nodes));
  for (int n = 0; n < nodes; ++n)
    for (auto& [tag, step] : by_node[size_t(n)]) {
      step.tag = tag;
      s.programs[size_t(n)].push_back(std::move(step));
    }
  set_broadcast_memory(s, src);
  return s;
}

}  // namespace wn::alg::edn

namespace wn::alg {

AlgorithmInfo ft_info() {
  AlgorithmInfo a;
  a.name = "ft-broadcast";
  a.summary =
      "Fibonacci-tree broadcast (thesis Ch 5, Table 5.3): the message in --packets K packets pipelined "
      "down a lexicographically ordered tree, one port (t(N, K) steps; any mesh, torus or cube)";
  a.params = "--source --bytes";
  a.options = {"--packets"};
  a.rooted = true;
  a.check = [](const Topology& topo, const AlgorithmArgs& args) {
    if (args.words == 0) throw ConfigError(Param::bytes, "0 bytes; allowed: at least 4");
    const uint64_t k = args.options.number("--packets");
    if (k < 1 || k > args.words)
      throw ConfigError("--packets", fmt::format("{} packets; allowed: 1..{} (the message's words, --bytes {})", k,
                                                 args.words, 4 * uint64_t(args.words)));
    check_node_memory(topo, args.words);
    check_schedule_size("ft-broadcast", topo, uint64_t(topo.nodes()) * k, "--packets", "fewer packets");
  };
  a.max_messages = [](const Topology& topo, const AlgorithmArgs& args) {
    return uint64_t(topo.nodes()) * args.options.number("--packets");
  };
  a.build = edn::build_ft_broadcast;
  a.cost = [](const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
    const int k = int(args.options.number("--packets")), t = edn::ft_steps(uint64_t(topo.nodes()), k);
    const std::string text = fmt::format("t(P,K) = t({},{}) = {} steps, packets of <= {} words", topo.nodes(), k, t,
                                         (args.words + uint32_t(k) - 1) / uint32_t(k));
    Prediction p =
        step_model_prediction(s, topo, c, text + fmt::format("; step model with alpha={} gamma={}", c.alpha, c.gamma));
    if (const auto paper = thesis_broadcast_cost("ft-broadcast", topo, c, args.words, k, t)) {
      p.thesis_cycles = paper->cycles;
      p.thesis_formula = paper->formula;
    }
    return p;
  };
  return a;
}

}  // namespace wn::alg
