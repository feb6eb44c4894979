// The step model with a memory port (algorithms/step_cost.h): on a port of one word per cycle
// every all-gather on cube:4 is memory-bound throughout and the prediction is exact; in between
// it is a lower bound; a port faster than the channels changes nothing.
#include <gtest/gtest.h>

#include <functional>

#include "experiments/collective_run.h"
#include "experiments/isolated_run.h"

namespace wn::fw {
namespace {

struct Both {
  uint64_t measured;
  double predicted;
};

// `algo` on cube:d, all-port, ideal profile adjusted by `tweak`, model backend.
nlohmann::json ideal_run(const std::string& algo, int d, uint32_t bytes, bool barrier,
                         const std::function<void(MachineProfile&)>& tweak) {
  return run_isolated([=] {
    ScheduleRunOptions o;
    o.topology = "cube:" + std::to_string(d);
    o.ports = "all";
    o.net.backend = Backend::Model;
    o.run.profile = find_profile("ideal");
    tweak(o.run.profile);
    o.run.barrier = barrier;
    o.algorithm = algo;
    o.bytes = bytes;
    return run_schedule(o).to_json(false);
  });
}

Both run_with(const std::string& algo, double mem_words) {
  const nlohmann::json j =
      ideal_run(algo, 4, 256, true, [mem_words](MachineProfile& p) { p.mem_words_per_cycle = mem_words; });
  EXPECT_TRUE(j["ok"].get<bool>()) << algo << ": " << j["error"];
  return {j["cycles"].get<uint64_t>(), j["predicted"]["cycles"].get<double>()};
}

// Each node reads the 64 words it sends and writes the 64 it receives in each of 15 steps (d
// cycles, single cycle) or the same 960 + 960 words over 4 stages (butterfly): 1920 cycles at one
// word per cycle, however the algorithm spreads them over its channels.
TEST(MemoryPortPrediction, OneWordPerCycleIsExactForEveryAllGather) {
  for (const char* algo : {"hc-dcycles", "hc-single", "butterfly"}) {
    const Both b = run_with(algo, 1);
    EXPECT_EQ(b.measured, 1920u) << algo;
    EXPECT_EQ(b.predicted, 1920.0) << algo;
  }
}

// Two and four words per cycle: the bound (960, 480) is below the measured time, within 16 %.
TEST(MemoryPortPrediction, BetweenItIsALowerBound) {
  for (double w : {2.0, 4.0})
    for (const char* algo : {"hc-dcycles", "butterfly"}) {
      const Both b = run_with(algo, w);
      EXPECT_EQ(b.predicted, 1920.0 / w) << algo;
      EXPECT_GE(double(b.measured), b.predicted) << algo << " " << w;
      EXPECT_LE(double(b.measured), 1.16 * b.predicted) << algo << " " << w;
    }
}

// Eight words per cycle feed the four channels' reads and writes (8 words a cycle): no change.
TEST(MemoryPortPrediction, APortAsFastAsTheChannelsChangesNothing) {
  for (const char* algo : {"hc-dcycles", "butterfly"}) {
    const Both fast = run_with(algo, 8), free = run_with(algo, 0);
    EXPECT_EQ(fast.measured, free.measured) << algo;
    EXPECT_EQ(fast.predicted, free.predicted) << algo;
  }
}

}  // namespace
}  // namespace wn::fw

namespace wn::fw {
namespace {

// 24 words a node: 8 per dimension, F = 9 flits.
nlohmann::json multiport_run(uint32_t startup, double flit_cycles) {
  return ideal_run("hc-dcycles", 3, 96, false, [=](MachineProfile& p) {
    p.multiport_startup = startup;
    p.multiport_flit_cycles = flit_cycles;
  });
}

// The d cycles on cube:3 are 7 all-dimension exchanges: each step is one multi-port operation.
// Ideal: 7 x (3 (1+1) + 9 - 1) = 7 x 14 = 98 cycles. An extra startup of 5 cycles per operation:
// 7 x 5 more. Two cycles a flit on each channel: the 7 body flits behind the first leave 2 apart,
// the tail 1 + 14 cycles after the head and delivered 2 (h+1) = 4 later: 7 x 19 = 133.
TEST(MultiportOperation, StartupAndFlitCyclesAsHandComputed) {
  const auto plain = multiport_run(0, 1), started = multiport_run(5, 1), paced = multiport_run(0, 2);
  EXPECT_EQ(plain["cycles"], 98);
  EXPECT_EQ(started["cycles"], 98 + 7 * 5);
  EXPECT_EQ(paced["cycles"], 133);
  for (const auto* j : {&plain, &started, &paced})
    EXPECT_EQ((*j)["cycles"].get<double>(), (*j)["predicted"]["cycles"].get<double>());
  // The pacing's cycles are the node's, class memory: 7 steps x 8 nodes x 3 messages, 5 late each.
  EXPECT_EQ(paced["contention"]["memory"], 7 * 8 * 3 * 5);
  EXPECT_EQ(paced["config"]["profile"]["multiport_flit_cycles"], 2.0);
}

}  // namespace
}  // namespace wn::fw
