// Broadcast by recursive doubling over the lexicographically sorted node list
// (Tsai's thesis: RD / U-mesh on meshes, U-torus on tori; on a cube the
// same halving is the binomial tree). Memory: M words; the source holds
// data_word(source, 0, o), every other node scratch; afterwards every member
// holds the source's words.
#include <algorithm>

#include "algorithms/families/baselines/baselines.h"
#include "algorithms/halving.h"

namespace wn::alg {

namespace {

// Ranks sorted lexicographically by coordinates with the first-routed
// dimension (X) most significant: the U-mesh chain order under which the
// halving unicasts of a step use disjoint channels (checked in tests).
std::vector<int> lexicographic_ranks(const Topology& topo, const std::vector<int>& group) {
  std::vector<int> order(group.size());
  for (size_t r = 0; r < order.size(); ++r) order[r] = int(r);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return topo.coords(group[size_t(a)]) < topo.coords(group[size_t(b)]); });
  return order;
}

// RD over phi from position `holder`: one send per halving, tagged by its step.
void rd(const std::vector<int>& phi, int holder, uint32_t words, std::vector<std::vector<Step>>& prog) {
  halving(int(phi.size()), holder, [&](int h, int dest, int, int, uint32_t tag) {
    const int from = phi[size_t(h)], to = phi[size_t(dest)];
    Step s;
    s.tag = tag;
    s.sends.push_back({to, {{0, words}}, tag, -1});
    prog[size_t(from)].push_back(s);
    Step r;
    r.tag = tag;
    r.recvs.push_back({from, {{0, words}}, tag, {}});
    prog[size_t(to)].push_back(r);
  });
}

// Steps of one node may be pushed out of tag order by the recursion: sort them.
void sort_steps(std::vector<std::vector<Step>>& prog) {
  for (auto& p : prog) std::stable_sort(p.begin(), p.end(), [](const Step& a, const Step& b) { return a.tag < b.tag; });
}

}  // namespace

Schedule build_rd_broadcast(const Topology& topo, const AlgorithmArgs& args) {
  const std::vector<int>& group = args.group;
  const int n = int(group.size()), root = args.source_rank;
  const uint32_t m = args.words;
  const std::vector<int> phi = lexicographic_ranks(topo, group);
  const int holder = int(std::find(phi.begin(), phi.end(), root) - phi.begin());
  Schedule s;
  s.algorithm = "rd-broadcast";
  s.nodes = n;
  s.steps = ceil_log2(n);
  s.memory_words = m;
  s.programs.resize(size_t(n));
  rd(phi, holder, m, s.programs);
  sort_steps(s.programs);
  s.initial = [root, n, m](int r, uint32_t a) { return r == root ? data_word(root, 0, a, n, m) : scratch_word(r, a); };
  s.expected = [root, n, m](int, uint32_t a) -> std::optional<Word> { return data_word(root, 0, a, n, m); };
  return s;
}

}  // namespace wn::alg
