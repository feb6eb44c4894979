// The large-message algorithms MPI and NCCL users compare against (not the CCL paper's): the
// all-gather ring and neighbour exchange, the van de Geijn broadcast with a ring all-gather, the
// pipelined chain broadcast. Their steps against the textbook schedules, and lock-step samples on
// mesh, torus and cube (the RTL routers and the model agree every cycle, every word checked).
// C1/C2/C3 on random n and synchronous sends: ccl_costs_test.cpp (every algorithm of every op).
#include <map>

#include "algorithms/ccl/ccl.h"
#include "testbench/algorithms/families/ccl_helpers.h"

namespace wn::fw {
namespace {

using namespace ccl_test;
using Edges = std::vector<std::set<std::pair<int, int>>>;

TEST(CclLargeMessage, ConcatRingPassesBlocksAroundTheRing) {
  const Steps s = run_steps(op("concat", 5, 0, "ring"));
  ASSERT_TRUE(s.ok) << s.error;
  const Edges ring(4, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}});
  EXPECT_EQ(s.edges, ring);
}

// Chen et al.'s neighbour exchange on 6 ranks: pairs first, then left/right alternately.
TEST(CclLargeMessage, NeighborExchangeAlternatesNeighbours) {
  Opts o = op("concat", 6, 0, "neighbor-exchange");
  o.words = 3;
  const Steps s = run_steps(o);
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.edges, parse_steps("0>1, 1>0, 2>3, 3>2, 4>5, 5>4 | 0>5, 5>0, 1>2, 2>1, 3>4, 4>3 | "
                                 "0>1, 1>0, 2>3, 3>2, 4>5, 5>4"));
  EXPECT_EQ(s.largest, (std::vector<uint64_t>{3, 6, 6}));  // one block, then pairs of blocks
}

// Recursive doubling for any n: on 6 ranks 0 and 2 fold into 1 and 3, the survivors 1, 3, 4, 5
// double (1-3, 4-5, then 1-4, 3-5, each with its group's contiguous blocks), 1 and 3 hand back.
TEST(CclLargeMessage, ConcatRecursiveDoublingFoldsTheExtraRanks) {
  Opts o = op("concat", 6, 0, "recursive-doubling");
  o.words = 2;
  const Steps s = run_steps(o);
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.edges, parse_steps("0>1, 2>3 | 1>3, 3>1, 4>5, 5>4 | 1>4, 4>1, 3>5, 5>3 | 1>0, 3>2"));
  EXPECT_EQ(s.largest, (std::vector<uint64_t>{2, 4, 8, 12}));
}

// The windowed linear all-to-all on 6 ranks, window 2: partners 1 and 2 ahead, then 3 and 4, then 5.
TEST(CclLargeMessage, LinearIndexSendsAWindowPerStep) {
  Opts o = op("index", 6, 0, "linear");
  o.words = 2;
  o.extra["--window"] = "2";
  const Steps s = run_steps(o);
  ASSERT_TRUE(s.ok) << s.error;
  ASSERT_EQ(s.edges.size(), 3u);
  for (size_t t = 0; t < 3; ++t) {
    EXPECT_EQ(s.edges[t].size(), t < 2 ? 12u : 6u) << t;
    for (const auto& [from, to] : s.edges[t]) {
      const int ahead = (to - from + 6) % 6;
      EXPECT_TRUE(ahead == int(2 * t + 1) || ahead == int(2 * t + 2)) << from << ">" << to;
    }
  }
}

// The chain from root 2 of 5 ranks, 3 segments: segment t - v leaves relative rank v in step t.
TEST(CclLargeMessage, ChainPipelinesSegmentsDownTheRanks) {
  Opts o = op("bcast", 5, 2, "chain");
  o.words = 6;
  o.extra["--packet"] = "8";
  const Steps s = run_steps(o);
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.edges, parse_steps("2>3 | 2>3, 3>4 | 2>3, 3>4, 4>0 | 3>4, 4>0, 0>1 | 4>0, 0>1 | 0>1"));
  EXPECT_EQ(s.largest, (std::vector<uint64_t>(6, 2)));
}

// Scatter (binomial, 3 steps on 7 ranks) then the ring all-gather of the pieces (6 steps).
TEST(CclLargeMessage, ScatterRingIsScatterThenRing) {
  Opts o = op("bcast", 7, 0, "scatter-ring");
  o.words = 14;
  const Steps s = run_steps(o);
  ASSERT_TRUE(s.ok) << s.error;
  ASSERT_EQ(s.edges.size(), 9u);
  for (size_t t = 3; t < 9; ++t) EXPECT_EQ(s.edges[t].size(), 7u) << t;
  EXPECT_EQ(s.edges[3], parse_steps("0>1, 1>2, 2>3, 3>4, 4>5, 5>6, 6>0")[0]);
}

// The 2D ring on a whole 4x4 mesh: rows of 4 (the mesh's rows), 3 + 3 + 3 + 3 steps; every
// message goes to the next rank of its row or column, so on the mesh to a neighbour but at a wrap.
TEST(CclLargeMessage, Ring2dRunsRowsThenColumns) {
  Opts o = op("combine", 16, 0, "ring-2d");
  o.words = 64;
  const Steps s = run_steps(o);
  ASSERT_TRUE(s.ok) << s.error;
  ASSERT_EQ(s.edges.size(), 12u);
  for (size_t t : {0, 1, 2, 9, 10, 11})
    for (const auto& [from, to] : s.edges[t]) EXPECT_EQ(to, from / 4 * 4 + (from + 1) % 4) << t;
  for (size_t t = 3; t < 9; ++t)
    for (const auto& [from, to] : s.edges[t]) EXPECT_EQ(to, (from + 4) % 16) << t;
  EXPECT_EQ(s.largest, (std::vector<uint64_t>{16, 16, 16, 4, 4, 4, 4, 4, 4, 16, 16, 16}));
}

// reduce-scatter (MPI's): the ring's neighbours, the pairwise exchange's distances 1..n-1, and
// recursive halving's partners 1, 2, 4 apart with halving messages; on 6 ranks the fold first
// (0>1, 2>3 with the whole vector) and the hand-back last.
TEST(CclLargeMessage, ReduceScatterSteps) {
  Opts ring = op("reduce-scatter", 4, 0, "ring");
  ring.words = 2;
  Steps s = run_steps(ring);
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.edges, Edges(3, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}));
  Opts pw = op("reduce-scatter", 4, 0, "pairwise");
  pw.words = 2;
  s = run_steps(pw);
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.edges, parse_steps("0>1, 1>2, 2>3, 3>0 | 0>2, 1>3, 2>0, 3>1 | 0>3, 1>0, 2>1, 3>2"));
  Opts h = op("reduce-scatter", 8, 0, "halving", "affine");
  h.words = 2;
  s = run_steps(h);
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.edges, parse_steps("0>1, 1>0, 2>3, 3>2, 4>5, 5>4, 6>7, 7>6 | 0>2, 2>0, 1>3, 3>1, 4>6, 6>4, 5>7, 7>5 | "
                                 "0>4, 4>0, 1>5, 5>1, 2>6, 6>2, 3>7, 7>3"));
  EXPECT_EQ(s.largest, (std::vector<uint64_t>{8, 4, 2}));  // half, a quarter, an eighth of 8 blocks of 2
  Opts f = op("reduce-scatter", 6, 0, "halving", "affine");
  f.words = 2;
  s = run_steps(f);
  ASSERT_TRUE(s.ok) << s.error;
  ASSERT_EQ(s.edges.size(), 4u);
  EXPECT_EQ(s.edges.front(), parse_steps("0>1, 2>3")[0]);
  EXPECT_EQ(s.edges.back(), parse_steps("1>0, 3>2")[0]);
  EXPECT_EQ(s.largest.front(), 12u);  // the whole vector folds in
}

TEST(CclLargeMessage, LockstepOnMeshTorusAndCube) {
  struct Case {
    const char* op;
    const char* alg;
    const char* packet;
  };
  for (const char* topo : {"mesh:4x4", "torus:4x4", "cube:4"})
    for (const Case& c :
         {Case{"concat", "ring", ""}, Case{"concat", "neighbor-exchange", ""}, Case{"concat", "recursive-doubling", ""},
          Case{"bcast", "scatter-ring", ""}, Case{"bcast", "chain", "16"}, Case{"combine", "ring", ""},
          Case{"combine", "rabenseifner", ""}, Case{"combine", "recursive-doubling", ""},
          Case{"combine", "ring-2d", ""}, Case{"combine", "circulant", ""}, Case{"reduce-scatter", "ring", ""},
          Case{"reduce-scatter", "halving", ""}, Case{"reduce-scatter", "pairwise", ""}, Case{"index", "linear", ""},
          Case{"bcast", "circ-graph", "8"}, Case{"combine", "dbtree", "8"}}) {
      SCOPED_TRACE(std::string(topo) + " " + c.op + " " + c.alg);
      Opts o = op(
          c.op, 16, 5, c.alg,
          std::string(c.alg).rfind("ring", 0) == 0 || std::string(c.alg) == "pairwise" || std::string(c.alg) == "dbtree"
              ? "sum"
              : "affine");
      o.topology = topo;
      o.words = 22;
      if (*c.packet) o.extra["--packet"] = c.packet;
      if (std::string(c.alg) == "linear") o.extra["--window"] = "4";
      const nlohmann::json j = run_isolated([&] {
        ScheduleRunOptions r = options_of(o);
        r.net.backend = Backend::Lockstep;
        const ScheduleRunResult res = run_schedule(r);
        return nlohmann::json{{"ok", res.ok()}, {"error", res.run.error + res.data_error}};
      });
      EXPECT_TRUE(j["ok"].get<bool>()) << j["error"];
    }
}

}  // namespace
}  // namespace wn::fw

namespace wn::fw {
namespace {

// The fold-based algorithms' C2 and C3 (closed forms in ccl.cpp, reduce_scatter.cpp, ops.cpp)
// against their schedules' messages for every n in 2..48: words per step's largest message and
// in all. No simulation: the schedule as built.
TEST(CclLargeMessage, FoldCostsMatchTheSchedulesForEveryN) {
  for (const auto& [op, alg] :
       {std::pair{alg::ccl::Op::ReduceScatter, "halving"}, std::pair{alg::ccl::Op::Concat, "recursive-doubling"},
        std::pair{alg::ccl::Op::Combine, "rabenseifner"}})
    for (int n = 2; n <= 48; ++n) {
      alg::ccl::Call c;
      c.op = op;
      c.alg = alg;
      c.n = n;
      c.b = op == alg::ccl::Op::Combine ? 64 : 3;
      c.barrier = false;
      const Counted got = count(alg::ccl::build(c));
      const alg::ccl::Costs k = alg::ccl::costs(c);
      EXPECT_EQ(got.c1, k.c1) << alg << " n=" << n;
      EXPECT_EQ(got.c2, k.c2) << alg << " n=" << n;
      EXPECT_EQ(got.c3, k.c3) << alg << " n=" << n;
    }
}

}  // namespace
}  // namespace wn::fw
