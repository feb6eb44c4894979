// Single-router tests, continued: wormhole ownership, fairness, ejection channels and the
// widest header fields (rtl/README.md §1, §4-§5); the cycle convention is in router_unit_test.cpp.
#include "testbench/systemc/router/router_unit_harness.h"

namespace wn::router_test {
namespace {

// ---- wormhole ------------------------------------------------------------------------------
TEST_P(RouterUnitTest, WormholeHoldsTheOnlyVcUntilTheTail) {
  RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1}, 1);
  c.inj = 2;
  start(c);
  const uint32_t d = pack(c, {3, 1});
  const int L = 4;
  struct Seen {
    int t;
    uint64_t f;
    int from;
  };
  std::vector<Seen> seen;
  for (int i = 0; i < 30; ++i) {
    if (i < L) {
      inject(0, i == 0 ? flit::make_head(false, d, 0, 0, 1) : flit::make_body(i == L - 1, 0x100 + i));
      inject(1, i == 0 ? flit::make_head(false, d, 0, 0, 2) : flit::make_body(i == L - 1, 0x200 + i));
    }
    step();
    if (out_valid(0)) seen.push_back({t_ - 1, out_.out_flit[0], out_.from_port[0]});
  }
  ASSERT_EQ(seen.size(), size_t(2 * L));
  // Injection 0 (q = P*VMAX) wins VA first; injection 1 waits for the tail.
  const std::vector<int> times = {2, 3, 4, 5, 7, 8, 9, 10};  // tail at 5 frees the VC, VA at 6
  for (size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].t, times[k]) << k;
    EXPECT_EQ(seen[k].from, kInjBase + (k < size_t(L) ? 0 : 1)) << k;
    EXPECT_EQ(flit::vc(seen[k].f), 0);
  }
  EXPECT_EQ(flit::msg(seen[0].f), 1u);
  EXPECT_EQ(flit::msg(seen[L].f), 2u);
}

TEST_P(RouterUnitTest, NoInterleavingWithinOneVc) {
  // Two VCs: two packets share the physical output flit by flit, but each
  // output VC carries one packet contiguously.
  RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1}, 2);
  c.inj = 3;
  start(c);
  const uint32_t d = pack(c, {3, 1});
  const int L = 5;
  std::vector<std::vector<uint64_t>> per_vc(2);
  for (int i = 0; i < 60; ++i) {
    if (i < L)
      for (int ch = 0; ch < 3; ++ch)
        inject(ch, i == 0 ? flit::make_head(false, d, 0, 0, 10 + ch) : flit::make_body(i == L - 1, (ch << 8) | i));
    if (out_valid(0)) credit(0, flit::vc(out_.out_flit[0]));  // downstream drains at once
    step();
    if (out_valid(0)) per_vc[flit::vc(out_.out_flit[0])].push_back(out_.out_flit[0]);
  }
  ASSERT_EQ(per_vc[0].size() + per_vc[1].size(), size_t(3 * L));
  for (auto& seq : per_vc) {
    ASSERT_EQ(seq.size() % L, 0u);
    for (size_t k = 0; k < seq.size(); k += L) {
      EXPECT_TRUE(flit::is_head(seq[k]));
      const uint32_t ch = flit::msg(seq[k]) - 10;
      for (int f = 1; f < L; ++f) {
        EXPECT_FALSE(flit::is_head(seq[k + f]));
        EXPECT_EQ(flit::payload(seq[k + f]) >> 8, ch) << "flit of another packet inside a worm";
        EXPECT_EQ(flit::is_tail(seq[k + f]), f == L - 1);
      }
    }
  }
}

// ---- fairness --------------------------------------------------------------------------------
TEST_P(RouterUnitTest, RoundRobinAcrossInputsForOneOutput) {
  // Three injection channels keep sending 2-flit packets to +X over one VC:
  // packets are served inj0, inj1, inj2, inj0, ...
  RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1}, 1, 16);
  c.inj = 3;
  start(c);
  const uint32_t d = pack(c, {3, 1});
  int next[3] = {0, 0, 0};
  int credits[3] = {16, 16, 16};
  std::vector<int> heads;
  for (int i = 0; i < 80; ++i) {
    for (int ch = 0; ch < 3; ++ch) {
      if (credits[ch] == 0) continue;
      inject(ch, next[ch] % 2 == 0 ? flit::make_head(false, d, 0, 0, uint32_t(ch)) : flit::make_body(true, 0));
      ++next[ch];
      --credits[ch];
    }
    if (out_valid(0)) credit(0, 0);  // downstream drains at once
    step();
    for (int ch = 0; ch < 3; ++ch) credits[ch] += (out_.inj_credit >> ch) & 1;
    if (out_valid(0) && flit::is_head(out_.out_flit[0])) heads.push_back(out_.from_port[0] - kInjBase);
  }
  ASSERT_GE(heads.size(), 9u);
  for (size_t k = 0; k < heads.size(); ++k) EXPECT_EQ(heads[k], int(k % 3)) << k;
}

TEST_P(RouterUnitTest, RoundRobinAcrossNetworkInputs) {
  // Heads on network inputs 0, 2, 3 (VC 0) all to -X (output 1), one VC:
  // served in input order 0, 2, 3 and then again from 0.
  const RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {2, 1}, 1, 16);
  start(c);
  const uint32_t d = pack(c, {0, 1});
  for (int rep = 0; rep < 2; ++rep)
    for (int p : {3, 2, 0}) {
      arrive(p, 0, flit::make_head(true, d, 0, 0, uint32_t(10 * rep + p)));
      if (p == 0) step();
    }
  std::vector<int> from;
  for (int i = 0; i < 30; ++i) {
    step();
    if (out_valid(1)) from.push_back(out_.from_port[1]);
  }
  // Arrival is spread over calls 0..1; the order is fixed by va_ptr / sa pointers.
  EXPECT_EQ(from, (std::vector<int>{0, 2, 3, 0, 2, 3}));
}

// ---- ejection ----------------------------------------------------------------------------------
TEST_P(RouterUnitTest, AllPortEjectionIsConcurrent) {
  RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1});
  c.inj = c.ej = 4;
  start(c);
  const int L = 3;
  for (int i = 0; i < L; ++i) {
    for (int ch = 0; ch < 4; ++ch)
      inject(ch, i == 0 ? flit::make_head(false, c.addr, 0, 0, uint32_t(ch)) : flit::make_body(i == L - 1, 0));
    step();
  }
  EXPECT_EQ(out_.ej_valid, 0xfu);  // after call 2: all four heads on four channels
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(flit::msg(out_.ej_flit[j]), uint32_t(j));  // ej_ptr = 0: injection j gets channel j
    EXPECT_EQ(out_.from_port[kMaxPorts + j], kInjBase + j);
  }
  step();
  step();
  EXPECT_EQ(out_.ej_valid, 0xfu);  // tails after call 4
  step();
  EXPECT_EQ(out_.ej_valid, 0u);
}

TEST_P(RouterUnitTest, OneEjectionChannelSerializes) {
  RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1});
  c.inj = 4;
  c.ej = 1;
  start(c);
  const int L = 3;
  std::vector<int> heads, from;
  for (int i = 0; i < 30; ++i) {
    if (i < L)
      for (int ch = 0; ch < 4; ++ch)
        inject(ch, i == 0 ? flit::make_head(false, c.addr, 0, 0, uint32_t(ch)) : flit::make_body(i == L - 1, 0));
    step();
    EXPECT_LE(__builtin_popcount(out_.ej_valid), 1);
    if (ej_valid(0) && flit::is_head(out_.ej_flit[0])) {
      heads.push_back(t_ - 1);
      from.push_back(out_.from_port[kMaxPorts] - kInjBase);
    }
  }
  // Tail switched at t frees the channel at the edge; next VA at t+1, SA at t+2.
  EXPECT_EQ(heads, (std::vector<int>{2, 6, 10, 14}));
  EXPECT_EQ(from, (std::vector<int>{0, 1, 2, 3}));
}

TEST_P(RouterUnitTest, KPortEjectionUsesOnlyConfiguredChannels) {
  RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1});
  c.inj = 4;
  c.ej = 2;
  start(c);
  for (int ch = 0; ch < 4; ++ch) inject(ch, flit::make_head(true, c.addr, 0, 0, uint32_t(ch)));
  step();
  step();
  step();
  EXPECT_EQ(out_.ej_valid, 0x3u);
  EXPECT_EQ(flit::msg(out_.ej_flit[0]), 0u);
  EXPECT_EQ(flit::msg(out_.ej_flit[1]), 1u);
  step();
  EXPECT_EQ(out_.ej_valid, 0u);  // channels freed at the tail edge, re-allocated this cycle
  step();
  EXPECT_EQ(out_.ej_valid, 0x3u);
  EXPECT_EQ(flit::msg(out_.ej_flit[0]), 2u);
  EXPECT_EQ(flit::msg(out_.ej_flit[1]), 3u);
}

TEST_P(RouterUnitTest, IdleRouterIsNotBusy) {
  const RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1});
  start(c);
  step();
  EXPECT_FALSE(out_.busy);
  EXPECT_EQ(out_.out_valid | out_.ej_valid | out_.in_credit | out_.inj_credit, 0u);
}

// ---- header fields at their widest (rtl/README.md §1: dest/src 14, step 8, msg 24 bits) ----
// A head through one router, out of `port` (or ejected when port < 0): every
// header bit arrives as sent, on the RTL exactly as on the model.
TEST_P(RouterUnitTest, WidestHeaderFieldsRoundTrip) {
  constexpr uint32_t kMaxAddr = (1u << pkg::flit_dest_width_gp) - 1, kMaxStep = (1u << pkg::flit_step_width_gp) - 1;
  constexpr uint32_t kMaxMsg = (1u << pkg::flit_msg_width_gp) - 1;
  static_assert(kMaxAddr == 16383 && kMaxMsg == (1u << 24) - 1, "the layout of rtl/README.md §1 (rtl/wn_pkg.sv)");
  struct Case {
    RouterConfig cfg;
    uint32_t dest, src, step, msg;
    int out;  // network output, or kEj + 0
  };
  const RouterConfig mesh = grid(TopoKind::Mesh, {128, 128}, {127, 127});
  const RouterConfig torus = grid(TopoKind::Torus, {128, 128}, {0, 0});
  const std::vector<Case> cases = {
      // cube:14: the highest address ejects at itself; bit 13 (port 13, the radix-14 router's last) routes
      {cube(14, kMaxAddr), kMaxAddr, kMaxAddr, kMaxStep, kMaxMsg, kEj},
      {cube(14, 0x1fff), kMaxAddr, 0, 0, kMaxMsg, 13},
      {cube(14, kMaxAddr), 0x1fff, kMaxAddr, kMaxStep, 0x0aaaaaa, 13},
      {cube(14, 0), 0x2000 | 0x1, 0x1555, 0x55, 0x555555, 0},
      // 128x128: coordinates 7+7 bits; (127, 127) = 16383
      {mesh, kMaxAddr, kMaxAddr, kMaxStep, kMaxMsg, kEj},
      {mesh, pack(mesh, {127, 0}), kMaxAddr, 1, kMaxMsg - 1, 3},       // -Y
      {mesh, pack(mesh, {0, 127}), 1, kMaxStep, 1, 1},                 // -X
      {torus, pack(torus, {127, 0}), kMaxAddr, kMaxStep, kMaxMsg, 1},  // wrap -X
      {torus, pack(torus, {0, 64}), kMaxAddr, kMaxStep, kMaxMsg, 2},   // tie k/2 goes +Y
      {torus, pack(torus, {0, 65}), 0, 0, kMaxMsg, 3},
  };
  for (const Case& k : cases) {
    start(k.cfg);
    const uint64_t f = flit::make_head(true, k.dest, k.src, k.step, k.msg);
    ASSERT_EQ(flit::dest(f), k.dest);
    ASSERT_EQ(flit::src(f), k.src);
    ASSERT_EQ(flit::step(f), k.step);
    ASSERT_EQ(flit::msg(f), k.msg);
    inject(0, f);
    uint64_t got = 0;
    int out = -1;
    for (int c = 0; c < 12 && out < 0; ++c) {
      step();
      for (int o = 0; o < k.cfg.ports; ++o)
        if (out_valid(o)) out = o, got = out_.out_flit[o];
      if (ej_valid(0)) out = kEj, got = out_.ej_flit[0];
    }
    SCOPED_TRACE(::testing::Message() << "dest " << k.dest << " at router " << k.cfg.addr);
    EXPECT_EQ(out, k.out);
    EXPECT_EQ(got, flit::with_vc(f, flit::vc(got))) << "only the vc field may change";
    EXPECT_EQ(flit::dest(got), k.dest);
    EXPECT_EQ(flit::src(got), k.src);
    EXPECT_EQ(flit::step(got), k.step);
    EXPECT_EQ(flit::msg(got), k.msg);
  }
}

TEST(RtlRadix, SmallestVerilatedRadixThatFits) {
  EXPECT_EQ(rtl_radix_for(1), 4);
  EXPECT_EQ(rtl_radix_for(4), 4);
  EXPECT_EQ(rtl_radix_for(5), 6);
  EXPECT_EQ(rtl_radix_for(6), 6);
  EXPECT_EQ(rtl_radix_for(7), 8);
  EXPECT_EQ(rtl_radix_for(8), 8);
  EXPECT_EQ(rtl_radix_for(9), 12);
  EXPECT_EQ(rtl_radix_for(11), 12);
  EXPECT_EQ(rtl_radix_for(12), 12);
}

INSTANTIATE_TEST_SUITE_P(Backends, RouterUnitTest, ::testing::ValuesIn(backends()),
                         [](const ::testing::TestParamInfo<BackendEntry>& info) { return info.param.name; });

}  // namespace
}  // namespace wn::router_test
