// Pairwise exchange (the XOR schedule): in step z (1..P-1, P = N rounded up
// to a power of two) rank i exchanges one block with rank i XOR z. For N a
// power of two every step is a perfect matching (each rank sends one and
// receives one message; unlike direct-alltoall's shifts it pairs ranks
// symmetrically); otherwise a rank whose partner i XOR z >= N idles that step.
// It lives with the baselines, not with torus-exchange, because it runs on any
// topology and any --group (a family's `supports` bounds its algorithms', and
// the torus family only admits 2^d x 2^d). Memory: direct-alltoall's layout
// (send buffer of N blocks, receive buffer of N blocks; own block copied in
// step 0).
#include "algorithms/families/baselines/baselines.h"

namespace wn::alg {

Schedule build_pairwise_exchange(const Topology& /*topo*/, const AlgorithmArgs& args) {
  const int n = int(args.group.size());
  const uint32_t m = args.words, recv_base = uint32_t(n) * m;
  Schedule s;
  s.algorithm = "pairwise-exchange";
  s.nodes = n;
  int pow2 = 1;
  while (pow2 < n) pow2 *= 2;
  s.steps = pow2 - 1;
  s.memory_words = 2 * uint32_t(n) * m;
  s.programs.resize(size_t(n));
  for (int i = 0; i < n; ++i)
    for (int z = 1; z < pow2; ++z) {
      Step step;
      step.tag = uint32_t(z - 1);
      if (z == 1) step.locals.push_back({{{uint32_t(i) * m, m}}, {{recv_base + uint32_t(i) * m, m}}, {}});
      const int j = i ^ z;
      if (j >= n) {
        if (z == 1) s.programs[size_t(i)].push_back(step);  // the own block's copy only
        continue;
      }
      step.sends.push_back({j, {{uint32_t(j) * m, m}}, step.tag, -1});
      step.recvs.push_back({j, {{recv_base + uint32_t(j) * m, m}}, step.tag, {}});
      s.programs[size_t(i)].push_back(step);
    }
  s.initial = [n, m, recv_base](int r, uint32_t a) {
    return a < recv_base ? data_word(r, a / m, a % m, n, m) : scratch_word(r, a);
  };
  s.expected = [n, m, recv_base](int r, uint32_t a) -> std::optional<Word> {
    if (a < recv_base) return data_word(r, a / m, a % m, n, m);
    return data_word(int((a - recv_base) / m), uint32_t(r), (a - recv_base) % m, n, m);
  };
  return s;
}

}  // namespace wn::alg
