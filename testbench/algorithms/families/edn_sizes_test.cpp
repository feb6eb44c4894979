// EDN on the meshes whose sides are 5, 6 or 7 times a power of two, square and rectangular (Tsai's
// thesis, Ch 3, Tables 3.2-3.4 and 3.7; the hierarchies are ours: algorithms/families/edn/mesh_blocks.cpp):
// every source of every size up to 28x28, statically (N - 1 messages each received once, every step's
// XY routes channel-disjoint, at most 3 sends per node per step, the final memory the oracle's), with
// the step counts pinned: the descent is the thesis's tree height k + 2, the startup 1 or 2 steps.
#include <gtest/gtest.h>

#include <cstdio>
#include <tuple>

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
    if (!c.ok() || c.messages != uint64_t(topo.nodes() - 1)) {
      ADD_FAILURE() << alg << " " << size << " source " << src << "\n" << format_check(c, topo);
      return sp;
    }
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

// 3D meshes (Table 3.5: (4*2^k)^2 x (4|5 * 3^m) in k + m + 4 steps, "whatever the source"; our
// units, mesh3d.cpp): every source of the sizes up to 8x8x8 and 4x4x15 and a sample of the larger
// ones of the table, exactly once, channel-disjoint, at most 4 sends per node and step (5 in the top step of a
// 5-plane unit); the most steps any source takes is the table's.
struct Span3 {
  int min = 1 << 30, max = 0;
};
Span3 every_source_3d(const std::string& size, int fanout, const std::vector<int>& sources = {}) {
  const Topology topo = Topology::parse("mesh:" + size);
  Span3 sp;
  std::vector<int> srcs = sources;
  if (srcs.empty())
    for (int n = 0; n < topo.nodes(); ++n) srcs.push_back(n);
  for (int src : srcs) {
    AlgorithmArgs a;
    a.source = src;
    a.ports = 5;
    const Schedule s = make_schedule("edn-broadcast", topo, a);
    const ScheduleCheck c = check_schedule(s, topo, fanout, true);
    if (!c.ok() || c.messages != uint64_t(topo.nodes() - 1)) {
      ADD_FAILURE() << size << " source " << src << "\n" << format_check(c, topo);
      return sp;
    }
    sp.min = std::min(sp.min, s.steps);
    sp.max = std::max(sp.max, s.steps);
  }
  std::printf("edn-broadcast %s: %d..%d steps over %zu sources\n", size.c_str(), sp.min, sp.max, srcs.size());
  return sp;
}
TEST(EdnSizes, ThreeDimensionalEverySource) {
  // size, Table 3.5's steps (0: not in the table), fan-out
  const std::vector<std::tuple<const char*, int, int>> cases = {
      {"4x4x4", 4, 4},
      {"4x4x5", 4, 5},
      {"8x8x4", 5, 4},
      {"8x8x5", 5, 5},
      {"4x4x12", 5, 4},
      {"4x4x15", 5, 5},
      {"4x4x2", 0, 4},
      {"4x4x3", 0, 4},
      {"4x4x6", 0, 4},
      {"4x4x8", 0, 4},
      {"8x8x8", 0, 4},
      // planes of the 2D family that no unit fits: every plane's 2D hierarchy after a spread along z
      {"4x4x7", 0, 4},
      {"5x5x5", 0, 4},
      {"6x6x6", 0, 4},
      {"7x7x7", 0, 4},
      {"5x7x3", 0, 4}};
  for (const auto& [size, table, fanout] : cases) {
    const Span3 sp = every_source_3d(size, fanout);
    if (table) {
      EXPECT_EQ(sp.max, table) << size;
    }
  }
}
TEST(EdnSizes, ThreeDimensionalTable35Sample) {
  const std::vector<std::tuple<const char*, int, int>> cases = {
      {"8x8x12", 6, 4}, {"8x8x15", 6, 5},  {"16x16x4", 6, 4}, {"16x16x5", 6, 5}, {"4x4x36", 6, 4},
      {"4x4x45", 6, 5}, {"4x4x108", 7, 4}, {"4x4x135", 7, 5}, {"8x8x36", 7, 4},  {"8x8x45", 7, 5}};
  for (const auto& [size, table, fanout] : cases) {
    const Topology topo = Topology::parse(std::string("mesh:") + size);
    const int n = topo.nodes();
    const Span3 sp = every_source_3d(size, fanout, {0, n - 1, n / 2, n / 3 + 7, 2 * n / 3 + 1});
    EXPECT_EQ(sp.max, table) << size;
  }
}

TEST(EdnSizes, OtherSizesAreRefusedNamingTheAllowedOnes) {
  for (const char* t : {"mesh:9x9", "mesh:10x5", "mesh:8x4", "mesh:3x3", "mesh:11x11", "mesh:9x9x4", "mesh:8x4x4"}) {
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
