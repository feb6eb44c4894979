// The engine jumps over idle stretches of a firmware run (nothing in flight,
// some node computing): cycle counts, the stop at --max-cycles and the stuck
// verdict must be those of a run that evaluates every cycle. Lock-step
// backend unless WN_TEST_BACKEND says otherwise (skipping must hold for the
// RTL too: an idle router is not clocked either way).
#include <gtest/gtest.h>

#include <cstdlib>

#include "firmware/firmware_run.h"

namespace wn::fw {
namespace {

struct RunSetup {
  NetworkSetup net;
  FirmwareRunOptions opt;
};

RunSetup setup(const std::string& topo, uint32_t alpha, uint32_t gamma) {
  NetworkParams np;
  const char* b = std::getenv("WN_TEST_BACKEND");
  np.backend = parse_backend(b ? b : "lockstep");
  RunSetup s{NetworkSetup::resolve(topo, "one", np), {}};
  s.opt.profile = find_profile("ideal");
  s.opt.profile.alpha = alpha;
  s.opt.profile.gamma = gamma;
  return s;
}

Word pattern(int node, uint32_t a) { return Word(node) * 100000u + a; }

// Node 0 computes for a long time, then sends 16 words to node 63 (14 hops);
// the receive completes at compute + alpha + 3(h+1) + (flits-1) + gamma
// (17 flits: head + 16 words), as
// without skipping (FirmwareLatency pins that formula cycle by cycle).
FirmwareRunResult long_compute_then_send(bool skip, uint64_t compute, uint64_t& recv_done) {
  RunSetup s = setup("mesh:8x8", 7, 5);
  s.opt.skip_idle = skip;
  auto fw = [&](int node) -> FirmwareFn {
    if (node == 0)
      return [&](NodeApi& api) {
        api.compute(compute);
        api.wait_injected(api.send_ranges(63, {{0, 16}}, SendOptions{}));
      };
    if (node == 63)
      return [&](NodeApi& api) {
        const Message m = api.recv(0, 0);
        recv_done = api.now();
        api.store(m.words, {{100, 16}}, Combine{});
      };
    return nullptr;
  };
  FirmwareRunResult r = run_firmware(s.net, s.opt, fw, 200, pattern);
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_EQ(recv_done, compute + 7 + 3 * 15 + 16 + 5);
  EXPECT_EQ(r.cycles, recv_done);  // the ideal profile stores for free
  for (uint32_t a = 0; a < 16; ++a) EXPECT_EQ(r.memory[63][100 + a], pattern(0, a));
  return r;
}

TEST(IdleSkip, LongComputeIsJumpedOverWithExactTiming) {
  uint64_t recv_done = 0;
  const FirmwareRunResult r = long_compute_then_send(true, 100000, recv_done);
  // All but the cycles around the message are skipped.
  EXPECT_GT(r.cycles_skipped, 100000u - 10);
  EXPECT_LT(r.cycles_skipped, r.cycles_simulated);
}

// The same run evaluating every cycle: the same numbers (pinned above).
TEST(IdleSkip, WithoutSkippingTheTimingIsTheSame) {
  uint64_t recv_done = 0;
  const FirmwareRunResult r = long_compute_then_send(false, 100000, recv_done);
  EXPECT_EQ(r.cycles_skipped, 0u);
}

// The stop at --max-cycles lands on the same cycle inside a skipped stretch.
TEST(IdleSkip, MaxCyclesStopsOnItsCycleInsideAnIdleStretch) {
  RunSetup s = setup("mesh:4x4", 0, 0);
  s.opt.max_cycles = 5000;
  auto fw = [&](int node) -> FirmwareFn {
    if (node == 2) return [](NodeApi& api) { api.compute(100000); };
    return nullptr;
  };
  const FirmwareRunResult r = run_firmware(s.net, s.opt, fw, 4, pattern);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("stopped at max_cycles 5000"), std::string::npos) << r.error;
  EXPECT_EQ(r.cycles_simulated, 5000u);
  EXPECT_GT(r.cycles_skipped, 4990u);
}

// One node computes, then returns; the other waits for a message nobody sends:
// stuck two quiet edges after the last compute ends, never skipped past.
TEST(IdleSkip, StuckVerdictAfterAComputeStretch) {
  RunSetup s = setup("mesh:4x4", 0, 0);
  auto fw = [&](int node) -> FirmwareFn {
    if (node == 1) return [](NodeApi& api) { api.compute(30000); };
    if (node == 3) return [](NodeApi& api) { api.recv(7, 42); };
    return nullptr;
  };
  const FirmwareRunResult r = run_firmware(s.net, s.opt, fw, 4, pattern);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("node 3"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("from 7 tag 42"), std::string::npos) << r.error;
  // Node 1 returns at ns 30000; edges 30000 and 30001 are the two quiet ones.
  EXPECT_EQ(r.cycles_simulated, 30002u);
  EXPECT_GT(r.cycles_skipped, 29990u);
}

}  // namespace
}  // namespace wn::fw
