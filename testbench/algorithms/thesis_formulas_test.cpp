// The EDN thesis's closed forms (Tsai's thesis),
// evaluated by hand here in the network's units (beta L = body flits, a hop's
// beta = 3 cycles), against what runs print as "paper".
#include <gtest/gtest.h>

#include "algorithms/thesis_formulas.h"

namespace wn::alg {
namespace {

CostParams params() {
  CostParams c;
  c.alpha = 10;
  c.gamma = 5;
  return c;
}

TEST(ThesisFormulas, MeshTable53) {
  const Topology m8 = Topology::parse("mesh:8x8");
  // n = 3, L = 64 flits: EDN 3n a + (n+1) g + (2^n-1) bh + (n+1) bL.
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("edn-broadcast", m8, params(), 64)->cycles, 90 + 20 + 21 + 256);
  // RD = dimensional: 2n(a + g + bL) + 2(2^n-1) bh.
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("rd-broadcast", m8, params(), 64)->cycles, 6 * (10 + 5 + 64) + 42);
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("dim-broadcast", m8, params(), 64)->cycles, 6 * (10 + 5 + 64) + 42);
  // SC: 2(2^n-1+n)(a+g) + 6(2^n-1) bh + 2(1-2^-2n) bL.
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("sc-broadcast", m8, params(), 64)->cycles,
                   2 * 10 * 15 + 6 * 7 * 3 + 2 * (1 - 1.0 / 64) * 64);
  // FT with t(P,K) = 8 steps, K = 2: t(a+g) + 2K(2^n-1) bh + t bL / K.
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("ft-broadcast", m8, params(), 64, 2, 8)->cycles,
                   8 * 15 + 4 * 7 * 3 + 8 * 64 / 2.0);
  // Words per flit: L counts body flits.
  CostParams wide = params();
  wide.words_per_flit = 4;
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("edn-broadcast", m8, wide, 64)->cycles, 90 + 20 + 21 + 4 * 16);
}

TEST(ThesisFormulas, TorusEq41AndUTorus) {
  // Eq 4.1, d = 3 (8x8): 3d a + d g + d bL + 2(2^(d+1) - 2 + d mod 2) bh / 3 = ... + 2 * 15 * 3 / 3.
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("edn-broadcast", Topology::parse("torus:8x8"), params(), 32)->cycles,
                   90 + 15 + 96 + 30);
  // d = 4: hop constant 2(32 - 2) / 3 = 20 hop betas (Eq 4.1's hop term).
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("edn-broadcast", Topology::parse("torus:16x16"), params(), 32)->cycles,
                   120 + 20 + 128 + 20 * 3);
  // U-torus on X x Y: (a + bL + g)(ceil log2 X + ceil log2 Y) + bh (X + Y - 2); Eq 4.2 when 2^d x 2^d.
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("rd-broadcast", Topology::parse("torus:8x8"), params(), 32)->cycles,
                   47 * 6 + 3 * 14);
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("rd-broadcast", Topology::parse("torus:6x4"), params(), 32)->cycles,
                   47 * 5 + 3 * 8);
}

// Ch 3's 3D timing on (4*2^k)^2 x (4|5 * 3^m): (3k+2m+10) alpha + (k+m+4) gamma + (k+m+4) beta L
// (64 words = 64 flits of one word).
TEST(ThesisFormulas, Mesh3D) {
  const double bl = 64;
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("edn-broadcast", Topology::parse("mesh:4x4x4"), params(), 64)->cycles,
                   10 * 10 + 4 * 5 + 4 * bl);
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("edn-broadcast", Topology::parse("mesh:8x8x15"), params(), 64)->cycles,
                   15 * 10 + 6 * 5 + 6 * bl);
  EXPECT_DOUBLE_EQ(thesis_broadcast_cost("edn-broadcast", Topology::parse("mesh:16x16x36"), params(), 64)->cycles,
                   20 * 10 + 8 * 5 + 8 * bl);
  for (const char* off : {"mesh:4x4x6", "mesh:12x12x4", "mesh:8x4x4", "mesh:4x4x8"})
    EXPECT_FALSE(thesis_broadcast_cost("edn-broadcast", Topology::parse(off), params(), 64)) << off;
}

TEST(ThesisFormulas, NoneWhereTheThesisGivesNone) {
  EXPECT_FALSE(thesis_broadcast_cost("edn-broadcast", Topology::parse("mesh:6x6"), params(), 8));
  EXPECT_FALSE(thesis_broadcast_cost("rd-broadcast", Topology::parse("cube:4"), params(), 8));
  EXPECT_FALSE(thesis_broadcast_cost("direct-alltoall", Topology::parse("mesh:8x8"), params(), 8));
  EXPECT_FALSE(thesis_broadcast_cost("rd-broadcast", Topology::parse("mesh:4x4x4"), params(), 8));
}

}  // namespace
}  // namespace wn::alg
