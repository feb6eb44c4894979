// The trimmed verilated routers (WORMNET_RTL_TRIMMED: one injection and one ejection channel, at
// most kTrimmedVcs VCs of kTrimmedBuf flits) give the cycles of the fully verilated router: the
// same traffic and the same collective on both, every number of the report equal. So do the
// verilated routers evaluated at the rising clock edge only (RtlFallingEdge). Each run forks
// (SystemC elaborates once per process); the CPU time of each is printed, never asserted.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <string>

#include "experiments/collective_run.h"
#include "experiments/sweep.h"
#include "experiments/traffic_run.h"
#include "systemc/router/rtl/router_rtl.h"
#include "systemc/topology/topology.h"
#include "wormnet/rtl_radices.h"

namespace wn {
namespace {

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec);
}

// The report without what differs between two equal runs: wall time and speed.
nlohmann::json cycles_only(nlohmann::json j) {
  for (const char* k : {"wall_seconds", "speed", "cpu_seconds"}) j.erase(k);
  return j;
}

// Whether this build verilated radix P trimmed (WORMNET_RTL_TRIMMED may leave it out).
bool trimmed_built(int radix) {
  bool built = false;
#define WN_TRIMMED_IS(P) built |= radix == (P);
  WN_FOR_EACH_TRIMMED_RADIX(WN_TRIMMED_IS)
#undef WN_TRIMMED_IS
  return built;
}

// Runs o twice, set(o, true) then set(o, false), and expects every number of the reports equal.
template <class Options, class Run, class Set>
void expect_same_both_ways(Options o, Run run, Set set, const char* first, const char* second) {
  std::vector<SweepPoint> points;
  for (bool way : {true, false}) {
    points.push_back({way ? first : second, [o, way, run, set]() mutable {
                        set(o, way);
                        const double t0 = cpu_seconds();
                        nlohmann::json j = run(o);
                        j["cpu_seconds"] = cpu_seconds() - t0;
                        return j;
                      }});
  }
  const auto r = run_sweep(
      points, [](size_t, const nlohmann::json&) {}, 1);
  ASSERT_EQ(r.size(), 2u);
  std::printf("%s %.3f s, %s %.3f s CPU\n", first, r[0].value("cpu_seconds", 0.0), second,
              r[1].value("cpu_seconds", 0.0));
  EXPECT_EQ(cycles_only(r[0]), cycles_only(r[1]));
}

// Skipped when the build has no trimmed model of the radix the topology runs on (then both runs
// would use the full router and could not differ).
template <class Options, class Run>
void expect_same(Options o, Run run) {
  const int radix = rtl_radix_for(Topology::parse(o.topology).ports());
  if (!trimmed_built(radix)) GTEST_SKIP() << "radix " << radix << " is not verilated trimmed in this build";
  expect_same_both_ways(
      o, run, [](Options& x, bool trimmed) { x.net.rtl_trimmed = trimmed; }, "trimmed", "full");
}

// The verilated routers evaluated at the rising edge only give what evaluating both edges gives
// (router_rtl.cpp), on the trimmed and on the full models.
template <class Options, class Run>
void expect_same_edges(Options o, Run run) {
  for (bool trimmed : {true, false}) {
    o.net.rtl_trimmed = trimmed;
    expect_same_both_ways(
        o, run, [](Options& x, bool rising) { x.net.rtl_falling_eval = !rising; }, "rising edge only", "both edges");
  }
}

TrafficOptions traffic(const std::string& topology, int vcs, int buf, double rate, int cycles = 3000) {
  TrafficOptions o;
  o.topology = topology;
  o.net.backend = Backend::Rtl;
  o.net.vcs = vcs;
  o.net.buf = buf;
  o.rate = rate;
  o.cycles = cycles;
  o.warmup = cycles / 10;
  o.seed = 7;
  return o;
}
nlohmann::json run_traffic_json(const TrafficOptions& o) { return run_traffic(o).to_json(); }

TEST(RtlTrimmed, MeshTrafficPastSaturationIsTheSame) { expect_same(traffic("mesh:8x8", 2, 8, 0.6), run_traffic_json); }
TEST(RtlTrimmed, TorusOneVcShallowBuffersIsTheSame) {
  // Two VCs per torus class are the minimum (dateline): 2 VCs of 2 flits, near saturation.
  expect_same(traffic("torus:4x4", 2, 2, 0.4), run_traffic_json);
}
TEST(RtlTrimmed, MeshOneVcIsTheSame) { expect_same(traffic("mesh:4x4", 1, 3, 0.5), run_traffic_json); }
TEST(RtlTrimmed, Cube6TrafficIsTheSame) { expect_same(traffic("cube:6", 2, 8, 0.3), run_traffic_json); }
// The larger radices: cube:8 runs on radix 8, cube:10 on radix 12, cube:13 on radix 14.
TEST(RtlTrimmed, Cube8TrafficIsTheSame) { expect_same(traffic("cube:8", 2, 8, 0.3, 1000), run_traffic_json); }
TEST(RtlTrimmed, Cube10TrafficIsTheSame) { expect_same(traffic("cube:10", 2, 4, 0.2, 300), run_traffic_json); }
TEST(RtlTrimmed, Cube13TrafficIsTheSame) { expect_same(traffic("cube:13", 2, 8, 0.05, 100), run_traffic_json); }

// The trimmed models are verilated without tracing: a run with a waveform (--trace) uses the full
// ones, and reports what the untraced run on the trimmed ones does.
TEST(RtlTrimmed, TracedRunUsesTheFullRouterAndIsTheSame) {
  TrafficOptions o = traffic("torus:4x4", 2, 8, 0.3, 400);
  const std::string fst = std::string(WN_BINARY_DIR) + "/rtl_trimmed_traced.fst";
  expect_same(o, [fst](TrafficOptions x) {
    if (x.net.rtl_trimmed) x.trace = fst;  // the traced run asks for the trimmed routers
    return run_traffic_json(x);
  });
}

// A direct all-to-all on mesh:4x4: packets block each other.
fw::ScheduleRunOptions contended_collective() {
  fw::ScheduleRunOptions o;
  o.topology = "mesh:4x4";
  o.net.backend = Backend::Rtl;
  o.algorithm = "direct-alltoall";
  o.bytes = 64;
  return o;
}
nlohmann::json run_schedule_json(const fw::ScheduleRunOptions& o) { return fw::run_schedule(o).to_json(); }

TEST(RtlTrimmed, CollectiveWithContentionIsTheSame) { expect_same(contended_collective(), run_schedule_json); }

TEST(RtlFallingEdge, TrafficIsTheSame) {
  expect_same_edges(traffic("torus:4x4", 2, 8, 0.4, 1500), run_traffic_json);
  expect_same_edges(traffic("cube:6", 2, 8, 0.3, 600), run_traffic_json);
}
TEST(RtlFallingEdge, LockstepAndCollectiveAreTheSame) {
  TrafficOptions t = traffic("mesh:4x4", 2, 4, 0.5, 1500);
  t.net.backend = Backend::Lockstep;
  expect_same_edges(t, run_traffic_json);
  expect_same_edges(contended_collective(), run_schedule_json);
}

}  // namespace
}  // namespace wn
