// EDN broadcast on 2^k x 2^k meshes (Tsai's thesis):
// the hierarchy, the k + 1 steps, exactly-once delivery, channel-disjoint
// steps, fan-out <= 3, and the average path length of the reconstruction —
// statically for every source (the cycle-accurate runs: edn_run_test.cpp).
#include <gtest/gtest.h>

#include <set>

#include <fmt/format.h>

#include "algorithms/families/edn/edn.h"
#include "algorithms/schedule_checker.h"
#include "systemc/core/config_error.h"
#include "testbench/algorithms/schedule_helpers.h"

namespace wn::alg {
namespace {

// The top-level EDNs of the Appendix recurrence, k = 3..10.
TEST(EdnMesh, TopNodesFollowTheAppendixTable) {
  const std::vector<std::vector<edn::Node>> table = {{{1, 0}, {6, 0}, {2, 7}, {5, 7}},
                                                     {{2, 7}, {13, 7}, {5, 8}, {10, 8}},
                                                     {{5, 8}, {26, 8}, {10, 23}, {21, 23}},
                                                     {{10, 23}, {53, 23}, {21, 40}, {42, 40}},
                                                     {{21, 40}, {106, 40}, {42, 87}, {85, 87}},
                                                     {{42, 87}, {213, 87}, {85, 168}, {170, 168}},
                                                     {{85, 168}, {426, 168}, {170, 343}, {341, 343}},
                                                     {{170, 343}, {853, 343}, {341, 680}, {682, 680}}};
  for (int k = 3; k <= 10; ++k) EXPECT_EQ(edn::top_nodes(k), table[size_t(k - 3)]) << "k " << k;
}

// The thesis's step count (k + 1 on 2^k x 2^k, Table 3.1's k' + 3 with n = 4*2^k') for every
// source, N - 1 messages each received once, every step's XY routes channel-disjoint, at most 3
// sends per node per step; the average path length over all sources equals our reconstruction's
// (the thesis, Ch 3: 1.86 on 32x32).
void expect_every_source(int k, double avg_hops) {
  const Topology topo = Topology::parse(fmt::format("mesh:{0}x{0}", 1 << k));
  double hops = 0;
  for (int src = 0; src < topo.nodes(); ++src) {
    AlgorithmArgs a;
    a.source = src;
    a.ports = 3;
    const Schedule s = make_schedule("edn-broadcast", topo, a);
    ASSERT_EQ(s.steps, k + 1) << "source " << src;
    const ScheduleCheck c = check_schedule(s, topo, 3, true);
    ASSERT_TRUE(c.ok()) << "source " << src << "\n" << format_check(c, topo);
    ASSERT_EQ(c.messages, uint64_t(topo.nodes() - 1));
    hops += c.avg_hops;
  }
  EXPECT_NEAR(hops / topo.nodes(), avg_hops, 0.00005);
}
TEST(EdnMesh, EverySource4x4) { expect_every_source(2, 1.3500); }
TEST(EdnMesh, EverySource8x8) { expect_every_source(3, 1.6726); }
TEST(EdnMesh, EverySource16x16) { expect_every_source(4, 1.7811); }
TEST(EdnMesh, EverySource32x32) { expect_every_source(5, 1.8588); }

// The thesis: in the last step 3N/4 nodes receive, each from a 1-hop neighbour.
TEST(EdnMesh, LastStepThreeQuartersFromNeighbours) {
  const Topology topo = Topology::parse("mesh:16x16");
  AlgorithmArgs a;
  a.source = 77;
  const Schedule s = make_schedule("edn-broadcast", topo, a);
  int last = 0, neighbours = 0;
  for (int n = 0; n < s.nodes; ++n)
    for (const Step& st : s.programs[size_t(n)])
      if (int(st.tag) == s.steps - 1)
        for (const Recv& r : st.recvs) {
          ++last;
          neighbours += topo.hops(r.src, n) == 1;
        }
  // 3N/4 nodes receive in the last step, minus the source when it is a level-0 node.
  EXPECT_GE(last, 3 * topo.nodes() / 4 - 1);
  EXPECT_LE(last, 3 * topo.nodes() / 4);
  EXPECT_EQ(neighbours, last);
}

// The torus (thesis Ch 4): d steps for every source, exactly once, channel-disjoint with
// ties routed +, fan-out 3, and the maximum hops of each step = 2 delta (the thesis: at most 2 delta
// per Y or T step; the T table is ours, Fig 4.8 being lost).
void expect_torus(int d, const std::vector<int>& max_hops_per_step) {
  const Topology topo = Topology::parse(fmt::format("torus:{0}x{0}", 1 << d));
  for (int src = 0; src < topo.nodes(); ++src) {
    AlgorithmArgs a;
    a.source = src;
    const Schedule s = make_schedule("edn-broadcast", topo, a);
    ASSERT_EQ(s.steps, d) << "source " << src;
    const ScheduleCheck c = check_schedule(s, topo, 3, true);
    ASSERT_TRUE(c.ok()) << "source " << src << "\n" << format_check(c, topo);
    ASSERT_EQ(c.messages, uint64_t(topo.nodes() - 1));
    std::vector<int> hops(size_t(d), 0);
    for (const StepCheck& st : c.steps) hops[st.step] = st.max_hops;
    ASSERT_EQ(hops, max_hops_per_step) << "source " << src;
  }
}
TEST(EdnTorus, EverySource4x4) { expect_torus(2, {2, 2}); }
TEST(EdnTorus, EverySource8x8) { expect_torus(3, {4, 4, 2}); }
TEST(EdnTorus, EverySource16x16) { expect_torus(4, {8, 8, 2, 2}); }
TEST(EdnTorus, EverySource32x32) { expect_torus(5, {16, 16, 4, 4, 2}); }

// A worked 8x8 example from (0,0) (ours): Y with delta 2, T, then F from every even-even node.
TEST(EdnTorus, WorkedExample8x8) {
  const auto steps = edn::torus_steps(3, {0, 0});
  ASSERT_EQ(steps.size(), 3u);
  const edn::StepSends y = {{{0, 0}, {6, 6}}, {{0, 0}, {0, 4}}, {{0, 0}, {4, 0}}};
  EXPECT_EQ(steps[0], y);
  std::set<edn::Send2D> t(steps[1].begin(), steps[1].end());
  for (const edn::Send2D& e : std::vector<edn::Send2D>{
           {{0, 0}, {6, 0}}, {{0, 4}, {6, 4}}, {{4, 0}, {2, 2}}, {{6, 6}, {4, 4}}, {{6, 6}, {2, 6}}, {{4, 0}, {4, 6}}})
    EXPECT_EQ(t.count(e), 1u) << e.first.first << "," << e.first.second << " -> " << e.second.first << ","
                              << e.second.second;
  std::set<edn::Send2D> f(steps[2].begin(), steps[2].end());
  EXPECT_EQ(f.size(), 48u);  // 16 even-even nodes x 3
  EXPECT_EQ(f.count({{0, 0}, {7, 1}}), 1u);
}

// edn-reduce: the rotated reversed tree plus the reversed startup reduces to every root in
// k + 1 steps (Table 3.6's minimum total k' + 3, n = 4*2^k'; its maximum k' + 4 never occurs), channel-disjoint, at
// most 3 receives per node per step, with the non-commutative affine operator folded in the documented order (the
// timing-free reference run checks the data).
void expect_reduce_every_root(int k) {
  const Topology topo = Topology::parse(fmt::format("mesh:{0}x{0}", 1 << k));
  for (int root = 0; root < topo.nodes(); ++root) {
    AlgorithmArgs a;
    a.source = root;
    a.words = 2;
    a.op = find_combine_op("affine");
    const Schedule s = make_schedule("edn-reduce", topo, a);
    ASSERT_EQ(s.steps, k + 1) << "root " << root;
    const ScheduleCheck c = check_schedule(s, topo, 3, false);
    ASSERT_TRUE(c.ok()) << "root " << root << "\n" << format_check(c, topo);
    ASSERT_EQ(c.messages, uint64_t(topo.nodes() - 1));
  }
}
TEST(EdnReduce, EveryRoot4x4) { expect_reduce_every_root(2); }
TEST(EdnReduce, EveryRoot8x8) { expect_reduce_every_root(3); }
TEST(EdnReduce, EveryRoot16x16) { expect_reduce_every_root(4); }

// Gather = the reduction's schedule with concatenation: every root of 8x8 and 16x16 collects all
// N blocks in k + 1 channel-disjoint steps.
TEST(EdnGather, EveryRoot8x8And16x16) {
  for (int k : {3, 4}) {
    const Topology topo = Topology::parse(fmt::format("mesh:{0}x{0}", 1 << k));
    for (int root = 0; root < topo.nodes(); ++root) {
      AlgorithmArgs a;
      a.source = root;
      const Schedule s = make_schedule("edn-gather", topo, a);
      ASSERT_EQ(s.steps, k + 1);
      const ScheduleCheck c = check_schedule(s, topo, 3, false);
      ASSERT_TRUE(c.ok()) << "root " << root << "\n" << format_check(c, topo);
    }
  }
}

// The thesis's negative example: reversing the un-rotated tree collides for k >= 3 (smallest:
// 8x8, (0,2)->(1,0) and (3,1)->(1,0) share channel (1,1)->(1,0)); 4x4 has no conflict.
TEST(EdnReduce, PlainReversedTreeHasContentionFromEightByEight) {
  for (int k : {2, 3, 4}) {
    const Topology topo = Topology::parse(fmt::format("mesh:{0}x{0}", 1 << k));
    AlgorithmArgs a;
    a.source = 0;
    const Schedule s = make_schedule("edn-reduce", topo, a, {{"--tree", "plain"}});
    const ScheduleCheck c = check_schedule(s, topo, 3, false);
    EXPECT_EQ(c.contention_free(), k == 2) << "k " << k;
    EXPECT_TRUE(c.delivery.empty());
  }
}

// The dimensional broadcast (thesis Ch 5) takes 2n steps on 2^n x 2^n, one send per node per step
// (one-port), each node once, every step contention-free (RD along a line is).
TEST(DimBroadcast, TwoNStepsEverySource) {
  for (int k : {2, 3, 4}) {
    const Topology topo = Topology::parse(fmt::format("mesh:{0}x{0}", 1 << k));
    for (int src = 0; src < topo.nodes(); ++src) {
      AlgorithmArgs a;
      a.source = src;
      const Schedule s = make_schedule("dim-broadcast", topo, a);
      ASSERT_EQ(s.steps, 2 * k);
      const ScheduleCheck c = check_schedule(s, topo, 1, true);
      ASSERT_TRUE(c.ok()) << "source " << src << "\n" << format_check(c, topo);
    }
  }
}

// Scatter-collect: 2n + 2(w - 1) steps, every step channel-disjoint, every node ends with the
// message, for every source of 8x8 (mesh and torus).
TEST(ScBroadcast, EverySource8x8) {
  for (const char* t : {"mesh:8x8", "torus:8x8"}) {
    const Topology topo = Topology::parse(t);
    for (int src = 0; src < topo.nodes(); ++src) {
      AlgorithmArgs a;
      a.source = src;
      a.words = 200;  // not a multiple of N: padded to 64 pieces of 4 words
      const Schedule s = make_schedule("sc-broadcast", topo, a);
      ASSERT_EQ(s.steps, 2 * 3 + 2 * 7);
      const ScheduleCheck c = check_schedule(s, topo, 1, false);
      ASSERT_TRUE(c.ok()) << t << " source " << src << "\n" << format_check(c, topo);
    }
  }
}

// Theorem 3 of the thesis: on 2^d x 2^d x z tori the zone rule takes d + 1 steps for 2 <= z <= 7
// and d + m + 2 for 7*6^m < z <= 7*6^(m+1), every node once, every step channel-disjoint, at
// most 6 sends per node per step (all-port). Every source of the smaller sizes.
int theorem3(int d, int z) {
  if (z <= 7) return d + 1;
  int m = 0;
  for (long top = 42; z > top; top *= 6) ++m;
  return d + m + 2;
}
TEST(EdnTorus3D, TheoremThreeStepCounts) {
  const std::vector<std::pair<std::string, int>> sizes = {
      {"4x4x2", 2}, {"4x4x3", 3}, {"4x4x4", 4},   {"4x4x5", 5},   {"4x4x6", 6},   {"4x4x7", 7},
      {"4x4x8", 8}, {"4x4x9", 9}, {"4x4x14", 14}, {"4x4x42", 42}, {"4x4x43", 43}, {"8x8x4", 4},
      {"8x8x7", 7}, {"8x8x8", 8}, {"16x16x4", 4}, {"16x16x8", 8}};
  for (const auto& [size, z] : sizes) {
    const Topology topo = Topology::parse("torus:" + size);
    const int d = topo.radix()[0] == 4 ? 2 : topo.radix()[0] == 8 ? 3 : 4;
    const int stride = topo.nodes() > 200 ? 37 : 1;
    for (int src = 0; src < topo.nodes(); src += stride) {
      AlgorithmArgs a;
      a.source = src;
      const Schedule s = make_schedule("edn-broadcast", topo, a);
      ASSERT_EQ(s.steps, theorem3(d, z)) << size << " source " << src;
      const ScheduleCheck c = check_schedule(s, topo, 6, true);
      ASSERT_TRUE(c.ok()) << size << " source " << src << "\n" << format_check(c, topo);
      ASSERT_EQ(c.messages, uint64_t(topo.nodes() - 1));
    }
  }
}

TEST(EdnMesh, OtherSizesAreRefused) {
  for (const char* t : {"mesh:8x4", "mesh:9x9", "torus:8x4", "torus:6x6", "torus:6x6x4", "mesh:2x2", "mesh:9x9x4",
                        "mesh:8x4x4", "cube:4"}) {
    AlgorithmArgs a;
    EXPECT_THROW(make_schedule("edn-broadcast", Topology::parse(t), a), ConfigError) << t;
  }
}

}  // namespace
}  // namespace wn::alg
