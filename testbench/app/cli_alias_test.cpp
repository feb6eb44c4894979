// The operation names MPI and NCCL users type (allreduce, alltoall, ...) as --algorithm: they run
// the algorithm they stand for, and every report carries that algorithm's own name.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "testbench/app/cli_helpers.h"

namespace wn::test {
namespace {

TEST(CliAlias, AnAliasRunsItsAlgorithmUnderItsName) {
  const auto d = fresh_dir("cli_alias", "run");
  for (const auto& [alias, name] : {std::pair<std::string, std::string>{"allreduce", "ccl-combine"},
                                    {"reduce_scatter", "ccl-reduce-scatter"},
                                    {"alltoall", "ccl-index"}}) {
    const CliRun a = wormnet("run --topology mesh:4x4 --bytes 64 --algorithm " + alias + " --json " + d + "/a.json");
    const CliRun b = wormnet("run --topology mesh:4x4 --bytes 64 --algorithm " + name + " --json " + d + "/b.json");
    ASSERT_EQ(a.code, 0) << a.out;
    ASSERT_EQ(b.code, 0) << b.out;
    const auto ja = read_json(d + "/a.json");
    EXPECT_EQ(ja["config"]["algorithm"], name) << alias;
    EXPECT_EQ(ja.dump(), read_json(d + "/b.json").dump()) << alias;
  }
}

TEST(CliAlias, CompareListsTakeAliasesBesideNames) {
  const CliRun r =
      wormnet("compare --topology mesh:4x4 --bytes 64 --ports one --algorithm bcast,rd-broadcast,allgather");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\nccl-bcast "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nccl-concat "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\nbcast "), std::string::npos) << r.out;
}

TEST(CliAlias, SweepPointsCarryTheName) {
  const auto d = fresh_dir("cli_alias", "sweep");
  const auto spec =
      write_file(d + "/s.yaml", "command: run\ntopology: mesh:4x4\nalgorithm: [allreduce, bcast]\nbytes: [64]\n");
  const CliRun r = wormnet("sweep " + spec + " --out " + d + "/r.jsonl");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string lines = slurp(d + "/r.jsonl");
  EXPECT_NE(lines.find("\"algorithm\":\"ccl-combine\""), std::string::npos) << lines;
  EXPECT_NE(lines.find("\"algorithm\":\"ccl-bcast\""), std::string::npos) << lines;
  EXPECT_EQ(lines.find("allreduce"), std::string::npos) << lines;
}

// "Which all-reduce is best for 64 KiB on 64 nodes?": the model picks Rabenseifner (55919 cycles
// measured); the ring measures 40188, exactly its two halves run as baselines (20094 each): where
// the model's pick loses (docs/papers/ccl.md).
TEST(CliAlias, AllreduceOf64KiBOn64Nodes) {
  const auto d = fresh_dir("cli_alias", "ring");
  const std::string net = "--topology mesh:8x8 --profile sp1 --sync free ";
  const CliRun r = wormnet("run " + net + "--algorithm allreduce --bytes 65536 --json " + d + "/a.json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("--ccl-alg auto: rabenseifner has the least"), std::string::npos) << r.out;
  EXPECT_EQ(read_json(d + "/a.json")["cycles"], 55919);
  ASSERT_EQ(wormnet("run " + net + "--algorithm allreduce --ccl-alg ring --bytes 65536 --json " + d + "/r.json").code,
            0);
  const auto j = read_json(d + "/r.json");
  EXPECT_EQ(j["cycles"], 40188);
  EXPECT_EQ(j["data_check"], "PASS");
  // The same halves as CCL operations: the ring reduce-scatter and the ring all-gather.
  for (const char* half :
       {"ring-reduce-scatter", "ring-allgather", "reduce_scatter --ccl-alg ring", "allgather --ccl-alg ring"}) {
    ASSERT_EQ(wormnet("run " + net + "--bytes 1024 --algorithm " + half + " --json " + d + "/h.json").code, 0);
    EXPECT_EQ(read_json(d + "/h.json")["cycles"], 20094) << half;
  }
}

TEST(CliAlias, ListShowsThemAndAnUnknownNameListsThem) {
  const CliRun l = wormnet("list");
  ASSERT_EQ(l.code, 0);
  EXPECT_NE(l.out.find("also: --algorithm allreduce"), std::string::npos) << l.out;
  expect_config_error("run --topology mesh:4x4 --algorithm allreduc", "--algorithm",
                      "reduce_scatter (ccl-reduce-scatter)");
}

}  // namespace
}  // namespace wn::test
