// `wormnet conform` (experiments/conform.h): the shipped router conforms on the RTL, and a router
// that loses a credit is caught and named. Library runs fork a process per case (run_sweep), so
// a faulted C++ model can stand in for a broken router RTL.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "experiments/conform.h"
#include "testbench/app/cli_helpers.h"

namespace wn {
namespace {

using test::expect_config_error;
using test::read_json;
using test::wormnet;

TEST(Conform, ShippedRouterConformsOnTheRtl) {
  const std::string json = std::string(WN_BINARY_DIR) + "/conform_rtl.json";
  const auto r = wormnet("conform --topologies mesh:4x4,cube:3 --cycles 300 -j 2 --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("conforms: every probe, every packet, every credit, every delay view"), std::string::npos)
      << r.out;
  const nlohmann::json j = read_json(json);
  EXPECT_TRUE(j["ok"].get<bool>());
  for (const auto& z : j["zero_load"]) {
    EXPECT_EQ(z["hop_cycles"], 3) << z.dump();
    EXPECT_EQ(z["flit_cycles"], 1) << z.dump();
  }
  // mesh:4x4: 3 port models; cube:3: 3 port models; every defined pattern at two rates.
  EXPECT_GE(j["cases"].size(), 2u * 3u * 2u * 4u);
  for (const auto& c : j["cases"]) {
    EXPECT_EQ(c["violation"], "") << c.dump();
    EXPECT_EQ(c["created"], c["delivered"]) << c.dump();
  }
}

// A router whose first arriving credit is lost, with one flit of buffer per VC: that VC never
// gets its credit back, packets that need it wait forever, and conform names the case.
TEST(Conform, LostCreditIsNamed) {
  ConformOptions o;
  o.topologies = {"mesh:4x4"};
  o.net.backend = Backend::Model;
  o.net.model_fault = ModelFault::CreditLost;
  o.net.vcs = 1;
  o.net.buf = 1;
  o.cycles = 300;
  o.watchdog = 300;
  o.jobs = 2;
  const ConformResult r = run_conform(o);
  EXPECT_FALSE(r.ok());
  // The zero-load probes already stall; the delivery cases too, each named on one line.
  EXPECT_EQ(r.first_violation.rfind("mesh:4x4 zero-load: deadlock", 0), 0u) << r.first_violation;
  EXPECT_EQ(r.first_violation.find('\n'), std::string::npos) << r.first_violation;
  int failed = 0;
  for (const auto& c : r.cases) failed += !c.violation.empty();
  EXPECT_GT(failed, 0);
  EXPECT_LE(failed, int(r.cases.size()));
}

// A router that keeps one flit's credit: the occupancy shadow sees the flit leave with no credit
// going upstream (rtl/README.md §4) and names router, input and VC — before any stall.
TEST(Conform, DroppedCreditIsNamed) {
  ConformOptions o;
  o.topologies = {"mesh:4x4"};
  o.net.backend = Backend::Model;
  o.net.model_fault = ModelFault::CreditDropped;
  o.cycles = 300;
  o.jobs = 2;
  const ConformResult r = run_conform(o);
  EXPECT_FALSE(r.ok());
  // The first probe packet already crosses a router that keeps its credit.
  EXPECT_EQ(r.first_violation,
            "mesh:4x4 zero-load: router 1 input 1 VC 0: a flit left without its credit at cycle 5 (rtl/README.md §4: "
            "one credit upstream per flit that leaves)");
  for (const auto& c : r.cases) {
    EXPECT_NE(c.violation.find(": a flit left without its credit at cycle "), std::string::npos) << c.violation;
    EXPECT_EQ(c.violation.rfind(c.topology + " ports=" + c.ports + " " + c.pattern, 0), 0u) << c.violation;
  }
}

TEST(Conform, BadInputNamesTheOption) {
  expect_config_error("conform --topologies ring:4", "--topology", "allowed: mesh:AxB");
  expect_config_error("conform --backend fpga", "--backend", "allowed: rtl, model, lockstep");
  expect_config_error("conform --cycles 0", "--cycles", "allowed");
}

}  // namespace
}  // namespace wn
