// CCL (the CCL paper): our oracle tables (labels B1-BM4 ours; our schedules' step
// lists and exact counts, checked against the paper's C1/C2/C3 formulas where it
// gives them; n = 5 concat is its Fig. 2) measured from the message log of
// cycle-accurate runs (model backend): who sends to whom in every step, C1,
// C2 (largest message per step, summed) and C3 (all data), final memory by the
// run's data check (non-commutative `affine` where the order matters).
#include <random>

#include "algorithms/ccl/ccl.h"
#include "testbench/algorithms/families/ccl_helpers.h"

namespace wn::fw {
namespace {

using namespace ccl_test;

struct Row {
  const char* id;
  Opts o;
  const char* steps;  // "" = not given
  int c1;
  uint64_t c2, c3;  // in units of o.words (blocks); UINT64_MAX = not given
};
constexpr uint64_t kAny = UINT64_MAX;

Opts with(Opts o, const char* flag, int v) {
  o.extra[flag] = std::to_string(v);
  return o;
}

// c2, c3 in blocks of o.words (per_word: in words).
void check(const Row& r, bool per_word = false) {
  SCOPED_TRACE(r.id);
  const Steps s = run_steps(r.o);
  ASSERT_TRUE(s.ok) << s.error;
  const uint64_t unit = per_word ? 1 : r.o.words;
  if (*r.steps) {
    EXPECT_EQ(s.edges, parse_steps(r.steps));
  }
  EXPECT_EQ(s.c1, r.c1);
  if (r.c2 != kAny) {
    EXPECT_EQ(s.c2, r.c2 * unit);
  }
  if (r.c3 != kAny) {
    EXPECT_EQ(s.c3, r.c3 * unit);
  }
}

TEST(CclOracles, BcastB1toB8) {
  const Row rows[] = {
      {"B1", op("bcast", 2), "0>1", 1, 1, 1},
      {"B2", op("bcast", 3), "0>2 | 0>1", 2, 2, 2},
      {"B3", op("bcast", 4), "0>2 | 0>1, 2>3", 2, 2, 3},
      {"B4", op("bcast", 5), "0>4 | 0>2 | 0>1, 2>3", 3, 3, 4},
      {"B5", op("bcast", 5, 2), "2>1 | 2>4 | 2>3, 4>0", 3, 3, 4},
      {"B6", op("bcast", 8, 3), "3>7 | 3>5, 7>1 | 3>4, 5>6, 7>0, 1>2", 3, 3, 7},
      {"B7", op("bcast", 9), "0>8 | 0>4 | 0>2, 4>6 | 0>1, 2>3, 4>5, 6>7", 4, 4, 8},
      {"B8", op("bcast", 16), "", 4, 4, 15},
  };
  for (const Row& r : rows) check(r);
}

// The pipelined nESBT broadcast, our schedule (edges per step; packets of one word).
TEST(CclOracles, NesbtN1toN7) {
  auto nesbt = [](int n, uint32_t m, int source = 0, const char* o = "bcast") {
    Opts x = op(o, n, source, "nesbt");
    x.words = m;
    x.extra["--packet"] = "4";
    return x;
  };
  Opts n1 = nesbt(4, 1);
  n1.extra["--packet"] = "0";
  check({"N1", n1, "0>1 | 0>2, 1>3", 2, kAny, 3});
  check({"N2", nesbt(4, 3), "0>1 | 0>2, 1>3 | 0>1, 2>3, 3>2 | 0>2, 1>3, 3>1", 4, 4, 9}, true);
  check({"N3", nesbt(8, 1), "0>1 | 0>2, 1>3 | 0>4, 1>5, 2>6, 3>7", 3, 3, 7}, true);
  check(
      {"N4", nesbt(8, 4),
       "0>1 | 0>2, 1>3 | 0>4, 1>5, 2>6, 3>7 | 0>1, 2>3, 3>2, 4>5, 5>4, 6>7, 7>6 | 0>2, 1>3, 3>1, 4>6, 5>7, 6>4, 7>5 | "
       "0>4, 1>5, 2>6, 3>7, 5>1, 6>2, 7>3",
       6, 6, 28},
      true);
  // N5: d <= 6, M <= 24, any source: M + d - 1 steps, every packet reaches every rank once (C3 = (n-1) m).
  std::mt19937 rng(33);
  for (int trial = 0; trial < 8; ++trial) {
    const int d = 1 + int(rng() % 6), n = 1 << d, M = 1 + int(rng() % 24);
    SCOPED_TRACE(::testing::Message() << "d=" << d << " M=" << M);
    Opts x = nesbt(n, uint32_t(M), int(rng() % uint32_t(n)));
    x.topology = "cube:" + std::to_string(d);
    const Steps s = run_steps(x);
    ASSERT_TRUE(s.ok) << s.error;
    EXPECT_EQ(s.c1, M + d - 1);
    EXPECT_EQ(s.c3, uint64_t(n - 1) * uint64_t(M));
  }
  Opts n7 = nesbt(8, 4, 0, "reduce");  // N7: N4 reversed, every contribution reaches the root once
  check({"N7", n7, "", 6, 6, 28}, true);
}

TEST(CclOracles, ReduceR1toR5) {
  const Row rows[] = {
      {"R1", op("reduce", 5, 0, "auto", "affine"), "1>0, 3>2 | 2>0 | 4>0", 3, 3, 4},
      {"R2", op("reduce", 5, 2, "auto", "affine"), "1>0, 3>2 | 2>0 | 4>0 | 0>2", 4, 4, 5},
      {"R3", op("reduce", 5, 2, "auto", "sum"), "3>2, 0>4 | 4>2 | 1>2", 3, 3, 4},
      {"R4", op("reduce", 8, 5, "auto", "affine"), "1>0, 3>2, 5>4, 7>6 | 2>0, 6>4 | 4>0 | 0>5", 4, 4, 8},
      {"R5", op("reduce", 6, 3, "auto", "affine"), "1>0, 3>2, 5>4 | 2>0 | 4>0 | 0>3", 4, 4, 6},
  };
  for (const Row& r : rows) check(r);
}

TEST(CclOracles, CombineCB1toCB6) {
  const Row rows[] = {
      {"CB1", op("combine", 5, 0, "reduce-bcast", "affine"), "1>0, 3>2 | 2>0 | 4>0 | 0>4 | 0>2 | 0>1, 2>3", 6, 6, 8},
      {"CB2", op("combine", 8, 0, "butterfly", "affine"),
       "0>1, 1>0, 2>3, 3>2, 4>5, 5>4, 6>7, 7>6 | 0>2, 2>0, 1>3, 3>1, 4>6, 6>4, 5>7, 7>5 | "
       "0>4, 4>0, 1>5, 5>1, 2>6, 6>2, 3>7, 7>3",
       3, 3, 24},
      {"CB3", op("combine", 5, 0, "circulant"),
       "0>4, 1>0, 2>1, 3>2, 4>3 | 0>4, 1>0, 2>1, 3>2, 4>3 | 0>3, 1>4, 2>0, 3>1, 4>2", 3, 3, 15},
      {"CB5", with(op("combine", 8, 0, "hybrid", "affine"), "--kappa", 1),
       "1>0, 3>2, 5>4, 7>6 | 0>2, 2>0, 4>6, 6>4 | 0>4, 4>0, 2>6, 6>2 | 0>1, 2>3, 4>5, 6>7", 4, 4, 16},
      {"CB6", with(op("combine", 8, 0, "hybrid", "affine"), "--kappa", 2),
       "1>0, 3>2, 5>4, 7>6 | 2>0, 6>4 | 0>4, 4>0 | 0>2, 4>6 | 0>1, 2>3, 4>5, 6>7", 5, 5, 14},
  };
  for (const Row& r : rows) check(r);
}

// CB4: the circulant's step pattern (Fk: full, offset k; Mk: minus-own, offset k): every rank sends to i - k.
TEST(CclOracles, CombineCB4CirculantOffsets) {
  const std::map<int, std::vector<int>> offsets = {{2, {1}},
                                                   {3, {1, 1}},
                                                   {4, {1, 2}},
                                                   {5, {1, 1, 2}},
                                                   {6, {1, 1, 3}},
                                                   {7, {1, 2, 3}},
                                                   {8, {1, 2, 4}},
                                                   {9, {1, 1, 2, 4}},
                                                   {10, {1, 1, 2, 5}},
                                                   {11, {1, 1, 3, 5}},
                                                   {12, {1, 1, 3, 6}},
                                                   {13, {1, 2, 3, 6}},
                                                   {14, {1, 2, 3, 7}},
                                                   {15, {1, 2, 4, 7}},
                                                   {16, {1, 2, 4, 8}},
                                                   {17, {1, 1, 2, 4, 8}},
                                                   {25, {1, 2, 3, 6, 12}},
                                                   {100, {1, 2, 3, 6, 12, 25, 50}}};
  for (const auto& [n, offs] : offsets) {
    SCOPED_TRACE(n);
    const Steps s = run_steps(op("combine", n, 0, "circulant"));
    ASSERT_TRUE(s.ok) << s.error;
    ASSERT_EQ(s.edges.size(), offs.size());
    for (size_t t = 0; t < offs.size(); ++t) {
      std::set<std::pair<int, int>> want;
      for (int i = 0; i < n; ++i) want.insert({i, ((i - offs[t]) % n + n) % n});
      EXPECT_EQ(s.edges[t], want) << "step " << t;
    }
    EXPECT_EQ(s.c3, uint64_t(n) * offs.size());
  }
}

// CB7, CB8 (the paper's hybrid C1 = log n + kappa, C3 = m (n/2^kappa)(d + 2^(kappa+1) - kappa - 2)) and CB9 (tree).
TEST(CclOracles, CombineCB7toCB9) {
  const uint64_t c3_16[] = {64, 40, 32, 30, 30}, c3_64[] = {384, 224, 160, 136, 128, 126, 126};
  for (int kappa = 0; kappa <= 4; ++kappa)
    check({"CB7", with(op("combine", 16, 0, "hybrid", "affine"), "--kappa", kappa), "", 4 + kappa, uint64_t(4 + kappa),
           c3_16[kappa]});
  for (int kappa = 0; kappa <= 6; ++kappa) {
    Opts o = with(op("combine", 64, 0, "hybrid", "affine"), "--kappa", kappa);
    o.topology = "cube:6";
    check({"CB8", o, "", 6 + kappa, uint64_t(6 + kappa), c3_64[kappa]});
  }
  check({"CB9 n=8", op("combine", 8, 0, "reduce-bcast", "affine"), "", 6, 6, 14});
  check({"CB9 n=16", op("combine", 16, 0, "reduce-bcast", "affine"), "", 8, 8, 30});
  check({"CB9 n=100", op("combine", 100, 0, "reduce-bcast", "affine"), "", 14, 14, 198});
}

TEST(CclOracles, ScatterGatherS1toG3) {
  const Row rows[] = {
      {"S1", op("scatter", 4), "0>2 | 0>1, 2>3", 2, 3, 4},
      {"S2", op("scatter", 5), "0>4 | 0>2 | 0>1, 2>3", 3, 4, 5},
      {"S3", op("scatter", 5, 2), "2>1 | 2>4 | 2>3, 4>0", 3, 4, 5},
      {"S4", op("scatter", 7), "0>4 | 0>2, 4>6 | 0>1, 2>3, 4>5", 3, 6, 9},
      {"S5", op("scatter", 8), "0>4 | 0>2, 4>6 | 0>1, 2>3, 4>5, 6>7", 3, 7, 12},
      {"S6", op("scatter", 9), "0>8 | 0>4 | 0>2, 4>6 | 0>1, 2>3, 4>5, 6>7", 4, 8, 13},
      {"S7", op("scatter", 16), "", 4, 15, 32},
      {"S9 n=5", op("scatter", 5, 0, "direct"), "0>1 | 0>2 | 0>3 | 0>4", 4, 4, 4},
      {"S9 n=8", op("scatter", 8, 0, "direct"), "", 7, 7, 7},
      {"G1", op("gather", 5), "1>0, 3>2 | 2>0 | 4>0", 3, 4, 5},
      {"G2", op("gather", 5, 2), "3>2, 0>4 | 4>2 | 1>2", 3, 4, 5},
      {"G3", op("gather", 8), "1>0, 3>2, 5>4, 7>6 | 2>0, 6>4 | 4>0", 3, 7, 12},
  };
  for (const Row& r : rows) check(r);
}

// CC1 (n = 5, blocks 1, 2, 1) is the paper's Fig. 2 (its image is not in our copy: the sizes follow from
// the paper's algorithm).
TEST(CclOracles, ConcatCC1toCC11) {
  const std::map<int, std::vector<uint64_t>> sizes = {
      {5, {1, 2, 1}}, {2, {1}},          {3, {1, 1}},        {6, {1, 2, 2}},        {7, {1, 2, 3}},
      {8, {1, 2, 4}}, {9, {1, 2, 4, 1}}, {12, {1, 2, 4, 4}}, {17, {1, 2, 4, 8, 1}}, {100, {1, 2, 4, 8, 16, 32, 36}}};
  for (const auto& [n, sz] : sizes) {
    SCOPED_TRACE(n);
    const Steps s = run_steps(op("concat", n));
    ASSERT_TRUE(s.ok) << s.error;
    EXPECT_EQ(s.largest, sz);
    EXPECT_EQ(s.c2, uint64_t(n - 1));
    EXPECT_EQ(s.c3, uint64_t(n) * uint64_t(n - 1));
    std::set<std::pair<int, int>> first;  // the paper's orientation: to i - 1
    for (int i = 0; i < n; ++i) first.insert({i, (i + n - 1) % n});
    EXPECT_EQ(s.edges[0], first);
  }
  check({"CC11", op("concat", 8, 0, "recursive-exchange"),
         "0>1, 1>0, 2>3, 3>2, 4>5, 5>4, 6>7, 7>6 | 0>2, 2>0, 1>3, 3>1, 4>6, 6>4, 5>7, 7>5 | "
         "0>4, 4>0, 1>5, 5>1, 2>6, 6>2, 3>7, 7>3",
         3, 7, 56});
}

TEST(CclOracles, IndexIX1toIX8) {
  struct Ix {
    int n, r, c1;
    std::vector<uint64_t> sizes;
    uint64_t c2;
  };
  const Ix rows[] = {
      {5, 2, 3, {2, 2, 1}, 5}, {5, 3, 3, {2, 1, 2}, 5},  {5, 4, 4, {1, 1, 1, 1}, 4},  {5, 5, 4, {1, 1, 1, 1}, 4},
      {6, 3, 3, {2, 2, 3}, 7}, {8, 2, 3, {4, 4, 4}, 12}, {8, 4, 4, {2, 2, 2, 4}, 10}, {16, 2, 4, {}, 32},
      {16, 4, 6, {}, 24},      {16, 16, 15, {}, 15},     {64, 2, 6, {}, 192},         {64, 4, 9, {}, 144},
      {64, 8, 14, {}, 112},    {64, 16, 18, {}, 108},    {64, 32, 32, {}, 94},        {64, 64, 63, {}, 63}};
  for (const Ix& x : rows) {
    SCOPED_TRACE(::testing::Message() << "n=" << x.n << " r=" << x.r);
    const Steps s = run_steps(with(op("index", x.n), "--radix", x.r));
    ASSERT_TRUE(s.ok) << s.error;
    EXPECT_EQ(s.c1, x.c1);
    EXPECT_EQ(s.c2, x.c2);
    EXPECT_EQ(s.c3, uint64_t(x.n) * x.c2);
    if (!x.sizes.empty()) {
      EXPECT_EQ(s.largest, x.sizes);
    }
  }
  const Steps d = run_steps(op("index", 6, 0, "direct"));  // direct = r = n
  EXPECT_EQ(d.c1, 5);
}

TEST(CclOracles, PrefixPF1toPF5) {
  const Row rows[] = {
      {"PF1", op("prefix", 5, 0, "circulant", "affine"), "0>1, 1>2, 2>3, 3>4 | 0>2, 1>3, 2>4 | 0>4", 3, 3, 8},
      {"PF2", op("prefix", 8, 0, "circulant", "affine"), "", 3, 3, 17},
      {"PF3", op("prefix", 5, 0, "tree", "affine"), "3>4, 1>2 | 2>4 | 0>4 | 4>2 | 4>3, 2>1", 5, 5, 7},
      {"PF4", op("prefix", 8, 0, "tree", "affine"), "6>7, 4>5, 2>3, 0>1 | 5>7, 1>3 | 3>7 | 7>5 | 7>6, 5>4, 3>2", 5, 5,
       11},
  };
  for (const Row& r : rows) check(r);
  for (int n = 2; n <= 16; ++n) {  // PF5
    int k = 0;
    while ((1 << k) < n) ++k;
    EXPECT_EQ(run_steps(op("prefix", n, 0, "circulant", "affine")).c1, k) << n;
    EXPECT_EQ(run_steps(op("prefix", n, 0, "tree", "affine")).c1, 2 * k - 1) << n;
  }
}

TEST(CclOracles, ShiftSyncAndBarrierMode) {
  check({"SH1", with(op("shift", 5), "--shift", 2), "0>2, 1>3, 2>4, 3>0, 4>1", 1, 1, 5});
  check({"SH2", with(op("shift", 5), "--shift", 4), "0>4, 1>0, 2>1, 3>2, 4>3", 1, 1, 5});
  check({"SY1", op("sync", 5), "0>4, 1>0, 2>1, 3>2, 4>3 | 0>3, 1>4, 2>0, 3>1, 4>2 | 0>1, 1>2, 2>3, 3>4, 4>0", 3, kAny,
         kAny});
  for (const auto& [n, c1] : std::vector<std::pair<int, int>>{{2, 1}, {8, 3}, {9, 4}, {64, 6}})
    EXPECT_EQ(run_steps(op("sync", n)).c1, c1) << n;
  auto barrier = [](Opts o) {
    o.barrier = true;
    o.words = 2;
    return o;
  };
  EXPECT_EQ(run_steps(barrier(op("bcast", 8))).c1, 6);                             // BM1
  EXPECT_EQ(run_steps(barrier(op("reduce", 8, 5, "auto", "affine"))).c1, 7);       // BM2
  EXPECT_EQ(run_steps(barrier(op("prefix", 8, 0, "circulant", "affine"))).c1, 6);  // BM3
  for (const char* o : {"combine", "concat", "index", "sync"})                     // BM4
    EXPECT_EQ(run_steps(barrier(op(o, 8))).c1, run_steps(op(o, 8)).c1) << o;
}

}  // namespace
}  // namespace wn::fw
