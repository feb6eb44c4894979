// The NI of a run that releases packets on delivery (traffic): two copies of
// one packet stream into the same node at once; when the first completes and
// its record is released, the rest of the second is reported, not read from
// the released record. Each TEST runs in its own process (SystemC).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "systemc/cosim/engine.h"
#include "systemc/cosim/node_module.h"

namespace wn {
namespace {

bool has_error(const Scoreboard& sb, const std::string& what) {
  for (const std::string& e : sb.errors())
    if (e.find(what) != std::string::npos) return true;
  return false;
}

TEST(NetworkInterface, DuplicateStillStreamingWhenTheOriginalIsReleasedIsAnError) {
  const Topology topo = Topology::parse("mesh:2x2");
  NetworkParams prm;
  prm.ej = 2;  // both copies eject at once, on different channels
  Engine engine(topo, prm, EngineOptions{});
  PacketStore& store = engine.store();
  std::vector<std::unique_ptr<NodeModule>> nodes;
  for (int i = 0; i < topo.nodes(); ++i)
    nodes.push_back(std::make_unique<NodeModule>(fmt::format("node{}", i).c_str(), i, engine.network(), store,
                                                 engine.scoreboard()));
  int deliveries = 0;
  nodes[3]->ni.on_delivery = [&](uint32_t id, uint64_t) {
    ++deliveries;
    store.release(id);
  };
  PacketRecord p;
  p.src = 0;
  p.dst = 3;
  p.flits = 16;
  const uint32_t id = store.add(p);
  nodes[0]->ni.post(id);  // two hops away
  nodes[1]->ni.post(id);  // one hop: this copy is ahead by a cycle, the streams overlap
  engine.run(
      [&](uint64_t now) {
        for (auto& n : nodes) n->ni.drive(now);
      },
      [&](uint64_t now) {
        for (int r : engine.network().node_outputs()) nodes[size_t(r)]->ni.collect(now);
        return now + 1 < 200;
      });
  const Scoreboard& sb = engine.scoreboard();
  EXPECT_EQ(deliveries, 1);
  EXPECT_TRUE(store.released(id));
  EXPECT_TRUE(has_error(sb, "head delivered twice")) << fmt::format("{}", fmt::join(sb.errors(), "\n"));
  EXPECT_TRUE(has_error(sb, "after the packet was delivered")) << fmt::format("{}", fmt::join(sb.errors(), "\n"));
  EXPECT_EQ(engine.network().flits_in_network(), 0);
}

// ---- packet ids past 2^24: the flit's msg field wraps (rtl/README.md §1) ----
// 600 packets numbered from 2^24 - 300, released on delivery as in a traffic
// run: half of them carry a tag that wrapped to 0.., yet every head maps back
// to its packet (a wrong mapping is an "unknown id" or "corrupted" error).
void run_across_tag_wrap(Backend backend) {
  const Topology topo = Topology::parse("mesh:4x4");
  NetworkParams prm;
  prm.backend = backend;
  EngineOptions eo;
  eo.first_packet_id = kMsgTags - 300;
  eo.explain_deadlock = true;  // the occupancy shadow follows these ids too
  Engine engine(topo, prm, eo);
  PacketStore& store = engine.store();
  std::vector<std::unique_ptr<NodeModule>> nodes;
  for (int i = 0; i < topo.nodes(); ++i)
    nodes.push_back(std::make_unique<NodeModule>(fmt::format("node{}", i).c_str(), i, engine.network(), store,
                                                 engine.scoreboard()));
  int delivered = 0, wrapped = 0;
  for (auto& n : nodes)
    n->ni.on_delivery = [&](uint32_t id, uint64_t) {
      ++delivered;
      if (id >= kMsgTags) ++wrapped;
      store.release(id);
    };
  uint64_t lcg = 7;
  for (int i = 0; i < 600; ++i) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    PacketRecord p;
    p.src = int((lcg >> 33) % 16);
    p.dst = int((lcg >> 45) % 16);
    p.flits = 1 + int((lcg >> 20) % 4);
    p.step = uint32_t(i);  // beyond 255: the step field wraps too
    p.created = 0;
    nodes[size_t(p.src)]->ni.post(store.add(p));
  }
  engine.run(
      [&](uint64_t now) {
        for (auto& n : nodes) n->ni.drive(now);
      },
      [&](uint64_t now) {
        for (int r : engine.network().node_outputs()) nodes[size_t(r)]->ni.collect(now);
        return delivered < 600 && engine.scoreboard().ok() && now + 1 < 20000;
      });
  const Scoreboard& sb = engine.scoreboard();
  EXPECT_TRUE(sb.ok()) << fmt::format("{}", fmt::join(sb.errors(), "\n"));
  EXPECT_EQ(delivered, 600);
  EXPECT_EQ(wrapped, 300);
  EXPECT_EQ(store.size(), kMsgTags + 300);
}

TEST(NetworkInterface, PacketIdsWrapTheMsgFieldOnTheModel) { run_across_tag_wrap(Backend::Model); }
TEST(NetworkInterface, PacketIdsWrapTheMsgFieldOnTheRtl) { run_across_tag_wrap(Backend::Rtl); }
TEST(NetworkInterface, PacketIdsWrapTheMsgFieldOnLockstep) { run_across_tag_wrap(Backend::Lockstep); }

}  // namespace
}  // namespace wn
