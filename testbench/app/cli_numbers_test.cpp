// Decimal means decimal: leading zeros are accepted and read in base 10 on
// the command line and in sweep specs (CLI11 alone would read "017" as octal 15 and refuse "08");
// the refusals are the table cli_bad_input_numbers_test.cpp.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "cli_helpers.h"

namespace {

using wn::test::wormnet;

TEST(CliNumbers, LeadingZerosAreDecimal) {
  const auto r = wormnet("traffic --topology mesh:2x2 --seed 017 --buf 08 --cycles 0100 --warmup 000");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("seed 17\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("buf=8 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(warmup 0, window 100,"), std::string::npos) << r.out;
}

TEST(CliNumbers, LeadingZerosInBytesAndRealOptions) {
  const auto r = wormnet("run --topology mesh:2x2 --bytes 0064 --alpha 010 --copy-cycles 00.5");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("64 bytes/block"), std::string::npos) << r.out;
  const auto same = wormnet("run --topology mesh:2x2 --bytes 64 --alpha 10 --copy-cycles 0.5");
  EXPECT_EQ(r.out, same.out);
}

TEST(CliNumbers, SweepSpecValuesAreDecimal) {
  const std::string dir = std::string(WN_BINARY_DIR) + "/cli_numbers";
  std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str());
  std::ofstream(dir + "/s.yaml") << "command: run\ntopology: mesh:2x2\nbytes: [0064]\nseed: 017\n";
  const auto r = wormnet("sweep " + dir + "/s.yaml --out " + dir + "/s.jsonl");
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream f(dir + "/s.jsonl");
  std::string line;
  std::getline(f, line);
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["config"]["seed"], 17);
  EXPECT_EQ(j["config"]["bytes"], 64);
}

TEST(CliNumbers, SweepRangeInHexIsRefused) {
  const std::string dir = std::string(WN_BINARY_DIR) + "/cli_numbers_hex";
  std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str());
  std::ofstream(dir + "/s.yaml") << "command: run\nbytes: {from: 0x10, to: 64, step: 16}\n";
  wn::test::expect_config_error("sweep " + dir + "/s.yaml --out " + dir + "/s.jsonl", dir + "/s.yaml: bytes",
                                "with finite numbers");
}

TEST(CliNumbers, SweepValueListedTwiceIsRefused) {
  const std::string dir = std::string(WN_BINARY_DIR) + "/cli_numbers_twice";
  std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str());
  std::ofstream(dir + "/s.yaml") << "command: traffic\ntopology: mesh:2x2\nrate: [0.1, 0.1]\ncycles: 100\n";
  wn::test::expect_config_error("sweep " + dir + "/s.yaml --out " + dir + "/s.jsonl", dir + "/s.yaml: points",
                                "allowed: each point once");
}

TEST(CliNumbers, SweepKeyTwiceAndComplexKeyAreRefused) {
  const std::string dir = std::string(WN_BINARY_DIR) + "/cli_numbers_keys";
  std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str());
  std::ofstream(dir + "/a.yaml") << "command: run\ncommand: traffic\n";
  wn::test::expect_config_error("sweep " + dir + "/a.yaml --out " + dir + "/a.jsonl", dir + "/a.yaml: command",
                                "allowed: each key once");
  std::ofstream(dir + "/b.yaml") << "command: run\n? [a, b]\n: 1\n";
  wn::test::expect_config_error("sweep " + dir + "/b.yaml --out " + dir + "/b.jsonl", dir + "/b.yaml: yaml",
                                "allowed: parameter names as keys");
}

}  // namespace
