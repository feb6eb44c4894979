// The EDN thesis's trends (Tsai's thesis): orderings
// and agreement with the thesis's own formula tables, measured on the model
// (one simulation per process). Never wall-clock: cycles and latencies only.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "experiments/collective_run.h"
#include "experiments/isolated_run.h"

namespace wn::fw {
namespace {

struct Point {
  std::string topology, algo, ports = "3", profile = "ncube2";
  uint32_t bytes = 2048;
  int source = 0;
  int alpha = -1;       // >= 0: override alpha = gamma (cycles)
  double clock_ns = 0;  // > 0: override
};

nlohmann::json run(const Point& p) {
  const nlohmann::json j = run_isolated([=] {
    ScheduleRunOptions o;
    o.topology = p.topology;
    o.algorithm = p.algo;
    o.ports = p.ports;
    o.bytes = p.bytes;
    o.source = std::to_string(p.source);
    o.net.backend = Backend::Model;
    o.run.profile = find_profile(p.profile);
    if (p.alpha >= 0) o.run.profile.alpha = o.run.profile.gamma = uint32_t(p.alpha);
    if (p.clock_ns > 0) o.run.profile.clock_ns = p.clock_ns;
    return run_schedule(o).to_json(false);
  });
  EXPECT_TRUE(j["ok"].get<bool>()) << p.algo << " on " << p.topology << ": " << j["error"] << j["data_error"];
  EXPECT_EQ(j["contention"]["stepwise"].get<uint64_t>(), 0u) << p.algo << " on " << p.topology;
  return j;
}

// The mean over `sources` of the maximum latency, in us.
double mean_max_us(Point p, const std::vector<int>& sources) {
  double sum = 0;
  for (int s : sources) {
    p.source = s;
    sum += run(p)["latency"]["maximum_us"].get<double>();
  }
  return sum / double(sources.size());
}

// The thesis's Ch-3 mesh formulas evaluated for the nCUBE-2 (alpha = gamma = 85 us, our split of its
// 170 us; 0.45 us/byte; not values read from its plots): our cycle-accurate
// mean maximum latency over corner, interior and far-corner sources stays within 5% of them, and the
// thesis's orderings hold: RD wins at 32 bytes on 8x8 (crossover ~94 B), EDN at 2048 B, more so on 32x32.
TEST(EdnTrends, MeshNcube2AgainstTheThesisFormulas) {
  const std::vector<int> s8 = {0, 27, 63}, s32 = {0, 528, 1023};
  const double edn8_32 = mean_max_us({"mesh:8x8", "edn-broadcast", "3", "ncube2", 32}, s8);
  const double rd8_32 = mean_max_us({"mesh:8x8", "rd-broadcast", "3", "ncube2", 32}, s8);
  const double edn8 = mean_max_us({"mesh:8x8", "edn-broadcast"}, s8),
               rd8 = mean_max_us({"mesh:8x8", "rd-broadcast"}, s8);
  const double edn32 = mean_max_us({"mesh:32x32", "edn-broadcast"}, s32);
  const double rd32 = mean_max_us({"mesh:32x32", "rd-broadcast"}, s32);
  EXPECT_NEAR(edn8_32, 1162.6, 0.05 * 1162.6);
  EXPECT_NEAR(rd8_32, 1106.4, 0.05 * 1106.4);
  EXPECT_NEAR(edn8, 4791.4, 0.05 * 4791.4);
  EXPECT_NEAR(rd8, 6549.6, 0.05 * 6549.6);
  EXPECT_NEAR(edn32, 7314.6, 0.05 * 7314.6);
  EXPECT_NEAR(rd32, 10916.0, 0.05 * 10916.0);
  EXPECT_LT(rd8_32, edn8_32);
  EXPECT_LT(edn8, rd8);
  EXPECT_GT(rd32 / edn32, rd8 / edn8) << "EDN's advantage grows with the mesh";
}

// Fig 4.14 / Eqs 4.1-4.2: EDN vs U-torus at 0.5 us/byte (4-byte flits at 2000 ns/cycle), alpha = gamma
// = 0 and 100 us (50 cycles); the torus is vertex-transitive, so source 0 stands for all. The thesis
// charges a hop one byte time (0.5 us); our router's pipeline takes 3 cycles (6 us) per hop and 3
// cycles per message for head and ejection, so we measure up to ~7% above the formulas' values (32x32, alpha
// 0: 5488 vs 5141 us) while the formula in the network's units (the run's "paper" line) holds to 3%.
TEST(EdnTrends, TorusAgainstEq41And42) {
  struct Row {
    const char* topo;
    int alpha;
    double edn, utorus;  // Eqs 4.1 / 4.2 evaluated, L = 2048
  };
  for (const Row& r : {Row{"torus:4x4", 0, 2050, 4099}, Row{"torus:32x32", 0, 5141, 10271},
                       Row{"torus:4x4", 50, 2850, 4899}, Row{"torus:32x32", 50, 7141, 12271}}) {
    Point p{r.topo, "edn-broadcast", "all", "ideal", 2048, 0, r.alpha, 2000};
    const nlohmann::json e = run(p);
    p.algo = "rd-broadcast";
    const nlohmann::json u = run(p);
    const double edn = e["latency"]["maximum_us"].get<double>(), ut = u["latency"]["maximum_us"].get<double>();
    EXPECT_NEAR(edn, r.edn, 0.08 * r.edn) << r.topo << " alpha " << r.alpha;
    EXPECT_NEAR(ut, r.utorus, 0.08 * r.utorus) << r.topo << " alpha " << r.alpha;
    EXPECT_GT(edn, r.edn) << "the router's hop and head cycles only add";
    EXPECT_NEAR(e["predicted"]["paper"]["measured_over_paper"].get<double>(), 1.0, 0.03) << r.topo;
    EXPECT_NEAR(u["predicted"]["paper"]["measured_over_paper"].get<double>(), 1.0, 0.03) << r.topo;
    EXPECT_LT(edn, ut) << r.topo;
  }
}

// EDN needs 3 injection channels: on one port its sends serialize (port contention, slower);
// RD sends one message per step and is the same on one port and three.
TEST(EdnTrends, OnePortCostsEdnNotRd) {
  Point p{"mesh:16x16", "edn-broadcast", "one"};
  p.source = 100;
  const nlohmann::json edn1 = run(p);
  p.ports = "3";
  const nlohmann::json edn3 = run(p);
  EXPECT_GT(edn1["cycles"].get<uint64_t>(), edn3["cycles"].get<uint64_t>());
  EXPECT_GT(edn1["contention"]["port"].get<uint64_t>(), 0u);
  EXPECT_EQ(edn3["contention"]["port"].get<uint64_t>(), 0u);
  p.algo = "rd-broadcast";
  const uint64_t rd3 = run(p)["cycles"].get<uint64_t>();
  p.ports = "one";
  EXPECT_EQ(run(p)["cycles"].get<uint64_t>(), rd3);
}

// Depth contention (messages of different steps in flight together) on 32x32 exists but is small
// (the thesis: "its effect is small"): under one cycle per message on average, with the nCUBE-2's
// startups and with none (e.g. mesh, nCUBE-2: 186 cycles over 1023 messages from the corner, 31
// from the centre); stepwise is always 0.
TEST(EdnTrends, DepthContentionOn32x32IsSmall) {
  for (const char* topo : {"mesh:32x32", "torus:32x32"})
    for (int src : {0, 528})
      for (const char* profile : {"ncube2", "ideal"}) {
        const nlohmann::json j = run({topo, "edn-broadcast", "all", profile, 256, src});
        const double depth = j["contention"]["depth"].get<double>();
        EXPECT_LT(depth / j["messages"].get<double>(), 1.0) << topo << " source " << src << " " << profile;
      }
}

}  // namespace
}  // namespace wn::fw
