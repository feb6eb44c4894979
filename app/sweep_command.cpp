// `wormnet sweep`: the same traffic for several port models and loads, side
// by side (each point is its own co-simulation, run in a forked child).
#include <fmt/format.h>

#include <sstream>

#include "app/commands.h"
#include "app/options.h"
#include "systemc/core/config_error.h"
#include "experiments/report_file.h"
#include "experiments/sweep.h"
#include "experiments/traffic_run.h"

namespace wn::cli {

namespace {
// Offered loads: finite numbers 0..packet-flits (run_traffic checks the upper bound per point).
std::vector<double> parse_rates(const std::string& text) {
  std::vector<double> out;
  for (const auto& item : split_list(text, "--rates")) {
    std::string s = item;
    if (const std::string err = real_in(0, 4096)(s); !err.empty()) throw ConfigError("--rates", err);
    out.push_back(std::stod(item));
  }
  return out;
}
}  // namespace

void add_sweep_command(CLI::App& app, std::map<std::string, std::function<int()>>& runners) {
  auto* cmd = app.add_subcommand("sweep", "compare port models over a range of loads (one-port vs all-port table)");
  auto opt = std::make_shared<TrafficOptions>();
  auto ports = std::make_shared<std::string>("one,all");
  auto rates = std::make_shared<std::string>("0.1,0.2,0.3,0.4,0.5");
  auto backend = std::make_shared<std::string>("model");
  auto json = std::make_shared<std::string>();
  opt->cycles = 5000;
  opt->warmup = 1000;
  opt->drain = 1;  // throughput is measured in the window; saturated points are not drained
  add_traffic_options(cmd, *opt, *backend);
  cmd->add_option("--ports", *ports, "comma-separated port models (one, all, K)")->capture_default_str();
  cmd->add_option("--rates", *rates, "comma-separated offered loads, flits/node/cycle")->capture_default_str();
  cmd->add_option("--json", *json, "write all points as JSON");
  runners["sweep"] = [=]() {
    opt->net.backend = parse_backend(*backend);
    const auto port_list = split_list(*ports, "--ports");
    const auto rate_list = parse_rates(*rates);
    check_writable(*json, "--json");
    fmt::print("seed {}\n", opt->seed);
    fmt::print("wormnet sweep  topology={} pattern={} packet-flits={} vcs={} buf={} backend={} window={} cycles\n",
               opt->topology, opt->pattern, opt->packet_flits, opt->net.vcs, opt->net.buf, *backend, opt->cycles);
    fmt::print("{:>8}", "offered");
    for (const auto& p : port_list) fmt::print(" | {:>9} {:>9} {:>9}", p + "-port", "latency", "total");
    fmt::print("\n{:>8}", "");
    for (size_t i = 0; i < port_list.size(); ++i) fmt::print(" | {:>9} {:>9} {:>9}", "accepted", "network", "latency");
    fmt::print("\n");
    std::vector<SweepPoint> points;
    for (double rate : rate_list)
      for (const auto& p : port_list) {
        TrafficOptions o = *opt;
        o.ports = p;
        o.rate = rate;
        points.push_back({fmt::format("rate {} ports {}", rate, p), [o] { return run_traffic(o).to_json(); }});
      }
    bool ok = true;
    const auto all = run_sweep(points, [&](size_t i, const nlohmann::json& j) {
      const size_t port = i % port_list.size();
      if (port == 0) fmt::print("{:>8.3f}", rate_list[i / port_list.size()]);
      ok = ok && j["ok"].get<bool>();
      fmt::print(" | {:>9.4f} {:>9.1f} {:>9.1f}", j["throughput"]["accepted"].get<double>(),
                 j["network_latency"]["avg"].get<double>(), j["total_latency"]["avg"].get<double>());
      if (port + 1 == port_list.size()) fmt::print("\n");
      std::fflush(stdout);
    });
    fmt::print("(accepted: flits/node/cycle in the window; latencies: average cycles of packets created in the "
               "window and delivered)\n");
    write_json_report(*json, {{"schema", "wormnet.sweep/1"}, {"points", all}});
    return ok ? 0 : 1;
  };
}

}  // namespace wn::cli
