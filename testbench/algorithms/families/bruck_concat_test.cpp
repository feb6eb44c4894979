// Bruck concatenation (Bruck et al.): our oracle rows K1-K19 measured
// from the message log of cycle-accurate runs (model backend), the table
// partition of Table 1 (K8) and random (n, k, b) against Thm 4.3.
#include <random>

#include "algorithms/bruck/bruck.h"
#include "algorithms/families/baselines/baselines.h"
#include "testbench/algorithms/families/bruck_helpers.h"

namespace wn::fw {
namespace {

using namespace bruck_test;

struct ConcatRow {
  const char* id;
  int n, k;
  uint32_t b;  // words per block (the partition's unit)
  int c1;
  uint64_t c2;                      // words
  std::vector<uint64_t> per_round;  // words, empty: not given
  std::set<int> last_offsets;       // empty: not given
};

const ConcatRow kRows[] = {
    {"K1", 5, 1, 1, 3, 4, {1, 2, 1}, {4}},
    {"K2", 8, 1, 1, 3, 7, {1, 2, 4}, {4}},
    {"K3", 6, 1, 2, 3, 10, {2, 4, 4}, {}},
    {"K4", 100, 1, 1, 7, 99, {1, 2, 4, 8, 16, 32, 36}, {64}},
    {"K5", 9, 2, 1, 2, 4, {1, 3}, {3, 6}},
    {"K6", 7, 2, 1, 2, 3, {1, 2}, {3, 5}},
    {"K7", 10, 3, 3, 2, 9, {3, 6}, {4, 6, 8}},
    {"K9", 13, 3, 3, 2, 12, {3, 9}, {4, 7, 10}},
    {"K10", 100, 3, 2, 4, 66, {2, 8, 32, 24}, {64, 76, 88}},
    {"K11", 64, 7, 1, 2, 9, {1, 8}, {8, 16, 24, 32, 40, 48, 56}},
    {"K12", 15, 3, 3, 2, 15, {3, 12}, {}},  // exceptional range: whole columns, C2 = LB + 1
    {"K13 b=1", 15, 3, 1, 2, 5, {}, {}},
    {"K13 b=2", 15, 3, 2, 2, 10, {}, {}},
    {"K14", 17, 3, 3, 3, 16, {3, 12, 1}, {14, 15, 16}},
    {"K17", 4, 3, 2, 1, 2, {2}, {1, 2, 3}},
    {"K19", 23, 4, 3, 2, 17, {}, {}},  // exceptional range, span-limited greedy
};

TEST(BruckConcatOracles, RowsK1toK19FromTheMessageLog) {
  for (const ConcatRow& row : kRows) {
    SCOPED_TRACE(row.id);
    const Measured m = run_and_measure(bruck_run("bruck-concat", row.n, row.k, row.b), row.n);
    EXPECT_EQ(m.c1, row.c1);
    EXPECT_EQ(m.c2, row.c2);
    if (!row.per_round.empty()) {
      EXPECT_EQ(m.round_max, row.per_round);
    }
    if (!row.last_offsets.empty()) {
      EXPECT_EQ(m.offsets, row.last_offsets);
    }
    EXPECT_TRUE(m.distinct);
    EXPECT_LE(m.most_dsts, row.k);
    EXPECT_LE(m.most_srcs, row.k);
  }
}

// K5 round 0: one block to v+1 and v+2; K11 round 0: one unit on 7 ports.
TEST(BruckConcatOracles, FirstRoundTargets) {
  const ScheduleRunResult r = run_schedule(bruck_run("bruck-concat", 9, 2, 1));
  ASSERT_TRUE(r.ok());
  for (const auto& msg : r.run.log.messages)
    if (msg.step == 0) {
      EXPECT_TRUE((msg.dst - msg.src + 9) % 9 == 1 || (msg.dst - msg.src + 9) % 9 == 2);
    }
}

// K8: Table 1 as a standalone partition (n1 = 3, n2 = 7, b = 3, k = 3): a = 7,
// offsets 3, 5, 7 with byte splits (3,3,1), (2,3,2), (1,3,3).
TEST(BruckConcatOracles, K8Table1Partition) {
  std::string how;
  const auto areas = alg::bruck::last_round(3, 7, 3, 3, &how);
  EXPECT_EQ(how, "chunks");
  ASSERT_EQ(areas.size(), 3u);
  const int offsets[] = {3, 5, 7};
  const std::vector<uint32_t> splits[] = {{3, 3, 1}, {2, 3, 2}, {1, 3, 3}};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(areas[i].offset, offsets[i]);
    EXPECT_EQ(areas[i].cells(), 7u);
    std::vector<uint32_t> rows;
    for (const auto& s : areas[i].segments) rows.push_back(s.row_end - s.row_begin);
    EXPECT_EQ(rows, splits[i]) << "area " << i;
  }
  // a < b puts three areas in one column; offsets stay distinct (K14).
  const auto k14 = alg::bruck::last_round(16, 1, 3, 3);
  ASSERT_EQ(k14.size(), 3u);
  EXPECT_EQ(k14[0].offset, 14);
  EXPECT_EQ(k14[1].offset, 15);
  EXPECT_EQ(k14[2].offset, 16);
  EXPECT_EQ(alg::bruck::concat_plan(15, 3, 3).partition, "whole columns");        // K12
  EXPECT_EQ(alg::bruck::concat_plan(23, 4, 3).partition, "span-limited greedy");  // K19
}

bool exceptional(int n, int k, uint32_t b) {
  if (k < 3 || b < 3) return false;
  long p = 1;
  while (p < n) p *= k + 1;
  return p - k < n && n < p;
}

// K15/K16: random (n, k, b), 1 <= k <= n-1: C1 = ceil(log_{k+1} n), C2 =
// ceil(b(n-1)/k) outside the exceptional range (at most b-1 above inside it);
// final memory equals the oracle (the run's data check).
TEST(BruckConcatOracles, RandomNPortsBlockK15) {
  std::mt19937 rng(1997);
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 2 + int(rng() % 69), k = 1 + int(rng() % 4);
    const uint32_t b = 1 + rng() % 6;
    SCOPED_TRACE(::testing::Message() << "n=" << n << " k=" << k << " b=" << b);
    const Measured m = run_and_measure(bruck_run("bruck-concat", n, k, b), n);
    const int kk = std::min(k, n - 1);
    int d = 0;
    for (long p = 1; p < n; p *= kk + 1) ++d;
    const uint64_t lb = (uint64_t(b) * uint64_t(n - 1) + uint64_t(kk) - 1) / uint64_t(kk);
    EXPECT_EQ(m.c1, d);
    if (exceptional(n, kk, b)) {
      EXPECT_GE(m.c2, lb);
      EXPECT_LE(m.c2, lb + b - 1);
    } else {
      EXPECT_EQ(m.c2, lb);
    }
    EXPECT_TRUE(m.distinct);
    EXPECT_LE(m.most_dsts, kk);
  }
}

// K16 (Thm 4.1): after Phase A round i node v holds B[(v-u) mod n], u <
// (k+1)^(i+1), each message (k+1)^i b; from snapshots of the run.
TEST(BruckConcatOracles, K16PhaseAHoldings) {
  const int n = 40, k = 3;
  const uint32_t b = 2;
  const ScheduleRunResult r = run_schedule(bruck_run("bruck-concat", n, k, b, 0, "model", true));
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  for (int v = 0; v < n; ++v) {
    uint32_t held = uint32_t(k + 1);
    for (int round = 0; round < 2; ++round, held *= uint32_t(k + 1)) {
      const auto& mem = r.run.steps[size_t(v)][size_t(round)].memory;
      for (uint32_t u = 0; u < held; ++u)
        for (uint32_t o = 0; o < b; ++o)
          EXPECT_EQ(mem[uint32_t(n) * b + u * b + o], alg::data_word((v - int(u) + n) % n, 0, o, n, b))
              << "round " << round << " node " << v << " u " << u;
    }
  }
  for (const auto& msg : r.run.log.messages)
    if (msg.step < 2) {
      EXPECT_EQ(msg.words, b * (msg.step == 0 ? 1u : 4u));
    }
}

// K18: the folklore baseline, a binomial gather then a broadcast of the whole
// result: C1 = 2 ceil(log2 n), C2 = b(n-1) + b n ceil(log2 n) (not the paper's 2b(n-1)).
TEST(BruckConcatOracles, K18GatherThenBroadcastBaseline) {
  for (int n : {8, 5}) {
    int lg = 0;
    while ((1 << lg) < n) ++lg;
    const uint32_t b = 2;
    const Measured g = run_and_measure(bruck_run("binomial-gather", n, 1, b), n);
    const Measured bc = run_and_measure(bruck_run("rd-broadcast", n, 1, b * uint32_t(n)), n);
    EXPECT_EQ(g.c1 + bc.c1, 2 * lg) << n;
    EXPECT_EQ(g.c2 + bc.c2, b * uint64_t(n - 1) + b * uint64_t(n) * uint64_t(lg)) << n;
  }
}

}  // namespace
}  // namespace wn::fw
