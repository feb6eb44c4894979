// --threads: a cycle's routers evaluated on several threads give the same report, byte for byte,
// for every thread count, on every backend, for synthetic traffic and for collectives (whose
// delay view and resource view read every flit the routers move).
#include <string>

#include "testbench/app/cli_helpers.h"

namespace wn::test {
namespace {

struct Threaded {
  std::string json;
  std::string out;
};

Threaded run_with(const std::string& args, int threads, const std::string& dir) {
  const std::string json = dir + "/t" + std::to_string(threads) + ".json";
  const CliRun r = wormnet(args + " --threads " + std::to_string(threads) + " --json " + json);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  return {slurp(json), r.out};
}

// `args` with 1, 2 and 3 threads: the same JSON. `used`: the text must say that the run used that
// many threads (a network too small for them would make the comparison vacuous).
void expect_identical(const std::string& name, const std::string& args, bool traffic) {
  const std::string dir = fresh_dir("cli_threads", name);
  const Threaded one = run_with(args, 1, dir);
  ASSERT_GT(one.json.size(), 100u) << one.out;
  for (int t : {2, 3}) {
    const Threaded x = run_with(args, t, dir);
    EXPECT_EQ(x.json, one.json) << args << " --threads " << t;
    if (traffic) EXPECT_NE(x.out.find(", " + std::to_string(t) + " threads)"), std::string::npos) << x.out;
  }
  if (traffic) EXPECT_NE(one.out.find(", 1 thread)"), std::string::npos) << one.out;
}

TEST(CliThreads, TrafficModelTorus32x32) {
  expect_identical("model_torus", "traffic --topology torus:32x32 --rate 0.4 --cycles 500 --warmup 100 --seed 3", true);
}

TEST(CliThreads, TrafficModelAllPortCube10) {
  expect_identical("model_cube", "traffic --topology cube:10 --ports all --rate 0.5 --cycles 600 --warmup 100", true);
}

TEST(CliThreads, TrafficRtlMesh8x8) {
  expect_identical("rtl_mesh", "traffic --topology mesh:8x8 --backend rtl --rate 0.45 --cycles 1500 --warmup 100",
                   true);
}

TEST(CliThreads, TrafficLockstepTorus8x8) {
  expect_identical("lockstep_torus",
                   "traffic --topology torus:8x8 --backend lockstep --ports all --vcs 4 --rate 0.6 --cycles 800", true);
}

// A contended collective: every message's delay and every channel's blocking must agree too.
TEST(CliThreads, RunDirectAllToAllRtlMesh8x8) {
  expect_identical("run_rtl", "run --topology mesh:8x8 --backend rtl --algorithm direct-alltoall --bytes 32", false);
}

// 990 of 992 messages delayed by stepwise contention (XY routes of the transpose).
TEST(CliThreads, RunTransposeModelMesh32x32) {
  expect_identical("run_model", "run --topology mesh:32x32 --algorithm direct-transpose --bytes 256", false);
}

TEST(CliThreads, OutOfRangeIsRefused) {
  expect_config_error("traffic --threads 0", "--threads", "allowed: an integer 1..256");
  expect_config_error("run --algorithm rd-broadcast --threads x", "--threads", "allowed: an integer 1..256");
}

}  // namespace
}  // namespace wn::test
