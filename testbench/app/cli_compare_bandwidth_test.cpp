// compare's nccl-tests columns (size, time, algbw, busbw with the operation's factor) and --sort.
#include <gtest/gtest.h>

#include <string>

#include "testbench/app/cli_helpers.h"

namespace wn::test {
namespace {

TEST(CompareBandwidth, SizeAndBusFactorPerOperation) {
  const auto d = fresh_dir("cli_compare_bw", "ops");
  const CliRun r = wormnet(
      "compare --topology mesh:4x4 --ports one --profile sp1 --bytes 1024,4096 --algorithm "
      "allreduce,allgather,alltoall,bcast,scan --json " +
      d + "/c.json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rows = read_json(d + "/c.json")["summary"];
  ASSERT_EQ(rows.size(), 10u);
  const double clock_us = 0.48;  // sp1: 480 ns per cycle
  for (const auto& row : rows) {
    const std::string a = row["algorithm"];
    const uint64_t bytes = row["bytes"];
    if (a == "ccl-prefix") {
      EXPECT_FALSE(row.contains("bandwidth")) << row.dump();
      continue;
    }
    const auto& bw = row["bandwidth"];
    const double n = 16, time = row["mean_cycles"].get<double>() * clock_us;
    EXPECT_NEAR(bw["time_us"].get<double>(), time, 1e-6 * time);
    const bool blocks = a == "ccl-concat" || a == "ccl-index";
    EXPECT_EQ(bw["size_bytes"].get<uint64_t>(), blocks ? 16 * bytes : bytes) << a;
    const double factor = a == "ccl-combine" ? 2 * (n - 1) / n : a == "ccl-bcast" ? 1.0 : (n - 1) / n;
    EXPECT_DOUBLE_EQ(bw["busbw_factor"].get<double>(), factor) << a;
    const double algbw = double(bw["size_bytes"].get<uint64_t>()) / time / 1e3;
    EXPECT_NEAR(bw["algbw_GBps"].get<double>(), algbw, 1e-9 * algbw) << a;
    EXPECT_NEAR(bw["busbw_GBps"].get<double>(), algbw * factor, 1e-9 * algbw) << a;
  }
}

// Without --sort rows come as listed (algorithm, then size); --sort time: size, then the fastest first.
TEST(CompareBandwidth, SortOrdersRowsWithinEachSize) {
  const std::string cmd =
      "compare --topology mesh:4x4 --ports one --profile sp1 --bytes 64,65536 --algorithm "
      "allreduce --ccl-alg butterfly,ring,rabenseifner";
  const CliRun plain = wormnet(cmd), sorted = wormnet(cmd + " --sort time");
  ASSERT_EQ(plain.code, 0) << plain.out;
  ASSERT_EQ(sorted.code, 0) << sorted.out;
  auto order = [](const std::string& out) {
    std::vector<std::string> names;
    for (size_t at = out.find("\nccl-combine/"); at != std::string::npos; at = out.find("\nccl-combine/", at + 1))
      names.push_back(out.substr(at + 13, out.find(' ', at) - at - 13));
    return names;
  };
  EXPECT_EQ(order(plain.out),
            (std::vector<std::string>{"butterfly", "butterfly", "ring", "ring", "rabenseifner", "rabenseifner"}));
  // 64 B: butterfly < rabenseifner < ring; 64 KiB: ring < rabenseifner < butterfly (16 ranks, sp1).
  EXPECT_EQ(order(sorted.out),
            (std::vector<std::string>{"butterfly", "rabenseifner", "ring", "ring", "rabenseifner", "butterfly"}));
  expect_config_error(cmd + " --sort fast", "--sort", "allowed: none, time, busbw, name");
}

}  // namespace
}  // namespace wn::test

namespace wn::test {
namespace {

// --topology a,b: every point on each network, the same numbers as one compare per network.
TEST(CompareTopologies, EachNetworkAsItsOwnCompare) {
  const auto d = fresh_dir("cli_compare_bw", "topologies");
  const std::string rest = " --ports one,all --bytes 64,1024 --algorithm allreduce,bcast --json ";
  ASSERT_EQ(wormnet("compare --topology mesh:4x4,cube:3" + rest + d + "/both.json").code, 0);
  ASSERT_EQ(wormnet("compare --topology mesh:4x4" + rest + d + "/mesh.json").code, 0);
  ASSERT_EQ(wormnet("compare --topology cube:3" + rest + d + "/cube.json").code, 0);
  const auto both = read_json(d + "/both.json")["summary"];
  const auto mesh = read_json(d + "/mesh.json")["summary"], cube = read_json(d + "/cube.json")["summary"];
  ASSERT_EQ(both.size(), mesh.size() + cube.size());
  for (size_t i = 0; i < both.size(); ++i) {
    const bool first = i < mesh.size();
    auto row = both[i];
    EXPECT_EQ(row["topology"], first ? "mesh:4x4" : "cube:3");
    row.erase("topology");
    EXPECT_EQ(row.dump(), (first ? mesh[i] : cube[i - mesh.size()]).dump());
  }
  EXPECT_FALSE(mesh[0].contains("topology"));  // one network: rows as before (a baseline still matches)
  expect_config_error("compare --topology mesh:4x4,cube:3 --cost", "--topology", "allowed: one topology");
  expect_config_error("compare --topology mesh:4x4,ring:3", "--topology", "allowed");
}

}  // namespace
}  // namespace wn::test
