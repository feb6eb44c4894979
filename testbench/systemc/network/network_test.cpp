// Network-level co-simulation tests: every topology x port model x VC count
// under random traffic (scoreboard: zero loss, zero duplicates, in order,
// intact), zero-load latency, dateline deadlock, one-port vs all-port.
// Each TEST runs in its own process (ctest), since SystemC elaborates once.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "experiments/isolated_run.h"
#include "experiments/traffic_run.h"
#include "systemc/cosim/packet_run.h"
#include "systemc/router/lockstep/lockstep_router.h"

namespace wn {
namespace {

Backend test_backend() {
  // Lock-step runs the RTL and the model together: every network test is
  // also an RTL-vs-model equivalence check. WN_TEST_BACKEND overrides.
  const char* b = std::getenv("WN_TEST_BACKEND");
  return parse_backend(b ? b : "lockstep");
}

using MatrixParam = std::tuple<std::string /*topology*/, std::string /*ports*/, int /*vcs*/, double /*rate*/>;

class TrafficMatrix : public ::testing::TestWithParam<MatrixParam> {};

TEST_P(TrafficMatrix, RandomTrafficIsDeliveredExactlyOnceInOrder) {
  const auto& [topo, ports, vcs, rate] = GetParam();
  TrafficOptions opt;
  opt.topology = topo;
  opt.ports = ports;
  opt.net.backend = test_backend();
  opt.net.vcs = vcs;
  opt.net.buf = 4;
  opt.pattern = "uniform";
  opt.rate = rate;
  opt.packet_flits = 5;
  opt.warmup = 200;
  opt.cycles = 1500;
  opt.drain = 200000;
  opt.seed = 7;
  const TrafficResult r = run_traffic(opt);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  EXPECT_FALSE(r.deadlock) << r.deadlock_report;
  EXPECT_TRUE(r.drained);
  EXPECT_GT(r.packets_created, 50u);
  EXPECT_EQ(r.packets_created, r.packets_delivered);
  EXPECT_TRUE(r.ok);
}

std::string matrix_name(const ::testing::TestParamInfo<MatrixParam>& info) {
  std::string t = std::get<0>(info.param);
  for (char& c : t)
    if (c == ':' || c == 'x') c = '_';
  return t + "_" + std::get<1>(info.param) + "_vc" + std::to_string(std::get<2>(info.param)) +
         (std::get<3>(info.param) < 0.3 ? "_low" : "_high");
}

// Low load and a load past what one port (or the network) can carry.
INSTANTIATE_TEST_SUITE_P(Mesh, TrafficMatrix,
                         ::testing::Combine(::testing::Values("mesh:4x4", "mesh:3x3x3"),
                                            ::testing::Values("one", "all"), ::testing::Values(1, 2, 4),
                                            ::testing::Values(0.1, 0.9)),
                         matrix_name);
INSTANTIATE_TEST_SUITE_P(Torus, TrafficMatrix,
                         ::testing::Combine(::testing::Values("torus:4x4", "torus:3x3x3"),
                                            ::testing::Values("one", "all"), ::testing::Values(2, 4),
                                            ::testing::Values(0.1, 0.9)),
                         matrix_name);
INSTANTIATE_TEST_SUITE_P(Cube, TrafficMatrix,
                         ::testing::Combine(::testing::Values("cube:4"), ::testing::Values("one", "all"),
                                            ::testing::Values(1, 2, 4), ::testing::Values(0.1, 0.9)),
                         matrix_name);

// Zero-load latency of one packet = 3*(h+1) + (L-1) (rtl/README.md §5).
TEST(ZeroLoad, LatencyMatchesTheFormulaOnEveryTopology) {
  NetworkParams p;
  p.backend = test_backend();
  p.vcs = 2;
  p.buf = 4;
  // One SystemC elaboration per process: one network here, several packets spaced apart.
  const Topology topo = Topology::parse("mesh:8x8");
  std::vector<ScheduledPacket> pk;
  const int pairs[][3] = {{0, 0 + 1, 1}, {0, 63, 4}, {9, 54, 8}, {63, 0, 16}, {7, 56, 2}, {27, 27 + 8, 3}};
  uint64_t t = 0;
  for (const auto& c : pairs) {
    ScheduledPacket s;
    s.src = c[0];
    s.dst = c[1];
    s.flits = c[2];
    s.post_cycle = t;
    pk.push_back(s);
    t += 200;  // far enough apart that packets never meet
  }
  const PacketRunResult r = run_packets(topo, p, pk);
  const RouterTiming tm = router_timing(p, topo.ports());
  ASSERT_TRUE(r.ok) << r.report;
  ASSERT_EQ(r.packets.size(), pk.size());
  for (size_t i = 0; i < pk.size(); ++i) {
    const PacketRecord& rec = r.packets[i];
    const int h = topo.hops(pk[i].src, pk[i].dst);
    EXPECT_EQ(rec.head_injected, pk[i].post_cycle);
    EXPECT_EQ(rec.tail_ejected - rec.head_injected, tm.zero_load(h, uint64_t(pk[i].flits)))
        << "packet " << i << " h=" << h << " L=" << pk[i].flits;
    EXPECT_EQ(rec.head_ejected - rec.head_injected, tm.zero_load(h, 1));
  }
}

// The number itself, where rtl/README.md §5 states it for the shipped router and the model (the
// RTL backend's is probed: RouterTiming.* pins the probe on both).
static_assert(kShippedTiming == RouterTiming{2, 1} && kShippedTiming.hop_cycles() == 3,
              "rtl/README.md §5: a router is 3 cycles, 2 before the link, one flit per cycle");

TEST(ZeroLoad, TorusAndCubeHopsAndLatency) {
  NetworkParams p;
  p.backend = test_backend();
  p.vcs = 2;
  p.buf = 8;
  // torus:8x8: 0 -> (4,4) is a tie in both dimensions (k/2): 8 hops, taken in + direction.
  const Topology topo = Topology::parse("torus:8x8");
  EXPECT_EQ(topo.hops(0, 4 + 8 * 4), 8);
  EXPECT_EQ(topo.path(0, 4)[1], 1);  // + direction on the tie
  EXPECT_EQ(topo.hops(0, 7), 1);     // wrap-around is shorter
  std::vector<ScheduledPacket> pk = {{0, 36, 6, 0}, {5, 2, 3, 300}, {63, 0, 1, 600}};
  const PacketRunResult r = run_packets(topo, p, pk);
  const RouterTiming tm = router_timing(p, topo.ports());
  ASSERT_TRUE(r.ok) << r.report;
  for (size_t i = 0; i < pk.size(); ++i) {
    const int h = topo.hops(pk[i].src, pk[i].dst);
    EXPECT_EQ(r.packets[i].tail_ejected - r.packets[i].head_injected, tm.zero_load(h, uint64_t(pk[i].flits)));
  }
}

// Tornado traffic at 0.9 flits/node/cycle, 16-flit packets, 2 VCs x 2 flits,
// on an all-port torus:8x8: without the dateline classes it closes a cycle
// of channel dependencies.
TrafficOptions tornado_on_torus(bool dateline) {
  TrafficOptions opt;
  opt.topology = "torus:8x8";
  opt.ports = "all";
  opt.net.backend = test_backend();
  opt.net.vcs = 2;
  opt.net.buf = 2;
  opt.net.dateline = dateline;
  opt.pattern = "tornado";
  opt.rate = 0.9;
  opt.packet_flits = 16;
  opt.warmup = 0;
  opt.cycles = 20000;
  opt.watchdog = 300;
  return opt;
}

// The watchdog must see the deadlock and, with flit tracking, name the cycle.
TEST(Deadlock, TorusWithoutDatelineDeadlocksUnderTornadoAndWatchdogReportsCycle) {
  TrafficOptions opt = tornado_on_torus(false);
  opt.explain_deadlock = true;
  const TrafficResult r = run_traffic(opt);
  EXPECT_TRUE(r.deadlock);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.deadlock_report.find("cycle of"), std::string::npos) << r.deadlock_report;
}

// Without flit tracking the watchdog (two counters) still stops the same run,
// reports the flits stuck inside, and says how to get the explanation.
// The hint is the caller's words (app/ names --explain-deadlock and the seed: Cli.TrafficDeadlockHint...).
TEST(Deadlock, WatchdogWithoutTrackingStillDetectsAndPointsToExplainFlag) {
  TrafficOptions opt = tornado_on_torus(false);
  opt.seed = 7;
  opt.deadlock_hint = "rerun with --explain-deadlock (seed 7 reproduces this run) for the wait-for analysis";
  const TrafficResult r = run_traffic(opt);
  EXPECT_TRUE(r.deadlock);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.deadlock_report.find("cycle of"), std::string::npos) << r.deadlock_report;
  EXPECT_NE(r.deadlock_report.find("--explain-deadlock (seed 7"), std::string::npos) << r.deadlock_report;
  EXPECT_EQ(r.deadlock_report.find(", 0 flits in the network"), std::string::npos) << r.deadlock_report;
}

TEST(Deadlock, SameTrafficWithDatelineCompletes) {
  TrafficOptions opt = tornado_on_torus(true);
  opt.cycles = 1000;
  opt.drain = 400000;
  const TrafficResult r = run_traffic(opt);
  EXPECT_FALSE(r.deadlock) << r.deadlock_report;
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.packets_created, r.packets_delivered);
}

// A cube:4 carries far more than one flit per node per cycle under uniform
// traffic; one injection channel can not, all-port can. Two simulations, so
// each runs in its own forked child.
TEST(PortModelCompare, AllPortAcceptsMoreThanOnePortAtHighLoad) {
  auto accepted = [](const std::string& ports) {
    return run_isolated([&] {
      TrafficOptions opt;
      opt.topology = "cube:4";
      opt.ports = ports;
      opt.net.backend = test_backend();
      opt.net.vcs = 2;
      opt.net.buf = 8;
      opt.rate = 1.6;
      opt.packet_flits = 4;
      opt.warmup = 500;
      opt.cycles = 2000;
      opt.drain = 1;  // saturated on purpose: do not wait for the backlog
      const TrafficResult r = run_traffic(opt);
      return nlohmann::json{{"accepted", r.accepted}, {"errors", r.errors.size()}, {"deadlock", r.deadlock}};
    });
  };
  const auto one = accepted("one"), all = accepted("all");
  EXPECT_EQ(one["errors"], 0);
  EXPECT_EQ(all["errors"], 0);
  EXPECT_FALSE(one["deadlock"].get<bool>());
  EXPECT_FALSE(all["deadlock"].get<bool>());
  const double a1 = one["accepted"], a4 = all["accepted"];
  EXPECT_LE(a1, 1.0 + 1e-9);  // one injection channel: at most one flit per cycle
  EXPECT_GT(a4, 1.2 * a1) << "one-port " << a1 << " all-port " << a4;
}

TEST(Determinism, SameSeedGivesIdenticalJson) {
  auto run = [](uint64_t seed) {
    return run_isolated([seed] {
      TrafficOptions opt;
      opt.topology = "mesh:4x4";
      opt.net.backend = test_backend();
      opt.rate = 0.3;
      opt.cycles = 800;
      opt.warmup = 100;
      opt.seed = seed;
      return run_traffic(opt).to_json();
    });
  };
  const auto a = run(5), b = run(5), c = run(6);
  EXPECT_EQ(a.dump(), b.dump());
  EXPECT_NE(a.dump(), c.dump());
}

}  // namespace
}  // namespace wn

namespace wn {
namespace {

// The lock-step checker must be able to fail: a test-only fault in the C++
// model (one credit for output 0 is lost) has to stop the run with a
// divergence report naming the cycle and the router.
TrafficOptions lockstep_options(ModelFault fault) {
  TrafficOptions opt;
  opt.topology = "mesh:4x4";
  opt.ports = "one";
  opt.net.backend = Backend::Lockstep;
  opt.net.model_fault = fault;
  opt.net.buf = 2;
  opt.rate = 0.5;
  opt.cycles = 3000;
  opt.warmup = 0;
  return opt;
}

TEST(Lockstep, InjectedModelFaultIsCaught) {
  try {
    run_traffic(lockstep_options(ModelFault::CreditLate));
    FAIL() << "the injected fault went unnoticed";
  } catch (const LockstepDivergence& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("lock-step divergence"), std::string::npos) << what;
    EXPECT_NE(what.find("router"), std::string::npos) << what;
    EXPECT_NE(what.find("history"), std::string::npos) << what;
  }
}

TEST(Lockstep, WithoutFaultTheSameRunIsEqual) { EXPECT_TRUE(run_traffic(lockstep_options(ModelFault::None)).ok); }

}  // namespace
}  // namespace wn
