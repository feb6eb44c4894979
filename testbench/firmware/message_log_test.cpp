// Message ids are canonical: (issue cycle, source node, the node's program
// order), whatever order the kernel ran the threads in; every recorded id
// follows the renumbering.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "firmware/message_log.h"

namespace wn::fw {
namespace {

MessageRecord msg(int src, int dst, uint64_t issued) {
  MessageRecord m;
  m.src = src;
  m.dst = dst;
  m.issued = issued;
  return m;
}

TEST(MessageLog, RenumberOrdersByIssueCycleThenSourceThenProgramOrder) {
  MessageLog log;
  // As threads waking in the same ns might have sent them: node 5 ran before node 2.
  log.messages = {msg(5, 0, 10), msg(2, 7, 10), msg(5, 1, 10), msg(9, 3, 4), msg(2, 8, 12)};
  log.message_of_packet = {0, 0, 1, 2, 3, 4, UINT32_MAX};
  std::vector<PacketRecord> packets(7);
  for (size_t p = 0; p < packets.size(); ++p) packets[p].message = log.message_of_packet[p];
  log.renumber(packets);
  // New order: (4, 9), (10, 2), (10, 5, first), (10, 5, second), (12, 2).
  ASSERT_EQ(log.messages.size(), 5u);
  const std::vector<std::pair<int, int>> want = {{9, 3}, {2, 7}, {5, 0}, {5, 1}, {2, 8}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(log.messages[i].src, want[i].first) << i;
    EXPECT_EQ(log.messages[i].dst, want[i].second) << i;
  }
  const std::vector<uint32_t> of_packet = {2, 2, 1, 3, 0, 4, UINT32_MAX};
  EXPECT_EQ(log.message_of_packet, of_packet);
  for (size_t p = 0; p < packets.size(); ++p) EXPECT_EQ(packets[p].message, of_packet[p]) << p;
}

TEST(MessageLog, RenumberKeepsACanonicalLogAsItIs) {
  MessageLog log;
  log.messages = {msg(0, 1, 3), msg(1, 0, 3), msg(0, 2, 5)};
  log.message_of_packet = {0, 1, 2};
  std::vector<PacketRecord> packets(3);
  for (size_t p = 0; p < 3; ++p) packets[p].message = uint32_t(p);
  log.renumber(packets);
  EXPECT_EQ(log.messages[1].src, 1);
  EXPECT_EQ(log.message_of_packet, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(packets[2].message, 2u);
}

// Many messages in a shuffled order: the log is sorted in place, cycle by cycle of the
// permutation; the result is what a stable sort gives, and every packet follows its message.
TEST(MessageLog, RenumberOfALongShuffledLogIsAStableSort) {
  std::mt19937 rng(3);
  MessageLog log;
  for (int i = 0; i < 5000; ++i) {
    log.messages.push_back(msg(int(rng() % 50), i, rng() % 200));
    log.messages.back().words = uint32_t(i);  // identity: the message's original id
  }
  std::vector<uint32_t> want(log.messages.size());
  std::iota(want.begin(), want.end(), 0u);
  std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) {
    const MessageRecord &x = log.messages[a], &y = log.messages[b];
    return x.issued != y.issued ? x.issued < y.issued : x.src < y.src;
  });
  for (uint32_t m = 0; m < log.messages.size(); ++m) log.message_of_packet.push_back(m);
  std::vector<PacketRecord> packets(log.messages.size());
  for (size_t p = 0; p < packets.size(); ++p) packets[p].message = uint32_t(p);
  log.renumber(packets);
  for (uint32_t i = 0; i < want.size(); ++i) ASSERT_EQ(log.messages[i].words, want[i]) << i;
  for (uint32_t p = 0; p < packets.size(); ++p) {
    EXPECT_EQ(log.messages[log.message_of_packet[p]].words, p) << p;
    EXPECT_EQ(packets[p].message, log.message_of_packet[p]) << p;
  }
}

}  // namespace
}  // namespace wn::fw
