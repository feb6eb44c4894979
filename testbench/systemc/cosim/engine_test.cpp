// The co-simulation engine on its own: the run loop stops when after() says
// so, measures wall time, rethrows what a cycle threw, and words a deadlock
// report as asked. Each TEST runs in its own process (SystemC elaborates once).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "systemc/cosim/engine.h"
#include "systemc/cosim/node_module.h"
#include "systemc/cosim/packet_run.h"

namespace wn {
namespace {

NetworkParams model_params() {
  NetworkParams p;
  p.backend = Backend::Model;
  return p;
}

TEST(Engine, EmptyRunStopsWhenAfterSaysSoAndMeasuresWallTime) {
  const Topology topo = Topology::parse("mesh:2x2");
  Engine engine(topo, model_params(), EngineOptions{});
  std::vector<uint64_t> before, after;
  engine.run([&](uint64_t now) { before.push_back(now); },
             [&](uint64_t now) {
               after.push_back(now);
               EXPECT_FALSE(engine.deadlocked(now));  // an empty network never deadlocks
               return now + 1 < 10;
             });
  EXPECT_EQ(engine.now(), 10u);
  ASSERT_EQ(before.size(), 10u);
  EXPECT_EQ(before, after);
  EXPECT_EQ(before.back(), 9u);
  EXPECT_EQ(engine.network().cycles(), 10u);
  EXPECT_GT(engine.wall_seconds(), 0.0);
  EXPECT_TRUE(engine.deadlock_report().empty());
  EXPECT_TRUE(engine.scoreboard().ok());
}

TEST(Engine, ExceptionInsideACycleStopsTheRunAndIsRethrown) {
  const Topology topo = Topology::parse("mesh:2x2");
  Engine engine(topo, model_params(), EngineOptions{});
  int afters = 0;
  EXPECT_THROW(engine.run(
                   [&](uint64_t now) {
                     if (now == 3) throw std::runtime_error("boom");
                   },
                   [&](uint64_t) {
                     ++afters;
                     return true;
                   }),
               std::runtime_error);
  EXPECT_EQ(afters, 3);
  EXPECT_EQ(engine.now(), 4u);  // the failing cycle counts
}

// Every node of a one-VC ring without dateline sends a long packet half way
// round (all in the + direction): the packets hold each other's channels.
std::vector<ScheduledPacket> ring_exchange(const Topology& topo) {
  std::vector<ScheduledPacket> pk;
  for (int i = 0; i < topo.nodes(); ++i) {
    ScheduledPacket s;
    s.src = i;
    s.dst = (i / 8) * 8 + (i % 8 + 4) % 8;
    s.flits = 16;
    pk.push_back(s);
  }
  return pk;
}

NetworkParams ring_params() {
  NetworkParams p = model_params();
  p.vcs = 1;
  p.buf = 2;
  p.dateline = false;
  return p;
}

TEST(Engine, DeadlockReportWithoutTrackingCarriesTheRerunHint) {
  const Topology topo = Topology::parse("torus:8x2");
  EngineOptions eo;
  eo.watchdog = 50;
  eo.wording.since = true;
  eo.wording.rerun_hint = "rerun with --explain-deadlock (seed 3 reproduces this run) for the wait-for analysis";
  Engine engine(topo, ring_params(), eo);
  EXPECT_FALSE(engine.explaining());
  std::vector<std::unique_ptr<NodeModule>> nodes;
  for (int i = 0; i < topo.nodes(); ++i)
    nodes.push_back(std::make_unique<NodeModule>(fmt::format("node{}", i).c_str(), i, engine.network(), engine.store(),
                                                 engine.scoreboard()));
  for (const ScheduledPacket& s : ring_exchange(topo)) {
    PacketRecord p;
    p.src = s.src;
    p.dst = s.dst;
    p.flits = s.flits;
    nodes[size_t(s.src)]->ni.post(engine.store().add(p));
  }
  bool deadlock = false;
  engine.run(
      [&](uint64_t now) {
        for (auto& n : nodes) n->ni.drive(now);
      },
      [&](uint64_t now) {
        for (int r : engine.network().evaluated()) nodes[size_t(r)]->ni.collect(now);
        deadlock = engine.deadlocked(now);
        return !deadlock && now + 1 < 10000;
      });
  ASSERT_TRUE(deadlock);
  const std::string& r = engine.deadlock_report();
  EXPECT_EQ(r.rfind("deadlock: no flit moved for 50 cycles (since cycle ", 0), 0u) << r;
  EXPECT_NE(r.find(fmt::format(", {} flits in the network\n", engine.network().flits_in_network())), std::string::npos)
      << r;
  EXPECT_NE(r.find("\nrerun with --explain-deadlock (seed 3 reproduces this run) for the wait-for analysis\n"),
            std::string::npos)
      << r;
  EXPECT_EQ(r.find("cycle of"), std::string::npos) << r;
}

// run_packets always tracks flits: its report is a bare title and the analysis.
TEST(Engine, PacketRunDeadlockNamesTheCycleOfWaits) {
  const Topology topo = Topology::parse("torus:8x2");
  const PacketRunResult r = run_packets(topo, ring_params(), ring_exchange(topo), 10000, 50);
  ASSERT_TRUE(r.deadlock);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.report.rfind("deadlock\n", 0), 0u) << r.report;
  EXPECT_NE(r.report.find("cycle of"), std::string::npos) << r.report;
  EXPECT_LT(r.cycles, 10000u);
}

// The occupancy shadow (systemc/network/occupancy.h) holds every flit in the
// network at every edge — the ones on a link in the slot they enter — and
// nothing once the network drained: 400 random packets on mesh:4x4 with
// `inj` injection and ejection channels per node, the caller observing it.
void shadow_counts_every_flit(int inj) {
  const Topology topo = Topology::parse("mesh:4x4");
  NetworkParams prm = model_params();
  prm.inj = prm.ej = inj;
  prm.buf = 4;
  Engine engine(topo, prm, EngineOptions{});
  Occupancy& occ = engine.observed_occupancy();
  std::vector<std::unique_ptr<NodeModule>> nodes;
  for (int i = 0; i < topo.nodes(); ++i)
    nodes.push_back(std::make_unique<NodeModule>(fmt::format("node{}", i).c_str(), i, engine.network(), engine.store(),
                                                 engine.scoreboard()));
  uint64_t lcg = 11;
  for (int k = 0; k < 400; ++k) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    PacketRecord p;
    p.src = int(lcg >> 33) % topo.nodes();
    p.dst = (p.src + 1 + int(lcg >> 45) % (topo.nodes() - 1)) % topo.nodes();
    p.flits = 1 + int((lcg >> 20) % 9);
    nodes[size_t(p.src)]->ni.post(engine.store().add(p));
  }
  uint64_t mismatches = 0, busiest = 0;
  auto shadow_flits = [&] {
    uint64_t n = 0;
    for (int r = 0; r < occ.routers(); ++r)
      for (int s = 0; s < occ.in_slots(); ++s) n += occ.in_slot(occ.slot_index(r, s)).bsize;
    return n;
  };
  engine.run(
      [&](uint64_t now) {
        for (auto& n : nodes) n->ni.drive(now);
      },
      [&](uint64_t now) {
        for (int r : engine.network().evaluated()) nodes[size_t(r)]->ni.collect(now);
        occ.observe(now);
        const uint64_t in_net = uint64_t(engine.network().flits_in_network());
        busiest = std::max(busiest, in_net);
        if (shadow_flits() != in_net) ++mismatches;
        return engine.scoreboard().delivered() < engine.store().size() && now + 1 < 100000;
      });
  EXPECT_TRUE(engine.scoreboard().ok());
  EXPECT_EQ(engine.scoreboard().delivered(), 400u);
  EXPECT_GT(busiest, 40u);  // the network was busy, not a trickle
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(shadow_flits(), 0u);
  for (int r = 0; r < occ.routers(); ++r) {
    EXPECT_EQ(occ.hot(r).queued, 0u) << r;
    EXPECT_EQ(occ.hot(r).held, 0u) << r;
    EXPECT_EQ(occ.hot(r).waiting, 0) << r;
  }
}

TEST(Engine, OccupancyShadowHoldsEveryFlitOnePort) { shadow_counts_every_flit(1); }
TEST(Engine, OccupancyShadowHoldsEveryFlitTwoPorts) { shadow_counts_every_flit(2); }

}  // namespace
}  // namespace wn
