// The thesis's other broadcasts in the EDN family: single-level dominating
// nodes (Tsai's thesis, Ch 3) and the Fibonacci tree (Ch 5, Table
// 5.3) — statically for every source, and one cycle-accurate run each.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>

#include "algorithms/families/edn/edn.h"
#include "algorithms/schedule_checker.h"
#include "experiments/collective_run.h"
#include "systemc/core/config_error.h"
#include "testbench/algorithms/schedule_helpers.h"

namespace wn::alg {
namespace {

// The thesis's Fig 3.3: mesh:4x4 from (2,0), D = pattern B; the send back to the source suppressed.
TEST(SldBroadcast, FigureThreeThreeExactly) {
  const Topology topo = Topology::parse("mesh:4x4");
  auto id = [&](int x, int y) { return topo.node_at({x, y}); };
  using Sends = std::set<std::pair<int, int>>;
  const std::vector<Sends> fig = {
      {{id(2, 0), id(1, 0)}, {id(2, 0), id(2, 3)}},
      {{id(1, 0), id(0, 2)}, {id(2, 3), id(3, 1)}, {id(1, 0), id(1, 1)}, {id(2, 3), id(1, 3)}, {id(2, 3), id(2, 2)}},
      {{id(1, 0), id(0, 0)},
       {id(0, 2), id(0, 1)},
       {id(0, 2), id(0, 3)},
       {id(0, 2), id(1, 2)},
       {id(3, 1), id(3, 0)},
       {id(3, 1), id(2, 1)},
       {id(3, 1), id(3, 2)},
       {id(2, 3), id(3, 3)}}};
  AlgorithmArgs a;
  a.source = id(2, 0);
  const Schedule s = make_schedule("sld-broadcast", topo, a);
  ASSERT_EQ(s.steps, 3);
  std::vector<Sends> got(3);
  for (int n = 0; n < s.nodes; ++n)
    for (const Step& st : s.programs[size_t(n)])
      for (const Send& m : st.sends) got[st.tag].insert({n, m.dst});
  for (size_t t = 0; t < 3; ++t) EXPECT_EQ(got[t], fig[t]) << "step " << t + 1;
  const ScheduleCheck c = check_schedule(s, topo, 3, true);
  EXPECT_TRUE(c.ok()) << format_check(c, topo);
}

// Every source of 4x4, 8x8 and 16x16: log2 N - 1 steps, N - 1 messages each received once, every
// step channel-disjoint under XY, at most 3 sends (and 1 receive) per node per step.
void expect_sld_every_source(int k) {
  const Topology topo = Topology::parse(fmt::format("mesh:{0}x{0}", 1 << k));
  for (int src = 0; src < topo.nodes(); ++src) {
    AlgorithmArgs a;
    a.source = src;
    const Schedule s = make_schedule("sld-broadcast", topo, a);
    ASSERT_EQ(s.steps, 2 * k - 1) << "source " << src;
    const ScheduleCheck c = check_schedule(s, topo, 3, true);
    ASSERT_TRUE(c.ok()) << "source " << src << "\n" << format_check(c, topo);
    ASSERT_EQ(c.messages, uint64_t(topo.nodes() - 1));
    ASSERT_LE(stats(s).max_sends_per_step, 3);
  }
}
TEST(SldBroadcast, EverySource4x4) { expect_sld_every_source(2); }
TEST(SldBroadcast, EverySource8x8) { expect_sld_every_source(3); }
TEST(SldBroadcast, EverySource16x16) { expect_sld_every_source(4); }

TEST(SldBroadcast, OtherSizesAreRefused) {
  for (const char* t : {"mesh:8x4", "mesh:6x6", "mesh:2x2", "torus:4x4", "mesh:4x4x4", "cube:4"}) {
    AlgorithmArgs a;
    EXPECT_THROW(make_schedule("sld-broadcast", Topology::parse(t), a), ConfigError) << t;
  }
}

// t(P, K) computed here without the recurrence, by simulating the tree: a node that joined at
// step j (sends its first packet in step j) starts a child in steps j, j + K, j + 2K, ...; the
// child joins one step later and is complete K steps after it was started.
int t_of(uint64_t p, int k) {
  std::map<int, uint64_t> joined = {{0, 1}};  // join step -> nodes
  std::map<int, uint64_t> started;            // step -> children started in it
  for (int t = 0;; ++t) {
    uint64_t complete = 1;
    for (const auto& [c, n] : started)
      if (c <= t - k) complete += n;
    if (complete >= p) return t;
    for (const auto& [j, n] : joined)
      if (t >= j && (t - j) % k == 0) started[t] += n;
    joined[t + 1] += started[t];
  }
}

TEST(FtBroadcast, StepCountsFollowTheRecurrence) {
  for (int n = 1; n <= 5; ++n) EXPECT_EQ(edn::ft_steps(uint64_t(1) << (2 * n), 1), 2 * n) << "n " << n;
  EXPECT_EQ(edn::ft_steps(1024, 1), 10);  // log2 1024 (one packet: the binomial tree)
  EXPECT_EQ(edn::ft_steps(1024, 18), 67);
  EXPECT_EQ(edn::ft_steps(64, 2), 10);  // N(t, 2): 1 1 2 3 5 8 13 21 34 55 89
  EXPECT_EQ(edn::ft_steps(64, 3), 13);  // N(t, 3): 1 1 1 2 3 4 6 9 13 19 28 41 60 88
  EXPECT_EQ(edn::ft_steps(64, 4), 15);
  for (int k = 1; k <= 6; ++k)
    for (uint64_t p : {2, 3, 7, 15, 64, 100, 128, 1000}) EXPECT_EQ(edn::ft_steps(p, k), t_of(p, k)) << p << " " << k;
  // The schedules take exactly t(P, K) steps.
  for (const char* t : {"mesh:8x8", "mesh:5x3", "torus:10x10", "cube:7", "mesh:4x4x4"})
    for (int k : {1, 2, 3, 5}) {
      const Topology topo = Topology::parse(t);
      AlgorithmArgs a;
      a.source = 3;
      a.words = 10;
      const Schedule s = make_schedule("ft-broadcast", topo, a, {{"--packets", std::to_string(k)}});
      EXPECT_EQ(s.steps, t_of(uint64_t(topo.nodes()), k)) << t << " K " << k;
    }
}

// Every source, K = 1, 2, 3: every other node receives each packet exactly once ((N - 1) K
// messages), one send and one receive per node per step, the oracle holds; stepwise contention as
// measured: none on the mesh and the cube, on torus:8x8 (shortest-path wraps cross the chain
// intervals) 0, 32 and 64 of the 64 sources for K = 1, 2, 3.
TEST(FtBroadcast, EverySourceMeshTorusCube) {
  const std::map<std::string, std::vector<int>> contended = {
      {"mesh:8x8", {0, 0, 0}}, {"torus:8x8", {0, 32, 64}}, {"cube:6", {0, 0, 0}}};
  for (const auto& [t, expected] : contended) {
    const Topology topo = Topology::parse(t);
    for (int k = 1; k <= 3; ++k) {
      int sources_in_contention = 0;
      for (int src = 0; src < topo.nodes(); ++src) {
        AlgorithmArgs a;
        a.source = src;
        a.words = 7;  // packets of 3+2+2 words for K = 3
        const Schedule s = make_schedule("ft-broadcast", topo, a, {{"--packets", std::to_string(k)}});
        const ScheduleCheck c = check_schedule(s, topo, 1, false);
        ASSERT_TRUE(c.port_overuse.empty() && c.delivery.empty()) << t << " source " << src << "\n"
                                                                  << format_check(c, topo);
        ASSERT_EQ(c.messages, uint64_t(topo.nodes() - 1) * uint64_t(k));
        std::map<std::pair<int, uint32_t>, int> got;  // (node, packet offset) -> receives
        for (int n = 0; n < s.nodes; ++n)
          for (const Step& st : s.programs[size_t(n)])
            for (const Recv& r : st.recvs) ++got[{n, r.dst[0].offset}];
        ASSERT_EQ(got.size(), uint64_t(topo.nodes() - 1) * uint64_t(k)) << t << " source " << src;
        for (const auto& [key, count] : got) ASSERT_TRUE(count == 1 && key.first != src) << t << " " << src;
        sources_in_contention += !c.contention_free();
      }
      EXPECT_EQ(sources_in_contention, expected[size_t(k - 1)]) << t << " K " << k;
    }
  }
}

TEST(FtBroadcast, PacketsOutOfRangeAreRefused) {
  const Topology topo = Topology::parse("mesh:4x4");
  AlgorithmArgs a;
  a.words = 4;
  for (const char* k : {"0", "5"}) {
    try {
      make_schedule("ft-broadcast", topo, a, {{"--packets", k}});
      ADD_FAILURE() << "--packets " << k << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.field(), "--packets");
      EXPECT_NE(std::string(e.what()).find("1..4"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(make_schedule("ft-broadcast", topo, a, {{"--packets", "4"}}));
}

}  // namespace
}  // namespace wn::alg

namespace wn::fw {
namespace {

ScheduleRunOptions run_options(const char* topology, const char* ports, const char* algo, int source, uint32_t bytes,
                               const char* backend) {
  ScheduleRunOptions o;
  o.topology = topology;
  o.ports = ports;
  const char* b = std::getenv("WN_TEST_BACKEND");
  o.net.backend = parse_backend(b ? b : backend);
  o.algorithm = algo;
  o.source = std::to_string(source);
  o.bytes = bytes;
  return o;
}

// Fig 3.3 on the hardware, RTL and model in lock-step (3 ports): 3 steps, data correct, no
// stepwise-contention delay.
TEST(SldBroadcastRun, FigureThreeThreeLockstepContentionFree) {
  const ScheduleRunResult r = run_schedule(run_options("mesh:4x4", "3", "sld-broadcast", 2, 64, "lockstep"));
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  EXPECT_EQ(r.predicted.steps, 3);
  EXPECT_EQ(r.delay[size_t(Contention::Stepwise)], 0u);
}

// 8x8, K = 4 packets of 16 words, one port, on the model: t(64, 4) = 15 steps, every word arrives;
// the formula of Table 5.3 is printed with the run's numbers.
TEST(FtBroadcastRun, EightByEightFourPacketsOnTheModel) {
  ScheduleRunOptions o = run_options("mesh:8x8", "one", "ft-broadcast", 0, 256, "model");
  o.family_options["--packets"] = "4";
  const ScheduleRunResult r = run_schedule(o);
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  EXPECT_TRUE(r.data_ok);
  EXPECT_EQ(r.predicted.steps, 15);
  EXPECT_EQ(r.messages, 63u * 4u);
  EXPECT_NE(r.predicted.thesis_formula.find("Table 5.3 FT: t(alpha+gamma) + 2K beta (2^n-1) + t beta L / K"),
            std::string::npos)
      << r.predicted.thesis_formula;
  // t = 15, K = 4, n = 3, alpha = gamma = 0 (ideal), 16 body flits: 2K(2^n-1) 3 + t 64/K.
  EXPECT_DOUBLE_EQ(r.predicted.thesis_cycles, 2 * 4 * 7 * 3 + 15 * 64 / 4.0);
}

}  // namespace
}  // namespace wn::fw
