// Tests of the pure routing function wn::route() (rtl/README.md §3).
#include <gtest/gtest.h>

#include <vector>

#include "systemc/core/router_types.h"
#include "systemc/topology/route_function.h"
#include "testbench/systemc/router/router_config_helpers.h"

namespace wn {
namespace {

using test::bits_for;
using test::cube;
using test::grid;
using test::pack;

// Output port of the route (-1 = eject), from injection.
int out_of(const RouterConfig& cfg, std::vector<int> dest) {
  const Route r = route(cfg, pack(cfg, dest), -1, 0);
  return r.eject ? -1 : r.out;
}

void expect_range(const Route& r, int lo, int hi) {
  EXPECT_FALSE(r.eject);
  EXPECT_EQ(r.vc_lo, lo);
  EXPECT_EQ(r.vc_hi, hi);
}

TEST(RouteFunction, AddressPacking) {
  // k = 5 needs 3 bits, k = 3 needs 2: (c0, c1) -> c0 | c1 << 3.
  const RouterConfig c = grid(TopoKind::Mesh, {5, 3}, {0, 0});
  EXPECT_EQ(c.width[0], 3);
  EXPECT_EQ(c.width[1], 2);
  EXPECT_EQ(pack(c, {4, 2}), 4u | (2u << 3));
}

TEST(RouteFunction, Mesh2DDimensionOrder) {
  const RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1}, 3);
  EXPECT_EQ(out_of(c, {3, 1}), 0);  // +X
  EXPECT_EQ(out_of(c, {0, 1}), 1);  // -X
  EXPECT_EQ(out_of(c, {3, 3}), 0);  // X before Y
  EXPECT_EQ(out_of(c, {0, 0}), 1);
  EXPECT_EQ(out_of(c, {1, 3}), 2);  // +Y once X matches
  EXPECT_EQ(out_of(c, {1, 0}), 3);  // -Y
  EXPECT_EQ(out_of(c, {1, 1}), -1);
  // Mesh: all VCs, from injection and from any network input VC.
  expect_range(route(c, pack(c, {3, 1}), -1, 0), 0, 2);
  expect_range(route(c, pack(c, {1, 3}), 1, 2), 0, 2);
}

TEST(RouteFunction, Mesh3DDimensionOrderXYZ) {
  const RouterConfig c = grid(TopoKind::Mesh, {3, 3, 3}, {1, 1, 1});
  EXPECT_EQ(out_of(c, {2, 0, 0}), 0);
  EXPECT_EQ(out_of(c, {0, 2, 2}), 1);
  EXPECT_EQ(out_of(c, {1, 2, 0}), 2);  // Y before Z
  EXPECT_EQ(out_of(c, {1, 0, 2}), 3);
  EXPECT_EQ(out_of(c, {1, 1, 2}), 4);  // +Z
  EXPECT_EQ(out_of(c, {1, 1, 0}), 5);  // -Z
  EXPECT_EQ(out_of(c, {1, 1, 1}), -1);
}

TEST(RouteFunction, EjectAtDestination) {
  for (TopoKind kind : {TopoKind::Mesh, TopoKind::Torus}) {
    const RouterConfig c = grid(kind, {4, 3, 2}, {3, 2, 1});
    const Route r = route(c, c.addr, 4, 1);  // from a network port too
    EXPECT_TRUE(r.eject);
  }
  EXPECT_TRUE(route(cube(4, 9), 9, 2, 1).eject);
}

TEST(RouteFunction, TorusShortestDirectionTieGoesPlus) {
  RouterConfig c = grid(TopoKind::Torus, {8, 8}, {1, 0});
  EXPECT_EQ(out_of(c, {4, 0}), 0);  // delta 3
  EXPECT_EQ(out_of(c, {5, 0}), 0);  // delta 4 = k/2: tie goes +
  EXPECT_EQ(out_of(c, {6, 0}), 1);  // delta 5 > k/2: -
  EXPECT_EQ(out_of(c, {0, 0}), 1);  // delta 7
  EXPECT_EQ(out_of(c, {1, 4}), 2);  // Y: delta 4 tie, +
  EXPECT_EQ(out_of(c, {1, 5}), 3);
  // Odd k: no tie; delta 2 of 5 is +, delta 3 is -.
  c = grid(TopoKind::Torus, {5, 5}, {0, 0});
  EXPECT_EQ(out_of(c, {2, 0}), 0);
  EXPECT_EQ(out_of(c, {3, 0}), 1);
  c = grid(TopoKind::Torus, {5, 5}, {4, 0});
  EXPECT_EQ(out_of(c, {1, 0}), 0);  // (1-4) mod 5 = 2: + across the wrap
  EXPECT_EQ(out_of(c, {2, 0}), 1);  // delta 3
  // k = 2: delta 1 = k/2, always +.
  c = grid(TopoKind::Torus, {2, 2, 2}, {1, 1, 1});
  EXPECT_EQ(out_of(c, {0, 1, 1}), 0);
  EXPECT_EQ(out_of(c, {1, 1, 0}), 4);
  // 3D torus keeps dimension order.
  c = grid(TopoKind::Torus, {4, 4, 4}, {0, 0, 0});
  EXPECT_EQ(out_of(c, {0, 3, 3}), 3);
  EXPECT_EQ(out_of(c, {0, 0, 3}), 5);
}

TEST(RouteFunction, TorusDatelineWrapHopSwitchesToClass1) {
  // V = 2: class 0 = [0,0], class 1 = [1,1].
  RouterConfig c = grid(TopoKind::Torus, {4, 4}, {3, 0});
  expect_range(route(c, pack(c, {1, 0}), -1, 0), 1, 1);  // + from c = k-1: wrap
  expect_range(route(c, pack(c, {2, 0}), -1, 0), 0, 0);  // - inside: no wrap
  c = grid(TopoKind::Torus, {4, 4}, {0, 0});
  expect_range(route(c, pack(c, {3, 0}), -1, 0), 1, 1);  // - from c = 0: wrap
  expect_range(route(c, pack(c, {1, 0}), -1, 0), 0, 0);
  // V = 4: class 0 = [0,1], class 1 = [2,3].
  c = grid(TopoKind::Torus, {4, 4}, {3, 0}, 4);
  expect_range(route(c, pack(c, {1, 0}), -1, 0), 2, 3);
  expect_range(route(c, pack(c, {2, 0}), -1, 0), 0, 1);
  // Y wrap.
  c = grid(TopoKind::Torus, {4, 4}, {2, 3});
  expect_range(route(c, pack(c, {2, 0}), -1, 0), 1, 1);
}

TEST(RouteFunction, TorusDatelineClassContinuesWithinADimension) {
  // Router at x = 0 after the wrap; input 1 receives +X travellers, input 0 -X ones.
  RouterConfig c = grid(TopoKind::Torus, {8, 8}, {0, 0});
  expect_range(route(c, pack(c, {2, 0}), 1, 1), 1, 1);  // upper-half VC: class continues
  expect_range(route(c, pack(c, {2, 0}), 1, 0), 0, 0);  // lower-half VC: class 0
  expect_range(route(c, pack(c, {2, 0}), 0, 1), 1, 1);  // any port of the same dimension
  // V = 4: upper half is VCs 2, 3.
  c = grid(TopoKind::Torus, {8, 8}, {0, 0}, 4);
  expect_range(route(c, pack(c, {2, 0}), 1, 3), 2, 3);
  expect_range(route(c, pack(c, {2, 0}), 1, 2), 2, 3);
  expect_range(route(c, pack(c, {2, 0}), 1, 1), 0, 1);
}

TEST(RouteFunction, TorusDatelineClassResetsWhenTurning) {
  // Arrived in X on an upper VC, turns into Y: class 0 again ...
  RouterConfig c = grid(TopoKind::Torus, {4, 4}, {0, 1});
  expect_range(route(c, pack(c, {0, 2}), 1, 1), 0, 0);
  // ... unless the first Y hop itself crosses the Y wrap link.
  c = grid(TopoKind::Torus, {4, 4}, {0, 3});
  expect_range(route(c, pack(c, {0, 1}), 1, 1), 1, 1);
  // Y -> Z in 3D, V = 4.
  c = grid(TopoKind::Torus, {4, 4, 4}, {0, 0, 1}, 4);
  expect_range(route(c, pack(c, {0, 0, 2}), 3, 3), 0, 1);  // came in on Y (port 3), turns to Z
  expect_range(route(c, pack(c, {0, 0, 2}), 5, 3), 2, 3);  // came in on Z upper: continues
  // From injection the class is 0 unless this hop wraps.
  expect_range(route(c, pack(c, {0, 0, 2}), -1, 3), 0, 1);
}

TEST(RouteFunction, TorusDatelineDisabledUsesAllVcs) {
  RouterConfig c = grid(TopoKind::Torus, {4, 4}, {3, 0}, 4);
  c.dateline = false;
  expect_range(route(c, pack(c, {1, 0}), -1, 0), 0, 3);  // wrap hop
  expect_range(route(c, pack(c, {1, 0}), 1, 3), 0, 3);
  expect_range(route(c, pack(c, {2, 0}), 1, 1), 0, 3);
  EXPECT_EQ(route(c, pack(c, {1, 0}), -1, 0).out, 0);  // direction unchanged
}

TEST(RouteFunction, CubeECubeLowestDifferingBitFirst) {
  const RouterConfig c = cube(4, 0b0101, 3);
  Route r = route(c, 0b0110, -1, 0);  // diff 0011
  EXPECT_EQ(r.out, 0);
  expect_range(r, 0, 2);                      // all VCs
  EXPECT_EQ(route(c, 0b0111, -1, 0).out, 1);  // diff 0010
  EXPECT_EQ(route(c, 0b0001, -1, 0).out, 2);  // diff 0100
  EXPECT_EQ(route(c, 0b1101, 2, 1).out, 3);   // diff 1000
  EXPECT_EQ(route(c, 0b1010, -1, 0).out, 0);  // diff 1111
  EXPECT_TRUE(route(c, 0b0101, -1, 0).eject);
  const RouterConfig c11 = cube(11, 0x400, 4);
  EXPECT_EQ(route(c11, 0x000, -1, 0).out, 10);
  EXPECT_EQ(route(c11, 0x500, -1, 0).out, 8);
  expect_range(route(c11, 0x500, 3, 3), 0, 3);
}

// Every route of a torus stays minimal and eventually ejects: walk all
// source/destination pairs of a 5x4 torus and a 4x4x2 mesh hop by hop.
TEST(RouteFunction, WalksReachEveryDestinationMinimally) {
  for (TopoKind kind : {TopoKind::Torus, TopoKind::Mesh}) {
    const std::vector<int> k = {5, 4, 2};
    const int n = k[0] * k[1] * k[2];
    for (int s = 0; s < n; ++s)
      for (int d = 0; d < n; ++d) {
        std::vector<int> cs = {s % 5, (s / 5) % 4, s / 20}, cd = {d % 5, (d / 5) % 4, d / 20};
        int minimal = 0;
        for (int i = 0; i < 3; ++i) {
          const int delta = std::abs(cd[size_t(i)] - cs[size_t(i)]);
          minimal += kind == TopoKind::Mesh ? delta : std::min(delta, k[size_t(i)] - delta);
        }
        std::vector<int> at = cs;
        int in_port = -1, in_vc = 0, hops = 0;
        for (;;) {
          const RouterConfig c = grid(kind, k, at);
          const Route r = route(c, pack(c, cd), in_port, in_vc);
          if (r.eject) break;
          ASSERT_LE(r.vc_lo, r.vc_hi);
          const int i = r.out / 2, dir = (r.out & 1) ? -1 : 1;
          at[size_t(i)] += dir;
          if (kind == TopoKind::Torus) at[size_t(i)] = (at[size_t(i)] + k[size_t(i)]) % k[size_t(i)];
          ASSERT_GE(at[size_t(i)], 0);
          ASSERT_LT(at[size_t(i)], k[size_t(i)]);
          in_port = r.out ^ 1;
          in_vc = r.vc_lo;
          ASSERT_LE(++hops, minimal) << "s=" << s << " d=" << d;
        }
        EXPECT_EQ(at, cd);
        EXPECT_EQ(hops, minimal);
      }
  }
}

}  // namespace
}  // namespace wn
