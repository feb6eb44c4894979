// edn-gather on a 2^k x 2^k mesh: the reduction's schedule (Ch 3: rotated
// reversed tree, then the reversed startup) with concatenation in place of
// combining — the thesis's "global combine" of blocks. Memory: N blocks of M
// words, block q for node q; node q starts with its own block, a parent
// receives its children's collected blocks at their own addresses, and the
// root ends with all N. The root never sends.
#include <algorithm>
#include <memory>

#include "algorithms/families/edn/edn.h"

namespace wn::alg::edn {

namespace {

Word block_word(int owner, uint32_t offset) { return 0x60000000u + (uint32_t(owner) << 12) + offset; }

// The blocks of `members` as ranges, neighbouring blocks merged.
std::vector<Range> blocks(std::vector<int> members, uint32_t m) {
  std::sort(members.begin(), members.end());
  std::vector<Range> out;
  for (int q : members) {
    if (!out.empty() && out.back().end() == uint64_t(q) * m)
      out.back().count += m;
    else
      out.push_back({uint32_t(q) * m, m});
  }
  return out;
}

}  // namespace

Schedule build_edn_gather(const Topology& topo, const AlgorithmArgs& args) {
  const int root = args.source;
  const uint32_t m = args.words, n = uint32_t(topo.nodes());
  const auto rc = topo.coords(root);
  const std::vector<StepSends> steps = reduce_steps(topo, {rc[0], rc[1]}, false);
  Schedule s;
  s.algorithm = "edn-gather";
  s.nodes = int(n);
  s.steps = int(steps.size());
  s.memory_words = n * m;
  s.programs.resize(n);
  std::vector<std::vector<int>> members(n);
  for (uint32_t q = 0; q < n; ++q) members[q] = {int(q)};
  for (uint32_t tag = 0; tag < steps.size(); ++tag) {
    std::vector<Step> by_node(n);
    std::vector<std::pair<int, int>> moved;
    for (const auto& [from, to] : steps[tag]) {
      const int f = topo.node_at({from.first, from.second}), t = topo.node_at({to.first, to.second});
      if (f == root) continue;
      const std::vector<Range> r = blocks(members[size_t(f)], m);
      by_node[size_t(f)].sends.push_back({t, r, tag, -1});
      by_node[size_t(t)].recvs.push_back({f, r, tag, {}});
      moved.push_back({f, t});
    }
    for (const auto& [f, t] : moved)
      members[size_t(t)].insert(members[size_t(t)].end(), members[size_t(f)].begin(), members[size_t(f)].end());
    for (uint32_t q = 0; q < n; ++q) {
      Step& step = by_node[q];
      if (step.sends.empty() && step.recvs.empty()) continue;
      step.tag = tag;
      s.programs[q].push_back(std::move(step));
    }
  }
  s.initial = [m](int q, uint32_t a) {
    return a / m == uint32_t(q) ? block_word(q, a % m) : Word(0xd0000000u ^ (uint32_t(q) << 14) ^ a);
  };
  s.expected = [root, m](int q, uint32_t a) -> std::optional<Word> {
    if (q == root || a / m == uint32_t(q)) return block_word(int(a / m), a % m);
    return std::nullopt;
  };
  return s;
}

}  // namespace wn::alg::edn
