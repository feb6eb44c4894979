// Direct all-to-all personalized exchange: in step z (1..N-1) rank i sends
// block (i+z) mod N to rank (i+z) mod N; the k-port variant packs k of those
// exchanges (z = s*k+1 .. s*k+k) into step s. Memory: send buffer of N blocks
// [0, N*M) with block j = data_word(i, j, o), receive buffer [N*M, 2*N*M)
// where block j ends as rank j's block i (own block copied locally in step 0).
#include <algorithm>

#include "algorithms/families/baselines/baselines.h"

namespace wn::alg {

Schedule build_direct_alltoall(const Topology& /*topo*/, const AlgorithmArgs& args) {
  const int n = int(args.group.size()), k = std::max(1, args.ports);
  const uint32_t m = args.words, recv_base = uint32_t(n) * m;
  Schedule s;
  s.algorithm = "direct-alltoall";
  s.nodes = n;
  s.steps = (n - 1 + k - 1) / k;
  s.memory_words = 2 * uint32_t(n) * m;
  s.programs.resize(size_t(n));
  for (int i = 0; i < n; ++i) {
    for (int st = 0; st < s.steps; ++st) {
      Step step;
      step.tag = uint32_t(st);
      if (st == 0) step.locals.push_back({{{uint32_t(i) * m, m}}, {{recv_base + uint32_t(i) * m, m}}, {}});
      for (int z = st * k + 1; z <= std::min(n - 1, st * k + k); ++z) {
        const int to = (i + z) % n, from = (i - z + n) % n;
        step.sends.push_back({to, {{uint32_t(to) * m, m}}, uint32_t(st), -1});
        step.recvs.push_back({from, {{recv_base + uint32_t(from) * m, m}}, uint32_t(st), {}});
      }
      s.programs[size_t(i)].push_back(step);
    }
  }
  s.initial = [n, m, recv_base](int r, uint32_t a) {
    return a < recv_base ? data_word(r, a / m, a % m, n, m) : scratch_word(r, a);
  };
  s.expected = [n, m, recv_base](int r, uint32_t a) -> std::optional<Word> {
    if (a < recv_base) return data_word(r, a / m, a % m, n, m);
    const uint32_t b = (a - recv_base) / m;
    return data_word(int(b), uint32_t(r), (a - recv_base) % m, n, m);
  };
  return s;
}

}  // namespace wn::alg
