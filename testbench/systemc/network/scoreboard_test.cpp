// The scoreboard once delivered packets are released (traffic runs): a late
// duplicate of a released packet is an error naming it, never a read of a
// record that is gone; an id never created is still "unknown".
#include <gtest/gtest.h>

#include <string>

#include "systemc/core/flit.h"
#include "systemc/core/packet.h"
#include "systemc/network/scoreboard.h"

namespace wn {
namespace {

struct Delivered {
  Topology topo = Topology::parse("mesh:2x2");
  PacketStore store;
  Scoreboard sb{topo, store};
  uint32_t id = 0;
  uint64_t head = 0, tail = 0;

  // Packet 0 -> 3 of two flits, delivered and checked, then released; enough
  // later packets pass that its record is really dropped from the store.
  Delivered() {
    PacketRecord p;
    p.src = 0;
    p.dst = 3;
    p.flits = 2;
    id = store.add(p);
    head = flit::make_head(false, topo.address(3), topo.address(0), 0, id);
    tail = flit::make_body(true, expected_payload(id, 1));
    sb.head(3, 0, head, 10);
    EXPECT_FALSE(sb.flit(3, 0, id, 0, head, 10));
    EXPECT_TRUE(sb.flit(3, 0, id, 1, tail, 11));
    store.release(id);
    for (int i = 0; i < 10000; ++i) store.release(store.add(p));
    EXPECT_LT(store.window(), 10000u);
    EXPECT_TRUE(sb.ok());
    EXPECT_EQ(sb.delivered(), 1u);
  }
};

TEST(Scoreboard, LateDuplicateHeadOfAReleasedPacketIsAnError) {
  Delivered d;
  d.sb.head(3, 0, d.head, 50);
  ASSERT_FALSE(d.sb.ok());
  ASSERT_EQ(d.sb.errors().size(), 1u);
  EXPECT_EQ(d.sb.errors()[0], "packet 0 (delivered earlier, record released): head delivered twice (node 3, cycle 50)");
  EXPECT_EQ(d.sb.delivered(), 1u);
}

TEST(Scoreboard, NeverCreatedIdIsStillUnknown) {
  Delivered d;
  const uint32_t stray = uint32_t(d.store.size()) + 5;
  d.sb.head(3, 0, flit::make_head(true, d.topo.address(3), d.topo.address(0), 0, stray), 50);
  ASSERT_EQ(d.sb.errors().size(), 1u);
  EXPECT_NE(d.sb.errors()[0].find("unknown packet"), std::string::npos) << d.sb.errors()[0];
  EXPECT_NE(d.sb.errors()[0].find("carries an unknown id"), std::string::npos) << d.sb.errors()[0];
}

}  // namespace
}  // namespace wn
