// The wormnet command line as a user meets it: bad input gives one clear line
// naming the field and the allowed values, exit code 2; good input runs.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "testbench/app/cli_helpers.h"

namespace {

using wn::test::CliRun;
using wn::test::expect_config_error;
using wn::test::read_json;
using wn::test::wormnet;

TEST(Cli, UnknownTopologyKind) { expect_config_error("traffic --topology ring:8", "--topology", "allowed: mesh:AxB"); }
TEST(Cli, RadixBelowTwo) { expect_config_error("traffic --topology mesh:8x1", "--topology", "k = 1 < 2"); }
TEST(Cli, CubeTooLarge) { expect_config_error("traffic --topology cube:15", "--topology", "D = 1..14"); }
// The flit's dest/src fields hold 14 address bits (rtl/wn_pkg.sv): 128x128 fits, one more bit does not.
TEST(Cli, TooManyAddressBits) {
  expect_config_error("traffic --topology mesh:256x128", "--topology", "needs 15 address bits");
  expect_config_error("traffic --topology torus:128x129", "--topology", "dest/src fields carry 14");
  expect_config_error("traffic --topology mesh:32x32x17", "--topology",
                      "at most 16384 nodes, e.g. 128x128, 32x32x16 or cube:14");
}
TEST(Cli, PortsBeyondNetworkPorts) {
  expect_config_error("traffic --topology mesh:4x4 --ports 5", "--ports", "K = 1..4");
}
TEST(Cli, PortModelWord) { expect_config_error("traffic --ports some", "--ports", "allowed: one, all"); }
TEST(Cli, OddVcsOnTorus) { expect_config_error("traffic --topology torus:4x4 --vcs 3", "--vcs", "even"); }
TEST(Cli, VcsOutOfRange) { expect_config_error("traffic --vcs 5", "--vcs", "allowed: an integer 1..4"); }
TEST(Cli, BufferOutOfRange) { expect_config_error("traffic --buf 0", "--buf", "allowed: an integer 1..16"); }
TEST(Cli, UnknownPattern) { expect_config_error("traffic --pattern zigzag", "--pattern", "allowed: uniform"); }
TEST(Cli, PatternNotDefinedOnTopology) {
  expect_config_error("traffic --topology mesh:3x5 --pattern bitrev", "--pattern", "power-of-two");
}
TEST(Cli, UnknownBackend) {
  expect_config_error("traffic --backend fpga", "--backend", "allowed: rtl, model, lockstep");
}
TEST(Cli, RateTooHigh) {
  expect_config_error("traffic --rate 9 --packet-flits 4", "--rate", "allowed: 0..packet-flits");
}

TEST(Cli, TrafficRunsAndWritesJson) {
  const std::string json = std::string(WN_BINARY_DIR) + "/cli_test_out.json";
  const CliRun r =
      wormnet("traffic --topology mesh:4x4 --ports all --rate 0.2 --cycles 500 --warmup 100 --seed 3 --json " + json);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("seed 3"), std::string::npos);
  EXPECT_NE(r.out.find("scoreboard            PASS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("simulated cycles/s"), std::string::npos);
  std::ifstream f(json);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_NE(ss.str().find("\"schema\": \"wormnet.traffic/1\""), std::string::npos);
  // --ports all on a 2D mesh resolves to 4 injection and 4 ejection channels.
  EXPECT_NE(ss.str().find("\"injection_channels\": 4"), std::string::npos) << ss.str();
  EXPECT_NE(ss.str().find("\"ejection_channels\": 4"), std::string::npos);
  EXPECT_NE(r.out.find("(inj=4 ej=4)"), std::string::npos) << r.out;
}

TEST(Cli, ListNamesTopologiesPatternsBackends) {
  const CliRun r = wormnet("list");
  EXPECT_EQ(r.code, 0);
  for (const char* w : {"mesh", "torus", "cube", "uniform", "tornado", "hotspot", "lockstep"})
    EXPECT_NE(r.out.find(w), std::string::npos) << w;
}

}  // namespace

// ---- firmware runs: wormnet run / compare ----
TEST(CliRun, UnknownAlgorithm) {
  expect_config_error("run --algorithm edn-bcast", "--algorithm", "allowed: rd-broadcast");
}
TEST(CliRun, UnknownProfile) { expect_config_error("run --profile cray", "--profile", "allowed: ideal, ncube2, t3d"); }
TEST(CliRun, SourceOutsideTopology) {
  expect_config_error("run --topology mesh:4x4 --source 16", "--source", "allowed: 0..15 or random");
}
TEST(CliRun, NonCommutativeRingReduceScatter) {
  expect_config_error("run --algorithm ring-reduce-scatter --op affine", "--op", "allowed: sum, max, min");
}
TEST(CliRun, BytesPerFlitNotWordMultiple) {
  expect_config_error("run --bytes-per-flit 6", "--bytes-per-flit", "multiple of 4");
}
TEST(CliRun, ImpossibleSize) {
  expect_config_error("run --topology cube:10 --algorithm direct-alltoall --bytes 65536", "--bytes",
                      "MiB of simulated node memory on cube:10; allowed: at most");
}

TEST(CliRun, RunPrintsCyclesPredictionStepsAndDataCheck) {
  const std::string json = std::string(WN_BINARY_DIR) + "/cli_run_out.json";
  const CliRun r = wormnet(
      "run --topology torus:4x4 --ports all --algorithm rd-broadcast --source 5 --bytes 256 "
      "--profile t3d --json " +
      json);
  EXPECT_EQ(r.code, 0) << r.out;
  for (const char* s : {"cycles", "predicted", "measured / predicted", "data check    PASS", "step  start"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  std::ifstream f(json);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_NE(ss.str().find("\"schema\": \"wormnet.run/2\""), std::string::npos);
  EXPECT_NE(ss.str().find("\"data_check\": \"PASS\""), std::string::npos);
}

// The comparison the product is for: all-port never slower than one-port on
// the direct exchange (k exchanges per step on k channels).
TEST(CliRun, CompareDirectExchangeAllPortBeatsOnePort) {
  const std::string json = std::string(WN_BINARY_DIR) + "/cli_compare_out.json";
  const CliRun r =
      wormnet("compare --topology mesh:4x4 --ports one,all --algorithm direct-alltoall --bytes 64 --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream f(json);
  std::stringstream ss;
  ss << f.rdbuf();
  const auto j = nlohmann::json::parse(ss.str());
  ASSERT_EQ(j["runs"].size(), 2u);
  // Runs are in the order given: one, then all.
  EXPECT_EQ(j["runs"][0]["config"]["ports"], "one");
  EXPECT_EQ(j["runs"][1]["config"]["ports"], "all");
  const auto one = j["runs"][0]["cycles"].get<uint64_t>(), all = j["runs"][1]["cycles"].get<uint64_t>();
  EXPECT_LT(all, one) << r.out;
  EXPECT_NE(r.out.find("PASS"), std::string::npos);
}

// Same seed => byte-identical JSON (the random source is drawn from it).
TEST(CliRun, SameSeedSameJson) {
  const std::string a = std::string(WN_BINARY_DIR) + "/cli_seed_a.json",
                    b = std::string(WN_BINARY_DIR) + "/cli_seed_b.json";
  const std::string args =
      "run --topology mesh:4x4 --ports all --algorithm rd-broadcast --source random --seed 11 --json ";
  const CliRun r1 = wormnet(args + a), r2 = wormnet(args + b);
  ASSERT_EQ(r1.code, 0) << r1.out;
  ASSERT_EQ(r2.code, 0) << r2.out;
  auto slurp = [](const std::string& p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  };
  EXPECT_EQ(slurp(a), slurp(b));
  EXPECT_NE(slurp(a).find("\"seed\": 11"), std::string::npos);
  const CliRun r3 = wormnet("run --topology mesh:4x4 --algorithm rd-broadcast --source random --seed 12");
  EXPECT_NE(r3.out.find("seed 12"), std::string::npos);
}

// wormnet check: RD broadcast on a mesh is contention-free; the direct exchange is not.
TEST(CliCheck, RdFreeDirectExchangeConflicts) {
  const CliRun rd = wormnet("check --topology mesh:8x8 --algorithm rd-broadcast --source 27");
  EXPECT_EQ(rd.code, 0) << rd.out;
  EXPECT_NE(rd.out.find("stepwise contention: none"), std::string::npos) << rd.out;
  const CliRun dx = wormnet("check --topology mesh:8x8 --algorithm direct-alltoall");
  EXPECT_EQ(dx.code, 0) << dx.out;  // contention is a finding, not an error
  EXPECT_NE(dx.out.find("conflicting message pairs"), std::string::npos) << dx.out;
  EXPECT_NE(dx.out.find("share"), std::string::npos) << dx.out;
}

// check --simulate: the static verdict and the measured stepwise contention agree.
TEST(CliCheck, SimulateAgreesForRdAndDirectExchange) {
  const CliRun rd = wormnet("check --topology mesh:8x8 --algorithm rd-broadcast --bytes 64 --simulate");
  EXPECT_EQ(rd.code, 0) << rd.out;
  EXPECT_NE(rd.out.find("static and measured stepwise contention agree"), std::string::npos) << rd.out;
  const std::string json = std::string(WN_BINARY_DIR) + "/cli_check_sim.json";
  const CliRun dx =
      wormnet("check --topology mesh:4x4 --algorithm direct-alltoall --bytes 64 --simulate --json " + json);
  EXPECT_EQ(dx.code, 0) << dx.out;
  std::ifstream f(json);
  const auto j = nlohmann::json::parse(f);
  uint64_t measured_stepwise = 0;
  for (const auto& st : j["simulated"]) measured_stepwise += st["measured"]["stepwise"].get<uint64_t>();
  EXPECT_GT(measured_stepwise, 0u);  // the direct exchange really collides on the mesh
  EXPECT_FALSE(j["contention_free"].get<bool>());
}

// run --csv / --json carry per-channel and per-message contention.
TEST(CliRun, ReportsChannelsAndMessages) {
  const std::string prefix = std::string(WN_BINARY_DIR) + "/cli_run_csv";
  const CliRun r = wormnet("run --topology mesh:4x4 --algorithm direct-alltoall --bytes 64 --csv " + prefix +
                           " --json " + prefix + ".json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("most contended channels"), std::string::npos) << r.out;
  std::ifstream ch(prefix + "-channels.csv"), ms(prefix + "-messages.csv");
  std::string header;
  std::getline(ch, header);
  EXPECT_EQ(header.rfind("router,output,flits", 0), 0u) << header;
  std::getline(ms, header);
  EXPECT_NE(header.find("latency_cycles,zero_load_cycles,delay_stepwise_cycles,delay_depth_cycles,delay_port_cycles,"
                        "delay_flow_cycles"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("blocked_stepwise_packet_cycles,blocked_depth_packet_cycles,blocked_port_packet_cycles,"
                        "blocked_flow_packet_cycles"),
            std::string::npos)
      << header;
  std::ifstream jf(prefix + ".json");
  const auto j = nlohmann::json::parse(jf);
  EXPECT_EQ(j["message_log"].size(), 16u * 15u);
  // The delay view as a reader of the JSON checks it: per message, latency -
  // zero load (3(h+1) + flits - 1 from the logged fields) = the classes; the
  // run total is their sum. The resource view is listed beside it.
  uint64_t sum = 0, resource = 0;
  for (const auto& m : j["message_log"]) {
    uint64_t classes = 0;
    for (const char* k : {"stepwise", "depth", "port", "flow"}) {
      classes += m["delay"][k].get<uint64_t>();
      resource += m["resource_blocked"][k].get<uint64_t>();
    }
    const uint64_t zero_load = 3 * (m["hops"].get<uint64_t>() + 1) + m["words"].get<uint64_t>();
    EXPECT_EQ(m["zero_load"].get<uint64_t>(), zero_load);
    EXPECT_EQ(m["delivered"].get<uint64_t>() - m["head_injected"].get<uint64_t>() - zero_load, classes) << m.dump();
    sum += classes;
  }
  EXPECT_EQ(sum, j["contention"]["total"].get<uint64_t>());
  EXPECT_EQ(sum, j["contention"]["stepwise"].get<uint64_t>() + j["contention"]["depth"].get<uint64_t>() +
                     j["contention"]["port"].get<uint64_t>() + j["contention"]["flow"].get<uint64_t>());
  EXPECT_GT(sum, 0u);
  EXPECT_GT(resource, 0u);
}

// Firmware runs on the RTL backend write an FST waveform (the step tag is a decoded signal).
TEST(CliRun, RtlTraceIsWritten) {
  const std::string fst = std::string(WN_BINARY_DIR) + "/cli_run_trace.fst";
  std::remove(fst.c_str());
  const CliRun r = wormnet("run --topology mesh:2x2 --backend rtl --algorithm rd-broadcast --bytes 16 --trace " + fst);
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream f(fst, std::ios::binary | std::ios::ate);
  EXPECT_GT(f.tellg(), 1000) << "FST missing or empty";
}

// A deadlock report without the wait-for analysis ends with the CLI's hint, naming the option and
// the seed (the layers below take the wording from app/).
TEST(Cli, TrafficDeadlockHintNamesTheOptionAndTheSeed) {
  const auto r = wormnet("traffic --topology torus:4x4 --no-dateline --rate 1.0 --cycles 3000 --seed 5");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("rerun with --explain-deadlock (seed 5 reproduces this run) for the wait-for analysis"),
            std::string::npos)
      << r.out;
}

// --explain-deadlock reads the occupancy shadow the contention monitor uses: this run's four
// heads, each waiting for credits behind the next one around the ring of torus:4x4 (the
// flit-only tracker it replaced found no cycle here and named holders it could not map).
TEST(Cli, TrafficExplainDeadlockNamesTheCycleOfWaits) {
  const auto r =
      wormnet("traffic --topology torus:4x4 --no-dateline --rate 1.0 --cycles 3000 --seed 5 --explain-deadlock");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("cycle of 4 waits:\n  packet 7834 waits: head at router 1 in3 vc 0 routed to out2 (VCs 0-1); "
                       "router 1 out2 vc 0 has no credit: router 5 in3 vc 0 is full, packet 7837 at its front\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("4294967295"), std::string::npos) << r.out;
}

// `check --deadlock`: exit 0 and "acyclic" for the routing function as shipped; exit 1 and the
// ring's channels in the JSON for a torus without the dateline (docs/checks.md).
TEST(Cli, DeadlockCheckOfTheRoutingFunction) {
  const std::string json = std::string(WN_BINARY_DIR) + "/cli_deadlock.json";
  const auto ok = wormnet("check --deadlock --topology torus:4x4 --vcs 4 --json " + json);
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("acyclic: the routing function cannot deadlock"), std::string::npos) << ok.out;
  EXPECT_TRUE(read_json(json)["acyclic"].get<bool>());
  const auto bad = wormnet("check --deadlock --topology torus:4x4 --no-dateline --json " + json);
  EXPECT_EQ(bad.code, 1) << bad.out;
  const auto j = read_json(json);
  EXPECT_FALSE(j["acyclic"].get<bool>());
  EXPECT_EQ(j["cycle"].size(), 4u);  // once around a 4-ring
  EXPECT_EQ(j["schema"], "wormnet.deadlock/1");
}
