// `wormnet bench`: simulation speed on fixed reference workloads (BookSim's
// reference configuration first), for each backend. A benchmark prints
// figures; no test asserts on wall-clock time.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>

#include "app/commands.h"
#include "app/options.h"
#include "experiments/sweep.h"
#include "experiments/traffic_run.h"
#include "systemc/core/config_error.h"

namespace wn::cli {

namespace {

// bench measures speed: a figure settles within 10^5 simulated cycles, so its work is bounded by
// a budget of router-cycles (routers x cycles x runs) that keeps a bench within about 20 minutes
// at the model's measured ~10^7 router-cycles/s (docs/results-other/performance.md: mesh:8x8 158 k
// cycles/s). An RTL (or lock-step) cycle costs about 20 model cycles there (8.4 k cycles/s).
constexpr uint64_t kBenchRouterCycles = 10'000'000'000;
constexpr uint64_t kRtlCycleCost = 20;

// Refuses, before the first run, a bench whose runs add up to more than the budget: names
// --cycles or --rtl-cycles (whichever holds most of the work) and its largest value here.
void check_bench_work(const std::vector<std::string>& topologies, const std::vector<std::string>& backends,
                      uint64_t cycles, uint64_t rtl_cycles, uint64_t repeat) {
  uint64_t routers = 0;
  for (const auto& t : topologies) routers += uint64_t(Topology::parse(t).nodes());
  uint64_t model_runs = 0, rtl_runs = 0;  // per router and cycle, in model-cycle units
  for (const auto& b : backends) (parse_backend(b) == Backend::Model ? model_runs : rtl_runs) += 1;
  // Each factor is bounded (repeat <= 100, a few thousand routers per topology, cycles <= 10^12):
  // in long double the products cannot wrap.
  const long double budget = (long double)(kBenchRouterCycles);
  const long double per_cycle = (long double)(routers) * (long double)(repeat) * (long double)(model_runs);
  const long double per_rtl_cycle =
      (long double)(routers) * (long double)(repeat) * (long double)(rtl_runs) * (long double)(kRtlCycleCost);
  const long double model_work = per_cycle * (long double)(cycles);
  const long double rtl_work = per_rtl_cycle * (long double)(rtl_cycles);
  if (model_work + rtl_work <= budget) return;
  const bool model = model_work >= rtl_work;
  const long double rest = budget - (model ? rtl_work : model_work);
  const uint64_t most = rest <= 0 ? 0 : uint64_t(rest / (model ? per_cycle : per_rtl_cycle));
  const std::string allowed =
      most >= 1 ? fmt::format("at most {} here", most)
                : std::string("less of both --cycles and --rtl-cycles, fewer --topologies or a lower --repeat");
  throw ConfigError(
      model ? "--cycles" : "--rtl-cycles",
      fmt::format("{} cycles x {} run{} on {} routers ({}) are about {:.2g} router-cycles, {:.1f} hours "
                  "at the model's ~10^7 router-cycles/s; allowed: {} (bench's budget: {:.0e} "
                  "router-cycles in all, an RTL cycle counting {}; a speed figure settles within 10^5 "
                  "cycles)",
                  model ? cycles : rtl_cycles, repeat, repeat == 1 ? "" : "s", routers, fmt::join(topologies, ","),
                  double(model_work + rtl_work), double((model_work + rtl_work) / 1e7L / 3600.0L), allowed,
                  double(budget), kRtlCycleCost));
}

}  // namespace

void add_bench_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners) {
  auto* cmd = app.add_subcommand("bench", "simulated cycles/s and flit-hops/s on reference workloads");
  auto topologies = std::make_shared<std::string>("mesh:8x8,torus:8x8,mesh:4x4x4,cube:6,cube:10,mesh:32x32");
  auto backends = std::make_shared<std::string>("model,rtl");
  auto cycles = std::make_shared<uint64_t>(20000);
  auto rtl_cycles = std::make_shared<uint64_t>(4000);
  auto rate = std::make_shared<double>(0.2);
  auto repeat = std::make_shared<uint64_t>(3);
  auto threads = std::make_shared<std::string>("1");
  cmd->add_option("--topologies", *topologies, "comma-separated topologies")->capture_default_str();
  cmd->add_option("--backends", *backends, "comma-separated backends")->capture_default_str();
  add_uint(cmd, "--cycles", *cycles, "simulated cycles per run (model)", 1, kMaxCycles);
  add_uint(cmd, "--rtl-cycles", *rtl_cycles, "simulated cycles per run (rtl, lockstep)", 1, kMaxCycles);
  add_real(cmd, "--rate", *rate, "uniform offered load, flits/node/cycle", 0, 4);
  add_uint(cmd, "--repeat", *repeat, "runs per point; the fastest is shown (the others were disturbed)", 1, 100);
  cmd->add_option("--threads", *threads,
                  "comma-separated thread counts, each a row (a network too small for them uses fewer: the "
                  "threads column)")
      ->capture_default_str();
  runners["bench"] = [=]() {
    const auto topo_list = split_list(*topologies, "--topologies");
    const auto backend_list = split_list(*backends, "--backends");
    for (const auto& t : topo_list) Topology::parse(t);  // every bad name before the first run
    for (const auto& b : backend_list) parse_backend(b);
    std::vector<int> thread_list;
    for (const auto& t : split_list(*threads, "--threads"))
      thread_list.push_back(int(decimal(t, 1, 256, "--threads", "integers 1..256")));
    // Each thread count is one more run of every point.
    check_bench_work(topo_list, backend_list, *cycles, *rtl_cycles, *repeat * thread_list.size());
    fmt::print(
        "wormnet bench: uniform traffic, rate {} flits/node/cycle, 4-flit packets, 2 VCs x 8 flits, "
        "one-port, best of {} runs (wall clock)\n",
        *rate, *repeat);
    fmt::print("{:<12} {:<9} {:>7} {:>9} {:>14} {:>16} {:>16} {:>9} {:>11}\n", "topology", "backend", "threads",
               "cycles", "cycles/s", "ns/router-cycle", "flit-hops/s", "accepted", "peak RSS");
    for (const auto& topo : topo_list) {
      for (const auto& b : backend_list) {
        for (const int nthreads : thread_list) {
          TrafficOptions o;
          o.topology = topo;
          o.net.backend = parse_backend(b);
          o.rate = *rate;
          o.packet_flits = 4;
          o.net.vcs = 2;
          o.net.buf = 8;
          o.warmup = 0;
          o.cycles = o.net.backend == Backend::Model ? *cycles : *rtl_cycles;
          o.drain = 1;
          o.watchdog = 0;
          o.net.threads = nthreads;
          std::vector<SweepPoint> runs(
              *repeat, SweepPoint{topo + " " + b, [o] {
                                    const TrafficResult r = run_traffic(o);
                                    rusage ru{};
                                    getrusage(RUSAGE_SELF, &ru);
                                    return nlohmann::json{{"cycles", r.cycles_simulated}, {"wall", r.wall_seconds},
                                                          {"hops", r.flit_hops},          {"accepted", r.accepted},
                                                          {"rss_kb", ru.ru_maxrss},       {"ok", r.ok},
                                                          {"threads", r.threads}};
                                  }});
          nlohmann::json j;
          for (const auto& x : run_sweep(runs, nullptr))
            if (j.is_null() || x["wall"].get<double>() < j["wall"].get<double>()) j = x;
          const double wall = j["wall"].get<double>();
          const double cps = wall > 0 ? j["cycles"].get<double>() / wall : 0;
          const double hps = wall > 0 ? j["hops"].get<double>() / wall : 0;
          // The cost of one router for one cycle, whatever the network's size.
          const double ns = cps > 0 ? 1e9 / (cps * double(Topology::parse(topo).nodes())) : 0;
          fmt::print("{:<12} {:<9} {:>7} {:>9} {:>14.0f} {:>16.1f} {:>16.0f} {:>9.3f} {:>8.1f} MB{}\n", topo, b,
                     j["threads"].get<int>(), j["cycles"].get<uint64_t>(), cps, ns, hps, j["accepted"].get<double>(),
                     j["rss_kb"].get<double>() / 1024.0, j["ok"].get<bool>() ? "" : "  (CHECK FAILED)");
          std::fflush(stdout);
        }
      }
    }
    return 0;
  };
}

}  // namespace wn::cli
