// Checked before the first cycle: every variant of a compare list, every point
// of a sweep spec (traffic too), every results file read; and a failed run says why on stderr.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "cli_helpers.h"

namespace {

using wn::test::expect_config_error;
using wn::test::wormnet;

std::string dir_for(const std::string& name) { return wn::test::fresh_dir("cli_upfront_test", name); }

// The bad value is the third of a list: nothing runs, no row is printed.
TEST(CliUpfront, CompareRefusesABadVariantBeforeAnyRun) {
  const auto r = wormnet("compare --topology mesh:4x4 --algorithm bruck-index --radix 2,3,0 --ports one --bytes 16");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: --radix: '0' is not allowed"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("bruck-index "), std::string::npos) << "a row was printed before the error:\n" << r.out;
}

TEST(CliUpfront, TrafficSweepPointsAreCheckedBeforeTheFirst) {
  const auto d = dir_for("traffic");
  std::ofstream(d + "/s.yaml") << "command: traffic\ntopology: torus:4x4\nvcs: [2, 3]\ncycles: 100\nwarmup: 0\n";
  expect_config_error("sweep " + d + "/s.yaml --out " + d + "/s.jsonl", d + "/s.yaml: point 1", "--vcs: 3 is odd");
  std::ifstream f(d + "/s.jsonl");
  EXPECT_FALSE(f.good()) << "a point ran before the bad one was refused";
}

TEST(CliUpfront, TrafficSweepRateAbovePacketFlitsIsRefused) {
  const auto d = dir_for("rate");
  std::ofstream(d + "/s.yaml") << "command: traffic\ntopology: mesh:2x2\nrate: [0.5, 5]\npacket-flits: 4\n";
  expect_config_error("sweep " + d + "/s.yaml --out " + d + "/s.jsonl", d + "/s.yaml: point 1",
                      "allowed: 0..packet-flits");
}

TEST(CliUpfront, GarbageInAResultsFileIsAnErrorNotDropped) {
  const auto d = dir_for("garbage");
  std::ofstream(d + "/g.jsonl") << "{\"key\": \"a\", \"ok\": true}\nnot json\n{\"key\": \"b\", \"ok\": true}\n";
  expect_config_error("sweep --summarize " + d + "/g.jsonl", d + "/g.jsonl: line 2", "allowed: a results file");
  expect_config_error("sweep --merge " + d + "/g.jsonl --out " + d + "/m.jsonl", d + "/g.jsonl: line 2",
                      "allowed: a results file");
  // A key of the wrong type is no result either (it reached the JSON library before).
  std::ofstream(d + "/k.jsonl") << "{\"key\": 5, \"ok\": true}\n";
  expect_config_error("sweep --summarize " + d + "/k.jsonl", d + "/k.jsonl: line 1", "allowed: a results file");
}

TEST(CliUpfront, ATornLastLineIsTolerated) {
  const auto d = dir_for("torn");
  std::ofstream(d + "/s.yaml") << "command: traffic\ntopology: mesh:2x2\nrate: [0.1, 0.2]\ncycles: 100\nwarmup: 0\n";
  ASSERT_EQ(wormnet("sweep " + d + "/s.yaml --out " + d + "/s.jsonl").code, 0);
  std::ofstream(d + "/s.jsonl", std::ios::app) << "{\"key\": \"torn";  // a writer killed mid-line
  const auto r = wormnet("sweep --summarize " + d + "/s.jsonl --by rate");
  EXPECT_EQ(r.code, 0) << r.out;
}

// A run that fails inside compare: the table says so, and stderr has the one line scripts read.
TEST(CliUpfront, CompareFailureIsOnStderr) {
  const std::string err = std::string(WN_BINARY_DIR) + "/cli_upfront_compare.err";
  const int status = std::system((std::string(WN_BINARY_DIR) +
                                  "/wormnet compare --topology mesh:4x4 --algorithm "
                                  "rd-broadcast --max-cycles 5 --ports one --bytes 16 >/dev/null 2>" +
                                  err)
                                     .c_str());
  EXPECT_EQ(WEXITSTATUS(status), 1);
  std::ifstream f(err);
  std::string line, rest;
  std::getline(f, line);
  EXPECT_NE(line.find("error: 1 of 1 runs failed; the first: rd-broadcast"), std::string::npos) << line;
  EXPECT_NE(line.find("--max-cycles 5"), std::string::npos) << line;
  EXPECT_FALSE(std::getline(f, rest)) << "more than one line on stderr";
}

}  // namespace
