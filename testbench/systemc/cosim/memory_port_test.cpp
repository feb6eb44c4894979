// The node memory port (systemc/cosim/memory_port.h): its arbitration on hand-computed cases, and
// what it does to firmware runs: channels sharing one word per cycle, a local copy beside a send,
// and the delay view's memory class adding up to the lateness exactly.
#include <gtest/gtest.h>

#include "systemc/cosim/memory_port.h"
#include "testbench/systemc/network/contention_scenarios.h"

namespace wn {
namespace {

using Got = std::array<uint64_t, MemoryPort::kRequesters>;

TEST(MemoryPort, OneWordPerCycleAlternatesBetweenTwoRequesters) {
  MemoryPort port(1000);
  port.want(MemoryPort::injection(0), 3);
  port.want(MemoryPort::ejection(1), 3);
  Got got;
  std::vector<int> order;
  for (int cycle = 0; cycle < 6; ++cycle) {
    port.cycle(got);
    for (int r = 0; r < MemoryPort::kRequesters; ++r)
      if (got[size_t(r)]) order.push_back(r);
  }
  const int a = MemoryPort::injection(0), b = MemoryPort::ejection(1);
  EXPECT_EQ(order, (std::vector<int>{a, b, a, b, a, b}));
  EXPECT_FALSE(port.busy());
}

TEST(MemoryPort, HalfAWordPerCycleServesEveryOtherCycle) {
  MemoryPort port(500);
  port.want(MemoryPort::kProcessor, 3);
  Got got;
  std::vector<uint64_t> per_cycle;
  for (int cycle = 0; cycle < 6; ++cycle) {
    port.cycle(got);
    per_cycle.push_back(got[MemoryPort::kProcessor]);
  }
  EXPECT_EQ(per_cycle, (std::vector<uint64_t>{0, 1, 0, 1, 0, 1}));
}

// 10 words for wants of 2, 5 and 9: two whole rounds (6 words), then one word each to the
// requesters still wanting (3 + 7 left: 2 more rounds = 4 words), in requester order.
TEST(MemoryPort, WholeRoundsThenAPartialOneWordByWord) {
  MemoryPort port(10000);
  port.want(0, 2);
  port.want(1, 5);
  port.want(2, 9);
  Got got;
  port.cycle(got);
  EXPECT_EQ(got[0], 2u);
  EXPECT_EQ(got[1], 4u);
  EXPECT_EQ(got[2], 4u);
  port.cycle(got);  // 1 and 5 left: one round of 2, then 8 words to the last
  EXPECT_EQ(got[1], 1u);
  EXPECT_EQ(got[2], 5u);
  EXPECT_FALSE(port.busy());
}

TEST(MemoryPort, IdleWholeWordsDoNotAccumulate) {
  MemoryPort port(1500);
  Got got;
  for (int cycle = 0; cycle < 10; ++cycle) port.cycle(got);  // nobody wants anything
  port.want(0, 100);
  port.cycle(got);
  EXPECT_LE(got[0], 2u);  // this cycle's 1.5 words and at most the carried half
}

}  // namespace

namespace fw {
namespace {

using namespace scenario;

// Node 5 of mesh:4x4 sends 8 words to 6 and 8 words to 9 at once, one on each of its channels.
FirmwareRunResult two_sends(double mem_words, double copy_cycles = 0, bool local_copy = false) {
  TestRun o = options("all", 2);
  o.opt.profile.mem_words_per_cycle = mem_words;
  o.opt.profile.copy_cycles_per_word = copy_cycles;
  return run_firmware(
      o.net, o.opt,
      [local_copy](int node) -> FirmwareFn {
        return [node, local_copy](NodeApi& api) {
          if (node == 5) {
            SendOptions a, b;
            a.channel = 0;
            b.channel = 1;
            api.send_ranges(6, {{0, 8}}, a);
            api.send_ranges(9, {{0, 8}}, b);
            if (local_copy) api.combine({{0, 8}}, {{8, 8}}, Combine{});
            api.wait_all_injected();
          }
          if (node == 6 || node == 9) api.recv(5, 0);
        };
      },
      16, init);
}

const MessageRecord& to(const FirmwareRunResult& r, int dst) {
  for (const auto& m : r.log.messages)
    if (m.dst == dst) return m;
  throw std::runtime_error("no message");
}

const MessageDelay& delay_to(const FirmwareRunResult& r, int dst) {
  for (uint32_t m = 0; m < r.log.messages.size(); ++m)
    if (r.log.messages[m].dst == dst) return r.message_delay[m];
  throw std::runtime_error("no message");
}

// One run per test (SystemC elaborates once per process); without a port both messages take their
// zero load, 3 (h+1) + F - 1 = 6 + 8 = 14 cycles (F = 9 flits), as Contention.* pins.
TEST(MemoryPortRun, Unlimited) {
  const auto r = two_sends(0);
  ASSERT_TRUE(r.ok) << r.error;
  for (int dst : {6, 9}) EXPECT_EQ(to(r, dst).delivered - to(r, dst).head_injected, 14u);
}

// One word per cycle shared by the two injection channels: each gets every other word, so the 8
// body flits of channel 0 are presented 1, 3, ..., 15 cycles after the heads and channel 1's
// 2, 4, ..., 16, instead of 1..8: the streams take twice as long, the tails come 7 and 8 cycles
// late. The head's slower pipeline (3 cycles a router, a body flit 2) lets the flits behind it
// make up one cycle per router, h + 1 = 2: the messages are 5 and 6 cycles late, all of it memory.
TEST(MemoryPortRun, TwoChannelsSharingOneWordPerCycleStreamAtHalfSpeed) {
  const auto r = two_sends(1);
  ASSERT_TRUE(r.ok) << r.error;  // ok: the run's delay view added up (it checks itself)
  EXPECT_EQ(to(r, 6).delivered - to(r, 6).head_injected, 14u + 7u - 2u);
  EXPECT_EQ(to(r, 9).delivered - to(r, 9).head_injected, 14u + 8u - 2u);
  for (int dst : {6, 9}) {
    const DelayAccount& d = delay_to(r, dst).delay;
    EXPECT_EQ(d.cycles[size_t(Contention::Memory)], d.total());
  }
  EXPECT_EQ(delay_to(r, 6).delay.total(), 5u);
}

// Half a word per cycle: a word every 2 cycles, so each channel's every 4: channel 0's flits at
// 2, 6, ..., 30, channel 1's at 4, 8, ..., 32 (22 and 24 late, less the 2 made up).
TEST(MemoryPortRun, HalfAWordPerCycle) {
  const auto r = two_sends(0.5);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(delay_to(r, 6).delay.cycles[size_t(Contention::Memory)], 20u);
  EXPECT_EQ(delay_to(r, 9).delay.cycles[size_t(Contention::Memory)], 22u);
}

// A local copy of 8 words issued beside the sends (copies cost 0.01 cycle a word, so it really
// copies: 16 accesses) is the port's third requester: the round goes channel 0, channel 1,
// processor, so channel 0's words come at 1, 4, ..., 22 (14 late, 12 after the pipeline's 2),
// channel 1's at 2, ..., 23, and the copy's last access is the port's 32nd word: cycle 32.
TEST(MemoryPortRun, LocalCopyDuringASendSharesThePort) {
  const auto r = two_sends(1, 0.01, true);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(delay_to(r, 6).delay.total(), 12u);
  EXPECT_EQ(delay_to(r, 9).delay.total(), 13u);
  EXPECT_EQ(r.cycles, 32u);
}

// Without copy costs the NI works in place: the local copy makes no memory accesses, and the
// sends are as without it (20 cycles: channel 1's tail at 20).
TEST(MemoryPortRun, FreeCopiesMakeNoAccesses) {
  const auto r = two_sends(1, 0, true);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(delay_to(r, 6).delay.total(), 5u);
  EXPECT_EQ(r.cycles, 20u);
}

}  // namespace
}  // namespace fw
}  // namespace wn
