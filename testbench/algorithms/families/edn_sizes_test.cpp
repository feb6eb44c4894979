// EDN on the meshes whose sides are 5, 6 or 7 times a power of two, square and rectangular (Tsai's
// thesis, Ch 3, Tables 3.2-3.4 and 3.7; the hierarchies are ours: algorithms/families/edn/mesh_blocks.cpp):
// every source of every size up to 28x28, statically (N - 1 messages each received once, every step's
// XY routes channel-disjoint, at most 3 sends per node per step, the final memory the oracle's), with
// the step counts pinned: the descent is the thesis's tree height k + 2, the startup 1 or 2 steps.
#include <gtest/gtest.h>

#include <cstdio>

#include <fmt/format.h>

#include "algorithms/families/edn/edn.h"
#include "algorithms/schedule_checker.h"
#include "systemc/core/config_error.h"
#include "testbench/algorithms/schedule_helpers.h"

namespace wn::alg {
namespace {

struct Span {
  int min = 1 << 30, max = 0;
  double hops = 0;
};

// Every source (or root) of `alg` on `size`; the step counts seen and the average hops per message.
Span every_source(const char* alg, const std::string& size) {
  const Topology topo = Topology::parse("mesh:" + size);
  Span sp;
  for (int src = 0; src < topo.nodes(); ++src) {
    AlgorithmArgs a;
    a.source = src;
    a.ports = 3;
    a.words = 2;
    const Schedule s = make_schedule(alg, topo, a);
    const ScheduleCheck c = check_schedule(s, topo, 3, std::string(alg) == "edn-broadcast");
    EXPECT_TRUE(c.ok()) << alg << " " << size << " source " << src << "\n" << format_check(c, topo);
    EXPECT_EQ(c.messages, uint64_t(topo.nodes() - 1)) << alg << " " << size << " source " << src;
    if (::testing::Test::HasFailure()) return sp;
    sp.min = std::min(sp.min, s.steps);
    sp.max = std::max(sp.max, s.steps);
    sp.hops += c.avg_hops;
  }
  sp.hops /= topo.nodes();
  std::printf("%s %s: %d..%d steps, %.4f hops/message\n", alg, size.c_str(), sp.min, sp.max, sp.hops);
  return sp;
}

// Tables 3.2-3.4 (n = 5, 6, 7 * 2^k): tree height k + 2, total k + 3 (min) .. k + 4 (max). Ours: the
// height, and the maximum, are the table's for every size; the minimum is too on the base blocks
// (k = 0: a top reaches the 3 others in one step), one more for k >= 1 (no top set of the doubled
// hierarchies admits a one-step startup).
void expect_table(int b, int k) {
  const int n = b << k;
  const edn::Hierarchy* h = edn::mesh_hierarchy(n, n);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(int(h->descent.size()), k + 2) << n;
  const Span sp = every_source("edn-broadcast", fmt::format("{0}x{0}", n));
  EXPECT_EQ(sp.max, k + 4) << n;
  EXPECT_EQ(sp.min, k == 0 ? k + 3 : k + 4) << n;
}
TEST(EdnSizes, FiveTimesPowersOfTwo) {
  for (int k : {0, 1, 2}) expect_table(5, k);
}
TEST(EdnSizes, SixTimesPowersOfTwo) {
  for (int k : {0, 1, 2}) expect_table(6, k);
}
TEST(EdnSizes, SevenTimesPowersOfTwo) {
  for (int k : {0, 1, 2}) expect_table(7, k);
}

// Rectangular meshes from those sides (and 4 * 2^k), each orientation (XY routing is not symmetric).
TEST(EdnSizes, Rectangles) {
  for (const char* size : {"4x5", "5x4", "5x7", "7x6", "6x4", "8x10", "12x14", "10x8", "20x24"}) {
    int w = 0, h = 0;
    ASSERT_EQ(std::sscanf(size, "%dx%d", &w, &h), 2);
    int k = 0;
    edn::base_factor(w, &k);
    const Span sp = every_source("edn-broadcast", size);
    EXPECT_EQ(int(edn::mesh_hierarchy(w, h)->descent.size()), k + 2) << size;
    EXPECT_LE(sp.max, k + 4) << size;
  }
}

// Reduction (Table 3.7: the totals of Table 3.6, k + 3 .. k + 4, for 5 * 2^k) and gather on the
// rotated reversed tree: every root, channel-disjoint, at most 3 receives per node per step.
TEST(EdnSizes, ReduceAndGatherEveryRoot) {
  for (const char* size : {"5x5", "10x10", "20x20", "6x6", "7x7", "14x14", "5x7", "10x12"}) {
    int w = 0, h = 0;
    ASSERT_EQ(std::sscanf(size, "%dx%d", &w, &h), 2);
    int k = 0;
    edn::base_factor(w, &k);
    const Span r = every_source("edn-reduce", size);
    EXPECT_LE(r.max, k + 4) << size;
    EXPECT_GE(r.min, k + 3) << size;
    const Span g = every_source("edn-gather", size);
    EXPECT_EQ(g.max, r.max) << size;
  }
}

TEST(EdnSizes, OtherSizesAreRefusedNamingTheAllowedOnes) {
  for (const char* t : {"mesh:9x9", "mesh:10x5", "mesh:8x4", "mesh:3x3", "mesh:11x11"}) {
    AlgorithmArgs a;
    for (const char* alg : {"edn-broadcast", "edn-reduce", "edn-gather"}) {
      try {
        make_schedule(alg, Topology::parse(t), a);
        ADD_FAILURE() << alg << " on " << t << " was not refused";
      } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("a, b in 4..7"), std::string::npos) << e.what();
      }
    }
  }
}

}  // namespace
}  // namespace wn::alg
