// The static checker (algorithms/schedule_checker.h) on hand-made steps: a known
// conflict names its shared channel, disjoint paths are free, port overuse and
// double delivery are caught, and RD's average path length on 8x8.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "algorithms/families/baselines/baselines.h"
#include "algorithms/reference_run.h"
#include "algorithms/schedule_checker.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"
#include "testbench/algorithms/schedule_helpers.h"

namespace wn::alg {
namespace {

Schedule one_step(int nodes, const std::vector<std::pair<int, int>>& msgs) {
  Schedule s;
  s.nodes = nodes;
  s.steps = 1;
  s.memory_words = 2;
  s.programs.resize(size_t(nodes));
  for (const auto& [a, b] : msgs) {
    Step st;
    st.sends.push_back({b, {{0, 1}}, 0, -1});
    s.programs[size_t(a)].push_back(st);
    Step rt;
    rt.recvs.push_back({a, {{1, 1}}, 0, {}});
    s.programs[size_t(b)].push_back(rt);
  }
  s.initial = [](int n, uint32_t a) { return Word(n * 10 + a); };
  s.expected = [](int, uint32_t) -> std::optional<Word> { return std::nullopt; };
  return s;
}

// Hand-built steps on mesh:4x4 (XY routing): 0->3 and 1->2 share 1->2 (+x).
TEST(ScheduleChecker, KnownConflictNamesTheSharedChannel) {
  const Topology topo = Topology::parse("mesh:4x4");
  const ScheduleCheck c = check_schedule(one_step(16, {{0, 3}, {1, 2}}), topo, 1, false);
  EXPECT_FALSE(c.contention_free());
  ASSERT_EQ(c.conflict_pairs, 1u);
  EXPECT_EQ(c.conflicts[0].link.router, 1);
  EXPECT_EQ(link_name(topo, c.conflicts[0].link), "1(1,0) +x");
  EXPECT_EQ(c.steps[0].max_channel_load, 2);
  EXPECT_EQ(c.steps[0].conflicting_messages, 2);
}

TEST(ScheduleChecker, OppositeDirectionsAndDisjointRowsAreFree) {
  const Topology topo = Topology::parse("mesh:4x4");
  // 0->3 (+x on row 0) and 3->0 (-x on row 0) use opposite directed channels; 4->7 is another row.
  const ScheduleCheck c = check_schedule(one_step(16, {{0, 3}, {3, 0}, {4, 7}}), topo, 1, false);
  EXPECT_TRUE(c.contention_free());
  EXPECT_DOUBLE_EQ(c.avg_hops, 3.0);
}

TEST(ScheduleChecker, PortOveruseAndDoubleDelivery) {
  const Topology topo = Topology::parse("mesh:4x4");
  Schedule s = one_step(16, {{5, 4}, {5, 6}, {1, 4}});
  // node 5 sends 2 in one step on a one-port node; node 4 receives 2.
  const ScheduleCheck c = check_schedule(s, topo, 1, true);
  ASSERT_EQ(c.port_overuse.size(), 2u);
  EXPECT_FALSE(c.delivery.empty());
  EXPECT_NE(c.delivery[0].find("node 4 receives 2"), std::string::npos) << c.delivery[0];
  EXPECT_TRUE(check_schedule(s, topo, 2, false).port_overuse.empty());  // fine with 2 ports
}

// The thesis's path-length statistic (average hops per message; Tsai's thesis, Ch 3, gives it for
// 32x32 only: 1.86 for EDN, 4.16 for RD) for our lexicographic RD over all sources of 8x8: 1.8175.
// Our RD gives 2.63 on 32x32, not the thesis's 4.16 (docs/papers/edn.md).
TEST(ScheduleChecker, RdAveragePathLengthOn8x8) {
  const Topology topo = Topology::parse("mesh:8x8");
  double sum = 0;
  for (int src = 0; src < 64; ++src) {
    AlgorithmArgs a;
    a.source = src;
    const ScheduleCheck c = check_schedule(make_schedule("rd-broadcast", topo, a), topo, 1, true);
    EXPECT_TRUE(c.ok());
    sum += c.avg_hops;
  }
  EXPECT_NEAR(sum / 64, 1.8175, 0.0005);
}

}  // namespace
}  // namespace wn::alg
