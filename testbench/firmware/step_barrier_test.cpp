// --sync barrier: the papers' synchronous steps, for every algorithm. No node
// starts step t before every node has finished its steps before t; barriers
// remove depth contention (no two steps' messages are ever in flight
// together); each barrier's cost adds exactly once per step boundary.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "experiments/collective_run.h"
#include "experiments/isolated_run.h"

namespace wn::fw {
namespace {

// One simulation per process (SystemC elaborates once); the report with every node's steps.
nlohmann::json run(const char* topo, const char* algo, bool barrier, uint64_t cost = 0, const char* backend = "model") {
  const nlohmann::json j = run_isolated([=] {
    ScheduleRunOptions o;
    o.topology = topo;
    o.algorithm = algo;
    o.ports = "all";
    o.bytes = 64;
    o.net.backend = parse_backend(backend);
    o.run.barrier = barrier;
    o.run.barrier_cycles = cost;
    return run_schedule(o).to_json(true);
  });
  EXPECT_TRUE(j["ok"].get<bool>()) << algo << " on " << topo << ": " << j["error"] << j["data_error"];
  EXPECT_EQ(j["config"]["sync"], barrier ? "barrier" : "free");
  return j;
}

uint64_t delay(const nlohmann::json& j, const char* cls) { return j["contention"][cls].get<uint64_t>(); }

// Every node's step t starts after the last node's earlier steps ended (plus the barrier's cost).
void expect_steps_separated(const nlohmann::json& r, uint64_t cost) {
  std::map<uint32_t, uint64_t> first_start, last_end;
  for (const auto& node : r["node_steps"])
    for (const auto& s : node) {  // [tag, start, end]
      const uint32_t tag = s[0].get<uint32_t>();
      const uint64_t start = s[1].get<uint64_t>(), end = s[2].get<uint64_t>();
      auto [it, fresh] = first_start.emplace(tag, start);
      if (!fresh) it->second = std::min(it->second, start);
      last_end[tag] = std::max(last_end[tag], end);
    }
  ASSERT_GT(first_start.size(), 1u);
  uint64_t done = 0;
  for (const auto& [tag, start] : first_start) {
    if (tag > first_start.begin()->first) {
      EXPECT_GE(start, done + cost) << "step " << tag;
    }
    done = std::max(done, last_end[tag]);
  }
}

// EDN on torus:8x8 from source 0 has depth contention when nodes run free (33 cycles); under
// barriers none, and the steps never overlap.
TEST(StepBarrier, RemovesDepthContention) {
  const nlohmann::json free_run = run("torus:8x8", "edn-broadcast", false);
  const nlohmann::json sync_run = run("torus:8x8", "edn-broadcast", true);
  EXPECT_GT(delay(free_run, "depth"), 0u);
  EXPECT_EQ(delay(sync_run, "depth"), 0u);
  EXPECT_EQ(delay(sync_run, "stepwise"), 0u);
  expect_steps_separated(sync_run, 0);
  // Pinned: here the barriers make the broadcast faster (87 vs 97 cycles, ideal profile, 64 B): the
  // free-running nodes' early sends delayed later steps' critical messages by more than waiting costs.
  EXPECT_EQ(free_run["cycles"].get<uint64_t>(), 97u);
  EXPECT_EQ(sync_run["cycles"].get<uint64_t>(), 87u);
}

// Nodes without a step of some tag still wait for it (rd-broadcast: most nodes idle early), and
// the direct exchange's 16 steps on all ports of mesh:4x4 pay 15 barriers of 100 cycles exactly.
TEST(StepBarrier, CostIsPaidOncePerStepBoundary) {
  expect_steps_separated(run("mesh:8x8", "rd-broadcast", true, 40), 40);
  const nlohmann::json a = run("mesh:4x4", "direct-alltoall", true, 0);
  const nlohmann::json b = run("mesh:4x4", "direct-alltoall", true, 100);
  expect_steps_separated(b, 100);
  ASSERT_EQ(a["steps"].size(), 4u);  // ceil(15 / 4 ports)
  EXPECT_EQ(b["cycles"].get<uint64_t>(), a["cycles"].get<uint64_t>() + 100 * (a["steps"].size() - 1));
}

// The barrier is the same on the RTL (lock-step: RTL and model agree every cycle).
TEST(StepBarrier, LockstepDirectExchange) {
  const nlohmann::json r = run("mesh:4x4", "direct-alltoall", true, 7, "lockstep");
  expect_steps_separated(r, 7);
  EXPECT_EQ(delay(r, "depth"), 0u);
}

}  // namespace
}  // namespace wn::fw
