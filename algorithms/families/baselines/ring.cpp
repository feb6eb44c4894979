// Ring all-gather and ring reduce-scatter over ranks in order (i -> i+1).
// All-gather memory: N blocks of M words; rank i starts with its own block i
// = data_word(i, 0, o), the others scratch; in step t it forwards block
// (i-t) mod N and receives block (i-t-1) mod N. Reduce-scatter memory: N
// blocks, block j of rank i = data_word(i, j, o); in step t rank i sends its
// partial block (i-t-1) mod N and folds the incoming partial of block
// (i-t-2) mod N into its own; after N-1 steps block i holds the reduction of
// every rank's block i (the other blocks are scratch). The fold order is a
// rotation of the ranks, so only commutative operators are accepted.
#include <utility>

#include "algorithms/families/baselines/baselines.h"

namespace wn::alg {

namespace {
uint32_t mod(int a, int n) { return uint32_t(((a % n) + n) % n); }
}  // namespace

Schedule build_ring_allgather(const Topology& /*topo*/, const AlgorithmArgs& args) {
  const int n = int(args.group.size());
  const uint32_t m = args.words;
  Schedule s;
  s.algorithm = "ring-allgather";
  s.nodes = n;
  s.steps = n - 1;
  s.memory_words = uint32_t(n) * m;
  s.programs.resize(size_t(n));
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < n - 1; ++t) {
      Step st;
      st.tag = uint32_t(t);
      st.sends.push_back({int(mod(i + 1, n)), {{mod(i - t, n) * m, m}}, uint32_t(t), -1});
      st.recvs.push_back({int(mod(i - 1, n)), {{mod(i - t - 1, n) * m, m}}, uint32_t(t), {}});
      s.programs[size_t(i)].push_back(std::move(st));
    }
  s.initial = [n, m](int r, uint32_t a) {
    return a / m == uint32_t(r) ? data_word(r, 0, a % m, n, m) : scratch_word(r, a);
  };
  s.expected = [n, m](int, uint32_t a) -> std::optional<Word> { return data_word(int(a / m), 0, a % m, n, m); };
  return s;
}

Schedule build_ring_reduce_scatter(const Topology& /*topo*/, const AlgorithmArgs& args) {
  const int n = int(args.group.size());
  const uint32_t m = args.words;
  const OpId op = args.op;
  Schedule s;
  s.algorithm = "ring-reduce-scatter";
  s.nodes = n;
  s.steps = n - 1;
  s.memory_words = uint32_t(n) * m;
  s.programs.resize(size_t(n));
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < n - 1; ++t) {
      Step st;
      st.tag = uint32_t(t);
      st.sends.push_back({int(mod(i + 1, n)), {{mod(i - t - 1, n) * m, m}}, uint32_t(t), -1});
      st.recvs.push_back({int(mod(i - 1, n)), {{mod(i - t - 2, n) * m, m}}, uint32_t(t), Combine{op, false}});
      s.programs[size_t(i)].push_back(std::move(st));
    }
  s.initial = [n, m](int r, uint32_t a) { return data_word(r, a / m, a % m, n, m); };
  s.expected = [n, m, op](int r, uint32_t a) -> std::optional<Word> {
    if (a / m != uint32_t(r)) return std::nullopt;
    std::vector<Word> xs;
    for (int q = 0; q < n; ++q) xs.push_back(data_word(q, uint32_t(r), a % m, n, m));
    return fold(op, xs);
  };
  return s;
}

}  // namespace wn::alg
