// `wormnet compare` over lists of algorithms, port models, message sizes and
// sources: every point in the JSON, the per-group means computed from them,
// results independent of -j, and bad lists refused before anything runs.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>

#include "testbench/app/cli_helpers.h"

namespace {

using wn::test::CliRun;
using wn::test::expect_config_error;
using wn::test::read_json;
using wn::test::wormnet;

const std::string kLists =
    "compare --topology mesh:8x8 --algorithm edn-broadcast,rd-broadcast --ports one,3 --bytes 32,2048 "
    "--sources 0,9,63 --profile ncube2";

TEST(CliCompare, EveryPointInOrderAndTheMeansAddUp) {
  const std::string json = std::string(WN_BINARY_DIR) + "/cli_compare_lists.json";
  const CliRun r = wormnet(kLists + " -j 2 --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json(json);
  EXPECT_EQ(j["schema"], "wormnet.compare/3");
  ASSERT_EQ(j["runs"].size(), 2u * 2u * 2u * 3u);
  ASSERT_EQ(j["summary"].size(), 2u * 2u * 2u);
  // Order: algorithm x ports x bytes x source, as given.
  EXPECT_EQ(j["runs"][0]["config"]["algorithm"], "edn-broadcast");
  EXPECT_EQ(j["runs"][0]["config"]["source"], 0);
  EXPECT_EQ(j["runs"][2]["config"]["source"], 63);
  EXPECT_EQ(j["runs"][3]["config"]["bytes"], 2048);
  EXPECT_EQ(j["runs"][6]["config"]["ports"], "3");
  EXPECT_EQ(j["runs"][12]["config"]["algorithm"], "rd-broadcast");
  // Every summary row is the mean over its three sources of the runs' own latencies.
  std::map<std::tuple<std::string, std::string, int>, std::pair<double, double>> sum;
  for (const auto& run : j["runs"]) {
    auto& s = sum[{run["config"]["algorithm"], run["config"]["ports"], run["config"]["bytes"]}];
    s.first += run["latency"]["average_cycles"].get<double>() / 3;
    s.second += run["latency"]["maximum_cycles"].get<double>() / 3;
  }
  for (const auto& g : j["summary"]) {
    const auto& s = sum[{g["algorithm"], g["ports"], g["bytes"]}];
    EXPECT_EQ(g["sources"], 3);
    EXPECT_EQ(g["data_ok"], 3);
    EXPECT_NEAR(g["latency_cycles"]["mean_average"].get<double>(), s.first, 1e-6) << g;
    EXPECT_NEAR(g["latency_cycles"]["mean_maximum"].get<double>(), s.second, 1e-6) << g;
    EXPECT_GT(s.second, 0);
  }
  EXPECT_NE(r.out.find("avg-lat-us"), std::string::npos) << r.out;
}

TEST(CliCompare, ResultsDoNotDependOnJobs) {
  const std::string a = std::string(WN_BINARY_DIR) + "/cli_compare_j1.json",
                    b = std::string(WN_BINARY_DIR) + "/cli_compare_j2.json";
  const CliRun r1 = wormnet(kLists + " -j 1 --json " + a), r2 = wormnet(kLists + " -j 2 --json " + b);
  ASSERT_EQ(r1.code, 0) << r1.out;
  ASSERT_EQ(r2.code, 0) << r2.out;
  EXPECT_EQ(r1.out, r2.out);
  EXPECT_EQ(read_json(a).dump(), read_json(b).dump());
}

// random:N draws N distinct sources from the seed; the same seed draws the same ones.
TEST(CliCompare, RandomSourcesAreSeededAndDistinct) {
  const std::string base =
      "compare --topology torus:4x4 --algorithm edn-broadcast --ports all --bytes 16 "
      "--sources random:5 --json " +
      std::string(WN_BINARY_DIR) + "/cli_compare_rand.json --seed ";
  auto sources = [&](int seed) {
    const CliRun r = wormnet(base + std::to_string(seed));
    EXPECT_EQ(r.code, 0) << r.out;
    std::vector<int> out;
    const auto j = read_json(std::string(WN_BINARY_DIR) + "/cli_compare_rand.json");
    for (const auto& run : j["runs"]) out.push_back(run["config"]["source"].get<int>());
    return out;
  };
  const auto s3 = sources(3), again = sources(3), s4 = sources(4);
  ASSERT_EQ(s3.size(), 5u);
  EXPECT_EQ(s3, again);
  EXPECT_NE(s3, s4);
  for (size_t i = 1; i < s3.size(); ++i) EXPECT_LT(s3[i - 1], s3[i]);
}

TEST(CliCompare, AllSources) {
  const CliRun r = wormnet("compare --topology mesh:4x4 --algorithm edn-broadcast --ports 3 --bytes 16 --sources all");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("all (16 sources)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("   16 "), std::string::npos) << r.out;
}

TEST(CliCompare, BadListsAreRefused) {
  const std::string c = "compare --topology mesh:8x8 --algorithm rd-broadcast ";
  expect_config_error(c + "--sources 64", "--sources", "allowed: node ids 0..63");
  expect_config_error(c + "--sources 1,1", "--sources", "names a node twice");
  expect_config_error(c + "--sources random:0", "--sources", "random:N with N in 1..64");
  expect_config_error(c + "--sources random:65", "--sources", "random:N with N in 1..64");
  expect_config_error(c + "--sources some", "--sources", "all, or random:N");
  expect_config_error(c + "--bytes 32,x", "--bytes", "multiples of 4");
  expect_config_error(c + "--bytes 30", "--bytes", "multiples of 4");
  expect_config_error(c + "--bytes 32,,64", "--bytes", "");
  expect_config_error(c + "-j 0", "--jobs", "allowed: an integer 1..1024");
}

}  // namespace

namespace {

// Family flags given as lists: every algorithm runs once per value (variants), labelled algorithm/value.
TEST(CliCompare, FamilyFlagListsMakeVariants) {
  const std::string json = std::string(WN_BINARY_DIR) + "/cli_compare_variants.json";
  const CliRun r = wn::test::wormnet(
      "compare --topology cube:4 --algorithm bruck-index,direct-alltoall --radix 2,16 "
      "--ports one --bytes 16 --json " +
      json);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("bruck-index/2 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bruck-index/16 "), std::string::npos) << r.out;
  const auto j = wn::test::read_json(json);
  ASSERT_EQ(j["summary"].size(), 3u);  // bruck-index x 2 radices, direct-alltoall (reads no --radix) once
  EXPECT_EQ(j["summary"][0]["variant"], "bruck-index/2");
  EXPECT_EQ(j["summary"][1]["options"]["--radix"], "16");
  EXPECT_EQ(j["summary"][2]["variant"], "direct-alltoall");
  // r = n is the direct exchange: the same cycles as direct-alltoall.
  EXPECT_EQ(j["summary"][1]["mean_cycles"], j["summary"][2]["mean_cycles"]);
  EXPECT_EQ(j["runs"][0]["predicted"]["steps"], 4);   // r = 2: ceil(log2 16)
  EXPECT_EQ(j["runs"][1]["predicted"]["steps"], 15);  // r = 16: n - 1
}

}  // namespace

namespace {

// --mem-words-per-cycle as a list: each port model once per memory port rate, in that order, the
// rows labelled "ports mem=rate"; one word per cycle holds the all-port d cycles to the memory
// bound (cube:3, 8 words a node: 7 steps x (8 + 8) words = 112 cycles), unlimited does not.
TEST(CliCompare, MemoryPortRatesAreRowsOfTheirOwn) {
  const std::string json = std::string(WN_BINARY_DIR) + "/cli_compare_mem.json";
  const CliRun r = wormnet(
      "compare --topology cube:3 --algorithm hc-dcycles --ports one,all --bytes 32 "
      "--mem-words-per-cycle 1,all --json " +
      json);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("all mem=1"), std::string::npos) << r.out;
  const auto j = read_json(json);
  ASSERT_EQ(j["summary"].size(), 4u);
  EXPECT_EQ(j["summary"][0]["ports"], "one mem=1");
  EXPECT_EQ(j["summary"][1]["ports"], "one mem=all");
  EXPECT_EQ(j["summary"][2]["ports"], "all mem=1");
  EXPECT_EQ(j["summary"][2]["mem_words_per_cycle"], 1.0);
  EXPECT_EQ(j["summary"][3]["mem_words_per_cycle"], 0.0);
  EXPECT_EQ(j["runs"][2]["config"]["ports"], "all");
  EXPECT_EQ(j["runs"][2]["config"]["profile"]["mem_words_per_cycle"], 1.0);
  EXPECT_EQ(j["runs"][2]["cycles"], 112);
  EXPECT_EQ(j["runs"][2]["predicted"]["cycles"], 112.0);
  EXPECT_LT(j["runs"][3]["cycles"].get<int>(), 112);
  EXPECT_GT(j["summary"][2]["mean_delay"]["memory"].get<double>(), 0);
  EXPECT_FALSE(j["runs"][3]["config"]["profile"].contains("mem_words_per_cycle"));
}

}  // namespace
