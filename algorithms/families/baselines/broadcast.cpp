// Broadcast by recursive doubling over the lexicographically sorted node list
// (Tsai thesis §2.2: RD / U-mesh on meshes, U-torus on tori; on a cube the
// same halving is the binomial tree). Memory: M words; the source holds
// data_word(source, 0, o), every other node scratch; afterwards every member
// holds the source's words.
#include <algorithm>

#include "algorithms/families/baselines/baselines.h"

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

// The holder at index `holder` of phi[left..right] covers that range.
void rd(const std::vector<int>& phi, int left, int right, int holder, uint32_t tag, uint32_t words,
        std::vector<std::vector<Step>>& prog) {
  while (left < right) {
    const int c = (left + right) / 2;  // floor split (thesis pseudo-code, §2.2)
    int dest, dl, dr;
    if (holder <= c) {
      dest = c + 1, dl = c + 1, dr = right;
      right = c;
    } else {
      dest = c, dl = left, dr = c;
      left = c + 1;
    }
    const int from = phi[size_t(holder)], to = phi[size_t(dest)];
    Step s;
    s.tag = tag;
    s.sends.push_back({to, {{0, words}}, tag, -1});
    prog[size_t(from)].push_back(s);
    Step r;
    r.tag = tag;
    r.recvs.push_back({from, {{0, words}}, tag, {}});
    prog[size_t(to)].push_back(r);
    rd(phi, dl, dr, dest, tag + 1, words, prog);
    ++tag;
  }
}

// Steps of one node may be pushed out of tag order by the recursion: sort them.
void sort_steps(std::vector<std::vector<Step>>& prog) {
  for (auto& p : prog)
    std::stable_sort(p.begin(), p.end(), [](const Step& a, const Step& b) { return a.tag < b.tag; });
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
  rd(phi, 0, n - 1, holder, 0, m, s.programs);
  sort_steps(s.programs);
  s.initial = [root, n, m](int r, uint32_t a) { return r == root ? data_word(root, 0, a, n, m) : scratch_word(r, a); };
  s.expected = [root, n, m](int, uint32_t a) -> std::optional<Word> { return data_word(root, 0, a, n, m); };
  return s;
}

}  // namespace wn::alg
