// Mathur & Johnsson hypercube family, continued: the butterfly reduce-and-spread
// (Fig. 21), spanning trees, one-port slot exchanges, the single cycle on four
// nodes, a 6-cube on the RTL, max/min reductions and the CM-200 uneven layout.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "algorithms/families/hypercube/gray_code.h"
#include "algorithms/families/hypercube/hypercube.h"
#include "algorithms/reference_run.h"
#include "algorithms/schedule_checker.h"
#include "experiments/collective_run.h"
#include "experiments/isolated_run.h"
#include "testbench/algorithms/families/hypercube_helpers.h"
#include "testbench/algorithms/schedule_helpers.h"

namespace wn::fw {
namespace {

namespace g = alg::gray;

// Figure 21: butterfly reduce-and-spread, d = 3; variable i crosses dimension
// (u+i) mod d in stage u; after stage u node p's variable-i partial covers the
// nodes agreeing with p outside dimensions {(i+v) mod d : v <= u}.
TEST(HypercubeGolden, Figure21ReduceAndSpread) {
  const auto r = run_schedule(cube_run(3, "reduce-spread", 1));  // N*M' = 8 elements: variable i = elements i, i+3, i+6
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  EXPECT_EQ(r.predicted.steps, 3);
  for (uint32_t u = 0; u < 3; ++u)
    for (uint32_t p = 0; p < 8; ++p)
      for (uint32_t a = 0; a < 8; ++a) {
        const int i = int(a % 3);
        uint32_t span = 0;
        for (uint32_t v = 0; v <= u; ++v) span |= 1u << ((uint32_t(i) + v) % 3);
        alg::Word want = 0;
        for (uint32_t q = 0; q < 8; ++q)
          if ((q & ~span) == (p & ~span)) want += alg::reduce_input(int(q), a, 0, 1);
        EXPECT_EQ(after_step(r, int(p), u)[a], want) << "stage " << u << " node " << p << " element " << a;
      }
  // The paper's concrete cells: after step 0, P0 variable 0 = 00+01, variable 1 = 10+12, variable 2 = 20+24.
  EXPECT_EQ(after_step(r, 0, 0)[0], alg::reduce_input(0, 0, 0, 1) + alg::reduce_input(1, 0, 0, 1));
  EXPECT_EQ(after_step(r, 0, 0)[1], alg::reduce_input(0, 1, 0, 1) + alg::reduce_input(2, 1, 0, 1));
  EXPECT_EQ(after_step(r, 0, 0)[2], alg::reduce_input(0, 2, 0, 1) + alg::reduce_input(4, 2, 0, 1));
}

// Rotated-SBT broadcast: part i crosses (u+i) mod d at stage u with 2^u blocks
// of the part per link; d stages; every link busy every stage, no contention.
TEST(HypercubeTrees, ButterflyStagesAndLoads) {
  for (int d = 1; d <= 6; ++d) {
    const Topology topo = Topology::parse("cube:" + std::to_string(d));
    alg::AlgorithmArgs a;
    a.words = uint32_t(d);
    const alg::Schedule s = alg::make_schedule("butterfly", topo, a);
    EXPECT_EQ(s.steps, d);
    const alg::ScheduleCheck c = alg::check_schedule(s, topo, d, false);
    EXPECT_TRUE(c.contention_free());
    for (const auto& st : c.steps) EXPECT_EQ(st.messages, d << d);
    for (int u = 0; u < d; ++u)
      EXPECT_EQ(alg::total_words(s.programs[0][size_t(u)].sends[0].src), 1u << u);  // 2^u * M'/d words
    EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "");
  }
}

// nESBT: d spanning binomial trees, pairwise directed-edge-disjoint, height d+1,
// d(2^d - 1) distinct directed edges (Mathur & Johnsson's nESBT).
TEST(HypercubeTrees, EdgeDisjointSpanningBinomialTrees) {
  for (int d = 2; d <= 8; ++d) {
    const uint32_t n = 1u << d;
    std::set<std::pair<uint32_t, uint32_t>> edges;
    for (int k = 0; k < d; ++k) {
      int height = 0;
      for (uint32_t x = 1; x < n; ++x) {
        const uint32_t p = alg::esbt_parent(x, k, d);
        EXPECT_EQ(__builtin_popcount(p ^ x), 1);
        edges.insert({p, x});
        height = std::max(height, alg::esbt_depth(x, k, d));
      }
      EXPECT_EQ(height, d + 1) << "d " << d << " tree " << k;
    }
    EXPECT_EQ(edges.size(), size_t(d) * (n - 1)) << "d " << d;
  }
}

// One-port vs all-port on the d-cycles: the d slot exchanges of a step
// serialize on a one-port router. Analytic band: all-port step = s + F-1,
// one-port step = d(s' + F-1) with s, s' the fixed per-step terms, so the
// ratio lies in (d/2, d] for any M' (F >= 2).
TEST(HypercubePorts, OnePortSerializesTheSlotExchanges) {
  const nlohmann::json one = run_isolated([] {
    auto o = cube_run(4, "hc-dcycles", 64);
    o.ports = "one";
    o.run.snapshots = false;
    o.net.backend = Backend::Model;
    return run_schedule(o).to_json();
  });
  auto o = cube_run(4, "hc-dcycles", 64);
  o.run.snapshots = false;
  o.net.backend = Backend::Model;
  const auto all = run_schedule(o);
  ASSERT_TRUE(all.ok());
  ASSERT_TRUE(one["ok"].get<bool>());
  const double ratio = one["cycles"].get<double>() / double(all.run.cycles);
  EXPECT_GT(ratio, 4.0 / 2);
  EXPECT_LE(ratio, 4.0);
  EXPECT_EQ(all.delay[2], 0u);  // no port contention all-port
  EXPECT_EQ(all.resource[2], 0u);
  EXPECT_GT(one["contention"]["port"].get<uint64_t>(), 0u);  // one-port: the node's channel
}

}  // namespace
}  // namespace wn::fw

namespace wn::fw {
namespace {

// Figure 5: single cycle on 4 nodes, Gray data (ring position g = node G(g)):
// after step t, position g has received X_{(g+t) mod 4} (left cyclic shifts).
TEST(HypercubeGolden, Figure5SingleCycleFourNodes) {
  const auto r = run_schedule(cube_run(2, "hc-single", 1, "gray"));
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  for (uint32_t t = 1; t <= 3; ++t)
    for (uint32_t pos = 0; pos < 4; ++pos)
      EXPECT_EQ(after_step(r, int(g::code(pos)), t - 1)[t], (pos + t) % 4) << "step " << t << " P" << pos;
}

// d = 6 on the RTL (lock-step): d-cycles with zero contention of any class.
TEST(HypercubeContention, SixCubeDcyclesOnRtlIsContentionFree) {
  auto o = cube_run(6, "hc-dcycles", 12);
  o.run.snapshots = false;
  const auto r = run_schedule(o);
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  EXPECT_EQ(r.delay[0] + r.delay[1] + r.delay[2] + r.delay[3], 0u);
  EXPECT_EQ(r.resource[0] + r.resource[1] + r.resource[2] + r.resource[3], 0u);
  EXPECT_EQ(r.predicted.steps, 63);
  // Every network channel carried the same number of flits (one slot per step each).
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const auto& [key, c] : r.run.channels)
    if (key.second < kMaxPorts) {
      lo = std::min(lo, c.flits);
      hi = std::max(hi, c.flits);
    }
  EXPECT_EQ(lo, hi);
  EXPECT_EQ(r.run.channels.size() >= size_t(64 * 6), true);
}

// max and min reductions on the cycle algorithms (the oracle folds with the operator).
TEST(HypercubeOperators, MaxAndMinReductions) {
  for (const char* op : {"max", "min"})
    for (const char* algo : {"hc-dcycles-reduce", "hc-single-reduce", "reduce-spread"}) {
      const Topology topo = Topology::parse("cube:4");
      alg::AlgorithmArgs a;
      a.words = 5;
      a.op = alg::find_combine_op(op);
      const alg::Schedule s = alg::make_schedule(algo, topo, a);
      EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "") << algo << " " << op;
    }
}

}  // namespace
}  // namespace wn::fw

namespace wn::fw {
namespace {

// M elements per node in the CM-200's consecutive allocation (c = ceil(M/N),
// floor(M/c) full blocks, one partial, the rest empty); exhausted subblocks
// leave their channels idle. Reference run for several M, then one
// cycle-accurate run (lock-step) with idle channels.
TEST(HypercubeUneven, CmLayoutReduction) {
  const Topology topo = Topology::parse("cube:3");
  for (uint32_t m : {1u, 5u, 19u, 21u, 24u, 40u})
    for (bool gray_order : {false, true}) {
      alg::AlgorithmArgs a;
      a.words = 1;
      const alg::Schedule s =
          alg::make_schedule("hc-dcycles-reduce", topo, a,
                             {{"--elements", std::to_string(m)}, {"--order", gray_order ? "gray" : "binary"}});
      ASSERT_EQ(alg::validate(s), "") << "M " << m;
      EXPECT_EQ(alg::check_memory(s, alg::reference_run(s)), "") << "M " << m;
    }
  alg::AlgorithmArgs a;
  a.words = 1;
  // c = 3: six full blocks, block 6 has one element, block 7 none
  const alg::Schedule s = alg::make_schedule("hc-dcycles-reduce", topo, a, {{"--elements", "19"}});
  size_t msgs = 0;
  for (const auto& p : s.programs)
    for (const auto& st : p) msgs += st.sends.size();
  EXPECT_LT(msgs, size_t(8 * 7 * 3));  // some channels idle
  auto o = cube_run(3, "hc-dcycles-reduce", 1);
  o.family_options["--elements"] = "19";
  o.run.snapshots = false;
  const auto r = run_schedule(o);
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  EXPECT_EQ(r.messages, msgs);
}

}  // namespace
}  // namespace wn::fw
