// Matrix transposition (Tsai's thesis):
// the direct method's contention under XY, and edn-transpose's k steps with
// every step channel-disjoint and at most 3 sends and 3 receives per node.
// Both are checked statically and on the cycle-accurate co-simulation.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "algorithms/families/edn/edn.h"
#include "algorithms/schedule_checker.h"
#include "experiments/collective_run.h"
#include "systemc/core/config_error.h"
#include "testbench/algorithms/schedule_helpers.h"

namespace wn::alg {
namespace {

Topology mesh(int n) { return Topology::parse(fmt::format("mesh:{0}x{0}", n)); }

Schedule transpose(const char* algo, const Topology& topo) {
  AlgorithmArgs a;
  a.words = 4;
  a.ports = 3;
  return make_schedule(algo, topo, a);
}

// The thesis's direct transpose: n^2 - n messages, all but two in stepwise contention, the two free ones are
// (0,1) -> (1,0) and (n-1,n-2) -> (n-2,n-1), and the busiest channel carries n - 1 messages.
void expect_direct(int n) {
  const Topology topo = mesh(n);
  const Schedule s = transpose("direct-transpose", topo);
  const ScheduleCheck first = check_schedule(s, topo, 4, false, 0);
  const ScheduleCheck c = check_schedule(s, topo, 4, false, size_t(first.conflict_pairs));
  ASSERT_EQ(c.steps.size(), 1u);
  EXPECT_EQ(c.steps[0].messages, n * n - n);
  EXPECT_EQ(c.steps[0].conflicting_messages, n * n - n - 2);
  EXPECT_EQ(c.steps[0].max_channel_load, n - 1);
  EXPECT_TRUE(c.delivery.empty());
  std::set<std::pair<int, int>> contended;
  for (const ChannelConflict& k : c.conflicts) {
    contended.insert({k.a.src, k.a.dst});
    contended.insert({k.b.src, k.b.dst});
  }
  std::set<std::pair<int, int>> free;
  for (int q = 0; q < s.nodes; ++q)
    for (const Step& st : s.programs[size_t(q)])
      for (const Send& send : st.sends)
        if (!contended.count({q, send.dst})) free.insert({q, send.dst});
  const std::set<std::pair<int, int>> expected = {{topo.node_at({0, 1}), topo.node_at({1, 0})},
                                                  {topo.node_at({n - 1, n - 2}), topo.node_at({n - 2, n - 1})}};
  EXPECT_EQ(free, expected) << "n " << n;
}
TEST(DirectTranspose, Contention4x4) { expect_direct(4); }
TEST(DirectTranspose, Contention8x8) { expect_direct(8); }
TEST(DirectTranspose, Contention16x16) { expect_direct(16); }
TEST(DirectTranspose, Contention32x32) { expect_direct(32); }

// The thesis's EDN transpose, and better for odd k: k steps on 2^k x 2^k and no channel shared
// by two messages of one step for k = 2..5 (the thesis: contention among 3n/4 messages in one step for odd k). The
// messages per step: gathers and scatters of the blocks' EDNs and the diagonal blocks' relays,
// and the recursive exchanges between them.
void expect_edn(int k, const std::vector<int>& messages_per_step) {
  const Topology topo = mesh(1 << k);
  const Schedule s = transpose("edn-transpose", topo);
  ASSERT_EQ(s.steps, k);
  const ScheduleCheck c = check_schedule(s, topo, 3, false);
  EXPECT_TRUE(c.ok()) << format_check(c, topo);
  EXPECT_EQ(c.conflict_pairs, 0u);
  EXPECT_TRUE(c.port_overuse.empty());
  std::vector<int> got;
  for (const StepCheck& st : c.steps) {
    got.push_back(st.messages);
    EXPECT_EQ(st.shared_channels, 0) << "k " << k << " step " << st.step;
    EXPECT_EQ(st.conflicting_messages, 0) << "k " << k << " step " << st.step;
    EXPECT_EQ(st.max_channel_load, 1) << "k " << k << " step " << st.step;
  }
  EXPECT_EQ(got, messages_per_step) << "k " << k;
  const ScheduleStats st = stats(s);
  EXPECT_LE(st.max_sends_per_step, 3);
  EXPECT_LE(st.max_recvs_per_step, 3);
}
TEST(EdnTranspose, FourByFourTwoSteps) { expect_edn(2, {10, 8}); }
TEST(EdnTranspose, EightByEightThreeSteps) { expect_edn(3, {44, 8, 40}); }
TEST(EdnTranspose, SixteenBySixteenFourSteps) { expect_edn(4, {184, 40, 32, 176}); }
TEST(EdnTranspose, ThirtyTwoByThirtyTwoFiveSteps) { expect_edn(5, {752, 176, 32, 160, 736}); }

// The first and last steps are the EDN gather and scatter: off-diagonal blocks move 1 hop, so
// on 32x32 (many off-diagonal blocks) nearly every message of those steps is 1 hop long.
TEST(EdnTranspose, GatherAndScatterAreMostlyOneHop) {
  const Topology topo = mesh(32);
  const ScheduleCheck c = check_schedule(transpose("edn-transpose", topo), topo, 3, false);
  EXPECT_LT(c.steps.front().avg_hops, 1.2);
  EXPECT_LT(c.steps.back().avg_hops, 1.2);
}

TEST(EdnTranspose, RefusesOtherTopologies) {
  for (const char* t : {"mesh:8x4", "mesh:6x6", "torus:8x8", "mesh:2x2", "cube:4"}) {
    AlgorithmArgs a;
    EXPECT_THROW(make_schedule("edn-transpose", Topology::parse(t), a), ConfigError) << t;
  }
  AlgorithmArgs zero;
  zero.words = 0;
  EXPECT_THROW(make_schedule("edn-transpose", mesh(8), zero), ConfigError);
}

}  // namespace
}  // namespace wn::alg

namespace wn::fw {
namespace {

ScheduleRunOptions transpose_run(const char* topology, const char* backend, uint32_t bytes) {
  ScheduleRunOptions o;
  o.topology = topology;
  o.ports = "3";
  const char* b = std::getenv("WN_TEST_BACKEND");
  o.net.backend = parse_backend(b ? b : backend);
  o.algorithm = "edn-transpose";
  o.bytes = bytes;
  return o;
}

// Every node ends with its mirror's block (the oracle), and no message of any step waits for a
// channel held by another message of the same step, as the checker predicts.
void expect_clean_run(const ScheduleRunOptions& o, int steps) {
  const ScheduleRunResult r = run_schedule(o);
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  EXPECT_EQ(r.predicted.steps, steps);
  EXPECT_EQ(r.delay[size_t(Contention::Stepwise)], 0u) << o.topology;
  ASSERT_EQ(r.steps.size(), size_t(steps));
  for (const StepTiming& st : r.steps) EXPECT_EQ(st.delay[size_t(Contention::Stepwise)], 0u) << "step " << st.tag;
}
TEST(EdnTransposeRun, ModelEightByEight) { expect_clean_run(transpose_run("mesh:8x8", "model", 256), 3); }
TEST(EdnTransposeRun, ModelSixteenBySixteen) { expect_clean_run(transpose_run("mesh:16x16", "model", 128), 4); }
TEST(EdnTransposeRun, LockstepEightByEightOddK) { expect_clean_run(transpose_run("mesh:8x8", "lockstep", 64), 3); }
TEST(EdnTransposeRun, LockstepFourByFourEvenK) { expect_clean_run(transpose_run("mesh:4x4", "lockstep", 64), 2); }
TEST(EdnTransposeRun, LockstepSixteenBySixteenEvenK) {
  expect_clean_run(transpose_run("mesh:16x16", "lockstep", 64), 4);
}

// The direct method's contention shows up on the hardware too (the test can tell the two apart).
TEST(EdnTransposeRun, DirectTransposeContendsOnTheRtl) {
  ScheduleRunOptions o = transpose_run("mesh:4x4", "lockstep", 64);
  o.algorithm = "direct-transpose";
  const ScheduleRunResult r = run_schedule(o);
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  EXPECT_GT(r.delay[size_t(Contention::Stepwise)], 0u);
}

}  // namespace
}  // namespace wn::fw
