// Contention classes on hand-built two-message scenarios with exact cycle
// counts, in both views (contention_scenarios.h; lock-step backend unless
// WN_TEST_BACKEND says otherwise, so the counts hold for the RTL and the model alike).
#include <gtest/gtest.h>

#include "experiments/isolated_run.h"
#include "testbench/systemc/network/contention_scenarios.h"

namespace wn::fw {
namespace {

using namespace scenario;

// 0->3 and 1->2 both need router 1's +x channel; with one VC the later head
// waits for the whole worm of the other: stepwise, and only stepwise.
TEST(Contention, SameStepSharingAChannelIsStepwise) {
  const auto r = run(options("one", 1), {{0, 3, 0}, {1, 2, 0}});
  ASSERT_TRUE(r.ok) << r.error;
  const auto a = blocked(r, 0), b = blocked(r, 1);
  EXPECT_EQ(total(b), 0u);
  EXPECT_EQ(a[size_t(Contention::Depth)], 0u);
  EXPECT_EQ(a[size_t(Contention::Port)], 0u);
  EXPECT_EQ(a[size_t(Contention::Flow)], 0u);
  EXPECT_EQ(a[size_t(Contention::Stepwise)], 7u);
  const MessageRecord& ma = r.log.messages[0].src == 0 ? r.log.messages[0] : r.log.messages[1];
  const alg::CostParams cp;
  // The blocked cycles are exactly the message's excess over zero load.
  EXPECT_EQ(ma.delivered - ma.head_injected, uint64_t(cp.network_cycles(3, 8)) + 7u);
  // The delay view says the same, naming the other message's packet.
  const MessageDelay& d = delay(r, 0);
  EXPECT_EQ(d.delay.cycles, (std::array<uint64_t, 5>{7, 0, 0, 0, 0}));
  ASSERT_EQ(d.delay.blockers.size(), 1u);
  EXPECT_EQ(r.log.messages[r.log.message_of_packet[d.delay.blockers[0].first]].src, 1);
  EXPECT_EQ(delay(r, 1).delay.total(), 0u);
}

// The same collision between a late step-1 message and a step-2 message: depth.
TEST(Contention, DifferentStepsSharingAChannelIsDepth) {
  const auto r = run(options("one", 1), {{0, 3, 1}, {1, 2, 2}});
  ASSERT_TRUE(r.ok) << r.error;
  const auto a = blocked(r, 0);
  EXPECT_EQ(a[size_t(Contention::Depth)], 7u);
  EXPECT_EQ(a[size_t(Contention::Stepwise)], 0u);
  EXPECT_EQ(total(blocked(r, 1)), 0u);
  EXPECT_EQ(delay(r, 0).delay.cycles, (std::array<uint64_t, 5>{0, 7, 0, 0, 0}));
}

// Two sends from one node: on a one-port node the second waits in the NI for
// the first one's 9 flits (port contention); on an all-port node it does not.
TEST(Contention, TwoSendsOnOnePortNodeArePortContention) {
  const auto r = run(options("one", 2), {{5, 4, 0}, {5, 6, 0}});
  ASSERT_TRUE(r.ok) << r.error;
  const auto b = blocked(r, 5);  // first message from 5
  uint64_t port = 0, other = 0;
  for (uint32_t m = 0; m < r.log.messages.size(); ++m) {
    const auto c = r.message_blocked(m);
    port += c[size_t(Contention::Port)];
    other += c[0] + c[1] + c[3];
  }
  (void)b;
  // 9 cycles in the NI (the first worm's 9 flits) + 1 allocation cycle behind
  // its tail in the router's injection buffer.
  EXPECT_EQ(port, 10u);
  EXPECT_EQ(other, 0u);
  // Delay view: the NI wait is port wait before injection, not delay; the
  // allocation cycle behind the other message's tail is one cycle of port delay.
  uint64_t wait = 0, late = 0;
  for (uint32_t m = 0; m < r.log.messages.size(); ++m) {
    const MessageDelay& d = r.message_delay[m];
    wait += d.port_wait;
    late += d.delay.total();
    EXPECT_EQ(d.delay.total(), d.delay.cycles[size_t(Contention::Port)]);
  }
  EXPECT_EQ(wait, 9u);
  EXPECT_EQ(late, 1u);
}

TEST(Contention, TwoSendsOnAllPortNodeAreFree) {
  const auto r = run(options("all", 2), {{5, 4, 0}, {5, 6, 0}});
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t m = 0; m < r.log.messages.size(); ++m) EXPECT_EQ(total(r.message_blocked(m)), 0u);
}

// Two messages into one node: the one-port destination has one ejection
// channel, so the second head waits for the first tail (port contention).
TEST(Contention, TwoReceivesOnOnePortNodeArePortContention) {
  const auto r = run(options("one", 2), {{4, 5, 0}, {6, 5, 0}});
  ASSERT_TRUE(r.ok) << r.error;
  uint64_t port = 0, other = 0;
  for (uint32_t m = 0; m < r.log.messages.size(); ++m) {
    const auto c = r.message_blocked(m);
    port += c[size_t(Contention::Port)];
    other += c[0] + c[1] + c[3];
  }
  // The second head waits for the first tail's 9 flits + 1 allocation cycle,
  // exactly its excess over zero load.
  EXPECT_EQ(port, 10u);
  EXPECT_EQ(other, 0u);
  const MessageRecord& late =
      r.log.messages[0].delivered > r.log.messages[1].delivered ? r.log.messages[0] : r.log.messages[1];
  EXPECT_EQ(late.delivered - late.head_injected, uint64_t(alg::CostParams{}.network_cycles(1, 8)) + 10u);
  const MessageDelay& d = r.message_delay[&late == &r.log.messages[0] ? 0 : 1];
  EXPECT_EQ(d.delay.cycles, (std::array<uint64_t, 5>{0, 0, 10, 0, 0}));
  EXPECT_EQ(d.port_wait, 0u);
}

TEST(Contention, TwoReceivesOnAllPortNodeAreFree) {
  const auto r = run(options("all", 2), {{4, 5, 0}, {6, 5, 0}});
  ASSERT_TRUE(r.ok) << r.error;
  for (uint32_t m = 0; m < r.log.messages.size(); ++m) EXPECT_EQ(total(r.message_blocked(m)), 0u);
}

// With two VCs both worms share the channel flit by flit: stepwise again, now
// as switch-allocation losses of body flits, and the channel counters see it.
TEST(Contention, SharedChannelWithTwoVcsIsStepwiseViaSwitchAllocation) {
  const auto r = run(options("one", 2), {{0, 3, 0}, {1, 2, 0}});
  ASSERT_TRUE(r.ok) << r.error;
  const auto a = blocked(r, 0), b = blocked(r, 1);
  EXPECT_GT(a[size_t(Contention::Stepwise)] + b[size_t(Contention::Stepwise)], 0u);
  EXPECT_EQ(a[size_t(Contention::Depth)] + b[size_t(Contention::Depth)], 0u);
  const auto& ch = r.channels.at({1, 0});  // router 1, output +x
  EXPECT_EQ(ch.flits, 18u);
  EXPECT_GT(ch.sa_loss, 0u);
  // Sharing the link flit by flit delays both tails; the delay view charges
  // exactly those cycles, all stepwise, to the other message's packet.
  for (int src : {0, 1}) {
    const MessageDelay& d = delay(r, src);
    EXPECT_EQ(d.delay.total(), lateness(r, src)) << src;
    EXPECT_EQ(d.delay.total(), d.delay.cycles[size_t(Contention::Stepwise)]) << src;
  }
  EXPECT_GT(delay(r, 0).delay.total() + delay(r, 1).delay.total(), 0u);
  // The resource view counts stalls that overlap or are made up again: more than the delay.
  EXPECT_GT(total(blocked(r, 0)) + total(blocked(r, 1)), delay(r, 0).delay.total() + delay(r, 1).delay.total());
}

}  // namespace
}  // namespace wn::fw

namespace wn::fw {
namespace {

// Counters are computed from the network outputs only: the RTL and the model
// give the same numbers (pinned here for each backend in its own process).
FirmwareRunResult backend_run(Backend b) {
  return run(options("one", 2, backend_name(b)), {{0, 3, 0}, {1, 2, 0}, {4, 7, 1}, {5, 7, 1}, {12, 15, 2}});
}
std::string fingerprint(const FirmwareRunResult& r) {
  std::string s;
  for (uint32_t m = 0; m < r.log.messages.size(); ++m) {
    const auto b = r.message_blocked(m);
    s += std::to_string(b[0]) + "/" + std::to_string(b[1]) + "/" + std::to_string(b[2]) + "/" + std::to_string(b[3]) +
         " ";
    const auto& d = r.message_delay[m].delay;
    s += "d" + std::to_string(d.cycles[0]) + "/" + std::to_string(d.cycles[1]) + "/" + std::to_string(d.cycles[2]) +
         "/" + std::to_string(d.cycles[3]) + " ";
    for (const auto& [pid, n] : d.blockers) s += std::to_string(pid) + ":" + std::to_string(n) + " ";
  }
  for (const auto& [k, c] : r.channels)
    s += std::to_string(k.first) + ":" + std::to_string(k.second) + "=" + std::to_string(c.flits) + "," +
         std::to_string(c.blocked) + "," + std::to_string(c.sa_loss) + "," + std::to_string(c.vc_busy[0]) + "," +
         std::to_string(c.vc_busy[1]) + " ";
  return s;
}
TEST(ContentionBackends, ModelAndRtlCountersAreIdentical) {
  // One process runs one elaboration: run the RTL here and compare with a
  // model run in a forked child (run_isolated) so both see the same scenario.
  // The child must fork before this process elaborates.
  const auto j = run_isolated([] { return nlohmann::json(fingerprint(backend_run(Backend::Model))); });
  const auto rtl = backend_run(Backend::Rtl);
  ASSERT_TRUE(rtl.ok) << rtl.error;
  EXPECT_EQ(fingerprint(rtl), j.get<std::string>());
  EXPECT_NE(fingerprint(rtl).find("0/0/0/0"), std::string::npos);  // the scenario has free messages too
}

}  // namespace
}  // namespace wn::fw