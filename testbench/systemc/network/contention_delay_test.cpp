// The delay view's conservation law on messages split into packets (chains
// on one injection channel, side by side on several, small buffers) and the
// check that enforces it on every run.
#include <gtest/gtest.h>

#include "testbench/systemc/network/contention_scenarios.h"

namespace wn::fw {
namespace {

using namespace scenario;

// A message split into packets that follow each other on one channel: at
// zero load the later packets' wait behind their own message is the
// serialization the cost model includes, so no delay, and the message's zero
// load is the cost model's.
TEST(ContentionDelay, SplitMessageAtZeroLoadHasNoDelay) {
  auto o = options("one", 2);
  o.opt.profile.max_packet_bytes = 12;  // 3 words per packet: 8 words -> 3 packets
  const auto r = run(o, {{0, 15, 0}});
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.packets, 3u);
  const MessageDelay& d = r.message_delay[0];
  EXPECT_EQ(d.packets, 3u);
  EXPECT_EQ(d.delay.total(), 0u);
  EXPECT_EQ(double(d.zero_load), o.opt.profile.cost_params(1, kShippedTiming).network_cycles(6, 8));
  EXPECT_EQ(d.latency, d.zero_load);
  for (const auto& p : r.packet_delay) EXPECT_EQ(p.delay.total(), 0u);
}

// Split messages under contention, one VC, buffers of 1, 2 and 8 flits (with
// small buffers the NI holds flits for credits): the law holds per packet and
// per message, from the logged times and the cost model's zero load.
class SplitMessages : public testing::TestWithParam<int> {};

TEST_P(SplitMessages, UnderContentionAddUp) {
  auto o = options("one", 1);
  o.net.params.buf = GetParam();
  o.opt.profile.max_packet_bytes = 8;
  const auto r = run(o, {{0, 3, 0}, {1, 2, 0}, {4, 3, 1}, {0, 12, 1}, {5, 3, 0}});
  ASSERT_TRUE(r.ok) << r.error;
  const auto cost = o.opt.profile.cost_params(1, kShippedTiming);
  EXPECT_EQ(delay_conservation_error(r, o.net.topology, cost), "");
  uint64_t late = 0;
  for (uint32_t m = 0; m < r.log.messages.size(); ++m) {
    const auto& x = r.log.messages[m];
    EXPECT_EQ(x.packets, 4u);
    EXPECT_EQ(r.message_delay[m].start, x.head_injected);
    EXPECT_EQ(x.delivered - x.head_injected - uint64_t(cost.network_cycles(x.hops, x.words)),
              r.message_delay[m].delay.total());
    late += r.message_delay[m].delay.total();
  }
  EXPECT_GT(late, 0u);
}

INSTANTIATE_TEST_SUITE_P(ContentionDelay, SplitMessages, testing::Values(1, 2, 8));

// On an all-port node a split message's packets may leave side by side: the
// message's zero load is then that of its critical chain, and it still adds up.
TEST(ContentionDelay, SplitMessageOnSeveralChannelsUsesItsCriticalChain) {
  auto o = options("all", 2);
  o.opt.profile.max_packet_bytes = 8;
  const auto r = run(o, {{5, 6, 0}, {5, 9, 0}, {4, 6, 0}});
  ASSERT_TRUE(r.ok) << r.error;
  bool parallel = false;
  for (uint32_t m = 0; m < r.log.messages.size(); ++m) {
    const MessageDelay& d = r.message_delay[m];
    parallel = parallel || d.packets < r.log.messages[m].packets;
    EXPECT_EQ(r.log.messages[m].delivered - d.start - d.zero_load, d.delay.total());
  }
  EXPECT_TRUE(parallel);
}

// The check catches an account that does not add up.
TEST(ContentionDelay, ConservationCheckCatchesAMiscount) {
  const auto o = options("one", 1);
  auto r = run(o, {{0, 3, 0}, {1, 2, 0}});
  ASSERT_TRUE(r.ok) << r.error;
  const auto cost = o.opt.profile.cost_params(1, kShippedTiming);
  ASSERT_EQ(delay_conservation_error(r, o.net.topology, cost), "");
  r.packet_delay[0].delay.add(Contention::Flow, kNoBlocker, 1);
  EXPECT_NE(delay_conservation_error(r, o.net.topology, cost).find("packet 0"), std::string::npos);
  r.packet_delay[0].delay.cycles[size_t(Contention::Flow)] -= 1;
  r.message_delay[1].delay.add(Contention::Stepwise, 0, 2);
  EXPECT_NE(delay_conservation_error(r, o.net.topology, cost).find("message 1"), std::string::npos);
  r.message_delay[1].delay.cycles[0] -= 2;
  EXPECT_NE(delay_conservation_error(r, o.net.topology, cost).find("blockers"), std::string::npos);
}

}  // namespace
}  // namespace wn::fw
