// The pipelined algorithms for any n that are not the CCL paper's: Träff's circulant-graph
// broadcast (circ-graph) and the double binary tree all-reduce (dbtree). Their schedules as
// built (no simulation): who holds what before every step, the step counts against the
// textbook's, and the cost table against the messages. Data checks on random n and lock-step
// samples: ccl_costs_test.cpp and ccl_large_message_test.cpp (every algorithm).
#include <map>
#include <random>
#include <set>

#include "algorithms/ccl/ccl.h"
#include "algorithms/group.h"
#include "testbench/algorithms/families/ccl_helpers.h"

namespace wn::fw {
namespace {

using namespace ccl_test;

alg::ccl::Call bcast(int n, int root, uint32_t words, uint32_t packet) {
  alg::ccl::Call c{alg::ccl::Op::Bcast, "circ-graph", n, root, words};
  c.packet = packet;
  c.barrier = false;
  return c;
}

// Every n from 2 to 130 and some large ones, M from 1 to past 2q + 1 (where the cost table stops
// simulating), random roots: the optimum of a one-port broadcast, M + ceil(log2 n) - 1 steps;
// every rank but the root receives every packet exactly once, from a rank that held it before
// that step; a step's messages all cross the same skip (the circulant graph), and the skips
// cycle with period q; C1, C2, C3 as the cost table says.
TEST(CclPipelined, CircGraphIsAnOptimalBroadcastForEveryN) {
  std::mt19937 rng(2025);
  std::vector<int> ns;
  for (int n = 2; n <= 130; ++n) ns.push_back(n);
  for (int n : {255, 256, 257, 1000, 4097}) ns.push_back(n);
  for (int n : ns) {
    const int q = alg::ceil_log2(n);
    for (int M : {1, 2, 3, q + 1, 2 * q + 1, 2 * q + 2, 3 * q + 4}) {
      if (n > 300 && M > 3) continue;
      const uint32_t pk = 3, last = 1 + uint32_t(rng() % pk), words = uint32_t(M - 1) * pk + last;
      const alg::ccl::Call c = bcast(n, int(rng() % uint32_t(n)), words, M == 1 ? 0 : pk);
      SCOPED_TRACE(::testing::Message() << "n=" << n << " M=" << M << " root=" << c.root);
      const alg::Schedule s = alg::ccl::build(c);
      std::vector<std::vector<int>> got(size_t(n), std::vector<int>(size_t(words), -1));  // step received, -1: not
      for (uint32_t w = 0; w < words; ++w) got[size_t(c.root)][w] = -2;                   // the root has it all
      std::map<uint32_t, std::set<int>> skip;                                             // step -> distances
      for (int from = 0; from < n; ++from)
        for (const auto& st : s.programs[size_t(from)])
          for (const auto& m : st.sends) skip[st.tag].insert(((m.dst - from) % n + n) % n);
      for (const auto& [tag, d] : skip) ASSERT_EQ(d.size(), 1u) << "step " << tag;
      std::vector<int> cycle;
      for (const auto& [tag, d] : skip) cycle.push_back(*d.begin());
      for (size_t t = size_t(q); t < cycle.size(); ++t) EXPECT_EQ(cycle[t], cycle[t - size_t(q)]) << t;
      for (const auto& [tag, d] : skip)  // receives land at the end of the step: senders hold their words before it
        for (int from = 0; from < n; ++from)
          for (const auto& st : s.programs[size_t(from)]) {
            if (st.tag != tag) continue;
            for (const auto& m : st.sends)
              for (uint32_t i = 0; i < m.src.front().count; ++i) {
                const uint32_t w = m.src.front().at(i);
                ASSERT_TRUE(got[size_t(from)][w] == -2 ||
                            (got[size_t(from)][w] >= 0 && got[size_t(from)][w] < int(tag)))
                    << from << " sends word " << w << " in step " << tag;
                ASSERT_EQ(got[size_t(m.dst)][w], -1) << m.dst << " receives word " << w << " twice";
                got[size_t(m.dst)][w] = int(tag);
              }
          }
      for (int r = 0; r < n; ++r)
        for (uint32_t w = 0; w < words; ++w) ASSERT_NE(got[size_t(r)][w], -1) << r << " lacks word " << w;
      const Counted k = count(s);
      const alg::ccl::Costs want = alg::ccl::costs(c);
      EXPECT_EQ(k.c1, M + q - 1);
      EXPECT_EQ(k.c1, want.c1);
      EXPECT_EQ(k.c2, want.c2);
      EXPECT_EQ(k.c3, want.c3);
      EXPECT_EQ(k.c3, uint64_t(n - 1) * words);
    }
  }
}

// Six ranks, one packet: the skips are 1, 2, 3 (s_3 = 6, s_k = ceil(s_(k+1) / 2)), so the
// broadcast is 0 > 1, then 0 > 2, then 0 > 3, 1 > 4, 2 > 5: ceil(log2 6) = 3 steps. From root 2
// every rank shifts by 2.
TEST(CclPipelined, CircGraphOnSixRanks) {
  Opts o = op("bcast", 6, 0, "circ-graph");
  o.words = 2;
  Steps s = run_steps(o);
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.edges, parse_steps("0>1 | 0>2 | 0>3, 1>4, 2>5"));
  o.source = 2;
  s = run_steps(o);
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.edges, parse_steps("2>3 | 2>4 | 2>5, 3>0, 4>1"));
}

// The two trees: every message goes between a rank and its parent in one of them (rank 0 roots the
// first; the second mirrors it for even n, shifts it by one for odd n); for even n a rank has
// children in one tree at most. Each chunk goes up and down once: C3 = 2 (n - 1) m. The steps:
// about 4M (an interior rank sends 4 messages per chunk index: up in both trees, down to two
// children in one) plus the trees' depth and the greedy matching's losses, pinned here so a change
// of the plan shows, never below the 4 (n - 1) M / n that one send per rank and step allows; the
// cost table equal to the schedule.
TEST(CclPipelined, DbtreeRunsTwoTreesOfHalves) {
  // The first tree (NCCL's): r's parent clears r's lowest set bit and sets the next, or only
  // clears it where that leaves the group.
  auto first = [](int n, int r) {
    const int bit = r & -r, up = (r ^ bit) | (bit << 1);
    return r == 0 ? -1 : up < n ? up : r ^ bit;
  };
  const std::map<std::pair<int, int>, int> steps = {{{8, 1}, 10},    {{8, 8}, 45}, {{13, 8}, 50}, {{64, 1}, 22},
                                                    {{64, 32}, 181}, {{5, 4}, 24}, {{2, 1}, 2},   {{3, 2}, 10}};
  for (const auto& [nm, want_steps] : steps) {
    const auto [n, M] = nm;
    alg::ccl::Call c{alg::ccl::Op::Combine, "dbtree", n, 0, uint32_t(4 * M)};  // halves of 2M words
    c.packet = M == 1 ? 0 : 2;
    c.barrier = false;
    SCOPED_TRACE(::testing::Message() << "n=" << n << " M=" << M);
    std::set<std::pair<int, int>> edges;  // {child, parent} of both trees
    std::vector<int> interior(size_t(n), 0);
    for (int r = 1; r < n; ++r) edges.insert({r, first(n, r)}), ++interior[size_t(first(n, r))];
    for (int r = 0; r < n; ++r) {
      const int twin = n % 2 ? (r + n - 1) % n : n - 1 - r, up = first(n, twin);
      if (up < 0) continue;
      const int parent = n % 2 ? (up + 1) % n : n - 1 - up;
      edges.insert({r, parent});
      if (n % 2 == 0 && interior[size_t(parent)] > 0 && parent != 0) ADD_FAILURE() << parent << " is interior twice";
    }
    const alg::Schedule s = alg::ccl::build(c);
    std::set<std::pair<int, int>> used;
    for (int from = 0; from < n; ++from)
      for (const auto& st : s.programs[size_t(from)])
        for (const auto& m : st.sends) {
          const std::pair<int, int> e = edges.count({from, m.dst}) ? std::pair{from, m.dst} : std::pair{m.dst, from};
          EXPECT_TRUE(edges.count(e)) << from << ">" << m.dst << " is no tree edge";
          used.insert(e);
        }
    EXPECT_EQ(used, edges);
    const Counted k = count(s);
    const alg::ccl::Costs want = alg::ccl::costs(c);
    EXPECT_EQ(k.c1, want_steps);
    EXPECT_EQ(k.c1, want.c1);
    EXPECT_EQ(k.c2, want.c2);
    EXPECT_EQ(k.c3, want.c3);
    EXPECT_EQ(k.c3, 2 * uint64_t(n - 1) * c.b);
    EXPECT_GE(k.c1, (4 * (n - 1) * M + n - 1) / n);  // one send per rank and step: no schedule is shorter
    // The bound auto prunes with (the busiest rank's messages and words) holds.
    const alg::ccl::Costs lb = alg::ccl::dbtree_lower_bound(c);
    EXPECT_LE(lb.c1, k.c1);
    EXPECT_LE(lb.c2, k.c2);
    EXPECT_GE(lb.c1, 2 * M);
  }
}

}  // namespace
}  // namespace wn::fw
