// The single-router test harness shared by router_unit_test and router_unit_flow_test:
// the backends (RTL, C++ model) and the RouterUnitTest fixture. See router_unit_test.cpp
// for the cycle convention.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "systemc/core/flit.h"
#include "systemc/router/model/router_model.h"
#include "systemc/router/router_unit.h"
#include "systemc/router/rtl/router_rtl.h"
#include "testbench/systemc/router/router_config_helpers.h"

namespace wn::router_test {

using Factory = std::function<std::unique_ptr<RouterUnit>(int ports)>;
struct BackendEntry {
  std::string name;
  Factory make;
};

inline void PrintTo(const BackendEntry& b, std::ostream* os) { *os << b.name; }

inline const std::vector<BackendEntry>& backends() {
  static const std::vector<BackendEntry> kBackends = {
      {"rtl", [](int ports) { return make_rtl_router(ports); }},
      {"model", [](int ports) { return make_model_router(ports); }},
      // The 128-bit-mask model (radix 13..14) on every case, so both widths are held to the same rules.
      {"model_wide", [](int) { return std::make_unique<WideRouterModel>(); }},
  };
  return kBackends;
}

constexpr int kEj = 100;  // probe result: ejection channel j reported as kEj + j

// ---- configurations ------------------------------------------------------------------
using test::bits_for;
using test::cube;
using test::grid;
using test::pack;

// ---- harness -------------------------------------------------------------------------
class RouterUnitTest : public ::testing::TestWithParam<BackendEntry> {
 protected:
  void start(const RouterConfig& cfg) {
    cfg_ = cfg;
    r_ = GetParam().make(cfg.ports);
    r_->reset(cfg);
    in_ = RouterIn{};
    out_ = RouterOut{};
    t_ = 0;
  }
  // One edge; inputs are cleared afterwards (they are one-cycle pulses).
  void step() {
    r_->cycle(in_, out_);
    in_ = RouterIn{};
    ++t_;
  }
  void inject(int ch, uint64_t f) {
    in_.inj_valid |= 1u << ch;
    in_.inj_flit[ch] = f;
  }
  void arrive(int port, int vc, uint64_t f) {
    in_.in_valid |= 1u << port;
    in_.in_flit[port] = flit::with_vc(f, unsigned(vc));
  }
  void credit(int o, int vc) {
    in_.out_credit |= 1u << o;
    in_.out_credit_vc[o] = uint8_t(vc);
  }
  bool out_valid(int o) const { return (out_.out_valid >> o) & 1; }
  bool ej_valid(int j) const { return (out_.ej_valid >> j) & 1; }

  struct Probe {
    int out = -1;   // network output, or kEj + j
    int vc = -1;    // vc field of the flit on that output
    int when = -1;  // call index at which it appeared in `out`
  };
  // One head+tail flit to `dest`, from injection (port < 0) or network input
  // `port` on VC `vc`, into a freshly reset router; where and when it leaves.
  Probe probe(const RouterConfig& cfg, uint32_t dest, int port = -1, int vc = 0) {
    start(cfg);
    const uint64_t f = flit::make_head(true, dest, 0, 7, 1234);
    if (port < 0)
      inject(0, f);
    else
      arrive(port, vc, f);
    Probe p;
    for (int c = 0; c < 12 && p.out < 0; ++c) {
      step();
      for (int o = 0; o < cfg.ports; ++o)
        if (out_valid(o)) {
          p = {o, flit::vc(out_.out_flit[o]), t_ - 1};
          EXPECT_EQ(flit::msg(out_.out_flit[o]), 1234u);
        }
      for (int j = 0; j < cfg.ej; ++j)
        if (ej_valid(j)) {
          p = {kEj + j, flit::vc(out_.ej_flit[j]), t_ - 1};
          EXPECT_EQ(flit::msg(out_.ej_flit[j]), 1234u);
        }
    }
    return p;
  }
  int route_out(const RouterConfig& cfg, uint32_t dest, int port = -1, int vc = 0) {
    const Probe p = probe(cfg, dest, port, vc);
    EXPECT_EQ(p.when, 2) << "head switched 2 edges after it arrived";
    return p.out;
  }

  RouterConfig cfg_;
  std::unique_ptr<RouterUnit> r_;
  RouterIn in_;
  RouterOut out_;
  int t_ = 0;  // calls made so far
};

}  // namespace wn::router_test
