// The co-simulation engine on its own: the run loop stops when after() says
// so, measures wall time, rethrows what a cycle threw, and words a deadlock
// report as asked. Each TEST runs in its own process (SystemC elaborates once).
#include <gtest/gtest.h>

#include <fmt/format.h>

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

}  // namespace
}  // namespace wn
