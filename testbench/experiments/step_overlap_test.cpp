// The step model (algorithms/step_cost.h) against firmware runs where a node has more messages
// than channels: its startups overlap the transfers of the messages it already posted, its
// receives complete as they arrive. With a barrier before every step (the model's "every node
// starts a step together") it is exact.
#include <gtest/gtest.h>

#include <fstream>

#include "experiments/collective_run.h"
#include "experiments/isolated_run.h"

namespace wn::fw {
namespace {

nlohmann::json run(const std::string& topology, const std::string& ports, const std::string& algorithm,
                   const std::string& schedule, uint32_t bytes) {
  return run_isolated([=] {
    ScheduleRunOptions o;
    o.topology = topology;
    o.ports = ports;
    o.net.backend = Backend::Model;
    o.run.profile = find_profile("ideal");
    o.run.profile.alpha = 4;
    o.run.profile.gamma = schedule.empty() ? 0 : 4;
    o.run.barrier = true;
    o.algorithm = algorithm;
    o.schedule = schedule;
    o.bytes = bytes;
    return run_schedule(o).to_json(false);
  });
}

// Node 0 sends 8 words to nodes 1, 4 (1 hop) and 5 (2 hops), which send them back in step 1: the
// schedule of Algorithms.StepModelOverlapsStartupsTransfersAndCompletions, as a file. One port:
// 45 + 42 cycles (hand-computed there), the ejection channel serializing step 1. Three ports: the
// model's 33 + 30 is contention-free, but 5 -> 0 crosses the link 4 -> 0 that 4's own message
// holds; the run reports that as stepwise contention and takes longer.
std::string overlap_file() {
  const std::string path = testing::TempDir() + "/step_overlap.json";
  std::ofstream f(path);
  f << R"({"schema": "wormnet.schedule/1", "name": "overlap", "ranks": 16, "memory_words": 24, "programs": [
    {"rank": 0, "steps": [
      {"step": 0, "sends": [{"dst": 1, "src": [[0, 8]]}, {"dst": 4, "src": [[0, 8]]}, {"dst": 5, "src": [[0, 8]]}]},
      {"step": 1, "recvs": [{"src": 1, "dst": [[0, 8]]}, {"src": 4, "dst": [[8, 8]]}, {"src": 5, "dst": [[16, 8]]}]}]},
    {"rank": 1, "steps": [{"step": 0, "recvs": [{"src": 0, "dst": [[0, 8]]}]},
                          {"step": 1, "sends": [{"dst": 0, "src": [[0, 8]]}]}]},
    {"rank": 4, "steps": [{"step": 0, "recvs": [{"src": 0, "dst": [[0, 8]]}]},
                          {"step": 1, "sends": [{"dst": 0, "src": [[0, 8]]}]}]},
    {"rank": 5, "steps": [{"step": 0, "recvs": [{"src": 0, "dst": [[0, 8]]}]},
                          {"step": 1, "sends": [{"dst": 0, "src": [[0, 8]]}]}]}]})";
  return path;
}

TEST(StepModelOverlap, SerializedSendsAndReceivesAsHandComputed) {
  const std::string file = overlap_file();
  const nlohmann::json one = run("mesh:4x4", "one", "", file, 0);
  ASSERT_TRUE(one["ok"].get<bool>()) << one["error"];
  EXPECT_EQ(one["cycles"], 45 + 42);
  EXPECT_EQ(one["predicted"]["cycles"], 45.0 + 42);
  const nlohmann::json three = run("mesh:4x4", "3", "", file, 0);
  ASSERT_TRUE(three["ok"].get<bool>()) << three["error"];
  EXPECT_EQ(three["predicted"]["cycles"], 33.0 + 30);
  EXPECT_GT(three["cycles"].get<int>(), 33 + 30);
  EXPECT_GT(three["contention"]["stepwise"].get<int>(), 0);
}

// The d cycles on cube:3, 16 bytes a block (messages of 1 and 2 words), alpha = 4: each node sends
// and receives 3 messages a step. All ports: one startup, 7 x (4 + 8) = 84. With fewer ports a
// node posts its next group while the channel streams the previous one: 105 (2 ports) and 133
// (one port); the step model predicted 126 and 182 when it put every startup before the transfers.
TEST(StepModelOverlap, DCyclesOnFewerPortsThanDimensions) {
  for (const auto& [ports, cycles] : {std::pair<std::string, int>{"all", 84}, {"2", 105}, {"one", 133}}) {
    const nlohmann::json j = run("cube:3", ports, "hc-dcycles", "", 16);
    ASSERT_TRUE(j["ok"].get<bool>()) << j["error"];
    EXPECT_EQ(j["cycles"], cycles) << ports;
    EXPECT_EQ(j["predicted"]["cycles"], double(cycles)) << ports;
  }
}

}  // namespace
}  // namespace wn::fw
