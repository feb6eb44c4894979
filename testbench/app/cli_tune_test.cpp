// `wormnet tune` and `--ccl-alg tuned --tuning FILE`: every candidate measured, the table's ranges
// from the measured winners, a rerun that runs nothing, and a table refused where it was not
// measured.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "testbench/app/cli_helpers.h"

namespace wn::test {
namespace {

const std::string kNet = "--topology mesh:4x4 --profile sp1 ";

// The winner of each size is the least cycles among its results, and the ranges follow the winners.
TEST(CliTune, TheTableHoldsTheMeasuredWinners) {
  const auto d = fresh_dir("cli_tune", "table");
  const CliRun r =
      wormnet("tune " + kNet + "--bytes 8,4096,65536 -j 2 --out " + d + "/r.jsonl --json " + d + "/t.json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto t = read_json(d + "/t.json");
  EXPECT_EQ(t["schema"], "wormnet.tuning/1");
  EXPECT_TRUE(t.contains("wormnet"));
  ASSERT_EQ(t["sizes"].size(), 3u);
  std::vector<std::string> winners;
  for (const auto& s : t["sizes"]) {
    uint64_t least = UINT64_MAX;
    std::set<std::string> algs;
    size_t dbtree = 0;
    for (const auto& m : s["results"]) {
      ASSERT_TRUE(m["ok"].get<bool>()) << m.dump();
      least = std::min(least, m["cycles"].get<uint64_t>());
      algs.insert(m["options"]["--ccl-alg"].get<std::string>());
      dbtree += m["options"]["--ccl-alg"] == "dbtree";
    }
    // Every algorithm of the operation (16 ranks: all nine), hybrid with kappa 1..3, the double
    // binary tree's halves whole and in 2, 4, ... 1024 chunks of at least a word (8 B: whole only).
    EXPECT_EQ(algs.size(), 9u) << s.dump();
    EXPECT_EQ(s["results"].size() - dbtree, 10u) << s.dump();
    EXPECT_EQ(dbtree, s["bytes"] == 8 ? 1u : s["bytes"] == 4096 ? 10u : 11u) << s.dump();
    EXPECT_EQ(s["best"]["cycles"].get<uint64_t>(), least);
    EXPECT_GE(s["runner_up"]["cycles"].get<uint64_t>(), least);
    EXPECT_GE(s["auto_over_best"].get<double>(), 1.0);
    winners.push_back(s["best"]["choice"]);
  }
  // Ranges: consecutive equal winners merge, each bounded by its size, the last open.
  const auto& ranges = t["table"];
  ASSERT_GE(ranges.size(), 1u);
  EXPECT_TRUE(ranges.back()["max_bytes"].is_null());
  EXPECT_EQ(ranges.back()["choice"], winners.back());
  EXPECT_EQ(ranges.front()["choice"], winners.front());
  // The 64 KiB winner on 16 ranks is the 2D ring on the mesh's rows and columns (31464 cycles,
  // pinned; the ring 32604), the model's pick Rabenseifner.
  EXPECT_EQ(t["sizes"][2]["best"]["choice"], "ring-2d");
  EXPECT_EQ(t["sizes"][2]["best"]["cycles"], 31464);
  EXPECT_EQ(t["sizes"][2]["auto"], "rabenseifner");

  // A rerun runs nothing and writes the same table, byte for byte.
  const CliRun again =
      wormnet("tune " + kNet + "--bytes 8,4096,65536 -j 1 --out " + d + "/r.jsonl --json " + d + "/t2.json");
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_NE(again.out.find("52 runs at 3 sizes, 52 in"), std::string::npos) << again.out;
  EXPECT_EQ(slurp(d + "/t.json"), slurp(d + "/t2.json"));

  // --ccl-alg tuned runs the table's pick for the run's size.
  const CliRun tuned = wormnet("run " + kNet + "--algorithm allreduce --bytes 65536 --ccl-alg tuned --tuning " + d +
                               "/t.json --json " + d + "/run.json");
  ASSERT_EQ(tuned.code, 0) << tuned.out;
  EXPECT_NE(tuned.out.find("--ccl-alg tuned: ring-2d from"), std::string::npos) << tuned.out;
  EXPECT_EQ(read_json(d + "/run.json")["cycles"], 31464);
}

TEST(CliTune, KnobListsAreCrossedOnlyWithTheirAlgorithm) {
  const auto d = fresh_dir("cli_tune", "knobs");
  const CliRun r = wormnet("tune " + kNet +
                           "--algorithm bcast --ccl-alg binomial,nesbt --packet 0,64,256 --bytes 1024 "
                           "--out " +
                           d + "/r.jsonl --json " + d + "/t.json");
  ASSERT_EQ(r.code, 0) << r.out;
  std::multiset<std::string> seen;
  const auto t = read_json(d + "/t.json");
  for (const auto& m : t["sizes"][0]["results"]) seen.insert(m["choice"].get<std::string>());
  EXPECT_EQ(seen.size(), 4u);
  for (const char* c : {"binomial", "nesbt/packet=0", "nesbt/packet=64", "nesbt/packet=256"})
    EXPECT_EQ(seen.count(c), 1u) << c;
}

TEST(CliTune, ATableIsRefusedWhereItWasNotMeasured) {
  const auto d = fresh_dir("cli_tune", "refuse");
  ASSERT_EQ(wormnet("tune " + kNet + "--bytes 64 --out " + d + "/r.jsonl --json " + d + "/t.json").code, 0);
  const std::string t = " --ccl-alg tuned --tuning " + d + "/t.json";
  struct Case {
    std::string args, says;
  };
  for (const Case& c : {Case{"--topology torus:4x4 --profile sp1 --algorithm allreduce", "topology mesh:4x4"},
                        Case{kNet + "--algorithm bcast", "operation ccl-combine"},
                        Case{kNet + "--algorithm allreduce --ports all", "ports 1"},
                        Case{kNet + "--algorithm allreduce --op max", "operator sum"},
                        Case{"--topology mesh:4x4 --profile t3d --algorithm allreduce", "a profile with"},
                        Case{kNet + "--algorithm allreduce --group 0,1,2,3", "a group of 16"}}) {
    const CliRun r = wormnet("run --bytes 64 " + c.args + t);
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_NE(r.out.find("--tuning"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(c.says), std::string::npos) << r.out;
  }
  const auto bad = write_file(d + "/bad.json", "{\"schema\": \"wormnet.tuning/1\", \"scope\": 3}");
  const CliRun b = wormnet("run --bytes 64 " + kNet + "--algorithm allreduce --ccl-alg tuned --tuning " + bad);
  EXPECT_EQ(b.code, 2);
  EXPECT_NE(b.out.find("--tuning: " + bad + ": scope"), std::string::npos) << b.out;
  EXPECT_EQ(wormnet("run --bytes 64 " + kNet + "--algorithm allreduce --ccl-alg tuned").code, 2);
  EXPECT_EQ(wormnet("run --bytes 64 " + kNet + "--algorithm allreduce --tuning " + d + "/t.json").code, 2);
}

TEST(CliTune, BadInputIsOneLineBeforeAnyRun) {
  const auto d = fresh_dir("cli_tune", "bad");
  // Nothing runs and no results file is made: the error is the only line.
  for (const std::string& args :
       {std::string("--bytes 64 --algorithm ccl-combine,ccl-bcast"), std::string("--bytes 64 --algorithm rd-broadcast"),
        std::string("--bytes 64 --ports one,all"), std::string("--bytes 64 --ccl-alg nesbt"), std::string("--bytes 6"),
        std::string("--bytes 64 --partition row"),
        std::string("--bytes 64 --algorithm bcast --ccl-alg nesbt --packet 6"),
        std::string("--bytes 64 --sources 0,1")}) {
    const CliRun r = wormnet("tune " + kNet + "--out " + d + "/r.jsonl " + args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_EQ(r.out.rfind("error: --", 0), 0u) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
  EXPECT_FALSE(std::filesystem::exists(d + "/r.jsonl"));
}

}  // namespace
}  // namespace wn::test
