// Cycle-exact tests of the C++ router model, continued (router_model_test.cpp
// has the cycle convention): wormhole ownership, VC interleaving, the
// allocators' round-robin orders, all-port ejection, the fault switch.
#include <gtest/gtest.h>

#include <vector>

#include "systemc/core/flit.h"
#include "systemc/topology/route_function.h"
#include "testbench/systemc/router/router_model_rig.h"

namespace wn {
namespace {

using namespace test;  // the rig: router_model_rig.h

// ---- wormhole, VCs, allocation order -----------------------------------------------------
// Router (0,0) of a 4x4 mesh with `vcs` VCs and two injection channels.
RouterConfig two_inj_config(int vcs) {
  RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {0, 0}, vcs);
  c.inj = 2;
  return c;
}

// Packets A (injection channel 0) and B (channel 1), 4 flits each, both to output 0 (+X); 20 cycles.
void send_a_and_b(Rig& r) {
  const uint32_t dest = pack(r.cfg_, {2, 0});
  r.send(0, packet(dest, 0xA, 4));
  r.send(1, packet(dest, 0xB, 4));
  r.run(20);
}

TEST(RouterModel, WormholeHoldsTheOutputVcNoInterleavingOnOneVc) {
  // Two injection channels, packets A (channel 0) and B (channel 1) to the
  // same output, 1 VC. A wins VA (lower q) at 1, flits at 2..5; its tail
  // frees the VC at edge 5; B is allocated at 6, flits at 7..10.
  Rig r(two_inj_config(1));
  send_a_and_b(r);
  EXPECT_EQ(r.times(0), (std::vector<int>{2, 3, 4, 5, 7, 8, 9, 10}));
  const auto ev = r.on(0);
  ASSERT_EQ(ev.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    const uint32_t msg = i < 4 ? 0xA : 0xB;
    if (i % 4 == 0)
      EXPECT_EQ(flit::msg(ev[size_t(i)].flit), msg);
    else
      EXPECT_EQ(flit::payload(ev[size_t(i)].flit) >> 8, msg);
    EXPECT_EQ(ev[size_t(i)].from_port, kInjBase + (i < 4 ? 0 : 1));
    EXPECT_EQ(flit::vc(ev[size_t(i)].flit), 0);
  }
}

TEST(RouterModel, TwoVcsInterleaveFlitByFlitRoundRobin) {
  // Same with 2 VCs: A gets VC 0 at 1 (one VA grant per output per cycle), B
  // VC 1 at 2. SA: A alone at 2; then the two injection ports alternate
  // (sa_out_ptr <- winner + 1).
  Rig r(two_inj_config(2));
  send_a_and_b(r);
  EXPECT_EQ(r.times(0), range(2, 8));
  const auto ev = r.on(0);
  ASSERT_EQ(ev.size(), 8u);
  const int who[8] = {0, 1, 0, 1, 0, 1, 0, 1};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(ev[size_t(i)].from_port, kInjBase + who[i]) << i;
    EXPECT_EQ(flit::vc(ev[size_t(i)].flit), who[i]) << i;  // A on VC 0, B on VC 1
  }
}

TEST(RouterModel, NextHeadOnAChannelIsAllocatedTheCycleAfterTheTail) {
  // Back-to-back packets on one injection channel: the second head waits in
  // the FIFO, is allocated the cycle after the first tail leaves: one bubble.
  const RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1});
  Rig r(c);
  r.send(0, packet(c.addr, 1, 2));
  r.send(0, packet(c.addr, 2, 2));
  r.run(12);
  EXPECT_EQ(r.times(kEj), (std::vector<int>{2, 3, 5, 6}));
}

TEST(RouterModel, TorusDatelineHopTakesAnUpperVc) {
  // x = k-1 going + crosses the wrap link: class 1, VC V/2 (lowest of [V/2, V-1]).
  RouterConfig c = grid(TopoKind::Torus, {4, 4}, {3, 0}, 4);
  Rig r(c);
  r.send(0, packet(pack(c, {1, 0}), 1, 1));
  r.run(5);
  const auto ev = r.on(0);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].call, 2);
  EXPECT_EQ(flit::vc(ev[0].flit), 2);
}

TEST(RouterModel, EjectionRoundRobinOverInputVcs) {
  // Router (1,1) of a 3x3 mesh, one ejection channel. One-flit packets on
  // inputs 0, 1, 2 (VC 0) at call 0: the channel is granted at 1, 3, 5 in
  // q order 0, 4, 8 (it is freed by each tail at the SA edge).
  const RouterConfig c = grid(TopoKind::Mesh, {3, 3}, {1, 1});
  Rig r(c);
  for (int p : {0, 1, 2}) r.arrive(p, 0, flit::make_head(true, c.addr, 0, 0, uint32_t(p)));
  r.run(10);
  EXPECT_EQ(r.times(kEj), (std::vector<int>{2, 4, 6}));
  std::vector<int> from;
  for (const Event& e : r.on(kEj)) from.push_back(e.from_port);
  EXPECT_EQ(from, (std::vector<int>{0, 1, 2}));
  // ej_ptr is now 9 (after q = 8): inputs 3 (q 12), 0 (q 0), 2 (q 8, VC 0) and
  // 1 on VC 1 (q 5) are served from q 9 on: 12, 0, 5, 8.
  r.events.clear();
  for (int p : {0, 2, 3}) r.arrive(p, 0, flit::make_head(true, c.addr, 0, 0, 0));
  r.arrive(1, 1, flit::make_head(true, c.addr, 0, 0, 0));
  r.run(12);
  from.clear();
  std::vector<int> vcs;
  for (const Event& e : r.on(kEj)) {
    from.push_back(e.from_port);
    vcs.push_back(e.from_vc);
  }
  EXPECT_EQ(from, (std::vector<int>{3, 0, 1, 2}));
  EXPECT_EQ(vcs, (std::vector<int>{0, 0, 1, 0}));
}

TEST(RouterModel, NetworkOutputVcAllocationRoundRobin) {
  // Router (1,1) of a 4x4 mesh, 1 VC. Three one-flit heads to +X arrive at
  // call 0 on inputs 1 (from -X), 2 and 3. Each holds the output VC for one
  // SA: VA at 1, 3, 5 in q order 4, 8, 12.
  const RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1}, 1);
  Rig r(c);
  const uint32_t dest = pack(c, {3, 1});
  for (int p : {3, 2, 1}) r.arrive(p, 0, flit::make_head(true, dest, 0, 0, uint32_t(p)));
  r.run(10);
  std::vector<int> from;
  for (const Event& e : r.on(0)) from.push_back(e.from_port);
  EXPECT_EQ(r.times(0), (std::vector<int>{2, 4, 6}));
  EXPECT_EQ(from, (std::vector<int>{1, 2, 3}));
  // Input 2 alone at call 10 (va_ptr <- 9), then inputs 1 and 3 together at
  // call 14: round robin from q 9 serves input 3 (q 12) before input 1 (q 4).
  r.events.clear();
  r.arrive(2, 0, flit::make_head(true, dest, 0, 0, 2));
  r.run(4);
  for (int p : {1, 3}) r.arrive(p, 0, flit::make_head(true, dest, 0, 0, uint32_t(p)));
  r.run(10);
  from.clear();
  for (const Event& e : r.on(0)) from.push_back(e.from_port);
  EXPECT_EQ(r.times(0), (std::vector<int>{12, 16, 18}));
  EXPECT_EQ(from, (std::vector<int>{2, 3, 1}));
}

TEST(RouterModel, SwitchAllocationInputRoundRobinOverVcs) {
  // Two packets on VCs 0 and 1 of input 1 to two different outputs (+X, +Y):
  // stage 1 picks one VC of the port per cycle, round robin from sa_in_ptr.
  const RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {1, 1}, 2);
  Rig s(c);
  // Call 0: heads on input 1 VC 0 (to +X) and, a call later, VC 1 (to +Y).
  s.arrive(1, 0, flit::make_head(false, pack(c, {3, 1}), 0, 0, 1));
  s.step();
  s.arrive(1, 1, flit::make_head(false, pack(c, {1, 3}), 0, 0, 2));
  s.step();
  s.arrive(1, 0, flit::make_body(false, 1));
  s.step();
  s.arrive(1, 1, flit::make_body(false, 2));
  s.step();
  s.arrive(1, 0, flit::make_body(true, 1));
  s.step();
  s.arrive(1, 1, flit::make_body(true, 2));
  s.run(12);
  // VC 0: VA 1, SA 2 (head). VC 1: VA 2, from 3 both VCs compete: ptr after
  // VC 0's win is 1 -> VC 1 at 3, VC 0 at 4, VC 1 at 5, VC 0 at 6, VC 1 at 7.
  EXPECT_EQ(s.times(0), (std::vector<int>{2, 4, 6}));
  EXPECT_EQ(s.times(2), (std::vector<int>{3, 5, 7}));
}

// ---- ejection channels -------------------------------------------------------------------
TEST(RouterModel, AllPortEjectionIsConcurrentOneChannelSerializes) {
  // Router (1,1) of a 3x3 mesh; four 3-flit packets for it arrive on inputs
  // 0..3 at calls 0..2.
  const int L = 3;
  auto run = [&](int ej) {
    RouterConfig c = grid(TopoKind::Mesh, {3, 3}, {1, 1});
    c.ej = ej;
    auto r = std::make_unique<Rig>(c);
    for (int i = 0; i < L; ++i) {
      for (int p = 0; p < 4; ++p)
        r->arrive(
            p, 0,
            i == 0 ? flit::make_head(false, c.addr, 0, 0, uint32_t(p)) : flit::make_body(i == L - 1, uint64_t(p)));
      r->step();
    }
    r->run(30);
    return r;
  };
  // All-port (4 channels): all four allocated at 1 (channel j to input j in
  // round-robin order), all heads at 2, all tails at 2 + L - 1.
  auto all = run(4);
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(all->times(kEj + j), range(2, L)) << j;
    for (const Event& e : all->on(kEj + j)) EXPECT_EQ(e.from_port, j);
  }
  // One channel: packet k allocated at 1 + (L+1)k, out at 2 + (L+1)k ...
  auto one = run(1);
  std::vector<int> expect;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < L; ++i) expect.push_back(2 + (L + 1) * k + i);
  EXPECT_EQ(one->times(kEj), expect);
  // Two channels (k-port): pairs. Inputs 0, 1 at 2..4; at 5 the channels go
  // to 2 and 3 (ej_ptr = 5 after q 4), out at 6..8.
  auto two = run(2);
  EXPECT_EQ(two->times(kEj + 0), (std::vector<int>{2, 3, 4, 6, 7, 8}));
  EXPECT_EQ(two->times(kEj + 1), (std::vector<int>{2, 3, 4, 6, 7, 8}));
  std::vector<int> from0, from1;
  for (const Event& e : two->on(kEj + 0)) from0.push_back(e.from_port);
  for (const Event& e : two->on(kEj + 1)) from1.push_back(e.from_port);
  EXPECT_EQ(from0, (std::vector<int>{0, 0, 0, 2, 2, 2}));
  EXPECT_EQ(from1, (std::vector<int>{1, 1, 1, 3, 3, 3}));
}

// ---- test-only faults ----------------------------------------------------------------------
// Two models fed the same inputs; returns the first call where their outputs differ, or -1.
int first_divergence(ModelFault fault, const RouterConfig& c, const std::vector<std::vector<uint64_t>>& pkts, int calls,
                     bool no_credits_back = false) {
  Rig good(c), bad(c, fault);
  for (size_t i = 0; i < pkts.size(); ++i) {
    good.send(int(i) % c.inj, pkts[i]);
    bad.send(int(i) % c.inj, pkts[i]);
  }
  for (int k = 0; k < calls; ++k) {
    // Return each network-output flit's credit 2 calls later (a fast downstream).
    if (!no_credits_back && k >= 2)
      for (const Event& e : good.events)
        if (e.call == k - 2 && e.out < kMaxPorts) {
          good.credit(e.out, flit::vc(e.flit));
          bad.credit(e.out, flit::vc(e.flit));
        }
    good.step();
    bad.step();
    const RouterOut &a = good.out, &b = bad.out;
    if (a.out_valid != b.out_valid || a.ej_valid != b.ej_valid || a.in_credit != b.in_credit ||
        a.inj_credit != b.inj_credit || a.busy != b.busy)
      return k;
    for (uint32_t m = a.out_valid; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      if (a.out_flit[o] != b.out_flit[o] || a.from_port[o] != b.from_port[o]) return k;
    }
  }
  return -1;
}

TEST(RouterModel, FaultSwitchMakesADetectableDivergence) {
  // Two packets from two injection channels to output 0 on VCs 0 and 1.
  RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {0, 0}, 2, 8);
  c.inj = 2;
  const uint32_t dest = pack(c, {2, 0});
  const std::vector<std::vector<uint64_t>> pkts = {packet(dest, 1, 6), packet(dest, 2, 6)};
  EXPECT_EQ(first_divergence(ModelFault::None, c, pkts, 40), -1);
  EXPECT_EQ(first_divergence(ModelFault::SwitchSecond, c, pkts, 40),
            3);  // first contended SA (call 3) picks the other input
  // buf = 1: every credit matters. Flit at 2, credit given at 4, usable at 5.
  c.buf = 1;
  EXPECT_EQ(first_divergence(ModelFault::None, c, pkts, 40), -1);
  EXPECT_EQ(first_divergence(ModelFault::CreditLate, c, pkts, 40), 5);  // that credit applied one edge late
  EXPECT_EQ(first_divergence(ModelFault::CreditLost, c, pkts, 40), 5);  // that credit lost
}

}  // namespace
}  // namespace wn
