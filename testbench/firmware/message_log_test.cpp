// Message ids are canonical: (issue cycle, source node, the node's program
// order), whatever order the kernel ran the threads in; every recorded id
// follows the renumbering.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace wn::fw
