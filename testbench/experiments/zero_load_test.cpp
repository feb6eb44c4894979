// The shipped router's zero-load timing, measured from outside (experiments/zero_load.h): every
// hop distance and packet length fits P·(h+1) + f·(F-1) with P = kShippedTiming.hop_cycles() = 3 and f = 1, on the
// model and on the verilated RTL, on a mesh, a torus and a hypercube.
#include <gtest/gtest.h>

#include "experiments/zero_load.h"
#include "systemc/core/router_types.h"

namespace wn {
namespace {

void expect_shipped_timing(const char* topology, Backend backend, int inj) {
  const Topology topo = Topology::parse(topology);
  NetworkParams p;
  p.backend = backend;
  p.inj = p.ej = inj;
  const ZeroLoadTiming t = measure_zero_load(topo, p);
  ASSERT_TRUE(t.error.empty()) << t.error;
  EXPECT_TRUE(t.consistent) << t.mismatch;
  EXPECT_EQ(t.hop_cycles, kShippedTiming.hop_cycles());
  EXPECT_EQ(t.flit_cycles, 1);
  EXPECT_GE(t.samples.size(), 3u * 2u);  // at least two distances, three lengths each
  for (const auto& s : t.samples) EXPECT_EQ(s.latency, uint64_t(3 * (s.hops + 1) + s.flits - 1)) << s.dst;
}

TEST(ZeroLoad, ShippedRouterMeshModel) { expect_shipped_timing("mesh:5x4", Backend::Model, 1); }
TEST(ZeroLoad, ShippedRouterTorusRtlAllPorts) { expect_shipped_timing("torus:4x4", Backend::Rtl, 4); }
TEST(ZeroLoad, ShippedRouterCubeRtl) { expect_shipped_timing("cube:4", Backend::Rtl, 1); }

}  // namespace
}  // namespace wn
