// Deadlock freedom of the routing function (docs/guide/check.md): the channel dependency
// graph is acyclic for every topology kind and VC count the network accepts,
// and has a cycle around a ring when a torus runs without its dateline classes.
#include <gtest/gtest.h>

#include "systemc/topology/channel_dependency.h"

namespace wn {
namespace {

DependencyGraph graph(const std::string& topo, int vcs, bool dateline = true) {
  RouterConfig base;
  base.vcs = vcs;
  base.dateline = dateline;
  return channel_dependencies(Topology::parse(topo), base);
}

TEST(ChannelDependency, EveryAcceptedConfigurationIsAcyclic) {
  for (const char* t : {"mesh:4x4", "mesh:5x3", "mesh:3x3x3", "cube:2", "cube:4", "cube:7"})
    for (int vcs : {1, 2, 3, 4}) {
      const auto g = graph(t, vcs);
      EXPECT_TRUE(g.acyclic) << t << " vcs " << vcs << ": " << describe_cycle(Topology::parse(t), g.cycle);
      EXPECT_GT(g.edges, 0u) << t;
    }
  for (const char* t : {"torus:4x4", "torus:5x3", "torus:8x8", "torus:3x3x3", "torus:4x2x5"})
    for (int vcs : {2, 4}) {  // a torus takes an even VC count (network.cpp)
      const auto g = graph(t, vcs);
      EXPECT_TRUE(g.acyclic) << t << " vcs " << vcs << ": " << describe_cycle(Topology::parse(t), g.cycle);
    }
}

// Without the dateline a ring is a cycle: every channel feeds the next router's channel in the
// same direction on the same VC, back to the first.
TEST(ChannelDependency, TorusWithoutDatelineHasARingCycle) {
  for (const char* t : {"torus:8x8", "torus:5x5", "torus:4x4x4"}) {
    const Topology topo = Topology::parse(t);
    const auto g = graph(t, 2, false);
    ASSERT_FALSE(g.acyclic) << t;
    ASSERT_GE(g.cycle.size(), 3u);
    for (size_t i = 0; i < g.cycle.size(); ++i) {
      const auto& a = g.cycle[i];
      const auto& b = g.cycle[(i + 1) % g.cycle.size()];
      EXPECT_EQ(topo.neighbor(a.router, a.port), b.router) << t;  // b starts where a ends
    }
  }
  // Radix 3: no route takes two hops in one dimension, so even without the dateline there is no cycle.
  EXPECT_TRUE(graph("torus:3x3x3", 2, false).acyclic);
  // The dateline rule leaves part of the second class idle (docs/results-other/torus-tornado-saturation.md).
  EXPECT_LT(graph("torus:8x8", 2).channels, graph("torus:8x8", 2, false).channels);
}

}  // namespace
}  // namespace wn
