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

}  // namespace
}  // namespace wn
