// `wormnet bench`: simulation speed on fixed reference workloads (BookSim's
// reference configuration first), for each backend. A benchmark prints
// figures; no test asserts on wall-clock time.
#include <fmt/format.h>
#include <sys/resource.h>


#include "app/commands.h"
#include "app/options.h"
#include "systemc/core/config_error.h"
#include "experiments/sweep.h"
#include "experiments/traffic_run.h"

namespace wn::cli {

void add_bench_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners) {
  auto* cmd = app.add_subcommand("bench", "simulated cycles/s and flit-hops/s on reference workloads");
  auto topologies = std::make_shared<std::string>("mesh:8x8,torus:8x8,mesh:4x4x4,cube:6,cube:10,mesh:32x32");
  auto backends = std::make_shared<std::string>("model,rtl");
  auto cycles = std::make_shared<uint64_t>(20000);
  auto rtl_cycles = std::make_shared<uint64_t>(4000);
  auto rate = std::make_shared<double>(0.2);
  auto repeat = std::make_shared<uint64_t>(3);
  cmd->add_option("--topologies", *topologies, "comma-separated topologies")->capture_default_str();
  cmd->add_option("--backends", *backends, "comma-separated backends")->capture_default_str();
  add_uint(cmd, "--cycles", *cycles, "simulated cycles per run (model)", 1, kMaxCycles);
  add_uint(cmd, "--rtl-cycles", *rtl_cycles, "simulated cycles per run (rtl, lockstep)", 1, kMaxCycles);
  add_real(cmd, "--rate", *rate, "uniform offered load, flits/node/cycle", 0, 4);
  add_uint(cmd, "--repeat", *repeat, "runs per point; the fastest is shown (the others were disturbed)", 1, 100);
  runners["bench"] = [=]() {
    const auto topo_list = split_list(*topologies, "--topologies");
    const auto backend_list = split_list(*backends, "--backends");
    for (const auto& t : topo_list) Topology::parse(t);  // every bad name before the first run
    for (const auto& b : backend_list) parse_backend(b);
    fmt::print("wormnet bench: uniform traffic, rate {} flits/node/cycle, 4-flit packets, 2 VCs x 8 flits, "
               "one-port, single thread, best of {} runs\n",
               *rate, *repeat);
    fmt::print("{:<12} {:<9} {:>9} {:>14} {:>16} {:>9} {:>11}\n", "topology", "backend", "cycles", "cycles/s",
               "flit-hops/s", "accepted", "peak RSS");
    for (const auto& topo : topo_list) {
      for (const auto& b : backend_list) {
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
        std::vector<SweepPoint> runs(*repeat, SweepPoint{topo + " " + b, [o] {
                                                 const TrafficResult r = run_traffic(o);
                                                 rusage ru{};
                                                 getrusage(RUSAGE_SELF, &ru);
                                                 return nlohmann::json{{"cycles", r.cycles_simulated},
                                                                       {"wall", r.wall_seconds},
                                                                       {"hops", r.flit_hops},
                                                                       {"accepted", r.accepted},
                                                                       {"rss_kb", ru.ru_maxrss},
                                                                       {"ok", r.ok}};
                                               }});
        nlohmann::json j;
        for (const auto& x : run_sweep(runs, nullptr))
          if (j.is_null() || x["wall"].get<double>() < j["wall"].get<double>()) j = x;
        const double wall = j["wall"].get<double>();
        const double cps = wall > 0 ? j["cycles"].get<double>() / wall : 0;
        const double hps = wall > 0 ? j["hops"].get<double>() / wall : 0;
        fmt::print("{:<12} {:<9} {:>9} {:>14.0f} {:>16.0f} {:>9.3f} {:>8.1f} MB{}\n", topo, b,
                   j["cycles"].get<uint64_t>(), cps, hps, j["accepted"].get<double>(),
                   j["rss_kb"].get<double>() / 1024.0, j["ok"].get<bool>() ? "" : "  (CHECK FAILED)");
        std::fflush(stdout);
      }
    }
    return 0;
  };
}

}  // namespace wn::cli
