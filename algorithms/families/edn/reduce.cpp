// edn-reduce on a 2^k x 2^k mesh (Tsai's thesis): reversing the EDN
// broadcast tree under XY makes children collide on their way to a parent;
// rotating the tree by 90 degrees first, R(x,y) = (W-1-y, x), turns its XY
// paths into YX paths, whose reversal is again an XY path, so every reduction
// step is channel-disjoint. Reduction step r (1..k-1) is broadcast tree step
// k-r with each edge (p, c) replaced by R(c) -> R(p); then the reversed
// 2-step startup toward the rotated tops delivers to the root. The root never
// sends. A parent receives up to 3 children per step into separate slots and
// combines them after the step in the order they are listed — acc = op(acc,
// child) — so non-commutative operators fold in a fixed, documented order:
// the oracle folds each node's value first, then its children's subtrees in
// step order and, within a step, in receive order.
#include <functional>
#include <map>
#include <memory>

#include "algorithms/families/edn/edn.h"

namespace wn::alg::edn {

std::vector<StepSends> reduce_steps(const Topology& topo, Node root, bool plain) {
  const int w = topo.radix()[0], h = topo.radix()[1];
  auto rot = [w, plain](Node n) { return plain ? n : Node{w - 1 - n.second, n.first}; };
  // The tree rotated into this w x h mesh is the h x w mesh's.
  const Hierarchy& hier = *(plain ? mesh_hierarchy(w, h) : mesh_hierarchy(h, w));
  std::vector<StepSends> steps;
  for (size_t r = hier.descent.size(); r-- > 0;) {
    StepSends s;
    for (const auto& [p, c] : hier.descent[r]) s.push_back({rot(c), rot(p)});
    steps.push_back(std::move(s));
  }
  std::vector<Node> tops;
  for (const Node& t : hier.tops) tops.push_back(rot(t));
  const Startup st = startup_to(topo, tops, root, true);
  StepSends c1, c2;
  for (const auto& [holder, top] : st.step2) c1.push_back({top, holder});
  for (const auto& [holder, top] : st.step1) c2.push_back({top, holder});
  if (!c1.empty()) steps.push_back(std::move(c1));
  steps.push_back(std::move(c2));
  return steps;
}

namespace {

Word value(int node, uint32_t a) { return 0x00010001u * uint32_t(node + 1) + (a << 20); }

}  // namespace

Schedule build_edn_reduce(const Topology& topo, const AlgorithmArgs& args) {
  const int root = args.source;
  const uint32_t m = args.words;
  const OpId op = args.op;
  const auto rc = topo.coords(root);
  const std::vector<StepSends> steps = reduce_steps(topo, {rc[0], rc[1]}, args.options.word("--tree") == "plain");
  Schedule s;
  s.algorithm = "edn-reduce";
  s.nodes = topo.nodes();
  s.steps = int(steps.size());
  s.memory_words = 4 * m;  // ACC [0, M), three receive slots [M, 4M)
  s.programs.resize(size_t(s.nodes));
  // order[n]: the nodes whose values n's accumulator folds, in fold order.
  auto order = std::make_shared<std::vector<std::vector<int>>>(size_t(s.nodes));
  for (int n = 0; n < s.nodes; ++n) (*order)[size_t(n)] = {n};
  for (uint32_t tag = 0; tag < steps.size(); ++tag) {
    std::vector<Step> by_node(size_t(s.nodes));
    for (const auto& [from, to] : steps[tag]) {
      const int f = topo.node_at({from.first, from.second}), t = topo.node_at({to.first, to.second});
      if (f == root) continue;  // the root keeps its value and never sends
      Step& dst = by_node[size_t(t)];
      const uint32_t slot = m * (1 + uint32_t(dst.recvs.size()));
      by_node[size_t(f)].sends.push_back({t, {{0, m}}, tag, -1});
      dst.recvs.push_back({f, {{slot, m}}, tag, {}});
      dst.after.push_back({{{slot, m}}, {{0, m}}, Combine{op, false}});
    }
    for (int n = 0; n < s.nodes; ++n) {
      Step& step = by_node[size_t(n)];
      for (const Recv& r : step.recvs) {
        auto& mine = (*order)[size_t(n)];
        const auto& theirs = (*order)[size_t(r.src)];
        mine.insert(mine.end(), theirs.begin(), theirs.end());
      }
      if (step.sends.empty() && step.recvs.empty()) continue;
      step.tag = tag;
      s.programs[size_t(n)].push_back(std::move(step));
    }
  }
  s.initial = [m](int n, uint32_t a) { return a < m ? value(n, a) : Word(0xe0000000u ^ (uint32_t(n) << 12) ^ a); };
  s.expected = [root, m, op, order](int n, uint32_t a) -> std::optional<Word> {
    if (n != root || a >= m) return std::nullopt;
    std::vector<Word> xs;
    for (int q : (*order)[size_t(root)]) xs.push_back(value(q, a));
    return fold(op, xs);
  };
  return s;
}

}  // namespace wn::alg::edn
