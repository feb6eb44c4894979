// Firmware of your own as a plugin (docs/own-firmware.md): `wormnet run --firmware` gives the
// in-tree program's cycles with the full report, `compare --firmware` runs it per port model,
// and a library that cannot run is refused in one line naming --firmware (exit 2).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "testbench/app/cli_helpers.h"

namespace {

using wn::test::expect_config_error;
using wn::test::read_json;
using wn::test::wormnet;

const std::string kDir = WN_BINARY_DIR;
const std::string kPlugin = kDir + "/libccl_grid_plugin.so";

// The cycles line of build/ccl_example (the same firmware linked into its own program).
uint64_t standalone_cycles(const std::string& args) {
  FILE* p = popen((kDir + "/ccl_example " + args).c_str(), "r");
  char line[256] = {0};
  const bool got = p && fgets(line, sizeof line, p);
  if (p) pclose(p);
  const std::string s = got ? line : "";
  const size_t at = s.find("): ");
  return at == std::string::npos ? 0 : std::stoull(s.substr(at + 3));
}

void same_as_standalone(const std::string& net, const std::string& backend) {
  const std::string json = kDir + "/plugin_" + backend + ".json";
  const auto r = wormnet("run --firmware " + kPlugin + " " + net + " --backend " + backend + " --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = read_json(json);
  const uint64_t want = standalone_cycles(net + " --backend " + backend);
  ASSERT_GT(want, 0u);
  EXPECT_EQ(j["cycles"].get<uint64_t>(), want);
  EXPECT_EQ(j["data_check"], "PASS");
  EXPECT_EQ(j["config"]["algorithm"], "ccl-grid");
  EXPECT_EQ(j["config"]["firmware"], kPlugin);
  // The delay view adds up: every late cycle of every message is attributed once.
  uint64_t classes = 0;
  for (const char* c : {"stepwise", "depth", "port", "flow"}) classes += j["contention"][c].get<uint64_t>();
  EXPECT_GT(classes, 0u);
  EXPECT_NE(r.out.find("predicted     none (firmware of your own"), std::string::npos) << r.out;
}

TEST(FirmwarePlugin, SameCyclesAsTheStandaloneProgramModelAllPorts) {
  same_as_standalone("--topology mesh:4x4 --ports all", "model");
}
TEST(FirmwarePlugin, SameCyclesAsTheStandaloneProgramRtlOnePort) {
  same_as_standalone("--topology torus:4x4 --ports one", "rtl");
}

TEST(FirmwarePlugin, SecondEntryWithoutCheckSaysNotChecked) {
  const auto r = wormnet("run --firmware " + kPlugin + ":unchecked --topology mesh:4x4");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ccl-grid-unchecked on mesh:4x4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("data check    not checked"), std::string::npos) << r.out;
}

TEST(FirmwarePlugin, CompareAcrossPortModels) {
  const std::string json = kDir + "/plugin_compare.json";
  const auto r = wormnet("compare --firmware " + kPlugin + " --topology mesh:4x4 --ports one,all,2 --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = read_json(json);
  ASSERT_EQ(j["runs"].size(), 3u) << j.dump();
  for (const auto& run : j["runs"]) {
    EXPECT_EQ(run["data_check"], "PASS") << run.dump();
    EXPECT_EQ(run["config"]["firmware"], kPlugin) << run.dump();
  }
  EXPECT_EQ(j["runs"][0]["config"]["ports"], "one");
  EXPECT_EQ(j["runs"][1]["config"]["injection_channels"], 4);
}

TEST(FirmwarePlugin, MissingLibrary) {
  expect_config_error("run --firmware " + kDir + "/nonexistent.so", "--firmware", "cannot load");
}
TEST(FirmwarePlugin, MissingEntry) {
  expect_config_error("run --firmware " + kPlugin + ":nope", "--firmware", "has no entry 'nope'");
}
TEST(FirmwarePlugin, NoAbiTag) {
  expect_config_error("run --firmware " + kDir + "/libplugin_no_abi.so", "--firmware", "not a wormnet firmware plugin");
}
TEST(FirmwarePlugin, AbiMismatchNamesBoth) {
  const auto r = wormnet("run --firmware " + kDir + "/libplugin_old_abi.so");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: --firmware: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("was built for 'wormnet-firmware/0 wormnet 0.1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("this wormnet is 'wormnet-firmware/2 wormnet "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("seed"), std::string::npos) << r.out;  // refused before anything runs
}
TEST(FirmwarePlugin, ProgramRefusesTheNetwork) {
  expect_config_error("run --firmware " + kPlugin + " --topology cube:3", "--firmware", "a 2D mesh or torus");
}
TEST(FirmwarePlugin, OptionsOnlyAScheduleHasAreRefused) {
  expect_config_error("run --firmware " + kPlugin + " --op max", "--op", "no --op with --firmware");
  expect_config_error("run --firmware " + kPlugin + " --algorithm rd-broadcast", "--algorithm", "one of them");
  expect_config_error("check --firmware " + kPlugin, "--firmware", "check needs a schedule");
}

}  // namespace

namespace {

// A sweep spec runs plugins as points (`firmware:` key), with every measured number in its results.
TEST(FirmwarePlugin, SweepSpecPoints) {
  const std::string spec = kDir + "/plugin_sweep.yaml", out = kDir + "/plugin_sweep.jsonl";
  std::remove(out.c_str());
  FILE* f = std::fopen(spec.c_str(), "w");
  ASSERT_TRUE(f);
  std::fprintf(f, "command: run\ntopology: mesh:4x4\nfirmware: [%s, %s:unchecked]\nports: [one, all]\n",
               kPlugin.c_str(), kPlugin.c_str());
  std::fclose(f);
  const auto r = wormnet("sweep " + spec + " -j 2 --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream in(out);
  std::string line;
  int points = 0, checked = 0;
  while (std::getline(in, line)) {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (!j.contains("command")) continue;
    ++points;
    EXPECT_EQ(j["cycles"].get<uint64_t>(), 367u) << line;
    EXPECT_EQ(j["config"]["firmware"].get<std::string>().rfind(kPlugin, 0), 0u) << line;
    checked += j["data_check"] == "PASS";
  }
  EXPECT_EQ(points, 4);
  EXPECT_EQ(checked, 2);  // the unchecked entry says NOT CHECKED
}

}  // namespace
