// Suh, Shin & An complete exchange: cycle-accurate runs — the
// cycle oracle with barrier steps (d = 2..4), lock-step RTL vs model, one-port
// vs all-port, the mesh's phase-d contention measured, and --sync free pinned.
#include <gtest/gtest.h>

#include "testbench/algorithms/families/torus_exchange_trace.h"

namespace wn::fw {
namespace {

using namespace torus_test;

// ---- cycle-accurate runs (one SystemC simulation per process: run_isolated) ----

constexpr uint32_t kAlpha = 100;

ScheduleRunOptions torus_run(const std::string& topo, const std::string& algo, uint32_t bytes, bool barrier,
                             Backend backend = Backend::Model, const std::string& ports = "one") {
  ScheduleRunOptions o;
  o.topology = topo;
  o.ports = ports;
  o.net.backend = backend;
  o.run.profile = find_profile("ideal");
  o.run.profile.alpha = kAlpha;
  o.run.barrier = barrier;
  o.algorithm = algo;
  o.bytes = bytes;
  return o;
}

nlohmann::json isolated(const ScheduleRunOptions& o) {
  return run_isolated([o] { return run_schedule(o).to_json(false); });
}

// The cycle-level oracle with our router: a step costs alpha + 3(h+1)
// + F - 1 (+ gamma = 0), F = L m + 1 flits, so T = S (alpha + c0) + B m + H t_hop
// with c0 = 3, t_hop = 3; S, B, H are the corrected values of docs/papers/torus-exchange.md.
uint64_t oracle_cycles(uint64_t S, uint64_t B, uint64_t H, uint32_t bytes) {
  return S * (kAlpha + 3) + B * (bytes / 4) + H * 3;
}

void expect_barrier_run(const nlohmann::json& j, uint64_t S, uint64_t B, uint64_t H, uint32_t bytes) {
  ASSERT_TRUE(j["ok"].get<bool>()) << j.dump().substr(0, 400);
  EXPECT_EQ(j["cycles"].get<uint64_t>(), oracle_cycles(S, B, H, bytes));
  EXPECT_EQ(j["contention"]["stepwise"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["contention"]["depth"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["predicted"]["steps"].get<int>(), int(S));
  EXPECT_EQ(j["steps"].size(), size_t(S));
}

// Rows 14 + cycle oracle: barrier steps on the model, d = 2, 3, 4, both modes
// where they differ; data checked word for word, zero stepwise contention,
// cycles exactly that formula, and the paper line S t_s + B m t_c.
TEST(TorusExchangeCycles, BarrierRunsMatchTheCycleOracle) {
  expect_barrier_run(isolated(torus_run("torus:4x4", "torus-exchange", 16, true)), 4, 32, 4, 16);
  expect_barrier_run(isolated(torus_run("torus:8x8", "torus-exchange", 16, true)), 6, 192, 14, 16);
  expect_barrier_run(isolated(torus_run("torus:16x16", "torus-t2", 16, true)), 12, 1536, 64, 16);
  expect_barrier_run(isolated(torus_run("torus:16x16", "torus-t1", 16, true)), 9, 2176, 37, 16);
  const auto keep = isolated([] {
    auto o = torus_run("torus:16x16", "torus-t1.1", 8, true);
    o.family_options["--mode"] = "keep";
    return o;
  }());
  ASSERT_TRUE(keep["ok"].get<bool>());
  EXPECT_EQ(keep["contention"]["stepwise"].get<uint64_t>(), 0u);
  EXPECT_LT(keep["cycles"].get<uint64_t>(), oracle_cycles(9, 2176, 37, 8));  // 2172 blocks
  const auto r = run_schedule(torus_run("torus:8x8", "torus-t1", 16, true));
  EXPECT_EQ(r.predicted.cycles, double(oracle_cycles(6, 192, 14, 16)));
  EXPECT_EQ(r.predicted.thesis_cycles, 6.0 * kAlpha + 192 * 4);
}

// Lock-step (RTL and model every cycle) for d = 2, 3 and 4, barrier steps.
TEST(TorusExchangeCycles, LockstepSmallTori) {
  expect_barrier_run(isolated(torus_run("torus:4x4", "torus-t2", 8, true, Backend::Lockstep)), 4, 32, 4, 8);
  expect_barrier_run(isolated(torus_run("torus:8x8", "torus-t1", 8, true, Backend::Lockstep)), 6, 192, 14, 8);
}
TEST(TorusExchangeCycles, Lockstep16x16) {
  expect_barrier_run(isolated(torus_run("torus:16x16", "torus-t1", 4, true, Backend::Lockstep)), 9, 2176, 37, 4);
  expect_barrier_run(isolated(torus_run("torus:16x16", "torus-t2", 4, true, Backend::Lockstep)), 12, 1536, 64, 4);
}

// Every step uses at most one send and one receive per node, so one-port and all-port NIs
// give identical cycles with barrier steps (the paper's model is one-port).
TEST(TorusExchangeCycles, OnePortEqualsAllPort) {
  for (const char* topo : {"torus:8x8", "torus:16x16"}) {
    const auto one = isolated(torus_run(topo, "torus-t1", 16, true));
    const auto all = isolated(torus_run(topo, "torus-t1", 16, true, Backend::Model, "all"));
    ASSERT_TRUE(one["ok"].get<bool>() && all["ok"].get<bool>());
    EXPECT_EQ(one["cycles"], all["cycles"]) << topo;
  }
}

// Row 17 measured (the mesh is ours; the paper treats tori only): on mesh:8x8 only the two
// phase-3 steps see stepwise contention.
TEST(TorusExchangeCycles, MeshContendsOnlyInPhaseD) {
  const auto r = run_schedule(torus_run("mesh:8x8", "torus-t2", 16, true));
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  ASSERT_EQ(r.steps.size(), 6u);
  for (const auto& st : r.steps) {
    if (st.tag >= 4)
      EXPECT_GT(st.delay[0], 0u) << "step " << st.tag;
    else
      EXPECT_EQ(st.delay[0], 0u) << "step " << st.tag;
  }
}

// --sync free on torus:16x16 T2, 16-byte blocks, alpha = 100: idle nodes run
// ahead into the next step and the steps overlap (depth contention); pinned.
// The barrier run of the same case is 7572 cycles with no contention.
TEST(TorusExchangeCycles, FreeRunningT2HasDepthContention) {
  const auto r = run_schedule(torus_run("torus:16x16", "torus-t2", 16, false));
  ASSERT_TRUE(r.ok()) << r.run.error << r.data_error;
  EXPECT_EQ(r.run.cycles, 8400u);
  EXPECT_EQ(r.delay[0], 0u);
  EXPECT_EQ(r.delay[1], 391152u);
}

}  // namespace
}  // namespace wn::fw
