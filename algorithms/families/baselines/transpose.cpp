// Direct matrix transpose (Tsai's thesis: the transpose baseline) on an n x n mesh: an m x m
// matrix in (block, block) distribution, p_{i,j} at (x, y) = (j, i) holding
// block (i, j); in one step every off-diagonal node sends its block to the
// node at (y, x), n^2 - n messages. Memory: [0, M) the node's own block,
// [M, 2M) the transposed block it ends with (diagonal nodes copy locally).
#include "algorithms/families/baselines/baselines.h"

namespace wn::alg {

Schedule build_direct_transpose(const Topology& topo, const AlgorithmArgs& args) {
  const uint32_t m = args.words;
  Schedule s;
  s.algorithm = "direct-transpose";
  s.nodes = topo.nodes();
  s.steps = 1;
  s.memory_words = 2 * m;
  s.programs.resize(size_t(s.nodes));
  auto mirror = [&topo](int n) {
    const auto c = topo.coords(n);
    return topo.node_at({c[1], c[0]});
  };
  for (int n = 0; n < s.nodes; ++n) {
    Step st;
    const int t = mirror(n);
    if (t == n) {
      st.locals.push_back({{{0, m}}, {{m, m}}, {}});
    } else {
      st.sends.push_back({t, {{0, m}}, 0, -1});
      st.recvs.push_back({t, {{m, m}}, 0, {}});
    }
    s.programs[size_t(n)].push_back(std::move(st));
  }
  const int n = s.nodes;
  s.initial = [n, m](int q, uint32_t a) { return a < m ? data_word(q, 0, a, n, m) : scratch_word(q, a); };
  s.expected = [n, m, mirror](int q, uint32_t a) -> std::optional<Word> {
    return a < m ? data_word(q, 0, a, n, m) : data_word(mirror(q), 0, a - m, n, m);
  };
  return s;
}

}  // namespace wn::alg
