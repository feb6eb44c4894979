// Cycle-exact tests of the C++ router model (rtl/README.md §4, §5), on one
// router and on small chains of model routers wired by hand.
//
// Cycle convention: call k of cycle() is rising edge k; inputs given to call k
// are sampled at edge k; `out` after call k is what the router drives during
// cycle k+1. So a flit "on the wire in cycle T" (README §5) is in `out` after
// call T-1. All times below are call indices.
#include <gtest/gtest.h>

#include <array>
#include <deque>
#include <memory>
#include <vector>

#include "systemc/core/flit.h"
#include "testbench/systemc/router/router_config_helpers.h"
#include "systemc/topology/route_function.h"
#include "systemc/router/model/router_model.h"

namespace wn {
namespace {

constexpr int kEj = 100;  // event output code for ejection channel j: kEj + j

using test::bits_for;
using test::cube;
using test::grid;
using test::pack;

// Packet of L flits: head (msg id) then bodies whose payload is (msg << 8 | index).
std::vector<uint64_t> packet(uint32_t dest, uint32_t msg, int L) {
  std::vector<uint64_t> p;
  p.push_back(flit::make_head(L == 1, dest, 0, 0, msg));
  for (int i = 1; i < L; ++i) p.push_back(flit::make_body(i == L - 1, (uint64_t(msg) << 8) | uint64_t(i)));
  return p;
}

struct Event {
  int call;
  int out;  // network output o, or kEj + j
  uint64_t flit;
  int from_port, from_vc;
};

// One model router with an NI per injection channel that sends queued flits
// as injection credits allow, and a recorder of every output event.
class Rig {
 public:
  explicit Rig(const RouterConfig& cfg, int fault = 0) : cfg_(cfg) {
    r_.set_fault(fault);
    r_.reset(cfg);
    icred_.fill(cfg.buf);
  }
  void send(int ch, const std::vector<uint64_t>& flits) {
    for (uint64_t f : flits) q_[size_t(ch)].push_back(f);
  }
  void arrive(int port, int vc, uint64_t f) {  // on a network input, at the next step
    in_.in_valid |= 1u << port;
    in_.in_flit[port] = flit::with_vc(f, unsigned(vc));
  }
  void credit(int o, int vc) {
    in_.out_credit |= 1u << o;
    in_.out_credit_vc[o] = uint8_t(vc);
  }
  void step() {
    for (int ch = 0; ch < cfg_.inj; ++ch)
      if (!q_[size_t(ch)].empty() && icred_[size_t(ch)] > 0) {
        in_.inj_valid |= 1u << ch;
        in_.inj_flit[ch] = q_[size_t(ch)].front();
        q_[size_t(ch)].pop_front();
        --icred_[size_t(ch)];
      }
    r_.cycle(in_, out);
    in_ = RouterIn{};
    for (uint32_t m = out.inj_credit; m; m &= m - 1) ++icred_[size_t(__builtin_ctz(m))];
    for (uint32_t m = out.out_valid; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      events.push_back({t, o, out.out_flit[o], out.from_port[o], out.from_vc[o]});
    }
    for (uint32_t m = out.ej_valid; m; m &= m - 1) {
      const int j = __builtin_ctz(m);
      events.push_back({t, kEj + j, out.ej_flit[j], out.from_port[kMaxPorts + j], out.from_vc[kMaxPorts + j]});
    }
    ++t;
  }
  void run(int n) {
    for (int i = 0; i < n; ++i) step();
  }
  // Calls at which output `o` carried a flit.
  std::vector<int> times(int o) const {
    std::vector<int> v;
    for (const Event& e : events)
      if (e.out == o) v.push_back(e.call);
    return v;
  }
  std::vector<Event> on(int o) const {
    std::vector<Event> v;
    for (const Event& e : events)
      if (e.out == o) v.push_back(e);
    return v;
  }

  RouterConfig cfg_;
  RouterModel r_;
  RouterIn in_;
  RouterOut out;
  std::array<std::deque<uint64_t>, kMaxPorts> q_;
  std::array<int, kMaxPorts> icred_{};
  std::vector<Event> events;
  int t = 0;  // calls made so far
};

// n model routers in a row (mesh n x 1): router x output 0 (+X) feeds router
// x+1 input 1, output 1 (-X) feeds router x-1 input 0; credits flow back.
class Chain {
 public:
  explicit Chain(int n, int vcs = 2, int buf = 8) {
    for (int x = 0; x < n; ++x) rigs_.push_back(std::make_unique<Rig>(grid(TopoKind::Mesh, {n, 1}, {x, 0}, vcs, buf)));
  }
  Rig& at(int x) { return *rigs_[size_t(x)]; }
  uint32_t addr(int x) const { return rigs_[size_t(x)]->cfg_.addr; }
  void step() {
    for (auto& r : rigs_) r->step();
    const int n = int(rigs_.size());
    for (int x = 0; x < n; ++x) {
      const RouterOut& o = rigs_[size_t(x)]->out;
      auto link = [&](int out_port, int nb, int in_port) {
        if (o.out_valid >> out_port & 1) {
          rigs_[size_t(nb)]->in_.in_valid |= 1u << in_port;
          rigs_[size_t(nb)]->in_.in_flit[in_port] = o.out_flit[out_port];
        }
      };
      if (x + 1 < n) link(0, x + 1, 1);
      if (x > 0) link(1, x - 1, 0);
      // Credit for input p goes to the router feeding it, on its output p ^ 1.
      if ((o.in_credit & 2u) && x > 0) rigs_[size_t(x - 1)]->credit(0, o.in_credit_vc[1]);
      if ((o.in_credit & 1u) && x + 1 < n) rigs_[size_t(x + 1)]->credit(1, o.in_credit_vc[0]);
    }
  }
  void run(int n) {
    for (int i = 0; i < n; ++i) step();
  }

 private:
  std::vector<std::unique_ptr<Rig>> rigs_;
};

std::vector<int> range(int from, int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(from + i);
  return v;
}

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
  ASSERT_EQ(r.out.out_valid, 1u);  // output 0 (+X) after call 6
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
    EXPECT_EQ(ch.at(0).times(0), range(t0 + 2, L));      // R0 output +X
    EXPECT_EQ(ch.at(1).times(kEj), range(t0 + 5, L));    // R1 ejection
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

// ---- wormhole, VCs, allocation order -----------------------------------------------------
TEST(RouterModel, WormholeHoldsTheOutputVcNoInterleavingOnOneVc) {
  // Two injection channels, packets A (channel 0) and B (channel 1) to the
  // same output, 1 VC. A wins VA (lower q) at 1, flits at 2..5; its tail
  // frees the VC at edge 5; B is allocated at 6, flits at 7..10.
  RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {0, 0}, 1);
  c.inj = 2;
  Rig r(c);
  const uint32_t dest = pack(c, {2, 0});
  r.send(0, packet(dest, 0xA, 4));
  r.send(1, packet(dest, 0xB, 4));
  r.run(20);
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
  RouterConfig c = grid(TopoKind::Mesh, {4, 4}, {0, 0}, 2);
  c.inj = 2;
  Rig r(c);
  const uint32_t dest = pack(c, {2, 0});
  r.send(0, packet(dest, 0xA, 4));
  r.send(1, packet(dest, 0xB, 4));
  r.run(20);
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
        r->arrive(p, 0, i == 0 ? flit::make_head(false, c.addr, 0, 0, uint32_t(p))
                               : flit::make_body(i == L - 1, uint64_t(p)));
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
int first_divergence(int fault, const RouterConfig& c, const std::vector<std::vector<uint64_t>>& pkts, int calls,
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
  EXPECT_EQ(first_divergence(0, c, pkts, 40), -1);
  EXPECT_EQ(first_divergence(2, c, pkts, 40), 3);  // first contended SA (call 3) picks the other input
  // buf = 1: every credit matters. Flit at 2, credit given at 4, usable at 5.
  c.buf = 1;
  EXPECT_EQ(first_divergence(0, c, pkts, 40), -1);
  EXPECT_EQ(first_divergence(1, c, pkts, 40), 5);  // that credit applied one edge late
  EXPECT_EQ(first_divergence(3, c, pkts, 40), 5);  // that credit lost
}

}  // namespace
}  // namespace wn
