// Cycle-exact tests of the C++ router model (rtl/README.md §4, §5), on one
// router and on small chains of model routers wired by hand.
//
// Cycle convention: call k of cycle() is rising edge k; inputs given to call k
// are sampled at edge k; `out` after call k is what the router drives during
// cycle k+1. So a flit "on the wire in cycle T" (README §5) is in `out` after
// call T-1. All times below are call indices.
#include <gtest/gtest.h>

#include <vector>

#include "systemc/core/flit.h"
#include "systemc/topology/route_function.h"
#include "testbench/systemc/router/router_model_rig.h"

namespace wn {
namespace {

using namespace test;  // the rig: router_model_rig.h

// ---- basics ---------------------------------------------------------------------------
TEST(RouterModel, BackendNameAndFactory) {
  auto m = make_model_router();
  EXPECT_STREQ(m->backend_name(), "model");
  EXPECT_NE(dynamic_cast<RouterModel*>(m.get()), nullptr);
}

TEST(RouterModel, IdleRouterIsNotBusyAndDrivesNothing) {
  Rig r(grid(TopoKind::Mesh, {4, 4}, {1, 1}));
  r.out.out_valid = r.out.ej_valid = r.out.in_credit = r.out.inj_credit = ~0u;  // garbage from the caller
  r.out.busy = true;
  r.step();
  EXPECT_EQ(r.out.out_valid, 0u);
  EXPECT_EQ(r.out.ej_valid, 0u);
  EXPECT_EQ(r.out.in_credit, 0u);
  EXPECT_EQ(r.out.inj_credit, 0u);
  EXPECT_FALSE(r.out.busy);
  // A credit arriving alone changes a counter but leaves nothing to do.
  r.credit(0, 0);
  r.step();
  EXPECT_FALSE(r.out.busy);
}

// ---- zero-load timing (§5) -----------------------------------------------------------------
TEST(RouterModel, InjectToEjectThreeCyclesThenOneFlitPerCycle) {
  // h = 0: head injected at call t is in `out` after call t+2 (on the wire in
  // cycle t+3 = t0 + 3(h+1)); the tail L-1 calls later.
  const RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {2, 1});
  for (int L : {1, 2, 5, 8}) {
    Rig r(c);
    r.run(3);  // idle calls 0..2; the first flit goes in with call 3
    r.send(0, packet(c.addr, 77, L));
    r.run(L + 8);
    const int t0 = 3;
    EXPECT_EQ(r.times(kEj), range(t0 + 2, L)) << "L=" << L;
    const auto ev = r.on(kEj);
    ASSERT_EQ(int(ev.size()), L);
    EXPECT_EQ(flit::msg(ev[0].flit), 77u);
    EXPECT_TRUE(flit::is_head(ev[0].flit));
    EXPECT_TRUE(flit::is_tail(ev.back().flit));
    for (const Event& e : ev) {
      EXPECT_EQ(flit::vc(e.flit), 0);  // ejected flits carry vc 0
      EXPECT_EQ(e.from_port, kInjBase + 0);
      EXPECT_EQ(e.from_vc, 0);
    }
    EXPECT_FALSE(r.out.busy);
  }
}

TEST(RouterModel, HeadOnNetworkInputLeavesThreeCyclesLater) {
  // Arrives on input 1 (from -X) in VC 1 at call 4; VA at 5; SA at 6.
  const RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1});
  Rig r(c);
  r.run(4);
  r.arrive(1, 1, flit::make_head(true, pack(c, {3, 1}), 0, 0, 9));
  r.step();
  EXPECT_EQ(r.out.in_credit, 0u);
  r.step();
  EXPECT_EQ(r.out.out_valid, 0u);  // allocated, does not move yet
  EXPECT_TRUE(r.out.busy);
  r.step();
  ASSERT_EQ(r.out.out_valid, 1u);             // output 0 (+X) after call 6
  EXPECT_EQ(flit::vc(r.out.out_flit[0]), 0);  // lowest free VC of [0, V-1]
  EXPECT_EQ(flit::msg(r.out.out_flit[0]), 9u);
  EXPECT_EQ(r.out.from_port[0], 1);
  EXPECT_EQ(r.out.from_vc[0], 1);
  EXPECT_EQ(r.out.in_credit, 2u);  // credit for (input 1, VC 1), same edge
  EXPECT_EQ(r.out.in_credit_vc[1], 1);
  EXPECT_TRUE(r.out.busy);  // output and credit registers valid
  r.step();
  EXPECT_FALSE(r.out.busy);
}

TEST(RouterModel, OneHopBetweenTwoRoutersWiredByHand) {
  // h = 1: head at R1's ejection after call t + 3*2 - 1, tail L-1 later.
  for (int L : {1, 4}) {
    Chain ch(2);
    ch.run(2);
    ch.at(0).send(0, packet(ch.addr(1), 5, L));  // goes in with call 2
    ch.run(L + 12);
    const int t0 = 2;
    EXPECT_EQ(ch.at(0).times(0), range(t0 + 2, L));    // R0 output +X
    EXPECT_EQ(ch.at(1).times(kEj), range(t0 + 5, L));  // R1 ejection
    const auto ev = ch.at(1).on(kEj);
    ASSERT_EQ(int(ev.size()), L);
    EXPECT_EQ(ev[0].from_port, 1);  // arrived on input 1 (from -X)
    EXPECT_EQ(ev[0].from_vc, 0);
    EXPECT_EQ(flit::msg(ev[0].flit), 5u);
    EXPECT_FALSE(ch.at(0).out.busy);
    EXPECT_FALSE(ch.at(1).out.busy);
  }
}

TEST(RouterModel, ThreeHopsFollowTheZeroLoadFormula) {
  // T = t0 + 3(h+1) + L - 1 with cfg_buf >= 5 (see the buf = 4 test below).
  const int L = 6, h = 3;
  Chain ch(h + 1, 2, 8);
  ch.at(0).send(0, packet(ch.addr(h), 1, L));  // call 0
  ch.run(40);
  EXPECT_EQ(ch.at(h).times(kEj), range(3 * (h + 1) - 1, L));
  // The same backwards (-X).
  Chain back(h + 1, 2, 8);
  back.at(h).send(0, packet(back.addr(0), 2, L));
  back.run(40);
  EXPECT_EQ(back.at(0).times(kEj), range(3 * (h + 1) - 1, L));
  EXPECT_EQ(back.at(h).times(1), range(2, L));
}

// ---- credits (§4.2, §4.3, §5) -------------------------------------------------------------
TEST(RouterModel, WithoutCreditsExactlyBufFlitsLeaveAnOutputVc) {
  for (int B : {1, 3, 8}) {
    const RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {0, 0}, 1, B);
    Rig r(c);
    r.send(0, packet(pack(c, {3, 0}), 1, 12));
    r.run(40);
    EXPECT_EQ(r.times(0), range(2, B)) << "B=" << B;
    EXPECT_TRUE(r.out.busy);
    // Each credit returned at call k makes one more flit leave after call k+1.
    r.credit(0, 0);
    r.step();  // call 40
    r.run(5);
    r.credit(0, 0);
    r.step();  // call 46
    r.run(5);
    std::vector<int> expect = range(2, B);
    expect.push_back(41);
    expect.push_back(47);
    EXPECT_EQ(r.times(0), expect) << "B=" << B;
  }
}

TEST(RouterModel, SameEdgeCreditAndSendCancel) {
  // buf = 2: flits at 2 and 3 spend both credits. A credit given to call 3,
  // the edge of the second decrement, is counted at that edge: the third
  // flit (at the front at 4) goes at 4. Without it, nothing more leaves.
  const RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {0, 0}, 1, 2);
  for (bool give : {false, true}) {
    Rig r(c);
    r.send(0, packet(pack(c, {3, 0}), 1, 4));
    r.run(3);
    if (give) r.credit(0, 0);
    r.step();  // call 3
    r.run(8);
    EXPECT_EQ(r.times(0), give ? (std::vector<int>{2, 3, 4}) : (std::vector<int>{2, 3}));
  }
}

TEST(RouterModel, CreditRoundTripIsFourCyclesBuf2StreamsAtHalfRate) {
  // R0 -> R1, buf = 2, long packet. R0 sends flits 0, 1 at a, a+1. R1's head
  // spends a cycle in VA, so its credit is usable at R0 at a+5 (round trip 4
  // plus the VA cycle); after that every credit comes back 4 cycles after
  // the send it pays for: 2 flits per 4 cycles.
  const int L = 14;
  Chain ch(2, 1, 2);
  ch.at(0).send(0, packet(ch.addr(1), 3, L));
  ch.run(60);
  const int a = 2;
  std::vector<int> expect = {a, a + 1};
  for (int k = 2; k < L; ++k) expect.push_back(a + 5 + 4 * ((k - 2) / 2) + (k - 2) % 2);
  EXPECT_EQ(ch.at(0).times(0), expect);
  // R1 switches the head 3 cycles after R0 did (VA), flit 1 right behind
  // it, and every later flit 2 cycles after R0 (VC already allocated).
  std::vector<int> ej;
  for (size_t k = 0; k < expect.size(); ++k) ej.push_back(expect[k] + (k < 2 ? 3 : 2));
  EXPECT_EQ(ch.at(1).times(kEj), ej);
}

TEST(RouterModel, CreditRoundTripBuf4HasOneHeadBubbleBuf5None) {
  // README §5 says the zero-load formula holds for cfg_buf >= 4. By the §4
  // rules the downstream head's VA cycle delays the first credit by one, so
  // with buf = 4 a packet longer than 4 flits has one bubble per hop; buf >= 5
  // streams without any.
  const int L = 10;
  {
    Chain ch(2, 1, 4);
    ch.at(0).send(0, packet(ch.addr(1), 3, L));
    ch.run(40);
    std::vector<int> expect = range(2, 4);
    for (int k = 4; k < L; ++k) expect.push_back(3 + k);
    EXPECT_EQ(ch.at(0).times(0), expect);
  }
  {
    Chain ch(2, 1, 5);
    ch.at(0).send(0, packet(ch.addr(1), 3, L));
    ch.run(40);
    EXPECT_EQ(ch.at(0).times(0), range(2, L));
    EXPECT_EQ(ch.at(1).times(kEj), range(5, L));
  }
}

}  // namespace
}  // namespace wn
